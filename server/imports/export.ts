import type { RowsSpec } from '../../model/tariffs.js';
import { rowsXlsx } from './template.js';

/**
 * A stored row as the file shows it, in the template's columns: money in euros (cents / 100), decimals
 * (exact text in the database) as numbers, the rest as stored. Read back by the import, each cell gives
 * the stored value again (a decimal has at most 9 + 4 digits, well inside a double's 15).
 */
export function fileRow(spec: RowsSpec, row: Record<string, unknown>): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const c of spec.columns) {
    const v = row[c.name];
    if (v === null || v === undefined || v === '') out[c.name] = c.kind === 'text' ? '' : null;
    else if (c.kind === 'money') out[c.name] = Number(v) / 100;
    else if (c.kind === 'decimal' || c.kind === 'int') out[c.name] = Number(v);
    else out[c.name] = String(v);
  }
  return out;
}

/**
 * The .xlsx of stored rows, streamed: the template's header (the one declaration), then the rows in stored
 * order, page by page as they are read (`storedPages`), so a 100 000-row sheet is never held whole.
 */
export async function* exportXlsx(spec: RowsSpec, pages: AsyncIterable<readonly Record<string, unknown>[]>, sheetName = 'data'): AsyncGenerator<Buffer> {
  async function* fileRows() {
    for await (const page of pages) yield page.map((r) => fileRow(spec, r));
  }
  yield* rowsXlsx(spec, fileRows(), sheetName);
}
