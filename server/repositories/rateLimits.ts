import type { Db } from '../db/index.js';

/**
 * Fixed-window counters kept in the database, so every server process shares them (server.md §10).
 * `hit` counts one event and answers the count in the current window; `peek` only reads it.
 */
export function rateLimitsRepo(db: Db) {
  const windowOf = (windowMs: number) => Math.floor(Date.now() / windowMs) * windowMs;
  return {
    async hit(bucket: string, windowMs: number): Promise<number> {
      const start = windowOf(windowMs);
      const row = await db.insertInto('rate_limits')
        .values({ bucket, window_start: start, hits: 1 })
        .onConflict((oc) => oc.column('bucket').doUpdateSet((eb) => ({
          hits: eb.case().when('rate_limits.window_start', '=', start).then(eb('rate_limits.hits', '+', 1)).else(1).end(),
          window_start: start,
        })))
        .returning('hits')
        .executeTakeFirstOrThrow();
      return Number(row.hits);
    },
    async peek(bucket: string, windowMs: number): Promise<number> {
      const row = await db.selectFrom('rate_limits').select(['hits', 'window_start']).where('bucket', '=', bucket).executeTakeFirst();
      if (!row || Number(row.window_start) !== windowOf(windowMs)) return 0;
      return Number(row.hits);
    },
    async clear(bucket: string) {
      await db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
    },
  };
}
