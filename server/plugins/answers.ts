import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fp from 'fastify-plugin';
import AjvModule, { type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import fastJsonModule from 'fast-json-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUSES, ErrorBody, errorRef, sharedSchemaOf, sharedSchemas } from '../lib/answers.js';
import { API_PREFIX } from './session.js';

type JsonSchema = Record<string, unknown>;

/** `GET /api/v1/admin/currencies/show/:id` → `adminCurrenciesShow` (path words camel-cased, parameters dropped). */
export function operationIdOf(url: string) {
  const words = url
    .slice(API_PREFIX.length)
    .split(/[/_-]+/)
    .filter((w) => w && !w.startsWith(':'));
  return words.map((w, i) => (i === 0 ? w[0].toLowerCase() : w[0].toUpperCase()) + w.slice(1)).join('');
}

const is2xx = (code: string) => /^2(\d\d|xx)$/.test(code);

// CommonJS seen through ESM: the function may sit on `.default`.
const fastJson = (fastJsonModule as unknown as { default?: typeof fastJsonModule }).default ?? fastJsonModule;
const stringify = (data: unknown) => JSON.stringify(data);

/**
 * Why a schema cannot be given to fast-json-stringify without changing some answer (undefined: it can).
 * fast-json-stringify writes only the declared properties and converts each value to its declared type;
 * for an answer that matches a *closed* schema (every object `additionalProperties: false`, or a map whose
 * values have one schema) that is exactly JSON.stringify's output (the keys in the schema's order). So:
 * every object closed, no `oneOf` (it picks a branch by validating each with AJV at run time: slow, and
 * ambiguous), `anyOf` only as "X or null", no `allOf`/`if`/`not`/`patternProperties`.
 */
export function openness(schema: JsonSchema, at = '#'): string | undefined {
  const ref = sharedSchemaOf(schema);
  if (ref) return openness(ref, at);
  if (typeof schema.$ref === 'string') return `${at}: $ref ${schema.$ref} is not a shared schema`;
  for (const k of ['oneOf', 'allOf', 'if', 'not', 'patternProperties']) if (k in schema) return `${at}: ${k}`;
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    const other = branches.filter((b) => b.type !== 'null');
    if (branches.length !== 2 || other.length !== 1) return `${at}: anyOf other than "X or null"`;
    return openness(other[0]!, `${at}/anyOf`);
  }
  const types = [schema.type].flat();
  if (types.includes('object')) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const extra = schema.additionalProperties;
    if (extra !== false && !(typeof extra === 'object' && extra && Object.keys(props).length === 0))
      return `${at}: an object not closed (additionalProperties: false)`;
    for (const [k, v] of Object.entries(props)) {
      const why = openness(v, `${at}/${k}`);
      if (why) return why;
    }
    if (typeof extra === 'object' && extra) return openness(extra as JsonSchema, `${at}/*`);
  }
  if (types.includes('array') && schema.items) return openness(schema.items as JsonSchema, `${at}/items`);
  return undefined;
}

/**
 * The compiled serializer (fast-json-stringify) of a 2xx answer's schema, for the routes that opt in with
 * `config.compiledAnswer` (the hot ones: the quote). A `oneOf` with a discriminator over shared schemas
 * (the quote's Quote / NoQuote) becomes one compiled function per branch, picked by the discriminator's
 * value (JSON.stringify for a value no branch declares, which the tests' check refuses anyway). A schema
 * that is not closed (`openness`) is refused when the route registers: the answer would change.
 */
export function compileAnswer(schema: JsonSchema, where = 'answer'): (data: unknown) => string {
  const own = sharedSchemaOf(schema) ?? schema;
  const external = Object.fromEntries(sharedSchemas().map((s) => [String(s.$id), s]));
  const compile = (s: JsonSchema) => {
    const why = openness(s);
    if (why) throw new Error(`${where}: cannot be compiled without changing answers (${why})`);
    return fastJson(s as unknown as Parameters<typeof fastJson>[0], { schema: external as never }) as (data: unknown) => string;
  };
  const discriminator = own.discriminator as { propertyName: string } | undefined;
  if (Array.isArray(own.oneOf) && discriminator) {
    const prop = discriminator.propertyName;
    const byValue = new Map<unknown, (data: unknown) => string>();
    for (const branch of own.oneOf as JsonSchema[]) {
      const b = sharedSchemaOf(branch) ?? branch;
      const p = ((b.properties ?? {}) as Record<string, JsonSchema>)[prop];
      const values = p && 'const' in p ? [p.const] : ((p?.enum as unknown[] | undefined) ?? []);
      if (!values.length) throw new Error(`${where}: a branch without a ${prop} value`);
      const fn = compile(b);
      for (const v of values) byValue.set(v, fn);
    }
    return (data) => (byValue.get((data as Record<string, unknown> | null)?.[prop]) ?? stringify)(data);
  }
  return compile(own);
}

