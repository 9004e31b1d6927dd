import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { Policy } from '../fastify.js';
import { kindOfRoleId } from '../../model/roles.js';
import { pickLang, translate } from '../i18n/index.js';
import { ApiError, forbidden, unauthenticated } from '../lib/errors.js';
import { tokensRepo } from '../repositories/tokens.js';
import { isApiKey } from '../../model/apiKeys.js';
import { apiKeyAuth, securitySchemaOf } from '../lib/apiKeyAuth.js';
import { ticketKeeper } from '../lib/liveStream.js';

export const API_PREFIX = '/api/v1';

/** A registered /api/v1 route: its policy and its schema (the security tests generate inputs from it). */
export interface RouteEntry {
  method: string;
  url: string;
  policy: Policy;
  schema?: FastifySchema;
  /** Body fields the handler refuses when missing (config.bodyRequired: in the document's `required`). */
  bodyRequired?: readonly string[];
}

const sha256 = (v: string) => crypto.createHash('sha256').update(v).digest();

/**
 * Language, the static API password, the bearer token and the route's policy, checked in that order
 * on every request (server.md §1–2). A route under /api/v1 without a policy refuses to register.
 */
async function session(app: FastifyInstance) {
  const tokens = tokensRepo(app.db, { onTouchError: (err) => app.log.warn({ err }, 'last_used_at of a session not updated') });
  // compared as SHA-256 digests (equal lengths, constant time); the expected one is computed once
  const expectedPassword = sha256(app.config.apiPassword);
  const keyCaller = apiKeyAuth(app);
  const tickets = ticketKeeper(app.config.apiPassword);
  app.decorate('liveTickets', tickets);
  app.decorateRequest('liveSession', null);

  app.decorateRequest('lang', 'it');
  app.decorateRequest('user', undefined);
  app.decorateRequest('t', function (this: FastifyRequest, key: string, params?: Record<string, unknown>) {
    return translate(this.lang, key, params);
  });

  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    if (!route.config?.policy) throw new Error(`Route ${route.method} ${route.url} declares no policy`);
    // every operation's OpenAPI security from its policy: API password, bearer token, API key scopes, stream ticket
    route.schema = securitySchemaOf(String(route.method), route.url, route.schema as Record<string, unknown> | undefined, {
      policy: route.config.policy,
      liveTicket: route.config.liveTicket,
    });
    for (const method of [route.method].flat())
      table.push({ method, url: route.url, policy: route.config.policy, schema: route.schema, bodyRequired: route.config.bodyRequired });
  });

  app.addHook('onRequest', async (req) => {
    req.lang = pickLang(req.headers['accept-language']);
    if (!req.url.startsWith(API_PREFIX)) return;

    // The live stream (docs/live-events.md): EventSource sends no headers, so a one-time stream ticket in
    // the query stands for the API password and the session (lib/liveStream.ts); the session is read afresh.
    const ticket = req.routeOptions.config?.liveTicket ? (req.query as { ticket?: unknown }).ticket : undefined;
    if (typeof ticket === 'string') {
      const claims = tickets.redeem(ticket);
      const found = claims ? await tokens.sessionById(claims.t) : undefined;
      if (!claims || !found || found.id !== claims.u) throw unauthenticated();
      const { expires_at, ...user } = found;
      req.user = { ...user, kind: kindOfRoleId(user.role_id) };
      req.liveSession = { expires_at };
      const allowed = req.routeOptions.config.policy;
      if (Array.isArray(allowed) && !allowed.includes(req.user.kind)) throw forbidden();
      return;
    }

    const password = req.headers['x-api-password'];
    if (typeof password !== 'string' || !crypto.timingSafeEqual(sha256(password), expectedPassword)) {
      throw new ApiError(401, 'errors.apiPassword');
    }

    const auth = req.headers.authorization;
    if (auth) {
      const m = /^Bearer\s+(\S+)$/i.exec(auth);
      // An API key (fpk_live_…) acts as its creator within its scopes (lib/apiKeyAuth.ts); else a session.
      const user = !m ? undefined : isApiKey(m[1]) ? await keyCaller(req, m[1]) : await tokens.resolve(m[1]);
      // A token that is present but invalid never downgrades the caller to a visitor.
      if (!user) throw unauthenticated();
      req.user = { ...user, kind: kindOfRoleId(user.role_id) };
    }

    const policy = req.routeOptions.config?.policy;
    if (!policy || policy === 'public') return; // unknown routes fall through to the JSON 404
    if (!req.user) throw unauthenticated();
    if (policy !== 'signedIn' && !policy.includes(req.user.kind)) throw forbidden();
  });
}

export default fp(session, { name: 'session' });
