import AjvCompiler, { type ValidatorCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';

/**
 * The request validators of every app this process builds, compiled once (issue 37, the test suite).
 *
 * Fastify gives each instance its own AJV (@fastify/ajv-compiler) and compiles every route's body, query and
 * params schemas again: 0.8–1.5 s of a `buildApp` on the 2-core CI machine, 28 % of a profile of six builds.
 * Production builds one app per process, but the tests build hundreds in one worker (each API test portal,
 * each browser test file). This factory keeps Fastify's own compiler (same AJV options, formats and shared
 * schemas), pooled per set of shared schemas and options as Fastify does per instance, and remembers the
 * compiled function per schema text: a later app whose route declares the same schema gets the same function.
 *
 * Sharing is safe: a compiled AJV function is pure (it coerces and fills defaults in the data it is given, and
 * leaves its errors on itself, read synchronously right after the call, as Fastify does); the key holds the
 * shared schemas a `$ref` can reach and the AJV options, so two apps with different ones never share.
 * Header schemas: a custom factory makes Fastify skip lower-casing their keys; no route declares header
 * schemas (tests/api/openapi.test.ts would show one in the document).
 */
const fastifyPool = AjvCompiler();
const compiled = new Map<string, Map<string, ReturnType<ValidatorCompiler>>>();

export const sharedValidators: ValidatorFactory = (externalSchemas, options) => {
  const compile = fastifyPool(externalSchemas, options);
  const poolKey = JSON.stringify(externalSchemas) + JSON.stringify(options?.customOptions ?? {});
  let bySchema = compiled.get(poolKey);
  if (!bySchema) compiled.set(poolKey, (bySchema = new Map()));
  const memo = bySchema;
  return (def) => {
    const key = JSON.stringify(def.schema);
    let fn = memo.get(key);
    if (!fn) memo.set(key, (fn = compile(def)));
    return fn;
  };
};
