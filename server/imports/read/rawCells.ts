import type { ImportRow } from '../validate.js';
import type { SheetData } from './sheet.js';

/**
 * A sheet's cells as they are, for readers that convert them themselves (the declared resources' import,
 * issue 34, server/lib/declaredImport.ts): the same bounded reading as the tariffs (the pool's thread, the
 * same limits and refusals), but no column spec: the caller finds its header row among the top rows by
 * its own header texts (field names and labels in three languages, which the tariffs' header heuristic
 * does not know) and reads each cell by its field's type.
 *
 * They cross the thread boundary as import rows (pool.ts `decodeRows`): column `#` the row's number as the
 * spreadsheet shows it (1-based), column `<c>` (`0`, `1`, …) the cell of the 0-based column c: trimmed
 * text, a number, or a marker for what is neither (an error cell, a boolean), null when empty. Rows from
 * the sheet's first to its last non-empty one (the top rows too: the header is among them); empty rows left out.
 */

export const RAW_ROW_NUMBER = '#';
/** A cell holding a formula error (#N/A, #DIV/0!…). */
export const RAW_ERROR = '\u0000error';
/** A boolean cell (TRUE / FALSE). */
export const RAW_TRUE = '\u0000true';
export const RAW_FALSE = '\u0000false';

export type RawValue = string | number | null;

/** The rows of a sheet as raw import rows, and the names of their columns (`#`, then `0` to the widest row's last). */
export function rawRows(sheet: SheetData): { rows: ImportRow[]; columns: string[] } {
  const rows: ImportRow[] = [];
  let width = 0;
  for (let r = 0; r < sheet.rows.length; r++) {
    const cells = sheet.rows[r];
    if (!cells) continue;
    const row: ImportRow = { [RAW_ROW_NUMBER]: r + 1 };
    let any = false;
    for (let c = 0; c < cells.length; c++) {
      const cell = cells[c];
      if (!cell || cell.v === undefined || cell.v === null) continue;
      let v: RawValue;
      if (cell.t === 'e') v = RAW_ERROR;
      else if (cell.t === 'b') v = cell.v ? RAW_TRUE : RAW_FALSE;
      else if (typeof cell.v === 'number') v = Number.isFinite(cell.v) ? cell.v : RAW_ERROR;
      else {
        const s = String(cell.v).trim();
        v = s === '' ? null : s;
      }
      if (v === null) continue;
      row[String(c)] = v;
      any = true;
      if (c + 1 > width) width = c + 1;
    }
    // The sheet's rows are let go as they are turned (the thread's heap is capped).
    sheet.rows[r] = undefined;
    if (any) rows.push(row);
  }
  return { rows, columns: [RAW_ROW_NUMBER, ...Array.from({ length: width }, (_, c) => String(c))] };
}

/** A raw row's cells by 0-based column (the row number aside). */
export const rawCell = (row: ImportRow, c: number): RawValue => row[String(c)] ?? null;
