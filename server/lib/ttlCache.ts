/**
 * A small memo for read-mostly data: each key's value (a promise, so concurrent callers share one
 * load) is kept for `ttlMs`, at most `max` keys (the oldest go first). A failed load is not kept.
 * Values are shared between callers: they must be treated as read-only.
 */
export class TtlCache<V = unknown> {
  private readonly map = new Map<string, { at: number; value: Promise<V> }>();
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
    this.map.set(key, { at: now, value });
    value.catch(() => {
      if (this.map.get(key)?.value === value) this.map.delete(key);
    });
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
    return value;
  }

  clear() {
    this.map.clear();
  }

  get size() {
    return this.map.size;
  }
}
