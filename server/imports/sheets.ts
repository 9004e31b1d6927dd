import * as XLSX from '@e965/xlsx';
import { ImportError } from './errors.js';
import { READ_OPTIONS, type SheetData } from './spreadsheet.js';
import { readXlsxDataSheet, type XlsxSheet } from './xlsxRows.js';

/**
 * Reading a workbook (.xlsx, .xls, .ods) as a person would (docs/tariff-formats.md): the data sheet is
 * the first sheet holding a cell (an empty cover sheet before it is skipped), a header cell merged
 * downwards names its column on every row of the merge (so a two-row header reads on its last row),
 * and rows are absolute (row 0 = the sheet's row 1) whatever the sheet's first used row or column.
 */

type Rows = SheetData['rows'];

const BOOK_TYPES = ['xlsx', 'xls', 'biff8', 'biff5', 'biff2', 'biff3', 'biff4', 'xlml', 'ods'];

function parse(data: Buffer, sheetRows: number, sheets: number | undefined): XLSX.WorkBook {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(data, { ...READ_OPTIONS, sheets, sheetRows });
  } catch (err) {
    if (/password|encrypt/i.test(String((err as Error)?.message))) throw new ImportError(422, 'import.encrypted');
    throw new ImportError(422, 'import.unreadable');
  }
  if (wb.bookType && !BOOK_TYPES.includes(String(wb.bookType))) throw new ImportError(422, 'import.notSpreadsheet');
  return wb;
}

const hasCell = (ws: XLSX.WorkSheet | undefined) =>
  !!ws?.['!ref'] && (((ws as any)['!data'] ?? []) as Rows).some((row) => row?.some((c) => c && c.v !== undefined && String(c.v).trim() !== ''));

/** The data sheet by SheetJS (.xls, .ods, and the .xlsx files the lean reader leaves to it). */
export function readSheetsWithSheetJS(data: Buffer, sheetRows: number): XlsxSheet | null {
  // The first sheet alone first: parsing every sheet of a large workbook for the rare cover sheet is waste.
  let wb = parse(data, sheetRows, 0);
  let ws = wb.SheetNames.length ? wb.Sheets[wb.SheetNames[0]] : undefined;
  if (!hasCell(ws) && wb.SheetNames.length !== 1) {
    wb = parse(data, sheetRows, undefined);
    ws = wb.SheetNames.map((n) => wb.Sheets[n]).find(hasCell);
  }
  if (!ws || !hasCell(ws)) return null;
  return { rows: ((ws as any)['!data'] ?? []) as Rows, merges: ws['!merges'] ?? [] };
}

/**
 * The data sheet of an .xlsx by the lean reader (xlsxRows.ts: the same cells as SheetJS, a fraction of
 * the memory); SheetJS when the file holds what that reader leaves to it, or when it cannot read it.
 */
export function readXlsxSheet(data: Buffer, sheetRows: number, beforeSheetJS?: () => void): XlsxSheet | null {
  try {
    return readXlsxDataSheet(data, sheetRows);
  } catch {
    // NotStreamable (date cells, a chart sheet, parts elsewhere), an entry inflating past its declared
    // size, or a file broken in a way SheetJS may still read or refuse in its own words: the zip checks
    // SheetJS needs (every entry inflated with its bound: 413 for a bomb), then SheetJS decides, as before.
    beforeSheetJS?.();
    return readSheetsWithSheetJS(data, sheetRows);
  }
}

/**
 * The rows of the workbook's data sheet, at most `sheetRows` of them. `xlsx`: the content is an OOXML zip
 * (true, or the zip checks to run before SheetJS reads it), read by the lean reader.
 */
export function readSheets(data: Buffer, sheetRows: number, xlsx: boolean | (() => void) = false): Rows {
  const sheet = xlsx ? readXlsxSheet(data, sheetRows, typeof xlsx === 'function' ? xlsx : undefined) : readSheetsWithSheetJS(data, sheetRows);
  if (!sheet) throw new ImportError(422, 'import.noRows');
  const rows = sheet.rows;
  for (const m of sheet.merges) {
    // Only merges starting in the top rows are header cells; a merged data cell keeps its single value.
    if (m.s.r > 20 || m.e.r === m.s.r) continue;
    const top = rows[m.s.r]?.[m.s.c];
    if (!top || top.v === undefined) continue;
    for (let r = m.s.r + 1; r <= m.e.r && r < rows.length; r++) {
      const row = (rows[r] ??= []);
      if (!row[m.s.c] || row[m.s.c]!.v === undefined) row[m.s.c] = { ...top };
    }
  }
  return rows;
}

/** A cell a person reads as a number: a number, or text made of digits with signs, separators and € only. */
const numberish = (c: XLSX.CellObject | undefined) => !!c && (c.t === 'n' || (typeof c.v === 'string' && /\d/.test(c.v) && /^[\s+\-\d.,€]+$/.test(c.v)));
/** A cell shaped like a template's column name (code, p300, weight_from). */
const nameLike = (c: XLSX.CellObject | undefined) => !!c && typeof c.v === 'string' && /^[A-Za-z][A-Za-z0-9_]*$/.test(c.v.trim());

/**
 * The header row: among the non-empty rows before the first one holding a number (at most ten), the
 * one with the most cells shaped like column names (the first of equals): a title line above the table
 * or the group line of a two-row header is passed over. A sheet starting with numbers has its first
 * non-empty row taken, so the header check names the missing columns. -1 when the sheet is empty.
 */
export function findHeaderRow(rows: Rows, last: number): number {
  let first = -1;
  let best = -1;
  let bestScore = 0;
  let seen = 0;
  for (let r = 0; r <= last && seen < 10; r++) {
    const row = rows[r];
    if (!row || !row.some((c) => c && c.v !== undefined && String(c.v).trim() !== '')) continue;
    if (first < 0) first = r;
    seen++;
    if (row.some(numberish)) break;
    const score = row.filter(nameLike).length;
    if (score > bestScore) {
      best = r;
      bestScore = score;
    }
  }
  return best >= 0 ? best : first;
}
