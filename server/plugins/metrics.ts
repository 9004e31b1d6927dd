import cluster from 'node:cluster';
import crypto from 'node:crypto';
import net from 'node:net';
import fp from 'fastify-plugin';
import client from 'prom-client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PoolUse } from '../db/index.js';
import { mailStatsOf } from '../lib/mail.js';
import { keptTotal, processMetrics } from '../lib/processMetrics.js';
import { webhooksRepo } from '../repositories/webhooks.js';
import { pricingCacheStats } from '../repositories/pricingData.js';

/**
 * `GET /metrics` (issue 32): Prometheus text (prom-client), outside /api/v1, no API password.
 *
 * Names: prom-client's defaults keep theirs (`process_*`, `nodejs_*`), the request histogram has the name
 * common dashboards and alert rules expect (`http_request_duration_seconds`), everything of the portal's
 * own starts with `portal_`.
 *
 * What the app adds to the process's metrics (lib/processMetrics.ts):
 * - `http_request_duration_seconds{method, route, status_code}`: every answer, labelled by its route's
 *   pattern (`/api/v1/company/requests/show/:id`), never the raw URL, so the label set stays bounded:
 *   the built app's files are one `route="(static)"`, a path no route matches `route="(unmatched)"` (a
 *   scanner's thousand paths are one series). The event streams are left out: they last hours, and are
 *   counted by `portal_live_streams_open` instead.
 * - `portal_db_pool_*`: the connections (db/index.ts PoolUse: pg.Pool's counts; SQLite's one connection).
 * - `portal_webhook_*`: deliveries pending, how late the earliest is, endpoints failing — from the database,
 *   at most one query pair per WEBHOOK_STATS_MS whatever the number of scrapers (cached, one in flight), read
 *   from an index (repositories/webhooks.ts `stats`, measured there); and the outcomes of this process's
 *   attempts (delivered, retried, given up, handed back), counted by the worker as they happen.
 * - `portal_live_streams_open`: the event streams of this process.
 * - `portal_mails_*`: mail has no queue (lib/mail.ts): messages being handed to SMTP now, and handed over /
 *   refused since the start.
 *
 * Who may read it: a caller on the loopback interface (a Prometheus or an agent on the same machine), or,
 * when METRICS_TOKEN is set, anyone sending `Authorization: Bearer <METRICS_TOKEN>`. Anyone else gets 403
 * when a token is configured (there is a way in), 404 when not (nothing to find from outside).
 *
 * "On the loopback interface" is decided from the socket, with no forwarding header, never from the
 * address TRUST_PROXY resolves: with TRUST_PROXY=true (every hop trusted) a remote client could claim
 * `X-Forwarded-For: 127.0.0.1`, and with TRUST_PROXY unset a reverse proxy on the same machine makes every
 * visitor's socket a loopback one. So: the socket's address is 127.0.0.0/8 or ::1, and the request carries
 * no X-Forwarded-*, Forwarded or X-Real-IP header (a proxy adds them; a scraper on the machine does not). A
 * proxy that forwards without any such header would make its visitors look local: have it not route
 * /metrics, or set METRICS_TOKEN and scrape through it.
 */

/** How long the webhook counts are reused between scrapes. */
export const WEBHOOK_STATS_MS = 15_000;
/** How long a scrape waits for them when they are being read again. */
export const WEBHOOK_STATS_WAIT_MS = 1000;

/** A header a proxy adds: X-Forwarded-For / -Proto / -Host / …, Forwarded, X-Real-IP. */
const forwarded = (headers: FastifyRequest['headers']) =>
  Object.keys(headers).some((h) => h.startsWith('x-forwarded-') || h === 'forwarded' || h === 'x-real-ip');

/** 127.0.0.0/8, ::1, and IPv4 loopback written as IPv6 (::ffff:127.x.y.z, a dual-stack socket's form). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1';
}

const sha256 = (v: string) => crypto.createHash('sha256').update(v).digest();

export interface MetricsOptions {
  /** The database connections' use now (DbHandle.pool). */
  pool: () => PoolUse;
}

