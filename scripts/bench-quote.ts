/**
 * `npm run bench:quote`: throughput and p99 latency of quotes against a real server process on loopback
 * (50 connections), each as a ratio to the same server's trivial JSON route (GET /visitor/ping)
 * measured in the same run. Budget (issue 8): quote throughput ≥ 0.4 × trivial, p99 ≤ 20 ms.
 *
 * SQLite in a temporary folder by default; BENCH_DATABASE_URL=postgres://… runs it on a fresh
 * PostgreSQL schema. Tariffs: the demo carrier's when it has some, else a generated equivalent.
 * BENCH_SECONDS sets each run's length (default 10).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../server/config.js';
import { openDb } from '../server/db/index.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { seed } from '../server/seed/index.js';
import { generateTariffs, hasExpressTariffs } from './bench-quote-data.js';
import { serverArgs } from './serverCommand.mjs';
import { freePort, pgSchema } from './benchKit.js';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 50;
const API_PASSWORD = 'bench-password';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

async function prepare(env: Record<string, string | undefined>) {
  const config = loadConfig({ NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv);
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db.db);
  await seed(db.db, config);
  const carrier = await db.db.selectFrom('users as u').innerJoin('companies as c', 'c.id', 'u.company_id').select('c.id').where('u.email', '=', 'carrier@portal.demo').executeTakeFirstOrThrow();
  const demo = await hasExpressTariffs(db.db, carrier.id);
  if (!demo) await generateTariffs(db.db, carrier.id);
  await db.db.insertInto('settings').values({ key: 'visitor_company_id', value: String(carrier.id), public: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(carrier.id) })).execute();
  await db.destroy();
  return demo ? 'demo tariffs' : 'generated tariffs (every province, 2 classes, sell and buy)';
}

interface Run { name: string; rps: number; p99: number; p50: number; non2xx: number; errors: number }

function run(name: string, opts: autocannon.Options): Promise<Run> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ name, rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-quote-'));
  const pg = process.env.BENCH_DATABASE_URL ? await pgSchema(process.env.BENCH_DATABASE_URL) : null;
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir, DATABASE_URL: pg?.url, PORT: String(port), HOST: '127.0.0.1', API_PASSWORD,
    LOG_LEVEL: 'warn', STATIC_DIR: path.join(dataDir, 'no-static'),
    // the per-address visitor throttle stays on (its counter is written on every quote) but never trips here
    QUOTE_RATE_LIMIT: '1000000000',
  };
  const tariffs = await prepare(env);
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server process
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, serverArgs(nodeArgs), {
    cwd: root, env: { ...process.env, NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api/v1`;
  const headers = { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', 'accept-language': 'it' };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/visitor/ping`, { headers })).ok) break;
      } catch { /* not up yet */ }
      if (i > 150) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await (await fetch(`${base}/visitor/login`, { method: 'POST', headers, body: JSON.stringify({ email: 'enduser@portal.demo', password: 'demo1234' }) })).json();
    const asEndUser = { ...headers, authorization: `Bearer ${login.token}` };

    const route = { originCountry: 'IT', originPostalCode: '20121', originLocality: 'Milano', originProvince: 'MI', destinationCountry: 'IT', destinationPostalCode: '00118', destinationLocality: 'Roma', destinationProvince: 'RM' };
    const express = JSON.stringify({ zone: 'national', service: 'palletExpress', flow: 'OUT', ...route, palletWeight: [250, 480, 120], palletWidth: [120, 120, 80], palletLength: [80, 100, 120], palletHeight: [90, 140, 75] });
    const standard = JSON.stringify({ zone: 'national', service: 'standard', ...route, standardunits: 4, standardweight: 480, standardvolume: 2.1, standardvolumeType: 'CBM' });
    for (const [name, body] of [['express', express], ['standard', standard]]) {
      const check = await (await fetch(`${base}/visitor/costRequest`, { method: 'POST', headers, body })).json();
      if (check.status !== true) throw new Error(`${name} quote does not price: ${JSON.stringify(check)}`);
    }

    await run('warm-up', { url: `${base}/visitor/costRequest`, method: 'POST', headers, body: express, duration: 3 });
    const runs: Run[] = [];
    // BENCH_ONLY=express (or standard, enduser…) keeps the trivial run and the quote runs whose name contains it
    const only = process.env.BENCH_ONLY;
    const plan: Array<[string, autocannon.Options]> = [
      ['visitor, 3-pallet express', { url: `${base}/visitor/costRequest`, method: 'POST', headers, body: express }],
      ['visitor, standard', { url: `${base}/visitor/costRequest`, method: 'POST', headers, body: standard }],
      ['end user, 3-pallet express', { url: `${base}/visitor/costRequest`, method: 'POST', headers: asEndUser, body: express }],
      ['end user, standard', { url: `${base}/visitor/costRequest`, method: 'POST', headers: asEndUser, body: standard }],
    ];
    runs.push(await run('trivial GET /visitor/ping', { url: `${base}/visitor/ping`, headers }));
    for (const [name, opts] of plan) if (!only || name.includes(only)) runs.push(await run(name, opts));

    const trivial = runs[0].rps;
    console.log(`\nQuote benchmark — ${pg ? 'PostgreSQL' : 'SQLite'}, ${tariffs}, ${CONNECTIONS} connections, ${SECONDS} s per run, ${os.cpus().length} CPUs`);
    console.log(`${'run'.padEnd(30)} ${'req/s'.padStart(8)} ${'× trivial'.padStart(10)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non-2xx'.padStart(8)}  budget`);
    let ok = true;
    for (const r of runs) {
      const ratio = r.rps / trivial;
      const isQuote = r !== runs[0];
      const pass = !isQuote || (ratio >= 0.4 && r.p99 <= 20 && r.non2xx === 0 && r.errors === 0);
      ok &&= pass;
      console.log(`${r.name.padEnd(30)} ${r.rps.toFixed(0).padStart(8)} ${ratio.toFixed(2).padStart(10)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.non2xx + r.errors).padStart(8)}  ${isQuote ? (pass ? 'ok' : 'MISSED') : ''}`);
    }
    console.log(ok ? '\nAll quote runs within budget (≥ 0.4 × trivial, p99 ≤ 20 ms).' : '\nBudget MISSED.');
    // At 50 connections a request waits for the 49 before it (Little's law: mean latency ≈ 50 / throughput);
    // when the trivial route itself misses 20 ms, the machine is the bottleneck, not the quote.
    if (runs[0].p99 > 20) console.log(`Note: the trivial route's own p99 is ${runs[0].p99} ms here (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs).`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
