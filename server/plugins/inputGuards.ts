import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError, type FieldErrors } from '../lib/errors.js';
import { hasInvisible, INVISIBLE_RANGES, mayHaveInvisible } from '../lib/invisibleText.js';

/**
 * Guards every route's input against what its JSON schema lets through but the databases refuse (each
 * found by the malformed-input test, tests/api/malformedInput.test.ts, as a 500):
 *
 * - Integers past 32 bits. Every id and integer column is a 32-bit `integer` on PostgreSQL, which
 *   answers "out of range" to `where id = 2147483648`. An integer field whose schema gives no bound
 *   gets the 32-bit one when its route registers (so the OpenAPI document shows it too) and a larger
 *   value is a 422 like any other bound.
 * - ±Infinity. AJV's type coercion turns text such as `1e400` (a query string, a path parameter, a
 *   multipart field) into ±Infinity and then skips the type and bound checks of the converted value.
 *   JSON cannot carry such a number, so it can only come from that coercion: refused after validation.
 * - U+0000 in text. PostgreSQL text cannot hold it ("invalid byte sequence"), in a search term as in a
 *   stored value; no field of the portal has a use for it: refused after validation (the chat, which
 *   drops control characters from its messages itself, says so with `dropsControlCharacters`).
 * - Invisible characters in a body's text (issue 31, lib/invisibleText.ts): zero-width characters and
 *   direction marks, embeddings, overrides and isolates (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069, and
 *   U+2060–U+2064, U+061C, U+FEFF), which can disguise a name in lists, exports and PDFs. Every text of every
 *   body is checked here, so every name, reference, note and declared text field is covered, also fields
 *   added later; each field holding one gets its own 422 message, and nothing is stored. Refused rather than
 *   stripped: a stripped name would be stored other than the person typed and saw, without a word, and
 *   a refusal names the field to clean. Not checked: passwords (any field whose name has `passw`), which are
 *   never shown and must keep signing in whatever they hold; a query string (a search term is not stored);
 *   the chat's messages and subjects (`dropsControlCharacters`), free conversation pasted from anywhere,
 *   which its handler strips (lib/chat.ts cleanText). An emoji's joiner (U+200D between two pictographs)
 *   is allowed everywhere.
 */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;

type JsonSchema = Record<string, unknown>;

/** Gives every integer of a schema without bounds the 32-bit ones (in place; the schemas are plain objects). */
export function boundIntegers(schema: unknown, seen = new Set<unknown>()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const s = schema as JsonSchema;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer') && !Array.isArray(s.enum)) {
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = INT32_MAX;
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = INT32_MIN;
  }
  for (const v of Object.values(s)) {
    if (Array.isArray(v)) for (const item of v) boundIntegers(item, seen);
    else boundIntegers(v, seen);
  }
}

/**
 * The path (`pallets.0.weight`) of the first value that `bad` picks out, or null. Every request walks
 * its whole input here, so the walk allocates nothing until it finds something (issue 11's quote budget).
 */
function findValue(value: unknown, bad: (v: unknown) => boolean, depth = 0): string[] | null {
  if (bad(value)) return [];
  if (depth > 32 || !value || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findValue(value[i], bad, depth + 1);
      if (found) return (found.unshift(String(i)), found);
    }
    return null;
  }
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const found = findValue((value as Record<string, unknown>)[k], bad, depth + 1);
    if (found) return (found.unshift(k), found);
  }
  return null;
}

const nonFinite = (v: unknown) => typeof v === 'number' && !Number.isFinite(v);
const hasNul = (v: unknown) => typeof v === 'string' && v.includes('\u0000');
const maybeInvisible = (v: unknown) => typeof v === 'string' && mayHaveInvisible(v);
const anyBad = (v: unknown) => nonFinite(v) || hasNul(v) || maybeInvisible(v);

/** A field whose text is a password: never shown, compared only; left as it is. */
const PASSWORD_FIELD = /passw/i;

/** The paths of every text holding an invisible character (lib/invisibleText.ts), passwords aside. */
function invisiblePaths(value: unknown, path: string[] = [], out: string[][] = [], depth = 0): string[][] {
  if (typeof value === 'string') {
    if (hasInvisible(value)) out.push(path);
    return out;
  }
  if (depth > 32 || !value || typeof value !== 'object' || Buffer.isBuffer(value)) return out;
  if (Array.isArray(value)) value.forEach((v, i) => invisiblePaths(v, [...path, String(i)], out, depth + 1));
  else for (const [k, v] of Object.entries(value)) if (!PASSWORD_FIELD.test(k)) invisiblePaths(v, [...path, k], out, depth + 1);
  return out;
}

function refuse(paths: string[][], key: string, params: Record<string, unknown> = {}): never {
  const errors: FieldErrors = {};
  for (const path of paths) {
    const field = path.join('.') || 'body';
    const leaf = path.filter((p) => !/^\d+$/.test(p)).pop() ?? field;
    errors[field] = [{ key, params: { field: leaf, ...params } }];
  }
  throw new ApiError(422, 'errors.validation', undefined, errors);
}

async function inputGuards(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as JsonSchema | undefined;
    if (schema) for (const part of ['body', 'querystring', 'params']) boundIntegers(schema[part]);
  });

  app.addHook('preHandler', async (req) => {
    const chat = req.routeOptions.config?.dropsControlCharacters;
    for (const part of [req.params, req.query, req.body]) {
      if (!findValue(part, anyBad)) continue; // the usual case: one walk finds nothing
      const infinite = findValue(part, nonFinite);
      if (infinite) refuse([infinite], 'validation.type', { type: req.t('type.number') });
      const nul = chat ? null : findValue(part, hasNul);
      if (nul) refuse([nul], 'validation.invalid');
      const invisible = chat || part !== req.body ? [] : invisiblePaths(part);
      if (invisible.length) refuse(invisible, 'validation.invisibleCharacters', { ranges: INVISIBLE_RANGES });
    }
  });
}

export default fp(inputGuards, { name: 'inputGuards' });
