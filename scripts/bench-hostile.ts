/**
 * `npm run bench:hostile` (issue 31): while 50 connections ask quotes, two carriers upload the hostile
 * spreadsheets of the review (tests/fixtures/hostileSheets.ts: made here, not committed) to the tariff
 * check and the publish, two files at a time each, for the whole run. Against a real server process
 * (the one `npm start` runs) on loopback, SQLite in a temporary folder, or a fresh PostgreSQL schema
 * with BENCH_DATABASE_URL. Printed, each measured in this one run:
 *   - quote p99 with the uploads ÷ quote p99 without them (measured before and after, averaged): ≤ 2;
 *   - the slowest quote during the uploads: no other client waits more than 1 s;
 *   - the server's resident memory, peak during the uploads − before them: ≤ 512 MB, and it never dies;
 *   - every hostile upload answered 4xx (or a 2xx check listing errors) within 10 s, no answer over 1 MB.
 * BENCH_SECONDS (default 20) is the length of the run with uploads; the runs without them take half each.
 * BENCH_CASES=a,b runs only the named cases (`pdf-named-xlsx` alone measures what uploading at all costs).
 * Exits 1 when a budget is missed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { hashPassword } from '../server/lib/passwords.js';
import { COMPANY_ROLE, USER_ROLE } from '../model/roles.js';
import { HOSTILE_CASES } from '../tests/fixtures/hostileSheets.js';
import { BENCH_EXPRESS, benchPortal, nearestRank, seededBenchDb, untilServing } from './benchKit.js';
import { serverArgs } from './serverCommand.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS || 20);
const CONNECTIONS = 50;
const API_PASSWORD = 'bench-password';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SECOND_CARRIER = { email: 'hostile2@bench.demo', password: 'demo1234' };

async function prepare(env: Record<string, string | undefined>) {
  const { db } = await seededBenchDb(env);
  const now = new Date().toISOString();
  const second = await db.db
    .insertInto('companies')
    .values({
      status_id: 1,
      is_inbound: 1,
      type: 'Customer',
      created_at: now,
      updated_at: now,
      legal_name: 'Ostile Due',
      company_role_id: COMPANY_ROLE.CARRIER,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.db
    .insertInto('users')
    .values({
      password_hash: await hashPassword(SECOND_CARRIER.password),
      status_id: 1,
      created_at: now,
      updated_at: now,
      first_name: 'O',
      last_name: 'D',
      role_id: USER_ROLE.CARRIER,
      company_id: second.id,
      email: SECOND_CARRIER.email,
    })
    .execute();
  await db.destroy();
}

interface Run {
  latencies: number[];
  non2xx: number;
  errors: number;
  rps: number;
}
function quotes(opts: autocannon.Options, seconds: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    autocannon({ connections: CONNECTIONS, duration: seconds, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ latencies, non2xx: r.non2xx, errors: r.errors, rps: latencies.length / r.duration });
    }).on('response', (_c, _s, _b, ms) => latencies.push(ms));
  });
}
const quantile = (v: number[], q: number) => nearestRank(Float64Array.from(v).sort(), q);

/** The server's resident memory (MB), from /proc. */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

interface Upload {
  carrier: string;
  name: string;
  dryRun: boolean;
  status: number;
  ms: number;
  bytes: number;
  ok: boolean;
  expected: string;
}