async function metrics(app: FastifyInstance, opts: MetricsOptions) {
  // made now, not at the first scrape: the process's CPU time and event-loop samples count from the app's start
  processMetrics();
  const register = new client.Registry();
  const token = app.config.metricsToken ? sha256(app.config.metricsToken) : null;

  const http = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer, by route pattern ("(static)": the app\'s files; "(unmatched)": no route) and status.',
    labelNames: ['method', 'route', 'status_code'],
    // from a cached quote (a few ms) to an upload read in a thread (IMPORT_TIME_LIMIT_MS, 30 s)
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [register],
  });
  app.addHook('onResponse', (req, reply, done) => {
    const config = req.routeOptions.config as { liveTicket?: boolean; file?: unknown; rootPath?: unknown } | undefined;
    if (!config?.liveTicket) {
      // @fastify/static marks each file's route with `file` and `rootPath` (as plugins/delivery.ts reads them)
      const route =
        req.routeOptions.url === undefined ? '(unmatched)' : config?.file !== undefined && config.rootPath !== undefined ? '(static)' : req.routeOptions.url;
      http.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    }
    done();
  });

  /**
   * `aggregator`: how node:cluster's processes' values are combined into one (WORKERS>1, see below): summed
   * unless said otherwise; the counts read from the shared database are the same for each process: their max.
   */
  const gauge = (
    name: string,
    help: string,
    collect: (this: client.Gauge) => void | Promise<void>,
    opts: { labelNames?: string[]; aggregator?: client.Aggregator } = {},
  ) => new client.Gauge({ name, help, labelNames: opts.labelNames ?? [], aggregator: opts.aggregator ?? 'sum', registers: [register], collect });
  const total = (name: string, help: string, value: () => number) => keptTotal(register, name, help, value);

  // The quotes' tariff cache (repositories/pricingData.ts, issue 37): hit rate = hits ÷ (hits + misses).
  total('portal_pricing_cache_hits_total', 'Tariff lookups of quotes answered from the per-process cache.', () => pricingCacheStats(app.db).hits);
  total(
    'portal_pricing_cache_misses_total',
    'Tariff lookups of quotes that read the database (absent or older than PRICING_CACHE_MS).',
    () => pricingCacheStats(app.db).misses,
  );

  // The database's connections.
  gauge('portal_db_pool_max', 'Connections the pool may open (PostgreSQL: the pool size; SQLite: 1, its one connection).', function () {
    this.set(opts.pool().max);
  });
  gauge(
    'portal_db_pool_connections',
    'Open connections by state: used (lent to a query or a transaction) and idle.',
    function () {
      const p = opts.pool();
      this.set({ state: 'used' }, p.used);
      this.set({ state: 'idle' }, p.idle);
    },
    { labelNames: ['state'] },
  );
  gauge('portal_db_pool_waiting', 'Queries and transactions waiting for a connection (SQLite: for its one connection).', function () {
    this.set(opts.pool().waiting);
  });

  // Webhook deliveries, from the database, cached (see above).
  const repo = webhooksRepo(app.db);
  let cached: { at: number; value: Awaited<ReturnType<typeof repo.stats>> } | null = null;
  let loading: Promise<void> | null = null;
  const webhookStats = async () => {
    if (!cached || Date.now() - cached.at >= WEBHOOK_STATS_MS) {
      loading ??= repo
        .stats()
        .then((value) => {
          cached = { at: Date.now(), value };
        })
        // the last counts stay (NaN before any was read: never a made-up 0), the scrape still answers the
        // process's other metrics; /readyz tells the database is gone
        .catch((err) => app.log.warn({ err }, 'metrics: webhook delivery counts not read'))
        .finally(() => (loading = null));
      // A slow database (or, on SQLite, a long transaction holding its one connection) must not hold the
      // scrape: past WEBHOOK_STATS_WAIT_MS it answers the last counts, and the query finishes for the next one.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([loading, new Promise<void>((r) => (timer = setTimeout(r, WEBHOOK_STATS_WAIT_MS)))]);
      clearTimeout(timer);
    }
    return cached?.value;
  };
  const shared = { aggregator: 'max' } as const;
  gauge(
    'portal_webhook_deliveries_pending',
    'Webhook deliveries neither delivered nor given up (counted at most every 15 s).',
    async function () {
      const s = await webhookStats();
      this.set(s ? s.pending : NaN);
    },
    shared,
  );
  gauge(
    'portal_webhook_oldest_due_seconds',
    'How long the earliest pending delivery has been due (0 when none is due yet): the workers falling behind or stopped.',
    async function () {
      const s = await webhookStats();
      this.set(!s ? NaN : s.earliestDue ? Math.max(0, (Date.now() - Date.parse(s.earliestDue)) / 1000) : 0);
    },
    shared,
  );
  gauge(
    'portal_webhook_endpoints_failing',
    'Webhook endpoints marked failing (a delivery was given up after WEBHOOK_RETRY_WINDOW_MS).',
    async function () {
      const s = await webhookStats();
      this.set(s ? s.endpointsFailing : NaN);
    },
    shared,
  );
  // The attempts' outcomes, counted by this process's worker (which deliveries already failed is not
  // counted from the database: it would read every pending row, repositories/webhooks.ts `stats`).
  new client.Counter({
    name: 'portal_webhook_attempts_total',
    help: 'Webhook delivery attempts of this process by outcome: delivered, retry (failed, tried again later), gave_up, handed_back (cut by a stop).',
    labelNames: ['outcome'],
    registers: [register],
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(app.webhooks.outcomes)) this.inc({ outcome }, n);
    },
  });

  gauge('portal_live_streams_open', 'Event streams (GET /{ns}/events) open on this process.', function () {
    this.set(app.live.listeners.size);
  });

  const mail = mailStatsOf(app.config);
  gauge(
    'portal_mails_sending',
    'Mails being handed to SMTP (or written to the outbox) now. There is no queue: a refused mail is logged, not retried.',
    function () {
      this.set(mail.sending);
    },
  );
  total('portal_mails_sent_total', 'Mails handed to SMTP (or the outbox) since the start.', () => mail.sent);
  total('portal_mails_failed_total', 'Mails SMTP refused or could not take since the start (each logged "mail could not be delivered").', () => mail.failed);

  const allowed = (req: FastifyRequest) => {
    if (isLoopback(req.socket.remoteAddress) && !forwarded(req.headers)) return true;
    if (!token) return false;
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    return !!m && crypto.timingSafeEqual(sha256(m[1]), token);
  };

  // WORKERS>1 (scripts/start.mjs, node:cluster): a scrape reaches whichever process the connection was handed
  // to, so one process's counters would follow another's and look reset at every scrape. There, /metrics asks
  // the supervisor, which gathers every ready process's metrics (this process answers `portal:metrics-json?`
  // with its registries' JSON) and combines them with prom-client's cluster aggregation: counters and
  // histograms summed, gauges per their `aggregator`. One series per deployment-machine, as one process gives.
  const clustered = cluster.isWorker && process.env.PORTAL_SUPERVISOR === '1' && !!process.send;
  const waiting = new Map<number, (m: { text?: string; error?: string }) => void>();
  let nextId = 1;
  const onMessage = (m: { type?: string; id?: number; text?: string; error?: string }) => {
    if (m?.type === 'portal:metrics-json?') {
      void Promise.all([processMetrics().getMetricsAsJSON(), register.getMetricsAsJSON()]).then(
        ([a, b]) => process.send!({ type: 'portal:metrics-json', id: m.id, metrics: [...a, ...b] }),
        (err: unknown) => process.send!({ type: 'portal:metrics-json', id: m.id, error: String(err) }),
      );
    } else if (m?.type === 'portal:metrics' && m.id !== undefined) waiting.get(m.id)?.(m);
  };
  if (clustered) {
    process.on('message', onMessage);
    app.addHook('onClose', async () => void process.off('message', onMessage));
  }
  const clusterText = () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the supervisor did not answer within 5 s'));
      }, 5000);
      waiting.set(id, (m) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (m.text !== undefined) resolve(m.text);
        else reject(new Error(m.error ?? 'no metrics'));
      });
      process.send!({ type: 'portal:metrics?', id });
    });

  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (!allowed(req))
      return reply
        .status(token ? 403 : 404)
        .type('text/plain; charset=utf-8')
        .send(token ? 'Forbidden' : 'Not found');
    if (clustered) {
      const text = await clusterText().catch((err: unknown) => {
        req.log.warn({ err }, 'metrics: the server processes could not be gathered');
        return null;
      });
      // a scrape of this process alone would look like every counter reset: none rather than that
      if (text === null) return reply.status(503).type('text/plain; charset=utf-8').send('Metrics unavailable');
      return reply.type(register.contentType).send(text);
    }
    const [own, processWide] = await Promise.all([register.metrics(), processMetrics().metrics()]);
    return reply.type(register.contentType).send(`${processWide}\n${own}`);
  });
}

export default fp(metrics, { name: 'metrics' });
