import type { Kysely } from 'kysely';
import { TARIFF_LIMITS, type RowsSpec } from '../../model/tariffs.js';
import type { CheckError } from './errors.js';
import type { Impact } from './impactFigures.js';
import type { ImportRow } from './validate.js';

export type ShownRow = Record<string, string | number | null>;

/** One row that a publish would add (before null), remove (after null) or change, named by the spec's rowKey. */
export interface CheckChange {
  key: ShownRow;
  before: ShownRow | null;
  after: ShownRow | null;
}

export interface CheckSummary {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

/** The answer of a dry run (`data` of `{status: true, data}`); `impact`: the repricing of recent requests (imports/impact.ts). */
export interface CheckResult {
  dry_run: true;
  errors: CheckError[];
  summary: CheckSummary;
  changes: CheckChange[];
  impact: Impact | null;
}

/**
 * A value as the screens show it: money in euros, integers as numbers, decimals and text as stored
 * (decimal text is normalised on import, so "1.10" and "1.1" are one value). Empty is null.
 */
function shown(kind: string, v: unknown): string | number | null {
  if (v === null || v === undefined || v === '') return null;
  if (kind === 'money') return Number(v) / 100;
  if (kind === 'int') return Number(v);
  return String(v);
}

/** A row (stored or read from the file, both in the stored form) as the screens show it. */
export function showRow(spec: RowsSpec, row: Record<string, unknown>): ShownRow {
  const out: ShownRow = {};
  for (const c of spec.columns) out[c.name] = shown(c.kind, row[c.name]);
  return out;
}

const keyOf = (spec: RowsSpec, row: ShownRow): ShownRow => Object.fromEntries(spec.rowKey.map((c) => [c, row[c]]));

/** A shown value as JSON keeps it: the comparison and the stored rows' `before` were once JSON text (non-finite → null, -0 → 0). */
const asJson = (v: string | number | null) => (typeof v === 'number' ? (Number.isFinite(v) ? v + 0 : null) : v);
const asJsonRow = (row: ShownRow): ShownRow => {
  for (const k of Object.keys(row)) row[k] = asJson(row[k]);
  return row;
};

/** The rowKey columns of a spec (a key column outside the columns reads as empty). */
const keyColumns = (spec: RowsSpec) => spec.rowKey.map((name) => spec.columns.find((c) => c.name === name));

/** A row's key as one string: its rowKey values as shown, lower case (pairs "Livigno" with "LIVIGNO"). */
function keyText(keyCols: ReturnType<typeof keyColumns>, row: Record<string, unknown>): string {
  let k = '';
  for (let j = 0; j < keyCols.length; j++) {
    const c = keyCols[j];
    if (j) k += '\u0001';
    k += String((c && shown(c.kind, row[c.name])) ?? '').toLowerCase();
  }
  return k;
}

/** The same key, column by column (equal columns make equal key texts; the rare other case goes by keyText). */
function sameKey(keyCols: ReturnType<typeof keyColumns>, a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const c of keyCols) {
    if (!c) continue;
    const x = shown(c.kind, a[c.name]);
    const y = shown(c.kind, b[c.name]);
    if (x !== y && String(x ?? '').toLowerCase() !== String(y ?? '').toLowerCase()) return false;
  }
  return true;
}

/** Every column shows the same value (as their JSON did). */
function sameValues(spec: RowsSpec, a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const c of spec.columns) if (asJson(shown(c.kind, a[c.name])) !== asJson(shown(c.kind, b[c.name]))) return false;
  return true;
}

