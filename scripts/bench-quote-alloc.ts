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
 * Honest limits: inject's own objects are counted on both sides (read the difference quote − floor as the
 * pricing and its answer); the median batch is reported; off-heap buffers (socket writes) are not counted.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { BENCH_EXPRESS, benchPortal, seededBenchDb } from './benchKit.js';
import { hasExpressTariffs, generateTariffs } from './bench-quote-data.js';

const BATCH = Number(process.env.BENCH_BATCH || 200);
const BATCHES = Number(process.env.BENCH_BATCHES || 30);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npm run bench:quote-alloc does)');

async function main() {
  const portal = await benchPortal('bench-alloc', process.env.BENCH_DATABASE_URL, 'bench-password', { QUOTE_RATE_LIMIT: '1000000000' });
  try {
    const { db: seeded, carrierId } = await seededBenchDb(portal.env);
    if (!(await hasExpressTariffs(seeded.db, carrierId))) await generateTariffs(seeded.db, carrierId);
    await seeded.destroy();
    const { loadConfig } = await import('../server/config.js');
    const { openDb } = await import('../server/db/index.js');
    const { buildApp } = await import('../server/app.js');
    const config = loadConfig({ NODE_ENV: 'development', ...portal.env } as NodeJS.ProcessEnv);
    const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    const app = await buildApp({ config, db, logger: { level: config.logLevel } });
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
      let dropped = 0;
      for (let b = 0; b < BATCHES; b++) {
        gc!();
        await new Promise((r) => setTimeout(r, 5)); // let the observer deliver the forced GC's entry
        const seen = gcs;
        const before = process.memoryUsage().heapUsed;
        for (let i = 0; i < BATCH; i++) await ask(payload);
        const after = process.memoryUsage().heapUsed;
        await new Promise((r) => setImmediate(r));
        if (gcs !== seen) dropped++;
        else per.push((after - before) / BATCH);
      }
      per.sort((a, b) => a - b);
      return { median: per[Math.floor(per.length / 2)] ?? Number.NaN, kept: per.length, dropped };
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
      `\nBytes allocated per request (JS heap, in-process inject, ${BATCH} per batch, median of the batches without a GC), ${portal.pg ? 'PostgreSQL' : 'SQLite'}`,
    );
    for (const [name, r] of rows) console.log(`${name.padEnd(28)} ${kb(r.median).padStart(8)} kB  (${r.kept} batches kept, ${r.dropped} with a GC dropped)`);
    const med = (n: string) => rows.filter((r) => r[0] === n).map((r) => r[1].median);
    const q = Math.min(...med('end user, 3-pallet express'));
    const f = Math.min(...med('floor (422)'));
    console.log(`quote − floor: ${kb(q - f)} kB per quote (the pricing and its answer)`);
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
