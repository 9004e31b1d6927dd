import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttlCache.js';

describe('TtlCache', () => {
  afterEach(() => vi.useRealTimers());

  it('shares one load per key while fresh, loads again once stale, and counts hits and misses', async () => {
    vi.useFakeTimers();
    const cache = new TtlCache<number>(1000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(await cache.get('a', load)).toBe(2);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 2 });
  });

  it('peek answers a loaded, fresh value at once and nothing else', async () => {
    vi.useFakeTimers();
    const cache = new TtlCache<string | undefined>(1000);
    expect(cache.peek('k')).toBeUndefined(); // never asked
    let finish!: (v: string | undefined) => void;
    const pending = cache.get('k', () => new Promise<string | undefined>((r) => (finish = r)));
    expect(cache.peek('k')).toBeUndefined(); // still loading: the caller must wait with get
    finish(undefined);
    await pending;
    expect(cache.peek('k')).toEqual({ v: undefined }); // a loaded "nothing" is an answer too
    vi.advanceTimersByTime(1000);
    expect(cache.peek('k')).toBeUndefined(); // stale
  });

  it('peek never answers a failed load, and a cleared cache answers nothing', async () => {
    const cache = new TtlCache<number>(60_000);
    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.peek('bad')).toBeUndefined();
    await cache.get('good', async () => 7);
    expect(cache.peek('good')).toEqual({ v: 7 });
    cache.clear();
    expect(cache.peek('good')).toBeUndefined();
  });

  it('with no lifetime (PRICING_CACHE_MS=0) keeps nothing and peeks nothing', async () => {
    const cache = new TtlCache<number>(0);
    let loads = 0;
    await cache.get('a', async () => ++loads);
    await cache.get('a', async () => ++loads);
    expect(loads).toBe(2);
    expect(cache.peek('a')).toBeUndefined();
  });
});
