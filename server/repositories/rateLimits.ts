import type { Db } from '../db/index.js';

/**
 * Fixed-window counters kept in the database, so every server process shares them (server.md §10).
 * `hit` counts one event and answers the count in the current window (one atomic upsert, so concurrent
 * hits each see their own count); `release` takes one back; `peek` only reads it.
 */
export function rateLimitsRepo(db: Db) {
  const windowOf = (windowMs: number) => Math.floor(Date.now() / windowMs) * windowMs;
  return {
    async hit(bucket: string, windowMs: number): Promise<number> {
      const start = windowOf(windowMs);
      const row = await db
        .insertInto('rate_limits')
        .values({ bucket, window_start: start, hits: 1 })
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet((eb) => ({
            hits: eb
              .case()
              .when('rate_limits.window_start', '=', start)
              .then(eb('rate_limits.hits', '+', 1))
              .else(1)
              .end(),
            window_start: start,
          })),
        )
        .returning('hits')
        .executeTakeFirstOrThrow();
      return Number(row.hits);
    },
    /**
     * Takes back one event of the current window (an attempt counted up front that turned out not to
     * be a failure). Never below zero; a window that has moved on is left alone.
     */
    async release(bucket: string, windowMs: number): Promise<void> {
      await db
        .updateTable('rate_limits')
        .set((eb) => ({ hits: eb('hits', '-', 1) }))
        .where('bucket', '=', bucket)
        .where('window_start', '=', windowOf(windowMs))
        .where('hits', '>', 0)
        .execute();
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
