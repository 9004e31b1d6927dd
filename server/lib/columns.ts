/**
 * Answer schemas checked by the compiler against the rows they describe (issue 33). `columnsOf<Row>()`
 * takes one schema per property of `Row` — every property, no other one — and each schema says whether
 * it admits null, which must match the property's type (`string | null` needs a nullable schema, `string`
 * a non-null one). A presenter that gains, loses or changes the nullability of a property then fails
 * `tsc` until its schema follows, so the OpenAPI document cannot drift from what the code sends.
 *
 * The schemas themselves are the plain ones of lib/answers.ts, closed like `obj()`; the brand only exists
 * for the compiler.
 */
import { choiceOf, DECIMAL_PATTERN, type FieldDef } from '../../model/fields.js';
import { obj, type JsonSchema } from './answers.js';

declare const nullness: unique symbol;
/** A property schema marked (for the compiler only) as admitting null (`true`) or not (`false`). */
export type Col<N extends boolean> = JsonSchema & { readonly [nullness]: N };

const mark = <N extends boolean>(s: JsonSchema) => s as Col<N>;

/** A schema that never admits null. */
export const col = (s: JsonSchema): Col<false> => mark<false>(s);
/** The same schema, admitting null as well. */
export const orNull = (s: JsonSchema): Col<true> => {
  const t = s.type;
  if (typeof t === 'string' && !s.enum) return mark<true>({ ...s, type: [t, 'null'] });
  if (typeof t === 'string' && Array.isArray(s.enum)) return mark<true>({ ...s, type: [t, 'null'], enum: [...(s.enum as unknown[]), null] });
  return mark<true>({ anyOf: [s, { type: 'null' }] });
};

export const cStr = col({ type: 'string' });
export const cStrN = orNull({ type: 'string' });
export const cInt = col({ type: 'integer' });
export const cIntN = orNull({ type: 'integer' });
export const cNum = col({ type: 'number' });
export const cNumN = orNull({ type: 'number' });
export const cBool = col({ type: 'boolean' });
/** A stored time (ISO 8601 text, as the database keeps it). */
export const cTime = col({ type: 'string', description: 'ISO 8601 time' });
export const cTimeN = orNull({ type: 'string', description: 'ISO 8601 time' });
/** Exact decimal text (percentages, multipliers, fuel prices: never floats). */
export const cDecimalN = orNull({ type: 'string', pattern: DECIMAL_PATTERN, description: 'Exact decimal text' });
/** A stored file as its URL (`/media/<name>`, lib/media.ts), or null when there is none. */
export const cMediaN = orNull({ type: 'string', description: 'URL of the stored image (`/media/<name>`)' });

/**
 * One of a fixed set of values, each explained in the description (`1 = Admin, 2 = Carrier`). Give the
 * constant the code defines (model/roles.ts…), never retyped values.
 */
export function oneOf(meanings: Record<string | number, string> | ReadonlyArray<string | number>, description?: string): Col<false> {
  const entries: Array<[string | number, string | undefined]> = Array.isArray(meanings)
    ? meanings.map((v) => [v, undefined])
    : Object.entries(meanings as Record<string, string>).map(([k, v]) => [Number.isInteger(Number(k)) ? Number(k) : k, v]);
  const values = entries.map(([v]) => v);
  const type = values.every((v) => typeof v === 'number') ? 'integer' : 'string';
  const explained = entries
    .filter(([, m]) => m !== undefined)
    .map(([v, m]) => `${v} = ${m}`)
    .join(', ');
  const text = [description, explained].filter(Boolean).join(': ');
  return col({ type, enum: values, ...(text ? { description: text } : {}) });
}

/** One property schema per key of `T`, its nullability that of `T[K]`. */
export type ColumnsOf<T> = { [K in keyof T]-?: Col<null extends T[K] ? true : false> };

/**
 * `columnsOf<Row>()({...})`: the closed object schema of `Row` (every key required unless listed in
 * `optional`, which must be optional keys of `Row`).
 */
export const columnsOf =
  <T>() =>
  (properties: ColumnsOf<T>, optional: Array<OptionalKeys<T>> = []): JsonSchema =>
    obj(properties as Record<string, JsonSchema>, optional as string[]);

type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K & string : never }[keyof T];

/**
 * The answer schema of a declared field's stored value (model/fields.ts), never null: text kinds are
 * strings, references and integers integers (with the declared bounds), money a number of euros, decimals
 * exact text, a select one of its options, an image or file its URL. Input-only rules (lengths, formats,
 * the scale of a decimal) are left out: an answer carries what is stored, rows older than a rule included.
 */
export function answerOfField(f: FieldDef): JsonSchema {
  switch (f.type) {
    case 'integer':
    case 'reference':
      return {
        type: 'integer',
        ...(f.min !== undefined && !f.exclusive ? { minimum: f.min } : {}),
        ...(f.max !== undefined && !f.exclusive ? { maximum: f.max } : {}),
      };
    case 'money':
      return { type: 'number', description: 'Euros' };
    case 'decimal':
      return { type: 'string', pattern: DECIMAL_PATTERN, description: 'Exact decimal text' };
    case 'boolean':
      return { type: 'boolean' };
    case 'flag':
      return { type: 'string', enum: ['0', '1'] };
    case 'select': {
      const values = (f.options ?? []).map((o) => choiceOf(o).id);
      return { type: values.every((v) => typeof v === 'number') ? 'integer' : 'string', enum: values };
    }
    case 'image':
    case 'file':
      return { type: 'string', description: 'URL of the stored file (`/media/<name>`)' };
    default:
      return { type: 'string' };
  }
}

/**
 * The columns of a declaration's fields, each nullable as `nullable` says. Give `nullable` a type that
 * `NullableOf<Table>` checks (the table's row type, server/db/types.ts), so each key's answer follows its
 * column; `override` replaces the schema of some fields (an enumeration explained).
 */
export function fieldColumns<F extends string, N extends Record<F, boolean>>(
  fields: Record<F, FieldDef>,
  nullable: N,
  override: Partial<Record<F, JsonSchema>> = {},
): { [K in F]: Col<N[K]> } {
  const out = {} as Record<F, JsonSchema>;
  for (const name of Object.keys(fields) as F[]) {
    const s = override[name] ?? answerOfField(fields[name]);
    out[name] = nullable[name] ? orNull(s) : col(s);
  }
  return out as { [K in F]: Col<N[K]> };
}

/** `{column: true}` for each nullable column of a row type, `false` for the others: checked by the compiler. */
export type NullableOf<T> = { [K in keyof T]-?: null extends T[K] ? true : false };

/** The same column schema with a description. */
export const described = <N extends boolean>(c: Col<N>, description: string): Col<N> => ({ ...c, description }) as Col<N>;