/** The `limit` smallest entries by `order` seen so far, in order (a few hundred: a sorted array). */
class Smallest<K, V> {
  private keys: K[] = [];
  private values: V[] = [];
  constructor(
    private readonly limit: number,
    private readonly order: (a: K, b: K) => number,
  ) {}
  /** Whether an entry of this key would be kept (ask before making its value). */
  wants(key: K): boolean {
    return this.limit > 0 && (this.keys.length < this.limit || this.order(key, this.keys[this.keys.length - 1]) < 0);
  }
  add(key: K, value: V) {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order(this.keys[mid], key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.keys.splice(lo, 0, key);
    this.values.splice(lo, 0, value);
    if (this.keys.length > this.limit) {
      this.keys.pop();
      this.values.pop();
    }
  }
  entries(): Array<[K, V]> {
    return this.keys.map((k, i) => [k, this.values[i]]);
  }
}

const UNPAIRED = 0;
const UNCHANGED = 1;
const CHANGED = 2;

/**
 * Compares the stored set with the file's rows, pairing them by the spec's rowKey (case-insensitive).
 * Sets whose key is not unique (location rows) pair equal keys in order: the n-th stored row of a key
 * (id order) with the n-th file row of that key. The summary counts every row; `changes` lists the first
 * TARIFF_LIMITS.listedChanges changed or added rows in file order, then removed ones (grouped by key, in
 * the order of each key's first stored row). `stored` may come a page at a time (storedPages).
 *
 * Memory (issue 20, "Figures"): the stored set is never held. The file's rows are indexed by key (one
 * string and an index per row), each stored page is paired against that index and dropped; only the
 * stored rows that can still be listed (at most listedChanges changed and as many removed) are kept.
 */
export async function compareSets(
  spec: RowsSpec,
  stored: readonly Record<string, unknown>[] | AsyncIterable<readonly Record<string, unknown>[]>,
  incoming: readonly ImportRow[],
) {
  const listed = TARIFF_LIMITS.listedChanges;
  const keyCols = keyColumns(spec);
  // The file's rows by key, in file order: one index, or the list of them for a key that repeats.
  // The file's rows by key, in file order: one index, or the list of them for a key that repeats. Built
  // only from the first row out of step (below), for the rows from there on.
  const byKey = new Map<string, number | number[]>();
  /** File rows before this one were paired in step (the n-th stored row with the n-th file row). */
  let inStep = -1;
  /** Of the rows paired in step, a key → its first position (made for the first removed row that needs it). */
  let stepFirst: Map<string, number> | null = null;
  const status = new Uint8Array(incoming.length);
  /** The stored ordinal each file row was paired with (a key's first stored row orders its removed rows). */
  const pairedWith = new Float64Array(incoming.length);
  /** Of a repeated key, how many of its file rows are paired. */
  const taken = new Map<string, number>();
  /** A key of removed rows absent from the file → the ordinal of its first stored row. */
  const goneKeys = new Map<string, number>();
  const befores = new Smallest<number, ShownRow>(listed, (a, b) => a - b);
  const removed = new Smallest<[number, number], ShownRow>(listed, (a, b) => a[0] - b[0] || a[1] - b[1]);
  let removedCount = 0;
  let ordinal = 0;
  const pair = (i: number, o: number, r: Record<string, unknown>) => {
    pairedWith[i] = o;
    if (sameValues(spec, r, incoming[i])) status[i] = UNCHANGED;
    else {
      status[i] = CHANGED;
      if (befores.wants(i)) befores.add(i, asJsonRow(showRow(spec, r)));
    }
  };
  for await (const page of Symbol.asyncIterator in stored ? stored : [stored as readonly Record<string, unknown>[]]) {
    for (const r of page) {
      const o = ordinal++;
      // In step (a file exported and edited keeps the stored order): while the n-th stored row has the
      // n-th file row's key, both are the same-numbered rows of that key on their side, so they pair.
      if (inStep < 0) {
        if (o < incoming.length && sameKey(keyCols, r, incoming[o])) {
          pair(o, o, r);
          continue;
        }
        // Out of step: from here on by key. The rows before are paired and hold the same keys on both
        // sides, so the n-th of a key among the rest pairs with the n-th of it among the rest.
        inStep = o;
        for (let i = o; i < incoming.length; i++) {
          const k = keyText(keyCols, incoming[i]);
          const at = byKey.get(k);
          if (at === undefined) byKey.set(k, i);
          else if (typeof at === 'number') byKey.set(k, [at, i]);
          else at.push(i);
        }
      }
      const k = keyText(keyCols, r);
      const at = byKey.get(k);
      let i = -1;
      if (typeof at === 'number') i = status[at] === UNPAIRED ? at : -1;
      else if (at !== undefined) {
        const n = taken.get(k) ?? 0;
        if (n < at.length) {
          i = at[n];
          taken.set(k, n + 1);
        }
      }
      if (i >= 0) {
        pair(i, o, r);
        continue;
      }
      removedCount++;
      // Removed rows are listed by the first stored row of their key: among the rows paired in step,
      // else the one paired with the key's first file row, else the first removed one.
      if (!stepFirst) {
        stepFirst = new Map();
        for (let j = inStep - 1; j >= 0; j--) stepFirst.set(keyText(keyCols, incoming[j]), j);
      }
      let rank = stepFirst.get(k);
      if (rank === undefined && at !== undefined) rank = pairedWith[typeof at === 'number' ? at : at[0]];
      if (rank === undefined) {
        rank = goneKeys.get(k) ?? o;
        if (rank === o) goneKeys.set(k, o);
      }
      if (removed.wants([rank, o])) removed.add([rank, o], asJsonRow(showRow(spec, r)));
    }
  }
  const summary: CheckSummary = { added: 0, changed: 0, removed: removedCount, unchanged: 0 };
  const changes: CheckChange[] = [];
  const before = new Map(befores.entries());
  for (let i = 0; i < incoming.length; i++) {
    const s = status[i];
    if (s === UNCHANGED) summary.unchanged++;
    else {
      if (s === CHANGED) summary.changed++;
      else summary.added++;
      if (changes.length < listed) {
        const after = showRow(spec, incoming[i]);
        changes.push({ key: keyOf(spec, after), before: s === CHANGED ? before.get(i)! : null, after });
      }
    }
  }
  for (const [, row] of removed.entries()) {
    if (changes.length >= listed) break;
    changes.push({ key: keyOf(spec, row), before: row, after: null });
  }
  return { summary, changes };
}

/**
 * A stored set in id order, as pages of rows (`pageSize` at a time, keyset on the id: `id > last`), so
 * neither database answers the whole set at once and only one page is held while it is compared.
 */
export async function* storedPages(
  db: Kysely<any>,
  spec: RowsSpec,
  where: [column: string, value: number],
  pageSize = 10_000,
): AsyncGenerator<Array<Record<string, unknown>>> {
  let last: number | null = null;
  for (;;) {
    let query = db
      .selectFrom(spec.table)
      .select(['id', ...spec.columns.map((c) => c.name)])
      .where(where[0], '=', where[1]);
    if (last !== null) query = query.where('id', '>', last);
    const page = await query.orderBy('id').limit(pageSize).execute();
    if (page.length) yield page;
    if (page.length < pageSize) return;
    last = Number(page[page.length - 1].id);
  }
}

/**
 * What a publish changed, in words (issue 35): "1 riga modificata, 37 invariate" / "1 row changed, 37
 * unchanged"; the noun once, with the first figure; figures of 0 left out (a file has at least one row).
 */
export function summaryText(req: { t: (key: string, params?: Record<string, unknown>) => string; lang: string }, summary: CheckSummary): string {
  const t = (key: string) => req.t(key);
  const parts: string[] = [];
  for (const kind of ['changed', 'added', 'removed', 'unchanged'] as const) {
    const n = summary[kind];
    if (!n) continue;
    const form = n === 1 ? 'one' : 'other';
    const figure = n.toLocaleString(req.lang);
    parts.push(parts.length ? `${figure} ${t(`tariffs.${kind}_${form}`)}` : `${figure} ${t(`tariffs.row_${form}`)} ${t(`tariffs.${kind}_${form}`)}`);
  }
  return parts.join(', ');
}

/** A check of a file that cannot be published: its errors, nothing compared. */
export const refusedCheck = (errors: CheckError[]): CheckResult => ({
  dry_run: true,
  errors,
  summary: { added: 0, changed: 0, removed: 0, unchanged: 0 },
  changes: [],
  impact: null,
});
