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
