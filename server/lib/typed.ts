import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/**
 * The instance every route module takes: Fastify with the TypeBox type provider, so `req.body`,
 * `req.query` and `req.params` have the static types of their schemas (a TypeBox schema, or a plain JSON
 * schema written `as const`; `Type.Unsafe<T>(schema)` for a schema built at run time). Validation stays
 * Fastify's AJV (app.ts), the provider only types.
 */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A route module: `export default async function (app: App) {...}`, listed in routes/index.ts. */
export type RouteModule = (app: App) => Promise<void>;
