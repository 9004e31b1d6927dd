import { ImportError } from '../errors.js';
import { readCsv } from './csv.js';
import { readOds } from './ods.js';
import { readXls } from './xls.js';
import { limitError, READ_LIMITS, type RawSheet, type ReadLimits, type Rows } from './types.js';
import { readXlsx } from './xlsx.js';
import { openZip } from './zip.js';

/**
 * Reading an uploaded spreadsheet (server.md §8, issue 31): one path per format, each counting the same
 * limits while it reads (read/types.ts). The file name must end in .xlsx, .xls, .ods or .csv and the
 * content must be what the name says (a zip for .xlsx/.ods, told apart by their directory; an OLE2 file,
 * or a zip, for .xls — Excel opens both —; text for .csv). Then, as a person reads a sheet
 * (docs/tariff-formats.md): the data sheet is the first one holding a cell, a header cell merged
 * downwards names its column on every row of the merge, and the header row is found above the data.
 * This runs in the reading pool's workers (read/pool.ts), never on the thread that answers requests.
 */

export type SpreadsheetKind = 'xlsx' | 'xls' | 'ods' | 'csv';

/** The accepted file names: the extension decides which content is expected. */
export const SPREADSHEET_EXTENSIONS = ['.xlsx', '.xls', '.ods', '.csv'] as const;

export interface SheetData {
  /** The header row's cells as text, by absolute column index. */
  headers: string[];
  /** Absolute index of the header row (0-based); data rows follow it. */
  headerRow: number;
  /** Dense rows of the data sheet (absolute indices), up to its last non-empty row. */
  rows: Rows;
  firstCol: number;
}

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_LOCAL = 0x04034b50;

/**
 * The kind of file the bytes hold, by their first bytes: 'xls' (OLE2), 'xlsx' for any zip (an .xlsx or
 * an .ods: the zip's directory tells them apart), 'csv' for text without NUL bytes; null otherwise.
 */
export function sniffSpreadsheet(data: Buffer): SpreadsheetKind | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(OLE_MAGIC)) return 'xls';
  if (data.length >= 4 && data.readUInt32LE(0) === ZIP_LOCAL) return 'xlsx';
  if (looksLikeText(data)) return 'csv';
  return null;
}

/** Text: no NUL and no control bytes other than tab, CR, LF in the first 8 KB (UTF-8 is checked when decoded). */
function looksLikeText(data: Buffer): boolean {
  if (data.length === 0) return false;
  const head = data.subarray(0, 8192);
  for (const b of head) if (b < 32 && b !== 9 && b !== 10 && b !== 13) return false;
  return !head.subarray(0, 5).equals(Buffer.from('%PDF-'));
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The data sheet by the reader of the file's format, every limit counted as it reads. */
async function rawSheet(data: Buffer, fileName: string, limits: ReadLimits): Promise<RawSheet | null> {
  if (data.length > limits.fileBytes) throw new ImportError(413, 'import.tooLarge', { limit: mb(limits.fileBytes) });
  const ext = /\.(xlsx|xls|ods|csv)$/i.exec(fileName.trim())?.[1].toLowerCase();
  if (!ext) throw new ImportError(422, 'import.extension');
  const sniffed = sniffSpreadsheet(data);
  if (!sniffed) throw new ImportError(422, 'import.notSpreadsheet');
  const zip = sniffed === 'xlsx' ? openZip(data, limits) : null;
  const kind = zip?.kind ?? sniffed;
  if (ext === 'csv' ? kind !== 'csv' : kind === 'csv' || (ext === 'ods') !== (kind === 'ods')) {
    throw new ImportError(422, 'import.contentMismatch', { extension: `.${ext}` });
  }
  if (zip) return zip.kind === 'ods' ? readOds(zip, limits) : readXlsx(zip, limits);
  return kind === 'xls' ? readXls(data, limits) : readCsv(data, limits);
}

/** Header cells merged downwards (starting in the top rows) name their column on every row of the merge. */
function copyMergedHeaders(sheet: RawSheet) {
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
}

type Cells = Rows[number];
const nonEmpty = (row: Cells) => (row ?? []).some((c) => c && c.v !== undefined && c.v !== null && String(c.v).trim() !== '');
/** A cell a person reads as a number: a number, or text made of digits with signs, separators and € only. */
const numberish = (c: NonNullable<Cells>[number]) => !!c && (c.t === 'n' || (typeof c.v === 'string' && /\d/.test(c.v) && /^[\s+\-\d.,€]+$/.test(c.v)));
/** A cell shaped like a template's column name (code, p300, weight_from). */
const nameLike = (c: NonNullable<Cells>[number]) => !!c && typeof c.v === 'string' && /^[A-Za-z][A-Za-z0-9_]*$/.test(c.v.trim());

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
    if (!row || !nonEmpty(row)) continue;
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

/**
 * Checks an uploaded file and reads its data sheet: the header row, the rows under it (at most
 * `limits.rows`), every limit counted while reading. Throws an ImportError (413 or 422) otherwise.
 */
export async function readSpreadsheet(data: Buffer, fileName: string, limits: ReadLimits = READ_LIMITS): Promise<SheetData> {
  const sheet = await rawSheet(data, fileName, limits);
  if (!sheet) throw new ImportError(422, 'import.noRows');
  copyMergedHeaders(sheet);
  const rows = sheet.rows;
  let last = rows.length - 1;
  while (last >= 0 && !nonEmpty(rows[last])) last--;
  const headerRow = findHeaderRow(rows, last);
  if (headerRow < 0) throw new ImportError(422, 'import.noRows');
  if (last - headerRow > limits.rows) throw limitError('rows', limits);
  const headers: string[] = [];
  for (const [c, cell] of (rows[headerRow] ?? []).entries()) headers[c] = cell?.v === undefined ? '' : String(cell.v).trim();
  rows.length = last + 1;
  return { headers, headerRow, rows, firstCol: 0 };
}
