import { expect, it } from 'vitest';
import { MAX_WINDOW_MS, throttleRepo } from '../../server/repositories/throttle.js';
import { describeEachDb } from './helpers.js';

const HOUR = 3_600_000;

describeEachDb('sliding-window throttling in the database', (p) => {
  const repo = () => throttleRepo(p().db.db);

  it('allows `limit` events in any window, also across a clock-hour edge', async () => {
    const t = repo();
    const ids = [await t.take('b1', HOUR, 3), await t.take('b1', HOUR, 3), await t.take('b1', HOUR, 3)];
    expect(ids.every((id) => typeof id === 'number')).toBe(true);
    expect(await t.take('b1', HOUR, 3)).toBeNull();
    expect(await t.count('b1', HOUR)).toBe(3);
    // 59 minutes later the three events still count: a fixed clock-hour window would have reset.
    await p()
      .db.db.updateTable('throttle_events')
      .set({ at: Date.now() - 59 * 60_000 })
      .where('bucket', '=', 'b1')
      .execute();
    expect(await t.take('b1', HOUR, 3)).toBeNull();
    await p()
      .db.db.updateTable('throttle_events')
      .set({ at: Date.now() - HOUR - 1 })
      .where('bucket', '=', 'b1')
      .execute();
    expect(await t.take('b1', HOUR, 3)).not.toBeNull();
  });

  it('releases an event, and lets exactly `limit` of many parallel takes through', async () => {
    const t = repo();
    const first = (await t.take('b2', HOUR, 1))!;
    expect(await t.take('b2', HOUR, 1)).toBeNull();
    await t.release(first);
    expect(await t.take('b2', HOUR, 1)).not.toBeNull();
    const results = await Promise.all(Array.from({ length: 20 }, () => t.take('b3', HOUR, 5)));
    expect(results.filter((r) => r !== null)).toHaveLength(5);
  });

  it('forgets events older than the longest window, whatever their bucket', async () => {
    const t = repo();
    await p()
      .db.db.insertInto('throttle_events')
      .values({ bucket: 'seen-once', at: Date.now() - MAX_WINDOW_MS - 1000 })
      .execute();
    await t.take('other', HOUR, 10);
    expect(await p().db.db.selectFrom('throttle_events').select('id').where('bucket', '=', 'seen-once').execute()).toEqual([]);
    await expect(t.take('x', MAX_WINDOW_MS + 1, 1)).rejects.toThrow();
  });
});
