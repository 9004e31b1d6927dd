import { wordOf, type Example, type RowsSpec } from '../../model/tariffs.js';
import { xlsxChunks, type XCell } from '../lib/xlsxWriter.js';

/** A row of a spec as typed cells in its columns' order (money already in euros). */
function cellsOf(spec: RowsSpec, row: Example): XCell[] {
  return spec.columns.map((col) => {
    const v = row[col.name];
    if (col.kind === 'text') return { t: 's', v: v === null || v === undefined ? '' : String(v), z: '@' };
    // The class as the screens show it (SILVER, GOLD), so an exported file reads like the table and imports again.
    const word = wordOf(col, v);
    if (word) return { t: 's', v: word };
    if (typeof v === 'number') return { t: 'n', v };
    if (typeof v === 'string' && v !== '') return { t: 's', v };
    return null;
  });
}

/**
 * Rows of a spec as an .xlsx, streamed (server/lib/xlsxWriter.ts): the header row with the declared column
 * names, then the rows batch by batch (money in euros). Text columns are text cells with the text format
 * ("@"), so postal codes keep their leading zeros when the file is edited in Excel and uploaded again.
 * A 100 000-row sheet is never held whole: only the batch being written.
 */
export function rowsXlsx(
  spec: RowsSpec,
  batches: AsyncIterable<readonly Example[]> | Iterable<readonly Example[]>,
  sheetName = 'data',
): AsyncGenerator<Buffer> {
  async function* rows(): AsyncGenerator<XCell[][]> {
    yield [spec.columns.map((c) => ({ t: 's', v: c.name }))];
    for await (const batch of batches) yield batch.map((row) => cellsOf(spec, row));
  }
  return xlsxChunks({ sheetName, widths: spec.columns.map((c) => Math.max(10, c.name.length + 2)), formats: ['@'], rows: rows() });
}

/** The whole file at once, for small sets (templates, the demo's tariffs). */
export async function writeRowsXlsx(spec: RowsSpec, rows: readonly Example[], sheetName = 'data'): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of rowsXlsx(spec, [rows], sheetName)) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The downloadable template of a table or rate sheet: its headers and a few realistic rows. */
export const templateXlsx = (spec: RowsSpec) => writeRowsXlsx(spec, spec.examples, 'template');
