import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../db/index.js';

// markers of the values the compiled one-bucket statement takes at each call
const BUCKET = '\u0000bucket';
const START = -987_654_321;
const HITS = -123_456_789;

interface Pending {
  bucket: string;
  resolve: (hits: number) => void;
  reject: (err: unknown) => void;
}

/**
 * Counts events in the shared `rate_limits` table (fixed windows, as repositories/rateLimits.ts) and
 * answers each event's count in its window, like `rateLimitsRepo.hit`, but writes the events of one
 * turn of the event loop in ONE statement: a multi-row upsert adding each bucket's events at once.
 * Under load this turns one database commit per quote into one per batch (issue 8's throughput
 * budget); the counts stay exact and shared by every server process.
 */
export class HitBatcher {
  private pending: Pending[] = [];
  private scheduled = false;
  private writing = false;

  constructor(
    private readonly db: Db,
    private readonly windowMs: number,
  ) {}

  hit(bucket: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending.push({ bucket, resolve, reject });
      this.schedule();
    });
  }

  /**
   * One write at a time: the events that arrive while a write is in flight wait for it and go in the
   * next one (a group commit), so a slower database makes bigger batches rather than more commits.
   */
  private schedule() {
    if (this.scheduled || this.writing || !this.pending.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.writing = true;
      void this.flush().finally(() => {
        this.writing = false;
        this.schedule();
      });
    });
  }

  private upsertQuery(values: Array<{ bucket: string; window_start: number; hits: number }>, start: number) {
    return this.db
      .insertInto('rate_limits')
      .values(values)
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet((eb) => ({
          hits: eb
            .case()
            .when('rate_limits.window_start', '=', start)
            .then(sql<number>`rate_limits.hits + excluded.hits`)
            .else(sql<number>`excluded.hits`)
            .end(),
          window_start: start,
        })),
      )
      .returning(['bucket', 'hits']);
  }

  /**
   * The rows go in bucket order: a statement locks its rows one after the other in the order given,
   * and several server processes write batches of the same buckets at once. In arrival order, one
   * process could hold A and wait for B while another held B and waited for A; PostgreSQL then fails
   * one statement as a deadlock (every quote of its batch answered 500, found under load in issue 11).
   * In one shared order, the second waits for the first and both succeed.
   */
  private upsert(counts: Map<string, number>, start: number) {
    const rows = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return this.upsertQuery(
      rows.map(([bucket, hits]) => ({ bucket, window_start: start, hits })),
      start,
    ).execute();
  }

  /** One bucket (the usual batch): the statement is compiled once and run with the new values. */
  private oneQuery?: CompiledQuery;
  private async one(bucket: string, start: number, hits: number) {
    this.oneQuery ??= this.upsertQuery([{ bucket: BUCKET, window_start: START, hits: HITS }], START).compile();
    const params = this.oneQuery.parameters.map((p) => (p === BUCKET ? bucket : p === START ? start : p === HITS ? hits : p));
    return (await this.db.executeQuery<{ bucket: string; hits: number }>(CompiledQuery.raw(this.oneQuery.sql, params))).rows;
  }

  private async flush() {
    const batch = this.pending;
    this.pending = [];
    const start = Math.floor(Date.now() / this.windowMs) * this.windowMs;
    const counts = new Map<string, number>();
    for (const p of batch) counts.set(p.bucket, (counts.get(p.bucket) ?? 0) + 1);
    try {
      const rows = counts.size === 1 ? await this.one(batch[0]!.bucket, start, batch.length) : await this.upsert(counts, start);
      const total = new Map(rows.map((r) => [r.bucket, Number(r.hits)]));
      // the k-th event of a bucket in this batch gets the count it had when it happened
      const seen = new Map<string, number>();
      for (const p of batch) {
        const k = (seen.get(p.bucket) ?? 0) + 1;
        seen.set(p.bucket, k);
        p.resolve(total.get(p.bucket)! - counts.get(p.bucket)! + k);
      }
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
