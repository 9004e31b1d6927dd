import { fieldSchema, type FieldDef } from '../../model/fields.js';

/**
 * Body schemas and input cleaning for declarations whose requirements depend on the record (a
 * company's on its role, a user's password on create only): every declared field is optional and
 * nullable in the schema, and the routes check what the merged record needs, answering 422
 * `validation.required` per field (also for a required field sent blank on update, which the shared
 * `normalizeBody` would quietly drop). Types, lengths, formats, options and money bounds are the
 * shared helper's (`fieldSchema`); passwords are checked by the route, with the rule's own message.
 */
export const DECIMAL_RE = /^-?[0-9]{1,6}(\.[0-9]{1,6})?$/;

export function declaredSchema(f: FieldDef): Record<string, unknown> {
  if (f.type === 'password') return { type: ['string', 'null'], maxLength: 1024 };
  return fieldSchema({ ...f, required: false, default: undefined }, { withDefault: false });
}

/**
 * `{type: 'object', additionalProperties: false, properties}` over the named fields of a declaration. A create
 * body passes `conditions`, the rule of each field required only in some cases, written into its description
 * ("Required when …"); the fields required in every case are the route's `config.bodyRequired` (issue 33).
 */
export function declaredBody(decl: Record<string, FieldDef>, names: readonly string[], opts: { conditions?: Record<string, string> } = {}) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      names.map((n) => {
        const s = declaredSchema(decl[n]);
        const when = opts.conditions?.[n];
        return [n, when ? { ...s, description: [s.description, when].filter(Boolean).join(' ') } : s];
      }),
    ),
  } as const;
}

/**
 * Cleans a body before validation (forms and multipart send text): text is trimmed, blank becomes null,
 * a decimal comma becomes a dot ("12,5"), numbers meant as decimal text become text, emails lower case.
 */
export function cleanBody(decl: Record<string, FieldDef>, body: unknown) {
  if (!body || typeof body !== 'object') return;
  const b = body as Record<string, unknown>;
  for (const [name, f] of Object.entries(decl)) {
    if (!(name in b)) continue;
    let v = b[name];
    if (typeof v === 'string' && f.type !== 'password') v = v.trim();
    if (v === '') v = null;
    if (f.type === 'decimal' && typeof v === 'number' && Number.isFinite(v)) v = String(v);
    if (f.type === 'decimal' && typeof v === 'string') v = v.replace(',', '.');
    if (f.type === 'money' && typeof v === 'string') v = v.replace(',', '.');
    if (f.type === 'email' && typeof v === 'string') v = v.toLowerCase();
    if (f.type === 'integer' && typeof v === 'boolean') v = v ? 1 : 0;
    if (f.type === 'url' && typeof v === 'string' && v) v = normalUrl(v);
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

/** A web address with a scheme: "acme.it" → "https://acme.it" (the schema's `uri` format checks the rest). */
export function normalUrl(v: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`;
}
