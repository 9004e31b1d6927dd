// `npm run bench`: every performance budget of issues 11 and 18, one after the other on the same machine, each
// script printing its own figures (ratios measured in its one run) and exiting 1 when its budget is
// missed; this prints a summary at the end and exits 1 when any budget was missed.
// BENCH_ONLY=quote,bundle runs some of them. PostgreSQL runs use BENCH_DATABASE_URL (default: the local
// test database, skipped when it does not answer).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresAnswers() {
  try {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

const plan = [
  { name: 'quote', budget: 'quote ≥ 0.4 × trivial route, p99 ≤ 20 ms at 50 connections (SQLite)', script: 'bench-quote.ts', env: {} },
  { name: 'import', budget: '100 000-row rate sheet import ≤ 2 × bare parse', script: 'bench-import.ts', env: {} },
  {
    name: 'hostile',
    budget:
      'hostile uploads from 2 carriers under 50 connections of quotes: quote p99 ≤ 2 × without, no quote over 1 s, server +≤ 512 MB, every upload 4xx in ≤ 10 s (SQLite)',
    script: 'bench-hostile.ts',
    env: {},
  },
  { name: 'requests', budget: 'request list, 1 000 000 requests, p95 ≤ 50 ms (SQLite)', script: 'bench-requests.ts', env: {} },
  {
    name: 'requests',
    budget: 'request list, 1 000 000 requests, p95 ≤ 50 ms (PostgreSQL)',
    script: 'bench-requests.ts',
    env: { BENCH_DATABASE_URL: pgUrl },
    pg: true,
  },
  { name: 'events', budget: 'live events, 500 streams: message p95 ≤ 200 ms, 0 queries in 30 s idle (SQLite)', script: 'bench-events.ts', env: {} },
  {
    name: 'events',
    budget: 'live events, 500 streams: message p95 ≤ 200 ms, 0 queries in 30 s idle (PostgreSQL)',
    script: 'bench-events.ts',
    env: { BENCH_DATABASE_URL: pgUrl },
    pg: true,
  },
  { name: 'bundle', budget: 'login first load ≤ 200 kB transferred (all resources), other screens on demand', script: 'bench-bundle.ts', env: {} },
  {
    name: 'lighthouse',
    budget: 'Lighthouse mobile, /#/quote and /#/login: performance ≥ 90, LCP ≤ 2.5 s, TBT ≤ 200 ms, accessibility 100, best practices ≥ 95',
    script: 'bench-lighthouse.ts',
    env: {},
  },
];

const only = process.env.BENCH_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
// BENCH_ONLY picks steps here; inside a step (bench:quote) it would pick that script's runs instead
const { BENCH_ONLY: _picked, ...childEnv } = process.env;
const hasPg = await postgresAnswers();
const results = [];
for (const step of plan) {
  if (only && !only.includes(step.name)) continue;
  if (step.pg && !hasPg) {
    results.push({ ...step, outcome: `skipped: no PostgreSQL at ${pgUrl}` });
    continue;
  }
  console.log(`\n━━━ ${step.budget}\n`);
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', step.script)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...childEnv, ...step.env },
  });
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  results.push({ ...step, outcome: r.status === 0 ? `met (${secs} s)` : `MISSED or failed (exit ${r.status}, ${secs} s)` });
}

console.log(`\n━━━ Summary (${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at the end)`);
for (const r of results) console.log(`  ${r.outcome.startsWith('met') ? '✔' : r.outcome.startsWith('skipped') ? '–' : '✘'} ${r.budget}: ${r.outcome}`);
process.exit(results.some((r) => r.outcome.startsWith('MISSED')) ? 1 : 0);
