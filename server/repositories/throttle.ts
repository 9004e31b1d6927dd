import type { Db } from '../db/index.js';

/**
 * Sliding-window throttling for the account flows (server.md §3 "at most 3 codes an hour", "10 wrong
 * tries a day"): one row per event in the database, so every server process sees the same counts and
 * a limit holds over any hour, not only within a clock hour (the fixed windows of rateLimits.ts would
 * let 3 + 3 codes through around a window edge).
 */
/** No limit counts over more than this (the longest is "10 wrong tries a day"). */
export const MAX_WINDOW_MS = 2 * 86_400_000;

export function throttleRepo(db: Db) {
  return {
    /**
     * Counts one event in `bucket` unless `limit` events already fall in the last `windowMs`.
     * The event is written first and ranked by id, so two processes racing for the last slot cannot
     * both win. Answers the event id (to `release` it later) or null when the limit is reached.
     */
    async take(bucket: string, windowMs: number, limit: number): Promise<number | null> {
      if (windowMs > MAX_WINDOW_MS) throw new Error(`throttle window ${windowMs} ms is longer than MAX_WINDOW_MS`);
      const now = Date.now();
      const since = now - windowMs;
      const row = await db.insertInto('throttle_events').values({ bucket, at: now }).returning('id').executeTakeFirstOrThrow();
      const { n } = await db
        .selectFrom('throttle_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('bucket', '=', bucket)
        .where('at', '>', since)
        .where('id', '<=', row.id)
        .executeTakeFirstOrThrow();
      // Old events are of no further use: this bucket's beyond its window, anyone's beyond the longest
      // window in use (buckets of addresses or emails seen once would otherwise stay for ever).
      await db.deleteFrom('throttle_events').where('bucket', '=', bucket).where('at', '<=', since).execute();
      await db
        .deleteFrom('throttle_events')
        .where('at', '<', now - MAX_WINDOW_MS)
        .execute();
      if (Number(n) > limit) {
        await db.deleteFrom('throttle_events').where('id', '=', row.id).execute();
        return null;
      }
      return row.id;
    },

    /** Events in `bucket` within the last `windowMs`. */
    async count(bucket: string, windowMs: number): Promise<number> {
      const { n } = await db
        .selectFrom('throttle_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('bucket', '=', bucket)
        .where('at', '>', Date.now() - windowMs)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** The time (epoch ms) of the oldest event in `bucket` within the last `windowMs`, or null when there is none. */
    async oldest(bucket: string, windowMs: number): Promise<number | null> {
      const row = await db
        .selectFrom('throttle_events')
        .select((eb) => eb.fn.min('at').as('at'))
        .where('bucket', '=', bucket)
        .where('at', '>', Date.now() - windowMs)
        .executeTakeFirst();
      return row?.at == null ? null : Number(row.at);
    },

    /** Forgets every event of `bucket`. */
    async clear(bucket: string) {
      await db.deleteFrom('throttle_events').where('bucket', '=', bucket).execute();
    },

    /** Forgets one counted event (a try that turned out right is not a wrong try). */
    async release(id: number) {
      await db.deleteFrom('throttle_events').where('id', '=', id).execute();
    },
  };
}