/**
 * A compiled answer as its UTF-8 bytes (issue 37). fast-json-stringify builds its text from many pieces;
 * given that text, Fastify measured it (`Buffer.byteLength`, which flattens it first, the quote's "×" and
 * "→" making it a two-byte string) and the socket encoded it again: 8.7 µs and 5 µs more per quote than a
 * refused request in a CPU profile of the server at 50 connections. Given the bytes, Fastify takes their
 * length and the socket writes them as they are: one encoding, into Node's pooled buffers. Typed as text for
 * Fastify's serializer signature; its reply accepts a Buffer as the payload.
 */
function asBytes(write: (data: unknown) => string): (data: unknown) => string {
  return (data) => utf8Bytes(write(data)) as unknown as string;
}

/**
 * The UTF-8 bytes of a text in one pass (issue 37): `Buffer.from(text)` measures the text first (a pass of
 * its own over the quote's two-byte text) and then writes it; here it is written into a scratch buffer and the
 * bytes copied out (the socket keeps them after this call returns, and the next answer reuses the scratch).
 * A text that might not fit (more than 3 bytes a UTF-16 unit cannot happen) takes Buffer.from.
 */
const scratch = Buffer.allocUnsafeSlow(64 * 1024);
export function utf8Bytes(text: string): Buffer {
  if (text.length * 3 > scratch.length) return Buffer.from(text, 'utf8');
  const n = scratch.write(text, 0, 'utf8');
  const out = Buffer.allocUnsafe(n);
  scratch.copy(out, 0, 0, n);
  return out;
}

/** The declared answer of a status: the exact code, its `Nxx` group, or `default`. */
function declared(responses: Record<string, unknown> | undefined, status: number): unknown {
  if (!responses) return undefined;
  return responses[String(status)] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
}

/**
 * The answer checks (`validateResponses`) of the apps of one process: one AJV per set of shared schemas, its
 * compiled functions kept per schema text, so the hundreds of apps a test worker builds compile each answer
 * schema once (the same reasoning as lib/sharedValidators.ts for the request validators).
 */
const answerAjvs = new Map<string, (schema: object) => ValidateFunction>();
function answerCheckers(): (schema: object) => ValidateFunction {
  const schemas = [ErrorBody, ...sharedSchemas()];
  const key = JSON.stringify(schemas);
  let of = answerAjvs.get(key);
  if (of) return of;
  // CommonJS modules seen through ESM: the class / plugin may sit on `.default`.
  const Ajv = (AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule;
  const addFormats = (formatsModule as unknown as { default?: typeof formatsModule }).default ?? formatsModule;
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, removeAdditional: false, useDefaults: false });
  addFormats(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  const bySchema = new Map<string, ValidateFunction>();
  of = (schema) => {
    const text = JSON.stringify(schema);
    let v = bySchema.get(text);
    if (!v) bySchema.set(text, (v = ajv.compile(schema)));
    return v;
  };
  answerAjvs.set(key, of);
  return of;
}

/**
 * What every /api/v1 route says about its answers (issue 17), and the check that keeps it true:
 *
 * - `ErrorBody` (`{message, errors}`) is registered once; every route gets the standard error statuses
 *   (lib/answers.ts ERROR_STATUSES) as `$ref: 'ErrorBody#'` unless it declares them itself.
 * - The operationId is derived from the path (`operationIdOf`) unless the route names one; the summary and a
 *   2xx answer are the route's own: a route without them refuses to register.
 * - Answers are written with plain JSON.stringify (the schemas never change an answer), except the 2xx answers
 *   of the routes with `config.compiledAnswer` (the quote, issue 37): fast-json-stringify compiled from the
 *   answer's schema (`compileAnswer`), which must be closed so that the output stays JSON.stringify's; with
 *   `config.validateResponses` (the tests) every such answer is compared with JSON.stringify's (the same
 *   JSON value; only the keys' order may differ, the schema's), and a difference is a 500. Why not every route: many 2xx schemas are not closed yet (maps, `anyObject`,
 *   oneOfs without a discriminator), and an answer the tests do not exercise could silently lose a field;
 *   each route opts in once its schema is closed and its answers are covered.
 * - With `config.validateResponses` (the tests), every JSON answer is checked with AJV against the schema
 *   declared for its status; a mismatch is logged (route, AJV errors) and answered 500, so the API tests
 *   keep the documentation true.
 */
