import fs from 'node:fs';
import fp from 'fastify-plugin';
import AjvModule, { type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUSES, ErrorBody, errorRef, sharedSchemas } from '../lib/answers.js';
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
 * - Answers are written with plain JSON.stringify (the schemas never change an answer).
 * - With `config.validateResponses` (the tests), every JSON answer is checked with AJV against the schema
 *   declared for its status; a mismatch is logged (route, AJV errors) and answered 500, so the API tests
 *   keep the documentation true.
 */
async function answers(app: FastifyInstance) {
  app.addSchema(ErrorBody);
  // The named shared schemas of the routes (lib/answers.ts sharedSchema): the branches of discriminated answers.
  for (const schema of sharedSchemas()) app.addSchema(schema);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  const ids = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const where = `Route ${String(route.method)} ${route.url}`;
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
    if (problem === undefined) return payload;
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
