import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { openDb } from '../../server/db/index.js';
import { HitBatcher } from '../../server/lib/hitBatcher.js';
import { describeEachDb } from './helpers.js';

/**
 * The visitor quote counters (lib/hitBatcher.ts) are shared by every server process through the
 * rate_limits table. Found while building `npm run bench:load` (issue 11): two processes writing
 * batches of the same buckets in different orders locked the rows in different orders, and
 * PostgreSQL broke the deadlock by failing one statement, so every quote of that batch answered 500.
 */
describeEachDb('visitor hit counters shared by two server processes', (p) => {
  it('count every hit when two processes write batches of the same addresses in opposite orders', async () => {
    // Two connection pools on the same database: what two server processes have. On PostgreSQL they
    // carry an application name so the test can see when their statements wait for a row lock.
    const app = `shared-counters-${crypto.randomBytes(4).toString('hex')}`;
    let url = p().config.databaseUrl;
    if (url) {
      const u = new URL(url);
      u.searchParams.set('application_name', app);
      url = u.toString();
    }
    const first = await openDb({ databaseUrl: url, dataDir: p().config.dataDir, poolSize: 2 });
    const second = await openDb({ databaseUrl: url, dataDir: p().config.dataDir, poolSize: 2 });
    try {
      const window = 2 ** 40; // one window for the whole test, whatever the clock says
      const one = new HitBatcher(first.db, window);
      const two = new HitBatcher(second.db, window);
      const buckets = Array.from({ length: 20 }, (_, i) => `test:shared:${String(i).padStart(2, '0')}`);
      const failures: unknown[] = [];
      // Within one turn of the event loop: one batch per process, the same buckets in opposite orders.
      const round = () =>
        Promise.all([
          ...buckets.map((b) => one.hit(b).catch((err) => failures.push(err))),
          ...[...buckets].reverse().map((b) => two.hit(b).catch((err) => failures.push(err))),
        ]);
      await round();

      if (p().dialect === 'postgres') {
        // Make the two statements overlap for sure: a third session holds the middle row, so each
        // batch locks the rows before it in its own order and waits; then the row is released.
        const pg = (await import('pg')).default;
        const holder = new pg.Client({ connectionString: p().config.databaseUrl });
        await holder.connect();
        try {
          await holder.query('BEGIN');
          await holder.query('SELECT hits FROM rate_limits WHERE bucket = $1 FOR UPDATE', [buckets[10]]);
          const contended = round();
          for (let i = 0; i < 200; i++) {
            const { rows } = await holder.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [
              app,
            ]);
            if (rows[0].n >= 2) break;
            await new Promise((r) => setTimeout(r, 25));
          }
          await holder.query('COMMIT');
          await contended;
        } finally {
          await holder.end();
        }
      } else {
        await round();
      }

      expect(failures).toEqual([]);
      const rows = await p().db.db.selectFrom('rate_limits').select(['bucket', 'hits']).where('bucket', 'like', 'test:shared:%').orderBy('bucket').execute();
      expect(rows.map((row) => [row.bucket, Number(row.hits)])).toEqual(buckets.map((b) => [b, 4]));
    } finally {
      await first.destroy();
      await second.destroy();
    }
  });
});
