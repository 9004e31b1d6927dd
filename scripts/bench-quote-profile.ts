/**
 * `npm run bench:quote-profile`: where a quote's time goes above the floor's (issue 37, "find the cost").
 *
 * One server, built in this process as the server builds it (SQLite in a temporary folder, or
 * BENCH_DATABASE_URL), on loopback; autocannon in a child process (its own CPU), 50 connections, the end
 * user's 3-pallet express quote (WHO=visitor: the visitor's) and its floor (the same body refused 422, as
 * bench:quote). Two rounds of BENCH_SECONDS (default 8) each, alternated. For each run: the server's CPU time
 * per request (process.cpuUsage over the run / answers) and a CPU profile (V8's sampler through
 * node:inspector, 200 µs). Printed: the CPU µs per request and their ratio, then per function the self time per
 * request on each side and the difference (quote − floor), largest differences first (BENCH_TOP, default 30),
 * then the same for inclusive time (a function and everything it called). The profiler slows JavaScript more
 * than native code: read the table as where the difference goes, and bench:quote for the throughput.
 *
 * BENCH_PROFILE_DIR keeps the .cpuprofile files (for Chrome's DevTools or scripts/cpuprofile-summary.mjs).
 * BENCH_PROFILER=0 leaves the profiler off and prints only the CPU per request (BENCH_ROUNDS alternations,
 * default 2): the quickest check of a change's effect on the server's side of the ratio, without the
 * profiler's own cost and without the client's share of the two cores that bench:quote's throughput includes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { BENCH_EXPRESS, benchPortal, seededBenchDb } from './benchKit.js';
import { generateTariffs, hasExpressTariffs } from './bench-quote-data.js';

const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const TOP = Number(process.env.BENCH_TOP || 30);
const PROFILER = process.env.BENCH_PROFILER !== '0';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 2));
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self and inclusive time (µs) per function name over a profile. */
function times(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const spent = new Map<number, number>();
  // a sample's time is the delta to the next one
  for (let i = 0; i < profile.samples.length; i++) spent.set(profile.samples[i]!, (spent.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  const name = (id: number) => {
    const f = byId.get(id)!.callFrame;
    const where = f.url.replace(/^file:\/\//, '').replace(`${root}/`, '');
    return `${f.functionName || '(anonymous)'} ${where}${where ? `:${f.lineNumber + 1}` : ''}`.trim();
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of spent) {
    self.set(name(id), (self.get(name(id)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = name(cur);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  return { self, inclusive };
}

function table(title: string, floor: Array<Map<string, number>>, quote: Array<Map<string, number>>, nFloor: number[], nQuote: number[], skip: RegExp) {
  const per = (maps: Array<Map<string, number>>, ns: number[], k: string) => maps.reduce((s, m, i) => s + (m.get(k) ?? 0) / ns[i]!, 0) / maps.length;
  const keys = new Set([...floor, ...quote].flatMap((m) => [...m.keys()]));
  const rows = [...keys]
    .filter((k) => !skip.test(k))
    .map((k) => ({ k, f: per(floor, nFloor, k), q: per(quote, nQuote, k) }))
    .sort((a, b) => Math.abs(b.q - b.f) - Math.abs(a.q - a.f))
    .slice(0, TOP);
  console.log(`\n${title} (µs per request; floor, quote, quote − floor)`);
  for (const r of rows) console.log(`${r.f.toFixed(2).padStart(7)} ${r.q.toFixed(2).padStart(7)} ${(r.q - r.f).toFixed(2).padStart(7)}  ${r.k}`);
}

async function main() {
  const portal = await benchPortal('bench-profile', process.env.BENCH_DATABASE_URL, 'bench-password', { QUOTE_RATE_LIMIT: '1000000000', LOG_LEVEL: 'warn' });
  try {
    const { db: seeded, carrierId } = await seededBenchDb(portal.env);
    if (!(await hasExpressTariffs(seeded.db, carrierId))) await generateTariffs(seeded.db, carrierId);
    await seeded.destroy();
    const { loadConfig } = await import('../server/config.js');
    const { openDb } = await import('../server/db/index.js');
    const { buildApp } = await import('../server/app.js');
    const config = loadConfig({ NODE_ENV: 'development', ...portal.env } as NodeJS.ProcessEnv);
    const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    const app = await buildApp({ config, db, logger: { level: 'warn' } });
    await app.listen({ port: Number(portal.env.PORT), host: '127.0.0.1' });
    const headers = { 'x-api-password': 'bench-password', 'content-type': 'application/json', 'accept-language': 'it' };
    const login = await (
      await fetch(`${portal.base}/visitor/login`, { method: 'POST', headers, body: JSON.stringify({ email: 'enduser@portal.demo', password: 'demo1234' }) })
    ).json();
    const who: Record<string, string> = process.env.WHO === 'visitor' ? headers : { ...headers, authorization: `Bearer ${login.token}` };
    const quote = JSON.stringify(BENCH_EXPRESS);
    const floor = quote.replace('"palletWeight":[250,', '"palletWeight":[-250');
    /** autocannon in a child process: answers in `secs` seconds */
    const cannon = (body: string, secs: number) =>
      new Promise<number>((resolve, reject) => {
        const args = ['-c', '50', '-d', String(secs), '-m', 'POST', '-b', body, '-j'];
        for (const [k, v] of Object.entries(who)) args.push('-H', `${k}=${v}`);
        args.push(`${portal.base}/visitor/costRequest`);
        const p = spawn(path.join(root, 'node_modules', '.bin', 'autocannon'), args, { stdio: ['ignore', 'pipe', 'ignore'] });
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        p.on('error', reject);
        p.on('exit', () => resolve(JSON.parse(out).requests.total));
      });
    const session = new inspector.Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await cannon(quote, 3); // warm-up: compiled code, caches
    await cannon(floor, 2);
    const runs = { floor: [] as Array<{ n: number; cpu: number; profile: Profile }>, quote: [] as Array<{ n: number; cpu: number; profile: Profile }> };
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, body] of [
        ['floor', floor],
        ['quote', quote],
      ] as const) {
        if (PROFILER) await session.post('Profiler.start');
        const c0 = process.cpuUsage();
        const n = await cannon(body, SECONDS);
        const c = process.cpuUsage(c0);
        const profile = PROFILER ? ((await session.post('Profiler.stop')).profile as unknown as Profile) : { nodes: [], samples: [], timeDeltas: [] };
        runs[name].push({ n, cpu: c.user + c.system, profile });
        if (PROFILER && process.env.BENCH_PROFILE_DIR)
          fs.writeFileSync(path.join(process.env.BENCH_PROFILE_DIR, `${name}${round}.cpuprofile`), JSON.stringify(profile));
      }
    await app.close();
    await db.destroy();

    const cpu = (rs: typeof runs.floor) => rs.reduce((s, r) => s + r.cpu / r.n, 0) / rs.length;
    console.log(
      `\nQuote profile — ${portal.pg ? 'PostgreSQL' : 'SQLite'}, ${process.env.WHO === 'visitor' ? 'visitor' : 'end user'}, 3-pallet express, 50 connections, ${ROUNDS} × ${SECONDS} s each, ${PROFILER ? 'profiler on (200 µs)' : 'profiler off'}`,
    );
    for (const [name, rs] of Object.entries(runs))
      console.log(`${name.padEnd(6)} ${rs.map((r) => `${(r.n / SECONDS).toFixed(0)}/s, ${(r.cpu / r.n).toFixed(1)} µs CPU`).join('; ')}`);
    console.log(
      `server CPU per request: floor ${cpu(runs.floor).toFixed(1)} µs, quote ${cpu(runs.quote).toFixed(1)} µs; floor / quote ${(cpu(runs.floor) / cpu(runs.quote)).toFixed(2)}`,
    );
    if (PROFILER) {
      const f = runs.floor.map((r) => times(r.profile));
      const q = runs.quote.map((r) => times(r.profile));
      const nf = runs.floor.map((r) => r.n);
      const nq = runs.quote.map((r) => r.n);
      table(
        'Self time',
        f.map((t) => t.self),
        q.map((t) => t.self),
        nf,
        nq,
        /^\(idle\)/,
      );
      table(
        'Inclusive time',
        f.map((t) => t.inclusive),
        q.map((t) => t.inclusive),
        nf,
        nq,
        /^\((idle|root|program)\)|^(processTicksAndRejections|runMicrotasks|processImmediate|runNextTicks)\b/,
      );
    }
    console.log(
      `\nLoad average at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} on ${os.cpus().length} CPUs.`,
    );
  } finally {
    await portal.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
