import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { newEventId, newWebhookSecret, webhooksRepo } from '../../server/repositories/webhooks.js';
import { serverArgs } from '../../scripts/serverCommand.mjs';
import { freePort } from '../faults/server.js';
import { copyDataDir } from '../setup/portalTemplate.js';
import { DEMO, describeEachDb } from './helpers.js';
import { call, openEvents, watch, type Watched } from './runtimeKit.js';
import { startReceiver } from './webhookReceiver.js';
import { form, xlsx } from './tariffs.helpers.js';

/**
 * Issue 32, item 3: the graceful stop (server/lib/shutdown.ts, the preClose hooks of server/app.ts and the
 * webhook worker). A real server process gets SIGTERM with an event stream open, an upload in flight and an
 * idle keep-alive connection: the upload is answered, the stream gets `closing` and ends, the process exits 0
 * at once. One whose request never finishes exits 1 at SHUTDOWN_TIMEOUT_MS. And in the app: a webhook
 * attempt under way is cut after half the budget and handed back (lease cleared, no attempt counted).
 */

describeEachDb('graceful stop: webhook deliveries under way are handed back', (p) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterAll(async () => receiver?.close());

  it('cuts a hanging attempt after half SHUTDOWN_TIMEOUT_MS, clears its lease, counts no attempt', async () => {
    receiver = await startReceiver(() => 'hang');
    const db = p().db.db;
    const carrier = await db.selectFrom('users').select('company_id').where('email', '=', DEMO.carrier).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const ep = await db
      .insertInto('webhook_endpoints')
      .values({
        company_id: carrier.company_id,
        url: receiver.url,
        events: 'transport_request.created',
        secret: newWebhookSecret(),
        lang: 'it',
        status: 'active',
        created_by_name: 'Test',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const d = await db
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: ep.id,
        event_id: newEventId(),
        event_type: 'transport_request.created',
        transport_request_id: 1,
        ordering_key: 'tr:stop',
        payload: '{"type":"transport_request.created"}',
        created_at: now,
        next_attempt_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // an app of its own, stopping within 1 s: attempts get 500 ms (WEBHOOK_TIMEOUT_MS is 10 s)
    const app = await buildApp({ config: { ...p().config, shutdownTimeoutMs: 1000 }, db: p().db });
    await app.ready();
    const run = app.webhooks.runOnce();
    for (let i = 0; i < 100 && !receiver.received.length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(receiver.received).toHaveLength(1);
    const leased = await db.selectFrom('webhook_deliveries').select('locked_until').where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(leased.locked_until).not.toBeNull();

    const started = Date.now();
    await app.close();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(2500);
    expect(await run).toBe(1);
    expect(app.webhooks.outcomes).toEqual({ delivered: 0, retry: 0, gave_up: 0, handed_back: 1 });
    const row = await db
      .selectFrom('webhook_deliveries')
      .select(['locked_until', 'attempts', 'last_attempt_at', 'delivered_at', 'gave_up_at', 'next_attempt_at'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ locked_until: null, attempts: 0, last_attempt_at: null, delivered_at: null, gave_up_at: null, next_attempt_at: now });
    // another process takes it at once, not after the lease (2 × WEBHOOK_TIMEOUT_MS + 5 s)
    const claimed = await webhooksRepo(db).claim(20, 60_000);
    expect(claimed.map((c) => c.id)).toContain(d.id);
    await webhooksRepo(db).handBack([d.id]);
  });
});

/** A server process on a copy of the run's migrated and seeded SQLite template (no seed work at start). */
function startServer(port: number, dataDir: string, env: Record<string, string> = {}): Watched {
  return watch(process.execPath, serverArgs(), {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    API_PASSWORD: 'stop-test-password',
    LOG_LEVEL: 'info',
    STATIC_DIR: `${dataDir}/no-static`,
    WEBHOOK_POLL_MS: '0',
    ...env,
  });
}

const API = { 'x-api-password': 'stop-test-password' };

async function ready(port: number, server: Watched) {
  await Promise.race([
    server.waitForOutput(/Freight portal is running/, 60_000),
    server.exited.then(({ code }) => {
      throw new Error(`the server exited (${code}) while starting:\n${server.output()}`);
    }),
  ]);
  expect((await call(port, '/healthz')).status).toBe(200);
}

async function login(port: number, email: string): Promise<string> {
  const r = await call(port, '/api/v1/visitor/login', {
    method: 'POST',
    headers: { ...API, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO.password }),
  });
  expect(r.status, r.body).toBe(200);
  return r.json().token as string;
}

/** A multipart upload whose body is sent in two halves, so it can be in flight when the signal comes. */
async function slowUpload(port: number, token: string) {
  const request = new Request('http://upload.test/', {
    method: 'POST',
    body: form(
      { dry_run: 1 },
      { field: 'hub_costs', name: 'hub.xlsx', data: xlsx([['code', 'silver', 'gold'], ...Array.from({ length: 200 }, (_, i) => [`HUB${i}`, 5, 9])]) },
    ),
  });
  const body = Buffer.from(await request.arrayBuffer());
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: '/api/v1/company/express_hub_costs/store',
    method: 'POST',
    agent: false,
    headers: { ...API, authorization: `Bearer ${token}`, 'content-type': request.headers.get('content-type')!, 'content-length': String(body.length) },
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
  });
  answer.catch(() => {}); // a test that fails before awaiting it leaves no unhandled rejection behind
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return { answer, finish: () => req.end(body.subarray(half)), abandon: () => req.destroy() };
}

