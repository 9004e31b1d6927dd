import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { sharedReadPool } from '../../server/imports/read/pool.js';
import { createMailer } from '../../server/lib/mail.js';
import { isLoopback } from '../../server/plugins/metrics.js';
import { newEventId, newWebhookSecret } from '../../server/repositories/webhooks.js';
import { DEMO, describeEachDb } from './helpers.js';
import { form, xlsx } from './tariffs.helpers.js';

/**
 * Issue 32, item 2: `GET /metrics` (server/plugins/metrics.ts, server/lib/processMetrics.ts) — Prometheus
 * text with the process's metrics and the app's: requests by route pattern and status, the database's
 * connections, webhook deliveries from the database, open event streams, the reading pool, mails; served to
 * loopback callers (the socket's address, with no forwarding header) and to METRICS_TOKEN's bearer.
 */

/** The value of one series (`name` or `name{labels}` as written), or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const TOKEN = 'metrics-token-0123456789abcdef';

describeEachDb('metrics', (p) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // an app of its own: its webhook counts are read at its first scrape (they are cached 15 s)
    app = await buildApp({ config: { ...p().config, metricsToken: TOKEN }, db: p().db });
    await app.ready();
  });
  afterAll(async () => app?.close());

  const scrape = async (target = app) => {
    const r = await target.inject({ url: '/metrics' });
    expect(r.statusCode).toBe(200);
    return r.body;
  };

  it('counts webhook deliveries pending and overdue and failing endpoints from the database, attempts by outcome', async () => {
    const db = p().db.db;
    const carrier = await db.selectFrom('users').select('company_id').where('email', '=', DEMO.carrier).executeTakeFirstOrThrow();
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const endpoint = (status: string) =>
      db
        .insertInto('webhook_endpoints')
        .values({
          company_id: carrier.company_id,
          url: 'http://127.0.0.1:9/hooks',
          events: 'transport_request.created',
          secret: newWebhookSecret(),
          lang: 'it',
          status,
          created_by_name: 'Test',
          created_at: iso(now),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const ep = await endpoint('active');
    await endpoint('failing');
    const delivery = (v: { attempts?: number; next?: string | null; delivered?: string | null; gaveUp?: string | null }) => ({
      endpoint_id: ep.id,
      event_id: newEventId(),
      event_type: 'transport_request.created',
      transport_request_id: 1,
      ordering_key: `tr:${Math.random()}`,
      payload: '{}',
      created_at: iso(now),
      attempts: v.attempts ?? 0,
      next_attempt_at: v.next ?? null,
      delivered_at: v.delivered ?? null,
      gave_up_at: v.gaveUp ?? null,
    });
    await db
      .insertInto('webhook_deliveries')
      .values([
        delivery({ next: iso(now - 120_000) }), // due two minutes ago: the oldest due
        delivery({ next: iso(now - 1000), attempts: 2 }), // retried, due
        delivery({ next: iso(now + 60_000), attempts: 1 }), // retried later
        delivery({ delivered: iso(now), attempts: 1 }),
        delivery({ gaveUp: iso(now), attempts: 9 }),
      ])
      .execute();
    const text = await scrape();
    expect(value(text, 'portal_webhook_deliveries_pending')).toBe(3);
    expect(value(text, 'portal_webhook_oldest_due_seconds')).toBeGreaterThanOrEqual(119);
    expect(value(text, 'portal_webhook_oldest_due_seconds')).toBeLessThan(200);
    expect(value(text, 'portal_webhook_endpoints_failing')).toBe(1);
    for (const outcome of ['delivered', 'retry', 'gave_up', 'handed_back']) expect(value(text, `portal_webhook_attempts_total{outcome="${outcome}"}`)).toBe(0);
    // cached: a scrape right after does not query again (another pending row is not seen yet)
    await db
      .insertInto('webhook_deliveries')
      .values(delivery({ next: iso(now) }))
      .execute();
    expect(value(await scrape(), 'portal_webhook_deliveries_pending')).toBe(3);
    // the worker's attempts: nothing listens on port 9, each due delivery fails and is retried later
    const attempted = await app.webhooks.runOnce();
    expect(attempted).toBe(3);
    expect(value(await scrape(), 'portal_webhook_attempts_total{outcome="retry"}')).toBe(3);
  });

  it('answers Prometheus text with the process, request, database, stream, reading pool and mail metrics', async () => {
    await new Promise((r) => setTimeout(r, 250)); // an event-loop delay sample or two
    const r = await app.inject({ url: '/metrics' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.headers['cache-control']).toBe('no-store');
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'portal_eventloop_delay_seconds',
      'http_request_duration_seconds',
      'portal_db_pool_max',
      'portal_db_pool_connections',
      'portal_db_pool_waiting',
      'portal_pricing_cache_hits_total',
      'portal_pricing_cache_misses_total',
      'portal_webhook_deliveries_pending',
      'portal_live_streams_open',
      'portal_import_threads',
      'portal_import_reads_running',
      'portal_import_reads_queued',
      'portal_import_reads_killed_total',
      'portal_import_reads_refused_busy_total',
      'portal_mails_sending',
      'portal_mails_sent_total',
      'portal_mails_failed_total',
    ]) {
      expect(r.body, name).toContain(`# TYPE ${name} `);
    }
    expect(value(r.body, 'portal_db_pool_max')).toBe(p().dialect === 'sqlite' ? 1 : 5);
    expect(Number(value(r.body, 'portal_eventloop_delay_seconds_count'))).toBeGreaterThan(0);
  });

  it('counts a request under its route pattern and status, never its raw URL; unmatched paths as one series', async () => {
    const admin = await p().login(DEMO.admin);
    await p().api('GET', '/admin/users/show/987654', { token: admin });
    await p().api('GET', '/admin/users/show/987653', { token: admin });
    await p().app.inject({ url: '/no/such/page/4242' });
    const text = await scrape(p().app);
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/admin/users/show/:id",status_code="404"}')).toBe(2);
    expect(value(text, 'http_request_duration_seconds_count{method="POST",route="/api/v1/visitor/login",status_code="200"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="(unmatched)",status_code="404"}')).toBeGreaterThanOrEqual(1);
    // No label holds a raw URL's id (a sample's value may contain the digits by chance: the memory size once did).
    const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).join('\n');
    expect(labels).toContain('route="/api/v1/admin/users/show/:id"');
    expect(labels).not.toContain('987654');
    expect(labels).not.toContain('987653');
    expect(labels).not.toContain('4242');
    expect(value(text, 'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/admin/users/show/:id",status_code="404"}')).toBe(2);
  });

  it('reports the database connections in use and the work waiting for one', async () => {
    const db = p().db.db;
    await scrape(); // the webhook counts fresh: the scrape below needs no connection
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const trx = db.transaction().execute(async (t) => {
      await t.selectFrom('users').select('id').limit(1).execute();
      inside();
      await held;
    });
    await entered;
    const query = db.selectFrom('users').select('id').limit(1).execute();
    try {
      const text = await scrape();
      expect(value(text, 'portal_db_pool_connections{state="used"}')).toBeGreaterThanOrEqual(1);
      // SQLite's one connection is held by the transaction: the query (and the scrape's own counts) wait for it
      if (p().dialect === 'sqlite') expect(value(text, 'portal_db_pool_waiting')).toBeGreaterThanOrEqual(1);
    } finally {
      release();
      await trx;
      await query;
    }
    const after = await scrape();
    expect(value(after, 'portal_db_pool_waiting')).toBe(0);
  });

  it('answers within about a second when the database is held, the webhook counts unknown until read', async () => {
    // a fresh app: no counts yet, so its first scrape must read them, while a transaction holds the database
    const lone = await buildApp({ config: p().config, db: p().db });
    await lone.ready();
    const db = p().db.db;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    // SQLite: its one connection, so the counts wait; PostgreSQL: another connection answers them at once
    const trx = db.transaction().execute(async (t) => {
      await t.selectFrom('users').select('id').limit(1).execute();
      inside();
      await held;
    });
    await entered;
    try {
      const started = Date.now();
      const r = await lone.inject({ url: '/metrics' });
      expect(r.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(2500);
      expect(r.body).toContain('# TYPE process_resident_memory_bytes gauge');
      // not read in time on SQLite: unknown (NaN), never a made-up 0
      if (p().dialect === 'sqlite') expect(r.body).toMatch(/^portal_webhook_deliveries_pending Nan$/m);
    } finally {
      release();
      await trx;
      await lone.close();
    }
  });

  it('reports the open event streams, the reading pool and the mails of the app', async () => {
    const before = await scrape();
    const unsubscribe = app.live.subscribe({ event() {}, sessions() {}, heartbeat() {}, reset() {}, end() {} });
    // a tariff check read by the pool (a dry run stores nothing)
    const carrier = await p().login(DEMO.carrier);
    const upload = await p().api('POST', '/company/express_hub_costs/store', {
      token: carrier,
      payload: form(
        { dry_run: 1 },
        {
          field: 'hub_costs',
          name: 'hub.xlsx',
          data: xlsx([
            ['code', 'silver', 'gold'],
            ['HUBMX', 5, 9],
          ]),
        },
      ),
    });
    expect(upload.status).toBe(200);
    await createMailer(app.config, app.log).send({ to: 'ops@example.com', subject: 'Metrics', text: 'counted' });
    try {
      const text = await scrape();
      expect(value(text, 'portal_live_streams_open')).toBe(value(before, 'portal_live_streams_open')! + 1);
      expect(value(text, 'portal_import_reads_completed_total')).toBe(sharedReadPool().stats.completed);
      expect(value(text, 'portal_import_reads_completed_total')).toBeGreaterThan(value(before, 'portal_import_reads_completed_total')!);
      expect(value(text, 'portal_import_reads_running')).toBe(sharedReadPool().stats.running);
      expect(value(text, 'portal_import_reads_queued')).toBe(0);
      expect(value(text, 'portal_import_reads_refused_busy_total')).toBe(sharedReadPool().stats.refusedBusy);
      expect(value(text, 'portal_mails_sent_total')).toBe(value(before, 'portal_mails_sent_total')! + 1);
      expect(value(text, 'portal_mails_sending')).toBe(0);
    } finally {
      unsubscribe();
    }
  });

  it('serves loopback callers; refuses others (403 with a token configured, 404 without) unless they bring METRICS_TOKEN', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.0.0.9', '::1', '::ffff:127.0.0.1']) {
      expect((await app.inject({ url: '/metrics', remoteAddress })).statusCode, remoteAddress).toBe(200);
    }
    for (const remoteAddress of ['10.1.2.3', '192.168.1.20', '::ffff:10.0.0.1', '2001:db8::1']) {
      const r = await app.inject({ url: '/metrics', remoteAddress });
      expect(r.statusCode, remoteAddress).toBe(403);
      expect(r.body).not.toContain('# TYPE');
    }
    const remoteAddress = '203.0.113.7';
    expect((await app.inject({ url: '/metrics', remoteAddress, headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/metrics', remoteAddress, headers: { authorization: TOKEN } })).statusCode).toBe(403);
    const ok = await app.inject({ url: '/metrics', remoteAddress, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('# TYPE http_request_duration_seconds histogram');
    // without a token configured nothing is there for a remote caller
    const open = await p().app.inject({ url: '/metrics', remoteAddress, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(open.statusCode).toBe(404);
  });

  it('a proxied request is never loopback, whatever TRUST_PROXY resolves (the test portal trusts 127.0.0.1)', async () => {
    // a reverse proxy on the same machine: loopback socket, the visitor's address in X-Forwarded-For
    for (const headers of [
      { 'x-forwarded-for': '198.51.100.4' },
      { 'x-forwarded-for': '127.0.0.1' }, // a visitor claiming loopback through the proxy
      { forwarded: 'for=198.51.100.4' },
      { 'x-real-ip': '198.51.100.4' },
      { 'x-forwarded-proto': 'https' },
    ]) {
      expect((await p().app.inject({ url: '/metrics', headers })).statusCode, JSON.stringify(headers)).toBe(404);
      expect((await app.inject({ url: '/metrics', headers })).statusCode, JSON.stringify(headers)).toBe(403);
    }
    // TRUST_PROXY=true believes every hop: the resolved address would be 127.0.0.1, the socket is not
    const trusting = await buildApp({ config: { ...p().config, trustProxy: true }, db: p().db });
    try {
      const r = await trusting.inject({ url: '/metrics', remoteAddress: '198.51.100.4', headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(r.statusCode).toBe(404);
    } finally {
      await trusting.close();
    }
    // the proxy's caller with the token is served
    const r = await app.inject({ url: '/metrics', headers: { 'x-forwarded-for': '198.51.100.4', authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(200);
  });
});

describe('METRICS_TOKEN and SHUTDOWN_TIMEOUT_MS', () => {
  it('reads them: no token by default, a token of 16 characters or more, a stop of 10 s by default and at least 1 s', () => {
    const env = (v: Record<string, string>) => v as NodeJS.ProcessEnv;
    expect(loadConfig(env({})).metricsToken).toBeUndefined();
    expect(loadConfig(env({})).shutdownTimeoutMs).toBe(10_000);
    expect(loadConfig(env({ METRICS_TOKEN: TOKEN })).metricsToken).toBe(TOKEN);
    expect(() => loadConfig(env({ METRICS_TOKEN: 'short' }))).toThrow(ConfigError);
    expect(loadConfig(env({ SHUTDOWN_TIMEOUT_MS: '25000' })).shutdownTimeoutMs).toBe(25_000);
    expect(loadConfig(env({ SHUTDOWN_TIMEOUT_MS: '5' })).shutdownTimeoutMs).toBe(1000);
    expect(loadConfig(env({ SHUTDOWN_TIMEOUT_MS: 'soon' })).shutdownTimeoutMs).toBe(10_000);
  });
});

describe('isLoopback', () => {
  it('is 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6; nothing else', () => {
    for (const a of ['127.0.0.1', '127.255.0.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of [undefined, '', '10.0.0.1', '0.0.0.0', '::', '::ffff:10.0.0.1', '128.0.0.1', 'fe80::1', 'localhost'])
      expect(isLoopback(a), String(a)).toBe(false);
  });
});
