import * as XLSX from '@e965/xlsx';
import type { Example, RowsSpec } from '../../model/tariffs.js';

/**
 * Writes rows of a spec as an .xlsx: the header row with the declared column names, then the rows
 * (money in euros). Text columns are written as text cells with the text format, so postal codes keep
 * their leading zeros when the file is edited in Excel and uploaded again.
 */
export function writeRowsXlsx(spec: RowsSpec, rows: readonly Example[], sheetName = 'data'): Buffer {
  const header = spec.columns.map((c) => c.name);
  const aoa: Array<Array<string | number | null>> = [header];
  for (const r of rows) aoa.push(spec.columns.map((c) => r[c.name] ?? null));
  const ws = XLSX.utils.aoa_to_sheet(aoa);
  spec.columns.forEach((col, c) => {
    if (col.kind !== 'text') return;
    for (let r = 1; r < aoa.length; r++) {
      const addr = XLSX.utils.encode_cell({ r, c });
      const v = aoa[r][c];
      ws[addr] = { t: 's', v: v === null || v === undefined ? '' : String(v), z: '@' };
    }
  });
  ws['!cols'] = header.map((h) => ({ wch: Math.max(10, h.length + 2) }));
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, sheetName);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/** The downloadable template of a table or rate sheet: its headers and a few realistic rows. */
export const templateXlsx = (spec: RowsSpec) => writeRowsXlsx(spec, spec.examples, 'template');
