/** Pieces the benchmark, load and fault scripts share: a free loopback port, a throw-away PostgreSQL schema, a percentile. */
import crypto from 'node:crypto';
import net from 'node:net';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

/** A fresh schema `<prefix>_<random>` on the server of `url`; `url` of the answer works inside it; `drop()` removes it. */
export async function pgSchema(url: string, prefix = 'bench') {
  const pg = (await import('pg')).default;
  const schema = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`DROP SCHEMA ${schema} CASCADE`);
      await d.end();
    },
  };
}

/** The p-quantile (0–1, nearest rank) of values sorted ascending; NaN when there are none. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]! : Number.NaN;
}

/** mulberry32: a small seeded generator of numbers in [0, 1), so a run's data and calls can be repeated. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A portal for a benchmark: a temporary data folder (SQLite) or a fresh PostgreSQL schema, a free
 * loopback port, and the server's environment (`extra` added). `cleanup()` removes both.
 */
export async function benchPortal(prefix: string, databaseUrl: string | undefined, apiPassword: string, extra: Record<string, string> = {}) {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const pg = databaseUrl ? await pgSchema(databaseUrl) : null;
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    API_PASSWORD: apiPassword,
    LOG_LEVEL: 'warn',
    STATIC_DIR: path.join(dataDir, 'no-static'),
    ...extra,
  };
  return {
    env,
    pg,
    base: `http://127.0.0.1:${port}/api/v1`,
    async cleanup() {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `GET base/visitor/ping` answers (30 s at most). */
export async function untilServing(base: string, headers: Record<string, string>) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/visitor/ping`, { headers })).ok) return;
    } catch {
      /* not up yet */
    }
    if (i > 150) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The benchmark portal's database migrated and seeded with the demo set, the demo carrier made the visitors'
 * carrier (the public quote prices with its tariffs). Answers the open database and the carrier's id; the
 * caller closes it (`db.destroy()`).
 */
export async function seededBenchDb(env: Record<string, string | undefined>) {
  const { loadConfig } = await import('../server/config.js');
  const { openDb } = await import('../server/db/index.js');
  const { migrateToLatest } = await import('../server/db/migrate.js');
  const { seed } = await import('../server/seed/index.js');
  const config = loadConfig({ NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv);
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db.db);
  await seed(db.db, config);
  const carrier = await db.db
    .selectFrom('users as u')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select('c.id')
    .where('u.email', '=', 'carrier@portal.demo')
    .executeTakeFirstOrThrow();
  await db.db
    .insertInto('settings')
    .values({ key: 'visitor_company_id', value: String(carrier.id), public: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(carrier.id) }))
    .execute();
  return { db, carrierId: carrier.id };
}

/** The benchmarks' quote route: Milano → Roma, national (the demo carrier prices it). */
export const BENCH_ROUTE = {
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: '00118',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
};
/** The benchmarks' 3-pallet national express quote body. */
export const BENCH_EXPRESS = {
  zone: 'national',
  service: 'palletExpress',
  flow: 'OUT',
  ...BENCH_ROUTE,
  palletWeight: [250, 480, 120],
  palletWidth: [120, 120, 80],
  palletLength: [80, 100, 120],
  palletHeight: [90, 140, 75],
};
