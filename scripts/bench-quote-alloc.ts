/**
 * `npm run bench:quote-alloc`: bytes allocated per quote (issue 37), in-process.
 *
 * Builds the app as the server does (demo tariffs on SQLite in a temporary folder, or BENCH_DATABASE_URL),
 * then answers batches of BATCH requests through `app.inject` (no sockets): the 3-pallet express quote of
 * the end user, and the floor (the same route, token and body size, refused 422 by validation).
 * Each batch starts right after a full GC (`--expose-gc`); the JS heap's growth over the batch
 * (`process.memoryUsage().heapUsed`) is what it allocated, as long as no collection ran in between: a batch
 * during which a GC was observed (PerformanceObserver 'gc') is thrown away. The young generation is made
 * large (`--max-semi-space-size`, see package.json) so most batches fit in it.
 *
 * BENCH_LOG_LEVEL (default warn) sets the app's log level; the lines go to a stream that drops them.
 *
 * Honest limits: inject's own objects are counted on both sides (read the difference quote − floor as the
 * pricing and its answer); the median batch is reported; off-heap buffers (socket writes) are not counted.
 */
import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { BENCH_EXPRESS, benchPortal, seededBenchDb } from './benchKit.js';
import { hasExpressTariffs, generateTariffs } from './bench-quote-data.js';

/** Bytes allocated per quote above the floor, at most (see the end of main). */
const BUDGET_KB = 29;
const BATCH = Number(process.env.BENCH_BATCH || 200);
const BATCHES = Number(process.env.BENCH_BATCHES || 30);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npm run bench:quote-alloc does)');

async function main() {
  const portal = await benchPortal('bench-alloc', process.env.BENCH_DATABASE_URL, 'bench-password', {
    QUOTE_RATE_LIMIT: '1000000000',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
  });
  try {
    const { db: seeded, carrierId } = await seededBenchDb(portal.env);
    if (!(await hasExpressTariffs(seeded.db, carrierId))) await generateTariffs(seeded.db, carrierId);
    await seeded.destroy();
    const { loadConfig } = await import('../server/config.js');
    const { openDb } = await import('../server/db/index.js');
    const { buildApp } = await import('../server/app.js');
    const config = loadConfig({ NODE_ENV: 'development', ...portal.env } as NodeJS.ProcessEnv);
    const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    // BENCH_LOG_LEVEL=info: the request log's share (issue 37), written to a stream that drops it (its JS cost, not the disk's)
    const sink = new Writable({ write: (_chunk, _enc, done) => done() });
    const app = await buildApp({ config, db, logger: { level: config.logLevel, stream: sink } });
    await app.ready();
    const headers = { 'x-api-password': 'bench-password', 'content-type': 'application/json', 'accept-language': 'it' };
    const login = (
      await app.inject({ method: 'POST', url: '/api/v1/visitor/login', headers, payload: { email: 'enduser@portal.demo', password: 'demo1234' } })
    ).json();
    const asEndUser = { ...headers, authorization: `Bearer ${login.token}` };
    const quote = JSON.stringify(BENCH_EXPRESS);
    const floor = quote.replace('"palletWeight":[250,', '"palletWeight":[-250');
    const ask = (payload: string) => app.inject({ method: 'POST', url: '/api/v1/visitor/costRequest', headers: asEndUser, payload });
    if ((await ask(quote)).json().status !== true) throw new Error('the quote does not price');
    if ((await ask(floor)).statusCode !== 422) throw new Error('the floor is not a 422');

    let gcs = 0;
    const obs = new PerformanceObserver((list) => (gcs += list.getEntries().length));
    obs.observe({ entryTypes: ['gc'] });
    const measure = async (payload: string) => {
      const per: number[] = [];
      const cpu: number[] = [];
      let dropped = 0;
      for (let b = 0; b < BATCHES; b++) {
        gc!();
        await new Promise((r) => setTimeout(r, 5)); // let the observer deliver the forced GC's entry
        const seen = gcs;
        const before = process.memoryUsage().heapUsed;
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < BATCH; i++) await ask(payload);
        const used = process.cpuUsage(cpu0);
        const after = process.memoryUsage().heapUsed;
        cpu.push((used.user + used.system) / BATCH);
        await new Promise((r) => setImmediate(r));
        if (gcs !== seen) dropped++;
        else per.push((after - before) / BATCH);
      }
      per.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      return { median: per[Math.floor(per.length / 2)] ?? Number.NaN, kept: per.length, dropped, cpu: cpu[Math.floor(cpu.length / 2)]! };
    };
    // warm-up: compiled code and caches (tariffs, labels) as in a running server
    for (let i = 0; i < 2000; i++) await ask(i % 2 ? quote : floor);
    const rows: Array<[string, Awaited<ReturnType<typeof measure>>]> = [];
    for (let round = 0; round < 2; round++) {
      rows.push(['floor (422)', await measure(floor)]);
      rows.push(['end user, 3-pallet express', await measure(quote)]);
    }
    obs.disconnect();
    const kb = (v: number) => (v / 1024).toFixed(1);
    console.log(
      `\nBytes allocated per request (JS heap, in-process inject, ${BATCH} per batch, median of the batches without a GC), and the process's CPU time per request (user + system, median batch), ${portal.pg ? 'PostgreSQL' : 'SQLite'}, log level ${config.logLevel}`,
    );
    for (const [name, r] of rows)
      console.log(
        `${name.padEnd(28)} ${kb(r.median).padStart(8)} kB ${r.cpu.toFixed(0).padStart(6)} µs CPU  (${r.kept} batches kept, ${r.dropped} with a GC dropped)`,
      );
    const med = (n: string, f: (r: Awaited<ReturnType<typeof measure>>) => number) => Math.min(...rows.filter((r) => r[0] === n).map((r) => f(r[1])));
    const perQuote = med('end user, 3-pallet express', (r) => r.median) - med('floor (422)', (r) => r.median);
    const cpuQuote = med('end user, 3-pallet express', (r) => r.cpu) - med('floor (422)', (r) => r.cpu);
    console.log(`quote − floor: ${kb(perQuote)} kB and ${cpuQuote.toFixed(0)} µs CPU per quote (the pricing and its answer)`);
    // The budget (issue 37 asks for one in bytes per quote), from the measurement after the third round of
    // fixes (docs/benchmarks.md, issue 37: 25.7 kB above the floor at warn, SQLite, end user, 3 pallets; 64.0 kB
    // after the second, 65.2 kB before): 29 kB, about 10 % above it (the batches' medians move by ± 1 kB), so
    // that a change that adds a copy of the breakdown or the buy side back to an end user's quote shows here,
    // while the run-to-run noise does not.
    const ok = perQuote <= BUDGET_KB * 1024;
    console.log(`Budget (issue 37): quote − floor ≤ ${BUDGET_KB} kB allocated per quote: ${ok ? 'ok' : 'MISSED'} (${kb(perQuote)} kB).`);
    console.log(
      `Load average at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} on ${os.cpus().length} CPUs (the CPU times move with it; the bytes do not).`,
    );
    process.exitCode = ok ? 0 : 1;
    await app.close();
    await db.destroy();
  } finally {
    await portal.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
