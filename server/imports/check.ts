import type { Kysely } from 'kysely';
import { isPostgres } from '../migrations/helpers.js';
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

const keyText = (spec: RowsSpec, row: ShownRow) => spec.rowKey.map((c) => String(row[c] ?? '').toLowerCase()).join('\u0001');
const keyOf = (spec: RowsSpec, row: ShownRow): ShownRow => Object.fromEntries(spec.rowKey.map((c) => [c, row[c]]));
/** A shown row as one string (JSON of its values in column order): equal strings = equal values, a tenth of the memory. */
const packed = (spec: RowsSpec, row: ShownRow) => JSON.stringify(spec.columns.map((c) => row[c.name]));
const unpacked = (spec: RowsSpec, text: string): ShownRow => {
  const values = JSON.parse(text) as Array<string | number | null>;
  return Object.fromEntries(spec.columns.map((c, i) => [c.name, values[i]]));
};

/**
 * Compares the stored set with the file's rows, pairing them by the spec's rowKey (case-insensitive).
 * Sets whose key is not unique (location rows) pair equal keys in order. The summary counts every row;
 * `changes` lists the first TARIFF_LIMITS.listedChanges changed or added rows in file order, then removed ones.
 * `stored` may come a page at a time (storedPages); each stored row is kept packed (one string).
 */
export async function compareSets(
  spec: RowsSpec,
  stored: readonly Record<string, unknown>[] | AsyncIterable<readonly Record<string, unknown>[]>,
  incoming: readonly ImportRow[],
) {
  const byKey = new Map<string, string[]>();
  for await (const page of Symbol.asyncIterator in stored ? stored : [stored as readonly Record<string, unknown>[]]) {
    for (const r of page) {
      const row = showRow(spec, r);
      const k = keyText(spec, row);
      const list = byKey.get(k);
      if (list) list.push(packed(spec, row));
      else byKey.set(k, [packed(spec, row)]);
    }
  }
  const summary: CheckSummary = { added: 0, changed: 0, removed: 0, unchanged: 0 };
  const changes: CheckChange[] = [];
  const note = (c: () => CheckChange) => {
    if (changes.length < TARIFF_LIMITS.listedChanges) changes.push(c());
  };
  for (const r of incoming) {
    const after = showRow(spec, r);
    const before = byKey.get(keyText(spec, after))?.shift();
    if (before === undefined) {
      summary.added++;
      note(() => ({ key: keyOf(spec, after), before: null, after }));
    } else if (before === packed(spec, after)) {
      summary.unchanged++;
    } else {
      summary.changed++;
      note(() => ({ key: keyOf(spec, after), before: unpacked(spec, before), after }));
    }
  }
  for (const left of byKey.values()) {
    for (const text of left) {
      summary.removed++;
      note(() => {
        const before = unpacked(spec, text);
        return { key: keyOf(spec, before), before, after: null };
      });
    }
  }
  return { summary, changes };
}

/**
 * A stored set in id order, as pages of rows, so only its packed form stays held: on SQLite the rows
 * come one at a time from the statement (Kysely's stream: better-sqlite3's iterate), a page of 5 000 at a
 * time; PostgreSQL answers the query whole (its driver streams only through a cursor package).
 */
export async function* storedPages(
  db: Kysely<any>,
  spec: RowsSpec,
  where: [column: string, value: number],
  pageSize = 5000,
): AsyncGenerator<Array<Record<string, unknown>>> {
  const query = db
    .selectFrom(spec.table)
    .select(spec.columns.map((c) => c.name))
    .where(where[0], '=', where[1])
    .orderBy('id');
  if (isPostgres(db)) {
    yield await query.execute();
    return;
  }
  let page: Array<Record<string, unknown>> = [];
  for await (const row of query.stream(pageSize)) {
    page.push(row);
    if (page.length === pageSize) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/** A check of a file that cannot be published: its errors, nothing compared. */
export const refusedCheck = (errors: CheckError[]): CheckResult => ({
  dry_run: true,
  errors,
  summary: { added: 0, changed: 0, removed: 0, unchanged: 0 },
  changes: [],
  impact: null,
});