async function answers(app: FastifyInstance) {
  app.addSchema(ErrorBody);
  // The named shared schemas of the routes (lib/answers.ts sharedSchema): the branches of discriminated answers.
  for (const schema of sharedSchemas()) app.addSchema(schema);
  app.setSerializerCompiler(() => stringify);
  const compiledRoutes = new Set<string>();
  app.decorate('compiledAnswerRoutes', compiledRoutes);

  const ids = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const where = `Route ${String(route.method)} ${route.url}`;
    if (route.config?.compiledAnswer) {
      // compiled on registration: a schema that is not closed stops the server from starting
      const compiled = new Map<string, (data: unknown) => string>();
      for (const [status, s] of Object.entries((route.schema as { response?: Record<string, JsonSchema> } | undefined)?.response ?? {}))
        if (is2xx(status)) compiled.set(status, asBytes(compileAnswer(s, `${where} ${status}`)));
      // Fastify asks per declared status: the 2xx get their compiled function, the errors JSON.stringify
      route.serializerCompiler = ({ schema, httpStatus }) =>
        is2xx(String(httpStatus))
          ? (compiled.get(String(httpStatus)) ?? asBytes(compileAnswer(schema as JsonSchema, `${where} ${String(httpStatus)}`)))
          : stringify;
      if (route.method !== 'HEAD') compiledRoutes.add(`${String(route.method)} ${route.url}`);
    }
    const declaredResponses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
    // A copy: one schema object may serve several routes (each gets its own operationId).
    const schema = { ...route.schema, response: { ...declaredResponses } } as JsonSchema & { response: Record<string, unknown> };
    route.schema = schema;
    if (typeof schema.summary !== 'string' || !schema.summary) throw new Error(`${where} declares no summary`);
    const responses = schema.response;
    if (!Object.keys(responses).some(is2xx)) throw new Error(`${where} declares no 2xx answer`);
    for (const status of ERROR_STATUSES) responses[status] ??= errorRef;
    if (!schema.operationId) {
      let id = operationIdOf(route.url);
      if (route.method === 'HEAD') id += 'Head';
      else if (ids.has(id)) id += String(route.method)[0] + String(route.method).slice(1).toLowerCase();
      schema.operationId = id;
    }
    if (route.method !== 'HEAD') {
      if (ids.has(String(schema.operationId))) throw new Error(`${where}: operationId ${String(schema.operationId)} is taken`);
      ids.add(String(schema.operationId));
    }
  });

  if (!app.config.validateResponses) return;

  const shared = answerCheckers();
  const compiled = new WeakMap<object, ValidateFunction>();
  const validatorOf = (schema: object) => {
    let v = compiled.get(schema);
    if (!v) compiled.set(schema, (v = shared(schema)));
    return v;
  };
  const checked = new WeakSet<FastifyReply>();
  const gapsFile = process.env.ANSWER_GAPS_FILE;
  // The answers of the compiled routes, as the handler gave them: their written text must be JSON.stringify's
  // (parsed: the same values, the same keys; fast-json-stringify writes an object's keys in the schema's order).
  const given = new WeakMap<FastifyReply, unknown>();
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    // (a compressed answer is a stream by now: compared only when it is the text; the tests send no Accept-Encoding)
    // (the compiled answers are bytes: asBytes)
    if (!given.has(reply) || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    const expected = JSON.stringify(given.get(reply));
    given.delete(reply);
    // The same JSON value; only the order of an object's keys may differ (the schema's, not the handler's).
    if (isDeepStrictEqual(JSON.parse(payload.toString()), JSON.parse(expected))) return payload;
    const route = `${req.method} ${req.routeOptions.url}`;
    req.log.error({ route }, 'the compiled answer differs from JSON.stringify');
    console.error(`[validateResponses] ${route}: the compiled answer differs from JSON.stringify`, String(payload).slice(0, 2000), expected.slice(0, 2000));
    throw new Error(`${route}: the compiled answer differs from JSON.stringify`);
  });

  app.addHook('preSerialization', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!req.url.startsWith(API_PREFIX) || checked.has(reply)) return payload;
    checked.add(reply);
    const status = reply.statusCode;
    const responses = req.routeOptions.schema?.response as Record<string, unknown> | undefined;
    // An unknown /api path (the JSON 404) has no route schema: it is an ErrorBody.
    const schema = (req.routeOptions.url ? declared(responses, status) : errorRef) as JsonSchema | undefined;
    let problem: unknown;
    if (!schema) problem = `status ${status} is not declared`;
    // The document promises a Retry-After on every 429 (lib/openapiDocument.ts).
    else if (status === 429 && !reply.getHeader('retry-after')) problem = 'a 429 without Retry-After';
    else if (schema.content) problem = `status ${status} is declared binary but answered JSON`;
    else {
      const validate = validatorOf(schema);
      if (!validate(payload)) problem = validate.errors;
    }
    if (problem === undefined) {
      if (req.routeOptions.config.compiledAnswer && is2xx(String(status))) given.set(reply, payload);
      return payload;
    }
    const route = `${req.method} ${req.routeOptions.url ?? req.url}`;
    // A survey of the gaps (ANSWER_GAPS_FILE, for whoever declares answers): each mismatch is appended as a
    // JSON line and the answer goes out, so one run of the suite lists every gap instead of stopping at the first.
    if (gapsFile) {
      fs.appendFileSync(gapsFile, JSON.stringify({ route, status, problem }) + '\n');
      return payload;
    }
    req.log.error({ route, status, problem }, 'answer does not match its declared schema');
    console.error(
      `[validateResponses] ${route} → ${status}: answer does not match its declared schema`,
      JSON.stringify(problem, null, 1),
      JSON.stringify(payload).slice(0, 2000),
    );
    throw new Error(`${route} answered ${status} outside its declared schema`);
  });
}

export default fp(answers, { name: 'answers', dependencies: ['session'] });