async function main() {
  const portal = await benchPortal('bench-hostile', process.env.BENCH_DATABASE_URL, API_PASSWORD, { QUOTE_RATE_LIMIT: '1000000000' });
  const { env, pg, base } = portal;
  await prepare(env);
  console.log('making the hostile files…');
  // BENCH_CASES=name,name keeps some cases (e.g. only `pdf-named-xlsx`: the cost of uploading at all).
  const only = process.env.BENCH_CASES?.split(',').map((s) => s.trim());
  const files = HOSTILE_CASES.filter((c) => !only || only.includes(c.name)).map((c) => ({ ...c, data: c.make() }));
  for (const f of files) console.log(`  ${f.name.padEnd(30)} ${(f.data.length / 1024).toFixed(1).padStart(8)} kB  ${f.was}`);

  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", adds V8 or Node options to the server process
  const server = spawn(process.execPath, serverArgs((process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)), {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let died: string | null = null;
  server.once('exit', (code, signal) => (died = `exit ${code ?? ''}${signal ?? ''}`));
  const headers = { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', 'accept-language': 'it' };
  try {
    await untilServing(base, headers);
    const login = async (email: string, password: string) => {
      const r = await (await fetch(`${base}/visitor/login`, { method: 'POST', headers, body: JSON.stringify({ email, password }) })).json();
      if (!r.token) throw new Error(`sign-in of ${email}: ${JSON.stringify(r)}`);
      return r.token as string;
    };
    const carriers = [
      { name: 'carrier A', token: await login('carrier@portal.demo', 'demo1234') },
      { name: 'carrier B', token: await login(SECOND_CARRIER.email, SECOND_CARRIER.password) },
    ];
    const quote = {
      url: `${base}/visitor/costRequest`,
      method: 'POST' as const,
      headers,
      body: JSON.stringify(BENCH_EXPRESS),
    };
    const check = await (await fetch(quote.url, { method: 'POST', headers, body: quote.body })).json();
    if (check.status !== true) throw new Error(`the quote does not price: ${JSON.stringify(check)}`);

    await quotes(quote, 3);
    const pid = server.pid!;
    const before = await quotes(quote, SECONDS / 2);

    // The uploads: each carrier two at a time (its share of the pool), cycling through the cases until the
    // quotes stop, alternating the check (dry_run=1) and the publish.
    const uploads: Upload[] = [];
    let stop = false;
    const rssBefore = rssMb(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid) || 0)), 100);
    const lane = async (carrier: (typeof carriers)[number], offset: number) => {
      for (let i = offset; !stop; i++) {
        const f = files[i % files.length];
        const dryRun = i % 2 === 0;
        const fd = new FormData();
        if (dryRun) fd.append('dry_run', '1');
        fd.append('postal_surcharges', new Blob([new Uint8Array(f.data)]), f.fileName);
        const t0 = performance.now();
        const res = await fetch(`${base}/company/postal_surcharges/store`, {
          method: 'POST',
          headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${carrier.token}`, 'accept-language': 'it' },
          body: fd,
        });
        const text = await res.text();
        const ms = performance.now() - t0;
        let ok = res.status >= 400 && res.status < 500;
        if (res.status === 200) {
          const body = JSON.parse(text);
          // a check of a file that is harmless once read: answered, listing its errors, nothing published
          ok = dryRun && body.data?.errors?.length > 0;
        }
        uploads.push({
          carrier: carrier.name,
          name: f.name,
          dryRun,
          status: res.status,
          ms,
          bytes: Buffer.byteLength(text),
          ok,
          expected: `${f.status} ${f.key}`,
        });
      }
    };
    const lanes = carriers.flatMap((c, k) => [lane(c, k * 3), lane(c, k * 3 + 1)]);
    const during = await quotes(quote, SECONDS);
    stop = true;
    await Promise.all(lanes);
    clearInterval(sampler);
    const after = await quotes(quote, SECONDS / 2);

    const p99Before = quantile(before.latencies, 0.99);
    const p99After = quantile(after.latencies, 0.99);
    const p99Without = (p99Before + p99After) / 2;
    const p99During = quantile(during.latencies, 0.99);
    const maxDuring = during.latencies.reduce((m, v) => Math.max(m, v), 0);
    const failedQuotes = [before, during, after].reduce((n, r) => n + r.non2xx + r.errors, 0);
    const ratio = p99During / p99Without;
    const slowest = Math.max(...uploads.map((u) => u.ms));
    const biggest = Math.max(...uploads.map((u) => u.bytes));
    const wrong = uploads.filter((u) => !u.ok);
    const busy = uploads.filter((u) => u.status === 429).length;
    const grown = rssPeak - rssBefore;

    console.log(
      `\nHostile uploads — ${pg ? 'PostgreSQL' : 'SQLite'}, ${CONNECTIONS} connections of quotes, 2 carriers × 2 uploads at a time, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(`${'case'.padEnd(30)} ${'n'.padStart(4)} ${'statuses'.padEnd(16)} ${'max ms'.padStart(7)} ${'max bytes'.padStart(9)}  expected`);
    for (const f of files) {
      const mine = uploads.filter((u) => u.name === f.name);
      const statuses = [...new Set(mine.map((u) => u.status))].sort().join(',');
      console.log(
        `${f.name.padEnd(30)} ${String(mine.length).padStart(4)} ${statuses.padEnd(16)} ${Math.max(0, ...mine.map((u) => u.ms))
          .toFixed(0)
          .padStart(7)} ${String(Math.max(0, ...mine.map((u) => u.bytes))).padStart(9)}  ${f.status} ${f.key}`,
      );
    }
    const budgets: Array<[string, string, boolean]> = [
      [
        'quote p99 with uploads ÷ without',
        `${ratio.toFixed(2)} (${p99During.toFixed(1)} ms ÷ ${p99Without.toFixed(1)} ms; before ${p99Before.toFixed(1)}, after ${p99After.toFixed(1)})`,
        ratio <= 2,
      ],
      ['slowest quote during the uploads', `${maxDuring.toFixed(0)} ms (${during.latencies.length} quotes, ${during.rps.toFixed(0)}/s)`, maxDuring <= 1000],
      ['quotes failed', String(failedQuotes), failedQuotes === 0],
      ['server memory growth (peak − before)', `${grown.toFixed(0)} MB (${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} MB)`, grown <= 512],
      ['server alive at the end', died ?? 'yes', died === null],
      [
        'uploads answered 4xx or a check with errors',
        `${uploads.length - wrong.length} of ${uploads.length} (${busy} of them 429)`,
        wrong.length === 0 && uploads.length > 0,
      ],
      ['slowest upload answer', `${(slowest / 1000).toFixed(1)} s`, slowest <= 10_000],
      ['largest answer', `${(biggest / 1024).toFixed(1)} kB`, biggest <= 1024 * 1024],
    ];
    console.log('');
    for (const [name, value, pass] of budgets) console.log(`${name.padEnd(46)} ${value.padEnd(60)} ${pass ? 'ok' : 'MISSED'}`);
    for (const w of wrong.slice(0, 5)) console.log(`  wrong answer: ${JSON.stringify(w)}`);
    const ok = budgets.every((b) => b[2]);
    console.log(ok ? '\nAll hostile-upload budgets met.' : '\nBudget MISSED.');
    process.exitCode = ok ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    if (!died) await new Promise((r) => server.once('exit', r));
    await portal.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
