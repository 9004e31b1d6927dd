import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { pgSchema } from '../../scripts/benchKit.js';
import { freePort } from '../faults/server.js';
import { copyDataDir } from '../setup/portalTemplate.js';
import { call, healthPid, root, waitFor, watch, type Watched } from './runtimeKit.js';

/**
 * Issue 32, item 4: `npm start` (scripts/start.mjs) supervises the server. Real processes: the supervisor
 * with START_SKIP_BUILD=1 (no dist/ to build) on a temporary SQLite folder or a fresh PostgreSQL schema.
 * - kill -9 of the server: logged with its cause, started again after 1 s, the banner not printed again;
 *   SIGTERM to the supervisor stops it all with exit 0.
 * - a server that keeps failing at start: its last stderr lines in the log, the backoff doubling (1 s, 2 s).
 * - a configuration the server refuses (exit 78): not restarted, the supervisor exits 78.
 * - WORKERS=2 on PostgreSQL: two processes answer on one port, the banner once; refused on SQLite.
 */

const START = path.join(root, 'scripts', 'start.mjs');

/** The supervisor's JSON lines (its own, `supervisor: true`). */
const supervisorLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes('"supervisor":true'))
    .map((l) => JSON.parse(l) as Record<string, unknown> & { msg: string });

describe('npm start supervises the server', () => {
  const dirs: string[] = [];
  const running: Watched[] = [];
  afterEach(async () => {
    for (const w of running.splice(0)) {
      if (w.proc.exitCode !== null || w.proc.signalCode !== null) continue;
      w.proc.kill('SIGTERM');
      const done = await Promise.race([w.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
      if (!done) w.proc.kill('SIGKILL');
    }
  });
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const supervise = (port: number, env: Record<string, string>) => {
    const w = watch(process.execPath, [START], {
      ...process.env,
      START_SKIP_BUILD: '1',
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      API_PASSWORD: 'supervisor-test',
      LOG_LEVEL: 'warn',
      WEBHOOK_POLL_MS: '0',
      ...env,
    });
    running.push(w);
    return w;
  };
  const sqliteDir = () => {
    // a copy of the run's migrated and seeded template: the server starts without seeding
    const d = copyDataDir(inject('portalTemplates').sqlite.dataDir, 'portal-supervised-');
    dirs.push(d);
    return { DATA_DIR: d, STATIC_DIR: path.join(d, 'no-static') };
  };

  it('starts the server again after kill -9, logs the crash, prints the banner once; SIGTERM stops it all with 0', async () => {
    const port = await freePort();
    const sup = supervise(port, sqliteDir());
    await sup.waitForOutput(/Freight portal is running at/, 60_000);
    const first = await waitFor('the server answers', () => healthPid(port));
    expect(first).not.toBe(sup.proc.pid); // the server is a child of the supervisor

    process.kill(first, 'SIGKILL');
    const killedAt = Date.now();
    const crash = await sup.waitForOutput(/\{[^\n]*"msg":"server 1 crashed \(signal SIGKILL\)[^\n]*\}/, 10_000);
    const line = JSON.parse(crash[0]);
    expect(line).toMatchObject({ level: 50, supervisor: true, server: 1, serverPid: first, code: null, signal: 'SIGKILL', wasReady: true, restartInMs: 1000 });
    expect(line.stderr).toEqual([]);
    const second = await waitFor('the server answers again', async () => {
      const pid = await healthPid(port);
      return pid && pid !== first ? pid : undefined;
    });
    // a second later it was started again (it then takes its start-up time to answer)
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1000);
    await sup.waitForOutput(/"msg":"server 1 is ready"/, 10_000);
    expect(sup.output().match(/Freight portal is running at/g)).toHaveLength(1);
    // the restart is counted where an alert can see it
    expect((await call(port, '/metrics')).body).toMatch(/^portal_server_restarts_total 1$/m);

    sup.proc.kill('SIGTERM');
    const { code } = await sup.exited;
    expect(code).toBe(0);
    expect(supervisorLines(sup.output()).map((l) => l.msg)).toEqual(expect.arrayContaining(['stopping the server processes', 'server 1 stopped']));
    expect(await healthPid(port)).toBeUndefined();
    expect(() => process.kill(second, 0)).toThrow(); // the server is gone too
  }, 120_000);

  it('a server failing at start: its last stderr lines logged, restarted after 1 s then 2 s', async () => {
    const port = await freePort();
    // nothing listens on port 1: every start fails connecting to the database
    const sup = supervise(port, { ...sqliteDir(), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    await sup.waitForOutput(/"restartInMs":2000/, 60_000);
    const crashes = supervisorLines(sup.output()).filter((l) => l.msg.startsWith('server 1 crashed'));
    expect(crashes.map((c) => c.restartInMs)).toEqual([1000, 2000]);
    for (const c of crashes) {
      expect(c).toMatchObject({ code: 1, signal: null, wasReady: false });
      expect((c.stderr as string[]).join('\n')).toMatch(/ECONNREFUSED/);
    }
    expect(Number(crashes[1].time) - Number(crashes[0].time)).toBeGreaterThanOrEqual(1000);
    expect(sup.output()).not.toMatch(/Freight portal is running/);
    sup.proc.kill('SIGTERM');
    expect((await sup.exited).code).toBe(0); // stopped while waiting to restart: nothing was running
  }, 120_000);

  it('does not restart a server that refuses its configuration (exit 78), and exits 78', async () => {
    const port = await freePort();
    const sup = supervise(port, { ...sqliteDir(), NODE_ENV: 'production', API_PASSWORD: '', SMTP_URL: '' });
    const { code } = await sup.exited;
    expect(code).toBe(78);
    expect(sup.output()).toMatch(/Configuration error: API_PASSWORD is required/);
    const lines = supervisorLines(sup.output());
    expect(lines.map((l) => l.msg)).toEqual(['server 1 refused its configuration (exit 78): not restarted']);
  }, 60_000);

  it('refuses WORKERS>1 without PostgreSQL, before starting anything', async () => {
    const sup = supervise(await freePort(), { ...sqliteDir(), WORKERS: '2', DATABASE_URL: '' });
    const { code } = await sup.exited;
    expect(code).toBe(78);
    expect(sup.output()).toMatch(/WORKERS=2 needs PostgreSQL \(DATABASE_URL\)/);
    expect(sup.output()).not.toMatch(/Freight portal is running|server 1/);
    const bad = supervise(await freePort(), { ...sqliteDir(), WORKERS: 'two' });
    expect((await bad.exited).code).toBe(78);
    expect(bad.output()).toMatch(/WORKERS must be a whole number/);
  }, 60_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'WORKERS=2 on PostgreSQL: two processes answer on one port, the second started once the first had migrated, one banner; SIGTERM stops both',
    async () => {
      const schema = await pgSchema(process.env.TEST_DATABASE_URL!, 'workers');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-workers-'));
      dirs.push(dataDir);
      try {
        const port = await freePort();
        const sup = supervise(port, { DATABASE_URL: schema.url, DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-static'), DEMO_DATA: '0', WORKERS: '2' });
        await sup.waitForOutput(/Freight portal is running at/, 90_000);
        await sup.waitForOutput(/"msg":"server 2 is ready"/, 60_000);
        // node:cluster hands each new connection to the next process
        const pids = new Set<number>();
        for (let i = 0; i < 20 && pids.size < 2; i++) pids.add((await healthPid(port))!);
        expect(pids.size).toBe(2);
        expect(pids.has(sup.proc.pid!)).toBe(false);
        expect(sup.output().match(/Freight portal is running at/g)).toHaveLength(1);
        expect(sup.output()).toMatch(/Server processes: 2 \(WORKERS\), one port/);

        // /metrics on either process answers both combined: 10 more /healthz calls, whoever took them
        const healthzCount = (text: string) =>
          Number(/^http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} (\d+)$/m.exec(text)?.[1]);
        const before = await call(port, '/metrics');
        expect(before.status, before.body).toBe(200);
        expect(before.body).toMatch(/^portal_server_processes\{state="answered"\} 2$/m);
        expect(before.body).toMatch(/^portal_server_processes\{state="wanted"\} 2$/m);
        expect(before.body).toMatch(/^portal_db_pool_max 20$/m); // two pools of 10, summed
        for (let i = 0; i < 10; i++) await healthPid(port);
        const after = await call(port, '/metrics');
        expect(healthzCount(after.body) - healthzCount(before.body)).toBe(10);

        sup.proc.kill('SIGTERM');
        expect((await sup.exited).code).toBe(0);
        const stopped = supervisorLines(sup.output()).filter((l) => /^server \d stopped$/.test(l.msg));
        expect(stopped.map((l) => [l.server, l.code]).sort()).toEqual([
          [1, 0],
          [2, 0],
        ]);
      } finally {
        await schema.drop();
      }
    },
    150_000,
  );
});
