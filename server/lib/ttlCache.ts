/**
 * A small memo for read-mostly data: each key's value (a promise, so concurrent callers share one
 * load) is kept for `ttlMs`, at most `max` keys (the oldest go first). A failed load is not kept.
 * Values are shared between callers: they must be treated as read-only.
 */
interface Entry<V> {
  at: number;
  value: Promise<V>;
  /** set when the load has succeeded: its value, for `peek` */
  settled?: { v: V };
}

export class TtlCache<V = unknown> {
  private readonly map = new Map<string, Entry<V>>();
  /** Lookups answered from the memo and lookups that loaded, since the process started (issue 37: the hit rate). */
  hits = 0;
  misses = 0;

  constructor(
    public ttlMs: number,
    private readonly max = 20_000,
  ) {}

  get<T extends V>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.map.get(key);
    if (hit && now - hit.at < this.ttlMs) {
      this.hits++;
      return hit.value as Promise<T>;
    }
    this.misses++;
    if (hit) this.map.delete(key);
    const value = load();
    const entry: Entry<V> = { at: now, value };
    this.map.set(key, entry);
    value.then(
      (v) => (entry.settled = { v }),
      () => {
        if (this.map.get(key) === entry) this.map.delete(key);
      },
    );
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
    return value;
  }

  /**
   * The value of a key already loaded and still fresh, without a promise (issue 37: a quote whose data are all
   * cached is priced without waiting a turn of the event loop for each lookup); `undefined` otherwise, and the
   * caller then takes `get`'s way. Counted as a hit when it answers.
   */
  peek<T extends V>(key: string): { v: T } | undefined {
    if (this.ttlMs <= 0) return undefined;
    const hit = this.map.get(key);
    if (!hit?.settled || Date.now() - hit.at >= this.ttlMs) return undefined;
    this.hits++;
    return hit.settled as { v: T };
  }

  clear() {
    this.map.clear();
  }

  get size() {
    return this.map.size;
  }
}
