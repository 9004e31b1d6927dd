import { sql } from 'kysely';
import type { Db } from '../db/index.js';

interface Pending { bucket: string; resolve: (hits: number) => void; reject: (err: unknown) => void }

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

  constructor(private readonly db: Db, private readonly windowMs: number) {}

  hit(bucket: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending.push({ bucket, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush() {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    const start = Math.floor(Date.now() / this.windowMs) * this.windowMs;
    const counts = new Map<string, number>();
    for (const p of batch) counts.set(p.bucket, (counts.get(p.bucket) ?? 0) + 1);
    try {
      const rows = await this.db.insertInto('rate_limits')
        .values([...counts].map(([bucket, hits]) => ({ bucket, window_start: start, hits })))
        .onConflict((oc) => oc.column('bucket').doUpdateSet((eb) => ({
          hits: eb.case().when('rate_limits.window_start', '=', start)
            .then(sql<number>`rate_limits.hits + excluded.hits`).else(sql<number>`excluded.hits`).end(),
          window_start: start,
        })))
        .returning(['bucket', 'hits'])
        .execute();
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
