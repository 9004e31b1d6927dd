import * as XLSX from '@e965/xlsx';
import { ImportError } from '../errors.js';
import type { RawSheet, ReadLimits, Rows } from './types.js';

/**
 * TEMPORARY: .ods and .xls through SheetJS until their own readers land (issue 31). Removed by the merge
 * of read/ods.ts and read/xls.ts.
 */
const READ_OPTIONS: XLSX.ParsingOptions = {
  type: 'buffer',
  dense: true,
  cellFormula: false,
  cellHTML: false,
  cellText: false,
  cellNF: false,
  cellStyles: false,
  cellDates: false,
  bookVBA: false,
  bookDeps: false,
};

function read(data: Buffer, limits: ReadLimits): RawSheet | null {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(data, { ...READ_OPTIONS, sheetRows: limits.rows + 51 });
  } catch (err) {
    if (/password|encrypt/i.test(String((err as Error)?.message))) throw new ImportError(422, 'import.encrypted');
    throw new ImportError(422, 'import.unreadable');
  }
  for (const name of wb.SheetNames) {
    const ws = wb.Sheets[name];
    const rows = ((ws as any)['!data'] ?? []) as Rows;
    if (rows.some((row) => row?.some((c) => c && c.v !== undefined && String(c.v).trim() !== ''))) return { rows, merges: ws['!merges'] ?? [] };
  }
  return null;
}


export const readXls = (data: Buffer, limits: ReadLimits) => read(data, limits);
