/**
 * Walks the 2xx answers of an OpenAPI document (issue 33): every object schema in them must say which
 * properties it has (`additionalProperties: false`), or be a declared map (`additionalProperties` a schema
 * of its values, `properties` absent). `openObjects` lists those that do not, as `operation` + a path
 * into the answer (`200.data[].shipment`).
 */
type Schema = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export interface OpenObject {
  operation: string;
  where: string;
}

export function openObjects(doc: Record<string, unknown>): OpenObject[] {
  const components = ((doc.components as Schema | undefined)?.schemas ?? {}) as Record<string, Schema>;
  const found: OpenObject[] = [];
  const walk = (s: unknown, operation: string, where: string, refs: Set<string>) => {
    if (!s || typeof s !== 'object') return;
    const schema = s as Schema;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
      if (refs.has(name) || !components[name]) return;
      walk(components[name], operation, `${where}<${name}>`, new Set([...refs, name]));
      return;
    }
    const types = ([] as unknown[]).concat(schema.type ?? []);
    const isObject = types.includes('object') || !!schema.properties;
    if (isObject) {
      const extra = schema.additionalProperties;
      const isMap = !!extra && typeof extra === 'object' && Object.keys(extra).length > 0 && !schema.properties;
      if (extra !== false && !isMap) found.push({ operation, where });
    }
    for (const k of ['anyOf', 'oneOf', 'allOf']) {
      const parts = schema[k];
      if (Array.isArray(parts)) parts.forEach((p, i) => walk(p, operation, `${where}/${k}${i}`, refs));
    }
    if (schema.items) walk(schema.items, operation, `${where}[]`, refs);
    if (schema.properties) for (const [k, v] of Object.entries(schema.properties as Schema)) walk(v, operation, `${where}.${k}`, refs);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, operation, `${where}{}`, refs);
  };
  for (const [url, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const [code, answer] of Object.entries((op.responses ?? {}) as Record<string, Schema>)) {
        if (!/^2/.test(code)) continue;
        for (const media of Object.values((answer.content ?? {}) as Record<string, Schema>))
          walk(media.schema, `${method.toUpperCase()} ${url}`, code, new Set());
      }
    }
  }
  return found;
}
