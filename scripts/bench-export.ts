/**
 * `npm run bench:export` (issue 24 item 3, docs/list-exports.md): the transport-request export at
 * 100 000 requests, through the HTTP route of a real server process on loopback. For each format
 * (.xlsx, .csv) and caller (the admin: every request; the demo carrier: its half), the seconds to the
 * first byte and to the last, the file's size, and the server process's peak resident memory during
 * that export (Linux: VmHWM, reset before each export through /proc/<pid>/clear_refs; sampled VmRSS
 * where that is refused).
 *
 * SQLite in a temporary folder; PostgreSQL too when FAULT_PG_URL or TEST_DATABASE_URL (or
 * BENCH_DATABASE_URL) is set, on a fresh schema dropped afterwards. BENCH_ROWS (default 100 000).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.js';
import { openDb } from '../server/db/index.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { seed } from '../server/seed/index.js';
import { fill } from './bench-requests-data.js';
import { serverArgs } from './serverCommand.mjs';
import { freePort, pgSchema } from './benchKit.js';

const ROWS = Number(process.env.BENCH_ROWS || 100_000);
const API_PASSWORD = 'bench-password';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const MB = 1024 * 1024;

/** The process's resident memory now and its peak (kB → bytes), from /proc. */
function memory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
/** Resets the peak (VmHWM) to the current RSS; false when the kernel refuses. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function run(label: string, databaseUrl: string | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
  const pg = databaseUrl ? await pgSchema(databaseUrl, 'bench_export') : null;
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    API_PASSWORD,
    LOG_LEVEL: 'warn',
    STATIC_DIR: path.join(dataDir, 'no-static'),
  };
  const config = loadConfig({ NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv);
  const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  let server: ChildProcess | undefined;
  try {
    await migrateToLatest(handle.db);
    await seed(handle.db, config);
    await handle.db.deleteFrom('transport_requests').execute();
    const t = performance.now();
    await fill(handle.db, handle.dialect, ROWS);
    if (pg) await sql`vacuum analyze`.execute(handle.db);
    console.log(`\n${label}: ${ROWS.toLocaleString('en')} requests written in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    server = spawn(process.execPath, serverArgs(), {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}/api/v1`;
    const headers = { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', 'accept-language': 'it' };
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/visitor/ping`, { headers })).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 300) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const token = async (email: string) =>
      (await (await fetch(`${base}/visitor/login`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'demo1234' }) })).json()).token as string;
    const callers = [
      { who: 'admin', ns: 'admin', token: await token('admin@portal.demo') },
      { who: 'carrier', ns: 'company', token: await token('carrier@portal.demo') },
    ];
    // The server's own node process: the child of the launcher when there is one.
    const pid = server.pid!;
    const nodePid = (() => {
      try {
        const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
        return kids.length ? kids[0] : pid;
      } catch {
        return pid;
      }
    })();
    console.log(`server idle: RSS ${(memory(nodePid).rss / MB).toFixed(0)} MB`);
    console.log('caller   format  rows      first byte  total     size      peak RSS (idle before)');
    for (const c of callers) {
      for (const format of ['csv', 'xlsx'] as const) {
        const before = memory(nodePid).rss;
        const reset = resetPeak(nodePid);
        let sampled = before;
        const sampler = setInterval(() => (sampled = Math.max(sampled, memory(nodePid).rss)), 20);
        const start = performance.now();
        const res = await fetch(`${base}/${c.ns}/transport_requests/export?format=${format}`, { headers: { ...headers, authorization: `Bearer ${c.token}` } });
        if (!res.ok || !res.body) throw new Error(`${c.who} ${format}: ${res.status} ${await res.text()}`);
        let first = 0;
        let bytes = 0;
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (!first) first = performance.now();
          bytes += value.byteLength;
        }
        const total = (performance.now() - start) / 1000;
        clearInterval(sampler);
        const peak = reset ? memory(nodePid).peak : sampled;
        const rows = res.headers.get('x-export-rows');
        console.log(
          `${c.who.padEnd(8)} ${format.padEnd(7)} ${String(rows).padEnd(9)} ${((first - start) / 1000).toFixed(2).padStart(6)} s  ${total.toFixed(2).padStart(6)} s  ${(bytes / MB).toFixed(1).padStart(6)} MB  ${(peak / MB).toFixed(0).padStart(5)} MB (${(before / MB).toFixed(0)} MB)${reset ? '' : ' sampled'}`,
        );
      }
    }
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    await handle.destroy();
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  await run('SQLite', undefined);
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.FAULT_PG_URL || process.env.TEST_DATABASE_URL;
  if (pgUrl) await run('PostgreSQL', pgUrl);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
