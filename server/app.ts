import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Socket } from 'node:net';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import { MULTIPART_FILE_MAX } from '../model/fileParts.js';
import { sharedValidators } from './lib/sharedValidators.js';
import { finishDocument, withBodyRequired } from './lib/openapiDocument.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/index.js';
import { openFileStore, type FileStore } from './lib/files.js';
import errorsPlugin from './plugins/errors.js';
import { pickLang, translate } from './i18n/index.js';
import sessionPlugin, { API_PREFIX } from './plugins/session.js';
import formPlugin from './plugins/forms.js';
import inputGuardsPlugin from './plugins/inputGuards.js';
import answersPlugin from './plugins/answers.js';
import auditPlugin from './plugins/audit.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import pricingCachePlugin from './plugins/pricingCache.js';
import webhookWorker from './lib/webhooks/worker.js';
import { webhooksDocument } from './lib/webhooks/payload.js';
import { routes } from './routes/index.js';
import { RESOURCES } from '../model/registry.js';
import { serverMessages, type ResourceDecl } from '../model/resource.js';
import { registerMessages } from './i18n/index.js';
import { resourceRoutes } from './lib/resourceRoutes.js';
import mediaRoutes from './routes/media.js';
import calendarRoutes from './routes/calendar.js';
import { LiveHub, registerHub } from './lib/liveEvents.js';
import { REVALIDATE, registerCompression, serveStatic } from './plugins/delivery.js';
import metricsPlugin from './plugins/metrics.js';
import probesPlugin from './plugins/probes.js';

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The security headers of every answer (Strict-Transport-Security is added below, behind TLS only).
 * The middleware is built once: @fastify/helmet rebuilt it — parsing every CSP directive — on each
 * request, ~8 % of a quote's CPU time (issue 11's quote benchmark).
 */
const securityHeadersFor = (scriptSrc?: string[]) =>
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The built index.html's inline script (it picks the prerendered snapshot of a public page before any
        // file arrives: build/prerender.ts), allowed by its hash only, when the page has one.
        ...(scriptSrc?.length ? { scriptSrc: ["'self'", ...scriptSrc] } : {}),
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' },
    strictTransportSecurity: false, // sent only behind TLS, below
    crossOriginEmbedderPolicy: false,
  });
const securityHeaders = securityHeadersFor();
/** One middleware per set of inline scripts (in practice: one built index.html per process). */
const withScripts = new Map<string, ReturnType<typeof helmet>>();

/** The SHA-256 of each inline script of the built index.html, as CSP sources (the page's own, nothing else). */
const inlineScriptHashes = (html: string) =>
  [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${crypto.createHash('sha256').update(m[1]!).digest('base64')}'`);
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * A path the router cannot decode (`/show/%E0%A4%A`) or an over-long parameter is answered before any
 * hook runs: here with the same {message, errors} shape and the same security headers as every answer.
 * Not HSTS: Fastify builds this request without its trusted-proxy rules, so it cannot tell TLS behind
 * a proxy; a browser keeps the HSTS of every other HTTPS answer, so one 400 without it loses nothing.
 */
function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  securityHeaders(req.raw, reply.raw, () => {});
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  reply.status(status).send({ message: translate(pickLang(req.headers['accept-language']), 'errors.badUrl'), errors: {} });
}

/**
 * Never in a log line (issue 23): the bearer (a session token or an API key) and the API password, should
 * a request's headers be logged (Fastify's own request lines carry none; an error's or a plugin's might).
 */
export const LOG_REDACT = ['req.headers.authorization', 'req.headers["x-api-password"]', 'headers.authorization', 'headers["x-api-password"]'];

/**
 * Query-string parameters that carry a credential (issue 31): the live stream's `ticket`
 * (docs/live-events.md), the tracking link's `code` and `postal_code` (together they open a request's
 * tracking, docs/tracking.md), and any token, key, password, secret, signature, OTP or session a client or
 * a future route may put in a URL. Matched on the decoded name, case-insensitively.
 */
const CREDENTIAL_PARAM = /^(?:code|otp|key|sig|auth|postal_code)$|ticket|token|secret|passw|pwd|signature|api[-_]?key|access[-_]?key|session/i;
export const REDACTED = '[REDACTED]';