describe('graceful stop of a server process (SIGTERM)', () => {
  const dirs: string[] = [];
  const servers: Watched[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  });
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const dataDir = () => {
    const d = copyDataDir(inject('portalTemplates').sqlite.dataDir, 'portal-stop-');
    dirs.push(d);
    return d;
  };

  it('answers the upload in flight, ends the open stream with a last event, drops idle keep-alive connections, exits 0', async () => {
    const port = await freePort();
    const server = startServer(port, dataDir());
    servers.push(server);
    await ready(port, server);
    const carrier = await login(port, DEMO.carrier);
    const enduser = await login(port, DEMO.enduser);

    // an idle keep-alive connection (a browser's): it must not hold the stop for its 72 s timeout
    const agent = new http.Agent({ keepAlive: true });
    expect((await call(port, '/healthz', { agent })).status).toBe(200);
    // a connection that never sent a request (a browser's preconnect, a balancer's TCP check):
    // Node 20's server does not count it idle, and it held the stop until the timeout (exit 1)
    const silent = await new Promise<net.Socket>((done, fail) => {
      const s = net.connect(port, '127.0.0.1', () => done(s));
      s.on('error', fail);
    });
    const silentClosed = new Promise<void>((done) => silent.on('close', () => done()));

    const ticket = await call(port, '/api/v1/enduser/events/ticket', { method: 'POST', headers: { ...API, authorization: `Bearer ${enduser}` } });
    expect(ticket.status, ticket.body).toBe(200);
    const stream = await openEvents(port, `/api/v1/enduser/events?ticket=${encodeURIComponent(ticket.json().data.ticket)}`);
    expect(stream.status).toBe(200);

    const upload = await slowUpload(port, carrier);
    await new Promise((r) => setTimeout(r, 300)); // the server has the request's head: it is in flight

    const signalled = Date.now();
    server.proc.kill('SIGTERM');
    const last = await stream.next('closing');
    expect(last.data).toBe('{}');
    await stream.ended;
    // nothing new is served meanwhile: the connection is refused (or, in the instant between the streams'
    // end and the listener's close, accepted and dropped unanswered)
    const late = await call(port, '/healthz').then(
      (r) => r.status,
      (err: NodeJS.ErrnoException) => err.code,
    );
    expect(['ECONNREFUSED', 'ECONNRESET', 503]).toContain(late);

    upload.finish();
    const answer = await upload.answer;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: true, data: { dry_run: true, errors: [] } });
    expect(answer.headers.connection).toBe('close');

    const { code } = await server.exited;
    const took = Date.now() - signalled;
    expect(code, server.output().slice(-3000)).toBe(0);
    expect(took).toBeLessThan(5000); // well inside SHUTDOWN_TIMEOUT_MS (10 s): nothing waited for a timeout
    expect(server.output()).toMatch(/"signal":"SIGTERM".*"msg":"stopping: no new connections/);
    expect(server.output()).toMatch(/"msg":"stopped"/);
    await silentClosed;
    agent.destroy();
  }, 90_000);

  it('past SHUTDOWN_TIMEOUT_MS cuts what is left and exits 1', async () => {
    const port = await freePort();
    const server = startServer(port, dataDir(), { SHUTDOWN_TIMEOUT_MS: '1500' });
    servers.push(server);
    await ready(port, server);
    const carrier = await login(port, DEMO.carrier);
    const upload = await slowUpload(port, carrier); // never finished
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    server.proc.kill('SIGTERM');
    const { code } = await server.exited;
    const took = Date.now() - signalled;
    expect(code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(4000);
    expect(server.output()).toMatch(/"connections":1.*"msg":"stop timed out: cutting the remaining connections, exit 1"/);
    upload.abandon();
  }, 90_000);
});

/**
 * A process whose log reader is gone (its supervisor or terminal killed: `npm start` stopped while starting) must
 * still exit. The server logs through Fastify's pino, which writes asynchronously and flushes what is left
 * synchronously on exit. With sonic-boom 4 (pino 10's), that flush retried a broken pipe (EPIPE) forever: a
 * server process was found an hour and 45 minutes after its parent, busy at exit, holding its database.
 * package.json's `overrides` give pino sonic-boom 5, whose flush gives up on an error it cannot retry. The
 * exact sequence, in a process of its own: the pipe's reader closed, one line being written while more wait,
 * then `process.exit` (the graceful stop's last line, "stopped", is followed by one).
 */
describe('a server process whose log reader is gone', () => {
  it('still exits: the exit flush gives up on a broken pipe', async () => {
    const script = [
      "import Fastify from 'fastify';",
      "const app = Fastify({ logger: { level: 'info' } });",
      "setTimeout(() => { for (let i = 0; i < 3; i++) app.log.info('line ' + i); process.exit(0); }, 200);",
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the first line
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const outcome = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    if (outcome === 'hung') child.kill('SIGKILL');
    expect(outcome, stderr).not.toBe('hung');
  }, 20_000);
});
