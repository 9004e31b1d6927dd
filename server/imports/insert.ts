import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from '../migrations/helpers.js';
import type { DB } from '../db/types.js';
import type { ImportRow } from './validate.js';

/**
 * Inserts many rows with multi-row INSERT statements of at most ~30 000 parameters each (SQLite allows
 * 32 766, PostgreSQL 65 535). The SQL text is built directly rather than through Kysely's builder,
 * which would allocate a node per value: a 100 000-row sheet is a million values. Table and column
 * names come from the declarations in model/tariffs.ts, never from the file.
 */
export async function insertRows(
  trx: Kysely<DB> | Transaction<DB>,
  table: string,
  columns: readonly string[],
  rows: readonly ImportRow[],
  fixed: Record<string, string | number>,
) {
  const fixedCols = Object.keys(fixed);
  const allCols = [...fixedCols, ...columns];
  const pg = isPostgres(trx as Kysely<any>);
  const perRow = allCols.length;
  const batch = Math.max(1, Math.floor(30_000 / perRow));
  const head = `insert into "${table}" (${allCols.map((c) => `"${c}"`).join(', ')}) values `;
  const fixedValues = fixedCols.map((c) => fixed[c]);
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch);
    const params: unknown[] = new Array(chunk.length * perRow);
    const tuples: string[] = new Array(chunk.length);
    let p = 0;
    for (let i = 0; i < chunk.length; i++) {
      const row = chunk[i];
      const marks: string[] = new Array(perRow);
      for (let k = 0; k < perRow; k++) {
        params[p] = k < fixedCols.length ? fixedValues[k] : (row[allCols[k]] ?? null);
        p++;
        marks[k] = pg ? `$${p}` : '?';
      }
      tuples[i] = `(${marks.join(', ')})`;
    }
    await trx.executeQuery(CompiledQuery.raw(head + tuples.join(', '), params));
  }
}
