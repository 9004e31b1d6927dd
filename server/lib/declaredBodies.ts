/**
 * Body schemas and input cleaning from a field declaration (src/schema/companies.ts, users.ts).
 * Every declared field is optional and nullable in the schema: which fields a record needs depends on
 * its role and on whether it is new, so routes check that on the merged record and answer 422
 * `validation.required` per field. Types, lengths, formats, options and money bounds are the schema's.
 */
export interface DeclaredField {
  type: string;
  maxLength?: number;
  min?: number;
  max?: number;
  options?: ReadonlyArray<string | number>;
}

const TEXT_MAX = 255;
export const DECIMAL_RE = /^[0-9]{1,6}(\.[0-9]{1,6})?$/;

export function declaredSchema(f: DeclaredField): Record<string, unknown> {
  let s: Record<string, unknown>;
  switch (f.type) {
    case 'email':
      s = { type: 'string', format: 'email', maxLength: f.maxLength ?? 254 };
      break;
    case 'password':
      s = { type: 'string', maxLength: 1024 };
      break;
    case 'reference':
      s = { type: 'integer', minimum: 1 };
      break;
    case 'flag':
      s = { type: 'integer', enum: [0, 1] };
      break;
    case 'select': {
      const values = [...(f.options ?? [])];
      s = { type: values.every((v) => typeof v === 'number') ? 'integer' : 'string', enum: values };
      break;
    }
    case 'money':
      s = { type: 'number', minimum: f.min ?? 0, ...(f.max !== undefined ? { maximum: f.max } : {}) };
      break;
    case 'decimal':
      // Exact decimal text (a JSON number is turned into its text); bounds are checked by the route.
      s = { type: 'string', pattern: DECIMAL_RE.source, maxLength: 14 };
      break;
    case 'image':
      // A multipart file part (made by plugins/forms.ts), or the stored URL sent back unchanged.
      return { description: 'PNG, JPEG or WebP image, as a multipart file part' };
    default:
      s = { type: 'string', maxLength: f.maxLength ?? TEXT_MAX };
  }
  s.type = [s.type as string, 'null'];
  if (s.enum) s.enum = [...(s.enum as unknown[]), null];
  return s;
}

/** `{type: 'object', additionalProperties: false, properties}` over the named fields of a declaration. */
export function declaredBody(decl: Record<string, DeclaredField>, names: readonly string[]) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(names.map((n) => [n, declaredSchema(decl[n])])),
  } as const;
}

/**
 * Cleans a body before validation (forms and multipart send text): text is trimmed, blank becomes null,
 * a decimal comma becomes a dot ("12,5"), numbers meant as decimal text become text, emails lower case.
 */
export function cleanBody(decl: Record<string, DeclaredField>, body: unknown) {
  if (!body || typeof body !== 'object') return;
  const b = body as Record<string, unknown>;
  for (const [name, f] of Object.entries(decl)) {
    if (!(name in b)) continue;
    let v = b[name];
    if (typeof v === 'string' && f.type !== 'password') v = v.trim();
    if (v === '') v = null;
    if (f.type === 'decimal' && typeof v === 'number' && Number.isFinite(v)) v = String(v);
    if (f.type === 'decimal' && typeof v === 'string') v = v.replace(',', '.');
    if ((f.type === 'money') && typeof v === 'string') v = v.replace(',', '.');
    if (f.type === 'email' && typeof v === 'string') v = v.toLowerCase();
    if (f.type === 'flag' && typeof v === 'boolean') v = v ? 1 : 0;
    b[name] = v;
  }
}

/** "10.50" → "10.5", "007" → "7": one spelling per value. */
export function normalDecimal(v: string): string {
  const [i, d = ''] = v.split('.');
  const int = i.replace(/^0+(?=\d)/, '');
  const frac = d.replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** A web address with a scheme ("acme.it" → "https://acme.it"), or null when it is not one. */
export function normalUrl(v: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`;
  try {
    const u = new URL(withScheme);
    if (!['http:', 'https:'].includes(u.protocol) || !u.hostname.includes('.')) return null;
    return withScheme;
  } catch {
    return null;
  }
}
