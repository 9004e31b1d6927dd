import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError, type FieldErrors } from '../lib/errors.js';

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
const eitherBad = (v: unknown) => nonFinite(v) || hasNul(v);

function refuse(path: string[], key: string, params: Record<string, unknown> = {}): never {
  const field = path.join('.') || 'body';
  const leaf = path.filter((p) => !/^\d+$/.test(p)).pop() ?? field;
  const errors: FieldErrors = { [field]: [{ key, params: { field: leaf, ...params } }] };
  throw new ApiError(422, 'errors.validation', undefined, errors);
}

async function inputGuards(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as JsonSchema | undefined;
    if (schema) for (const part of ['body', 'querystring', 'params']) boundIntegers(schema[part]);
  });

  app.addHook('preHandler', async (req) => {
    for (const part of [req.params, req.query, req.body]) {
      if (!findValue(part, eitherBad)) continue; // the usual case: one walk finds nothing
      const infinite = findValue(part, nonFinite);
      if (infinite) refuse(infinite, 'validation.type', { type: req.t('type.number') });
      const nul = req.routeOptions.config?.dropsControlCharacters ? null : findValue(part, hasNul);
      if (nul) refuse(nul, 'validation.invalid');
    }
  });
}

export default fp(inputGuards, { name: 'inputGuards' });
