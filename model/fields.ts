/**
 * A resource's fields, declared once and read by the browser (inputs, validators, list columns) and by
 * the server (the JSON schemas of its store and update bodies). Plain TypeScript: no React, no server
 * imports, so both sides can load it.
 *
 *   export const currencyFields = defineFields({
 *     name: { type: 'text', required: true, maxLength: 100 },
 *     code_alpha: { type: 'text', required: true, maxLength: 3, unique: true },
 *     active: { type: 'flag', default: '0' },
 *     created_at: { type: 'date', readOnly: true, list: 'hidden' },
 *   });
 */
import { IMAGE_TYPES, MULTIPART_FILE_MAX, filePart } from './fileParts.js';

export type FieldType =
  'text' | 'email' | 'integer' | 'decimal' | 'money' | 'boolean' | 'flag' | 'date' | 'month' | 'select' | 'reference' | 'image' | 'file' | 'password' | 'url';

export type Choice = { id: string | number; name: string };

export interface FieldDef {
  type: FieldType;
  /** Must be present and not blank (on store and on update). */
  required?: boolean;
  /** Numbers (integer, decimal, money): bounds, inclusive. */
  min?: number;
  max?: number;
  /** Both bounds strict (a price > 0, a percentage strictly between 0 and 100). */
  exclusive?: boolean;
  /** Decimals: at most this many digits after the point (exact decimal text). */
  scale?: number;
  /** Text lengths (text, email, url, password); text defaults to at most 255 characters. */
  minLength?: number;
  maxLength?: number;
  /** A regular expression the value must match (text only). */
  pattern?: string;
  /** Choices of a select: values, or `{id, name}` where `name` is a message key or a label. */
  options?: ReadonlyArray<string | number | Choice>;
  /**
   * A reference: the react-admin resource (or a lookup path) whose rows are picked, and the column shown.
   * In a generated resource (issue 34) `resource` names a declared resource: the server checks the id on
   * store, update and import (422 naming the field), and list, show and export carry the referenced row's
   * `optionText` beside the id under `referenceTextKey(field)` (`country_id` → `country_name`) — or, when
   * the referenced resource has text fields named after the languages (LANGS: `it`, `en`, `fr`), its name in
   * the caller's language, `optionText` where that is empty; an import's cell may name the row by any of
   * them (server/lib/declaredScope.ts `languageColumns`).
   */
  reference?: { resource: string; optionText: string; lookup?: string };
  /**
   * A filter in the list and a query parameter of the list and export routes (issue 34): select, reference,
   * flag and boolean take one value (`?kind=ramp`); date, month, integer, decimal and money a range,
   * `?<field>_from=` and `?<field>_to=`, both inclusive.
   */
  filter?: boolean;
  /** Value stored when a new record omits the field. */
  default?: string | number | boolean | null;
  /** The server answers 422 `validation.unique` for a value another row already has (checked by the route). */
  unique?: boolean;
  /** Shown in lists (default true), a hidden column the user can reveal ('hidden'), or never (false). */
  list?: boolean | 'hidden';
  /** Set by the server, never sent (id, created_at): no input, not in the body schemas. */
  readOnly?: boolean;
  /** Left out of the edit form (and of the update body). */
  createOnly?: boolean;
  /** Upload size limit in bytes (image, file). */
  maxSize?: number;
  /** Accepted file extensions or MIME types (file). */
  accept?: string;
  /** Text stored in upper case (codes): the input and the server both convert. */
  upperCase?: boolean;
  /** Shown full width in forms (long texts). */
  multiline?: boolean;
}

export type FieldsDecl = Record<string, FieldDef>;

/** The answer key of a reference's display text: `country_id` → `country_name`, `vehicle` → `vehicle_name`. */
export const referenceTextKey = (field: string) => `${field.replace(/_id$/, '')}_name`;

/** A filter that takes a range (`_from`/`_to`) rather than one value. */
export const isRangeFilter = (f: FieldDef) => ['date', 'month', 'integer', 'decimal', 'money'].includes(f.type);

/** Identity, for type inference of a declaration. */
export const defineFields = <T extends FieldsDecl>(fields: T): T => fields;