/** A request URL with every credential parameter's value replaced by [REDACTED] (`?ticket=[REDACTED]&last_event_id=3`). */
export function redactUrl(url: string): string {
  // The calendar feed's address carries its token in the path (docs/calendar-feed.md): /ical/[REDACTED].ics
  if (url.startsWith('/ical/')) url = url.replace(/^\/ical\/[^/?#]*?(\.ics)?(?=[?#]|$)/, (_m, ext: string | undefined) => `/ical/${REDACTED}${ext ?? ''}`);
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const raw = eq < 0 ? part : part.slice(0, eq);
      let name = raw;
      try {
        name = decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        // a malformed escape: judged as written
      }
      return CREDENTIAL_PARAM.test(name.replace(/\[.*\]$/, '')) ? `${raw}=${REDACTED}` : part;
    });
  return `${url.slice(0, q + 1)}${parts.join('&')}`;
}

/**
 * The request as log lines show it: Fastify's own fields, with the URL's credentials redacted. Fastify
 * logs every request's URL ("incoming request", and the request of an error), and proxies' and access logs
 * are not ours to clean, which is why no long-lived credential is ever put in a URL (docs/live-events.md).
 */
export const LOG_SERIALIZERS = {
  req(req: {
    method?: string;
    url?: string;
    headers?: Record<string, string | string[] | undefined>;
    host?: string;
    ip?: string;
    socket?: { remotePort?: number };
  }) {
    return {
      method: req.method,
      url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
      version: [req.headers?.['accept-version']].flat()[0],
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};

/**
 * The request log (issue 37): one line per request, written when it is answered, with only what an operator
 * reads: `{reqId, method, url, route, status, ms, msg: 'request completed'}` (the URL's credentials redacted,
 * `redactUrl`). Fastify's own pair of lines ("incoming request" and "request completed", each through the
 * request and response serializers and the redaction) is off (`LogController` `disableRequestLogging`): at `info` they were
 * two serialised objects and two writes per request on the quote's hot path.
 *
 * Chosen over sampling: nothing is lost (every request still has its line, a quote as much as a refused
 * login), and a trimmed line of flat fields costs about what the sampling's own bookkeeping would. Levels:
 * - 5xx: `error` (the error itself is also logged by plugins/errors.ts with its stack, `unhandled error`);
 * - 401, 403 and 429 (refused credentials, a forbidden call, a throttle): `warn`, so these security-relevant
 *   events stay in the log when LOG_LEVEL is `warn`;
 * - everything else: `info`.
 * A request the client gave up on before the answer gets a line too (`request aborted`, `info`).
 * The audit trail is not a log: it is written to the database (plugins/audit.ts) whatever the log level.
 */
/** Whether the logger writes this level (pino's isLevelEnabled; Fastify's no-op logger, without a logger: never). */
const logs = (log: FastifyBaseLogger, level: string) => (log as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(level) ?? false;

export function requestLogLine(req: FastifyRequest, reply: FastifyReply) {
  const status = reply.statusCode;
  const level = status >= 500 ? 'error' : status === 401 || status === 403 || status === 429 ? 'warn' : 'info';
  if (!logs(req.log, level)) return;
  req.log[level](
    { method: req.method, url: redactUrl(req.url), route: req.routeOptions.url ?? null, status, ms: Math.round(reply.elapsedTime * 10) / 10 },
    'request completed',
  );
}

/** The logger's options: the caller's, with the header redaction and the request serializer always on. */
function loggerOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const given = typeof logger === 'object' ? logger : {};
  return { redact: LOG_REDACT, ...given, serializers: { ...(given.serializers ?? {}), req: LOG_SERIALIZERS.req } };
}

export interface BuildOptions {
  config: Config;
  db: DbHandle;
  logger?: FastifyServerOptions['logger'];
  /** Declared resources beyond model/registry.ts (tests build a throwaway one from a fixture declaration). */
  extraResources?: ResourceDecl[];
  /** The file store; by default the one the configuration names (lib/files.ts), closed with the app. */
  files?: FileStore;
}

/**
 * Builds the whole server: external plugins, then our plugins, then the routes under /api/v1, then
 * the built browser app. Tests call this and use `inject`; `server/index.ts` calls it and listens.
 */
export async function buildApp({ config, db, logger = false, extraResources = [], files }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(logger),
    // Whose X-Forwarded-For / -Proto / -Host to believe (TRUST_PROXY): nobody's unless configured, so a
    // client cannot pick its own address for the per-address throttles or claim TLS it does not have.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'], // a hop count too (Fastify's types omit it)
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: true } },
    // Fastify's own compiler, its functions shared by the apps of one process (lib/sharedValidators.ts).
    schemaController: { compilersFactory: { buildValidator: sharedValidators } },
    frameworkErrors,
    // The stop (issue 32, lib/shutdown.ts): idle keep-alive connections are closed at once, and a request
    // arriving on an open connection while the server closes is answered 503 (both Fastify 5's defaults on
    // Node 20, written out because the stop relies on them). See the preClose hook below for the rest.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // One trimmed line per request instead (requestLogLine).
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onResponse', (req, reply, done) => {
    requestLogLine(req, reply);
    done();
  });
  app.addHook('onRequestAbort', (req, done) => {
    if (logs(req.log, 'info')) req.log.info({ method: req.method, url: redactUrl(req.url), route: req.routeOptions.url ?? null }, 'request aborted');
    done();
  });
  app.decorate('db', db.db);
  app.decorate('dialect', db.dialect);
  app.decorate('config', config);
  const store = files ?? (await openFileStore(config, db.db));
  app.decorate('files', store);
  if (!files) app.addHook('onClose', async () => store.close());
  // The live events of this process (docs/live-events.md): PostgreSQL's listening connection, or the in-memory bus.
  const live = new LiveHub(db.db, db.dialect, config.databaseUrl, app.log);
  registerHub(live);
  await live.start();
  app.decorate('live', live);
  // Streams end before the server stops waiting for its connections, each with a last `closing` event (the
  // tab reconnects, to another process or this one restarted); the listening connection after.
  app.addHook('preClose', async () => live.endStreams('closing'));
  app.addHook('onClose', async () => live.close());

  // The stop (issue 32): Node's server.close() closes the connections idle at that instant only; one whose
  // request is still in flight would, once answered, stay open until its keep-alive timeout (72 s) and hold
  // the stop. So while closing, answers say `Connection: close` and the idle connections are closed every
  // 100 ms, until the server has closed.
  // A connection that has not sent a byte yet (a browser's preconnect, a balancer's TCP check) is not
  // idle to Node 20's server, and held the stop until its timeout (exit 1): while closing it is closed too. No
  // answer is lost: nothing was read from it (a request whose first bytes were still on their way would have got
  // the closing server's 503; it gets a closed connection instead, and the client asks again elsewhere).
  let closing = false;
  let reaper: NodeJS.Timeout | undefined;
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.addHook('preClose', async () => {
    closing = true;
    reaper = setInterval(() => {
      app.server.closeIdleConnections();
      for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
    }, 100);
    reaper.unref();
  });
  app.addHook('onClose', async () => clearInterval(reaper));
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  // The built browser app, when it has been built. index.html gets the API header value written in.
  const staticDir = config.staticDir;
  const indexFile = staticDir ? path.join(staticDir, 'index.html') : '';
  const indexHtml =
    indexFile && fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8').replace('__API_PASSWORD__', escapeAttr(config.apiPassword)) : null;
  // Security headers (helmet, built once per process above; with the built page's inline script allowed by its hash).
  const scriptHashes = indexHtml ? inlineScriptHashes(indexHtml) : [];
  const headers = scriptHashes.length
    ? (withScripts.get(scriptHashes.join(' ')) ?? withScripts.set(scriptHashes.join(' '), securityHeadersFor(scriptHashes)).get(scriptHashes.join(' '))!)
    : securityHeaders;
  app.addHook('onRequest', (req, reply, done) => headers(req.raw, reply.raw, (err) => done(err as Error | undefined)));
  app.addHook('onSend', async (req, reply) => {
    if (req.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
  });
  // Compression (per request for API answers and index.html; static files precompressed at build) and the
  // cache policy: plugins/delivery.ts. Registered before every route, which it hooks.
  await registerCompression(app);
  await app.register(multipart, { limits: { fileSize: MULTIPART_FILE_MAX, files: 20, fields: 500 } });
  await app.register(swagger, {
    openapi: {
      // 3.1: the schemas are JSON Schema 2020-12 as AJV reads them (type lists, numeric exclusiveMinimum).
      openapi: '3.1.0',
      info: {
        title: 'Freight portal API',
        version: '1.0.0',
        description: 'Every call sends the X-Api-Password header; signed-in calls add a bearer token (POST /visitor/login).',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiPassword: { type: 'apiKey', in: 'header', name: 'X-Api-Password', description: 'The static API password of the deployment.' },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The token answered by POST /visitor/login (`step: "signed_in"`). Each signed-in operation lists the kinds of user that may call it ' +
              'in `x-roles` (admin, carrier, enduser, support); any other kind answers 403.',
          },
          streamTicket: {
            type: 'apiKey',
            in: 'query',
            name: 'ticket',
            description:
              'The live events stream only (GET /{ns}/events, docs/live-events.md): a one-time ticket from POST /{ns}/events/ticket, ' +
              'valid 30 s, that stands for both the API password and the session (EventSource sends no headers).',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'fpk_live_…',
            description:
              "A company's API key (docs/integrations.md), sent as `Authorization: Bearer fpk_live_…` beside X-Api-Password. " +
              'It acts for its company with the role of the user who made it, only on the operations listing its scopes ' +
              '(`x-api-key-scopes`: quotes, requests:read, requests:write; any other answers 403), at most ' +
              'API_KEY_RATE_PER_MINUTE calls a minute (default 600; then 429 with Retry-After). A revoked key answers 401 saying it was revoked; ' +
              'an unknown key, or one whose user or company is no longer active, answers 401 saying so.',
          },
        },
      },
      // No global default: every operation declares its own security from its route's policy (lib/apiKeyAuth.ts
      // securitySchemaOf): a default would make the operations that declare none look anonymous, or the public ones not.
      // OpenAPI 3.1 `webhooks`: the signed messages sent to a company's endpoints (lib/webhooks/payload.ts);
      // @fastify/swagger 9 copies this option into the document as given.
      webhooks: webhooksDocument(),
    },
    // A route's `bodyRequired` (fastify.d.ts) joins its body's `required` in the document.
    transform: ({ schema, url, route }) => ({ schema: withBodyRequired(schema as Record<string, unknown>, route.config?.bodyRequired) as typeof schema, url }),
    // The document as a client reads it: file fields as binary parts, the headers every route shares (lib/openapiDocument.ts).
    transformObject: (document) => finishDocument((document as { openapiObject: Record<string, unknown> }).openapiObject),
    // Shared schemas (ErrorBody) keep their $id as their name in components.schemas.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  // Our plugins. The metrics first: their onResponse hook times every route registered after it.
  await app.register(metricsPlugin, { pool: db.pool });
  await app.register(probesPlugin);
  await app.register(errorsPlugin);
  await app.register(sessionPlugin);
  await app.register(formPlugin);
  await app.register(inputGuardsPlugin);
  await app.register(answersPlugin);
  await app.register(auditPlugin);
  await app.register(pricingCachePlugin);
  // The webhook deliveries' sender (docs/webhooks.md): polls while the app runs, stops on close.
  await app.register(webhookWorker);

  // Routes.
  await app.register(
    async (scope) => {
      const api = scope.withTypeProvider<TypeBoxTypeProvider>();
      for (const register of routes) await api.register(register);
      // Every declared resource whose routes are generated from its declaration (model/registry.ts).
      for (const decl of extraResources) registerMessages(serverMessages(decl));
      // Each sees every declared resource: references name their target among them, deletes count what refers.
      const declared = [...RESOURCES, ...extraResources];
      for (const decl of declared) if (decl.routes === 'generated') resourceRoutes(api, decl, declared);
    },
    { prefix: API_PREFIX },
  );

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  // The built browser app (index.html read above, with the API header value written in).
  if (indexHtml) await serveStatic(app, staticDir!);
  await app.withTypeProvider<TypeBoxTypeProvider>().register(mediaRoutes);
  // A company's calendar feed, /ical/<token>.ics (docs/calendar-feed.md): outside /api/v1, no API password.
  await app.withTypeProvider<TypeBoxTypeProvider>().register(calendarRoutes);
  const sendIndex = (reply: FastifyReply) => reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE).send(indexHtml);
  // The app lives at `/` (and `/index.html`, the file's own name). Its routing is in the hash (`/#/quote`,
  // `/#/transport-requests-visuals/7/1`, the links of the mails: model/tracking.ts, notifications.ts), which
  // the browser never sends: every screen is a request for `/`. Any other path is a 404 (issue 32): before,
  // every unknown path answered the app with 200, so a health check, a mistyped /healthz, a probe of
  // /wp-login.php or a missing favicon.ico all looked like success. A query string (`/?utm_source=…`) still
  // reaches `/`. The built app's own files are @fastify/static routes, one per file (a missing /assets/…
  // file is a 404 too); the probes and /metrics are plugins/probes.ts and metrics.ts.
  if (indexHtml) {
    app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
    app.get('/index.html', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api') || req.url.startsWith('/media')) {
      return reply.status(404).send({ message: req.t('errors.routeNotFound'), errors: {} });
    }
    return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
  });

  return app;
}