/** The password rule of server.md §3: 8 to 128 characters with letters and digits. */
export const PASSWORD_RULE = { minLength: 8, maxLength: 128, pattern: '^(?=.*[A-Za-z])(?=.*[0-9]).*$' } as const;
/** Exact decimal text: digits, an optional dot and decimals, an optional minus. */
export const DECIMAL_PATTERN = '^-?[0-9]+(\\.[0-9]+)?$';
/** A calendar month, `YYYY-MM`. */
export const MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';
/** Exact decimal text with at most `scale` decimals. */
export const decimalPattern = (scale?: number) => (scale === undefined ? DECIMAL_PATTERN : `^-?[0-9]+(\\.[0-9]{1,${scale}})?$`);
export const TEXT_MAX = 255;

export const choiceOf = (o: string | number | Choice): Choice => (typeof o === 'object' ? o : { id: o, name: String(o) });

/** The fields a form edits (no read-only ones). */
export const inputFields = (decl: FieldsDecl, mode: 'create' | 'edit') =>
  Object.entries(decl).filter(([, f]) => !f.readOnly && !(mode === 'edit' && f.createOnly));

/** The columns of a list, with whether each starts hidden. */
export const listColumns = (decl: FieldsDecl) =>
  Object.entries(decl)
    .filter(([, f]) => f.list !== false)
    .map(([name, f]) => ({ name, field: f, hidden: f.list === 'hidden' }));

/** The default values of a new record. */
export const defaultsOf = (decl: FieldsDecl) =>
  Object.fromEntries(
    Object.entries(decl)
      .filter(([, f]) => f.default !== undefined && !f.readOnly)
      .map(([k, f]) => [k, f.default]),
  );

// ---- JSON schemas (server) ------------------------------------------------------------------------

type JsonSchema = Record<string, unknown>;

/** The JSON schema of one field's value. Optional fields also take null. */
export function fieldSchema(f: FieldDef, { withDefault }: { withDefault: boolean }): JsonSchema {
  let s: JsonSchema;
  switch (f.type) {
    case 'text':
      s = { type: 'string', maxLength: f.maxLength ?? TEXT_MAX };
      if (f.minLength !== undefined || f.required) s.minLength = f.minLength ?? 1;
      if (f.pattern) s.pattern = f.pattern;
      break;
    case 'email':
      s = { type: 'string', format: 'email', maxLength: f.maxLength ?? 254 };
      break;
    case 'url':
      s = { type: 'string', format: 'uri', maxLength: f.maxLength ?? TEXT_MAX };
      break;
    case 'password':
      s = { type: 'string', ...PASSWORD_RULE };
      break;
    case 'integer':
    case 'reference':
      s = { type: 'integer' };
      if (f.type === 'reference') s.minimum = 1;
      break;
    case 'money':
      s = { type: 'number' };
      break;
    case 'decimal':
      // Exact decimal text; bounds are checked by `checkBounds` (a string has no minimum in JSON schema).
      s = { type: 'string', pattern: decimalPattern(f.scale), maxLength: 32 };
      break;
    case 'month':
      s = { type: 'string', pattern: MONTH_PATTERN, maxLength: 7 };
      break;
    case 'boolean':
      s = { type: 'boolean' };
      break;
    case 'flag':
      s = { type: 'string', enum: ['0', '1'] };
      break;
    case 'date':
      s = { type: 'string', format: 'date' };
      break;
    case 'select': {
      const values = (f.options ?? []).map((o) => choiceOf(o).id);
      s = { type: values.every((v) => typeof v === 'number') ? 'integer' : 'string', enum: values };
      break;
    }
    case 'image':
    case 'file':
      // A multipart file part (an object made by the forms plugin), or the stored name sent back unchanged;
      // in the OpenAPI document a binary part (model/fileParts.ts).
      s = filePart({
        what: f.type === 'image' ? 'A PNG, JPEG or WebP image' : 'A file',
        types: f.type === 'image' ? IMAGE_TYPES : ['application/octet-stream'],
        maxBytes: f.maxSize ?? MULTIPART_FILE_MAX,
        orStoredName: true,
      });
      break;
  }
  if ((f.type === 'integer' || f.type === 'money') && f.min !== undefined) s.minimum = f.min;
  if ((f.type === 'integer' || f.type === 'money') && f.max !== undefined) s.maximum = f.max;
  if (withDefault && f.default !== undefined) s.default = f.default;
  if (!f.required && s.type) {
    s.type = [s.type as string, 'null'];
    if (s.enum) s.enum = [...(s.enum as unknown[]), null];
  }
  return s;
}

/**
 * The Fastify body schemas of a declaration: `store` (required fields required, defaults filled in)
 * and `update` (the same checks, no defaults, so an update never resets a field it does not send;
 * `partialUpdate` makes every field optional). Extra fields are dropped (additionalProperties false).
 */
export function bodySchemas(decl: FieldsDecl, opts: { partialUpdate?: boolean } = {}) {
  const store: Record<string, JsonSchema> = {};
  const update: Record<string, JsonSchema> = {};
  for (const [name, f] of Object.entries(decl)) {
    if (f.readOnly) continue;
    store[name] = fieldSchema(f, { withDefault: true });
    if (!f.createOnly) update[name] = fieldSchema(f, { withDefault: false });
  }
  const required = (keys: string[]) => keys.filter((k) => decl[k].required);
  return {
    store: { type: 'object', additionalProperties: false, required: required(Object.keys(store)), properties: store },
    update: {
      type: 'object',
      additionalProperties: false,
      required: opts.partialUpdate ? [] : required(Object.keys(update)),
      properties: update,
    },
  };
}

/**
 * Cleans a body before validation (browser forms and multipart send text): strings are trimmed; an
 * empty string becomes null for an optional field and is removed for a required one (so `required`
 * reports it); numbers in text stay for the schema to coerce. Mutates and answers the body.
 */
export function normalizeBody(decl: FieldsDecl, input: object) {
  const body = input as Record<string, unknown>;
  for (const [name, f] of Object.entries(decl)) {
    if (!(name in body)) continue;
    let v = body[name];
    if (typeof v === 'string' && f.type !== 'password') v = v.trim();
    if (typeof v === 'string' && f.upperCase) v = v.toUpperCase();
    if (f.type === 'email' && typeof v === 'string') v = v.toLowerCase();
    if (f.type === 'flag' && typeof v === 'boolean') v = v ? '1' : '0';
    if (f.type === 'boolean' && (v === '1' || v === '0' || v === 'true' || v === 'false')) v = v === '1' || v === 'true';
    // Decimals travel as exact text: a number from a form becomes its text, a decimal comma a point.
    if (f.type === 'decimal' && typeof v === 'number' && Number.isFinite(v)) v = String(v);
    if (f.type === 'decimal' && typeof v === 'string') v = v.replace(',', '.');
    if (v === '' || (v === null && f.required)) {
      if (f.required) delete body[name];
      else body[name] = null;
      continue;
    }
    body[name] = v;
  }
  return body;
}

/** Bounds a JSON schema cannot express (decimal text): answers `{field: {key, params}}` problems. */
export function checkBounds(decl: FieldsDecl, body: Record<string, unknown>) {
  const problems: Record<string, { key: string; params: Record<string, unknown> }> = {};
  for (const [name, f] of Object.entries(decl)) {
    const v = body[name];
    if (f.type !== 'decimal' || v === null || v === undefined) continue;
    const n = Number(v);
    const below = f.min !== undefined && (f.exclusive ? n <= f.min : n < f.min);
    const above = f.max !== undefined && (f.exclusive ? n >= f.max : n > f.max);
    if (below) problems[name] = { key: f.exclusive ? 'validation.exclusiveMinimum' : 'validation.minimum', params: { limit: f.min } };
    else if (above) problems[name] = { key: f.exclusive ? 'validation.exclusiveMaximum' : 'validation.maximum', params: { limit: f.max } };
  }
  return problems;
}

/** The fields of a declaration that must be unique. */
export const uniqueFields = (decl: FieldsDecl) =>
  Object.entries(decl)
    .filter(([, f]) => f.unique)
    .map(([k]) => k);
