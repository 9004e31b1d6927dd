import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { TARIFF_LIMITS } from '../../model/tariffs.js';
import { ImportError } from './errors.js';

/**
 * Reading an uploaded spreadsheet safely (server.md §8): the bytes must be an .xlsx (OOXML zip) or an
 * .xls (OLE compound file), the file under the size cap, an .xlsx's unzipped size under its cap — read
 * from the zip's central directory and verified entry by entry BEFORE SheetJS sees the file, because
 * SheetJS inflates every entry whole and only then compares sizes — and the first sheet is parsed with
 * a row cap, so an oversize sheet is refused without being parsed in full.
 */

// SheetJS inflates with its pure-JS inflater unless given zlib; the native one is faster. SheetJS reads
// the deprecated `bytesRead` (an alias of `bytesWritten`, the input consumed): this subclass answers it
// without Node's deprecation warning.
class InflateRaw extends zlib.InflateRaw {
  get bytesRead() {
    return this.bytesWritten;
  }
}
(XLSX as any).CFB?.utils?.use_zlib?.({ InflateRaw, deflateRawSync: zlib.deflateRawSync });

export interface Limits {
  fileBytes: number;
  rows: number;
  unzippedBytes: number;
}

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_EOCD = 0x06054b50;

export type SpreadsheetKind = 'xlsx' | 'xls';

/** The kind of spreadsheet the bytes hold, by their first bytes; null when neither. */
export function sniffSpreadsheet(data: Buffer): SpreadsheetKind | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(OLE_MAGIC)) return 'xls';
  if (data.length >= 4 && data.readUInt32LE(0) === ZIP_LOCAL) return 'xlsx';
  return null;
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * Walks the zip's central directory: every entry must be stored or deflated, the declared unzipped
 * sizes must add up to at most the cap, the archive must hold an Excel workbook, and each deflated entry
 * must inflate to no more than its declared size (a lying header is caught after at most the cap).
 */
export function checkZip(data: Buffer, limits: Pick<Limits, 'unzippedBytes'>) {
  const unreadable = () => new ImportError(422, 'import.unreadable');
  const minEocd = Math.max(0, data.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = data.length - 22; i >= minEocd; i--) {
    if (data.readUInt32LE(i) === ZIP_EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw unreadable();
  const count = data.readUInt16LE(eocd + 10);
  const cdOffset = data.readUInt32LE(eocd + 16);
  // ZIP64 markers: a file under the upload cap never needs them.
  if (count === 0xffff || cdOffset === 0xffffffff || cdOffset >= data.length) throw unreadable();

  const entries: Array<{ name: string; method: number; csz: number; usz: number; local: number }> = [];
  let total = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== ZIP_CENTRAL) throw unreadable();
    const method = data.readUInt16LE(p + 10);
    const csz = data.readUInt32LE(p + 20);
    const usz = data.readUInt32LE(p + 24);
    const nameLen = data.readUInt16LE(p + 28);
    const extraLen = data.readUInt16LE(p + 30);
    const commentLen = data.readUInt16LE(p + 32);
    const local = data.readUInt32LE(p + 42);
    const name = data.toString('utf8', p + 46, p + 46 + nameLen);
    if (method !== 0 && method !== 8) throw unreadable();
    if (usz === 0xffffffff || csz === 0xffffffff) throw new ImportError(413, 'import.unzippedTooLarge', { limit: mb(limits.unzippedBytes) });
    total += usz;
    if (total > limits.unzippedBytes) throw new ImportError(413, 'import.unzippedTooLarge', { limit: mb(limits.unzippedBytes) });
    entries.push({ name, method, csz, usz, local });
    p += 46 + nameLen + extraLen + commentLen;
  }
  if (!entries.some((e) => e.name.toLowerCase() === 'xl/workbook.xml')) throw new ImportError(422, 'import.notSpreadsheet');

  for (const e of entries) {
    if (e.local + 30 > data.length || data.readUInt32LE(e.local) !== ZIP_LOCAL) throw unreadable();
    const start = e.local + 30 + data.readUInt16LE(e.local + 26) + data.readUInt16LE(e.local + 28);
    if (start + e.csz > data.length) throw unreadable();
    if (e.method !== 8) continue;
    try {
      zlib.inflateRawSync(data.subarray(start, start + e.csz), { maxOutputLength: Math.max(1, e.usz) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ImportError(413, 'import.unzippedTooLarge', { limit: mb(limits.unzippedBytes) });
      }
      throw unreadable();
    }
  }
}

export interface SheetData {
  /** The header row's cells as text, by absolute column index. */
  headers: string[];
  /** Absolute index of the header row (0-based); data rows follow it. */
  headerRow: number;
  /** Dense rows of the first sheet (absolute indices), as SheetJS gives them. */
  rows: Array<Array<XLSX.CellObject | undefined> | undefined>;
  firstCol: number;
}

/** SheetJS options: the first sheet only, values only (no formatted text, formulas, styles). */
export const READ_OPTIONS: XLSX.ParsingOptions = {
  type: 'buffer',
  dense: true,
  sheets: 0,
  cellFormula: false,
  cellHTML: false,
  cellText: false,
  cellNF: false,
  cellStyles: false,
  cellDates: false,
  bookVBA: false,
  bookDeps: false,
};

/**
 * Checks an uploaded file and parses its first sheet. `fileName` is checked for .xls/.xlsx (the
 * screens' rule); the content decides how it is read.
 */
export function readSpreadsheet(data: Buffer, fileName: string, limits: Limits = TARIFF_LIMITS): SheetData {
  if (data.length > limits.fileBytes) throw new ImportError(413, 'import.tooLarge', { limit: mb(limits.fileBytes) });
  if (!/\.xlsx?$/i.test(fileName.trim())) throw new ImportError(422, 'import.extension');
  const kind = sniffSpreadsheet(data);
  if (!kind) throw new ImportError(422, 'import.notSpreadsheet');
  if (kind === 'xlsx') checkZip(data, limits);

  let wb: XLSX.WorkBook;
  try {
    // Header row + the cap + one more row, so "more than the cap" is seen without reading the rest.
    wb = XLSX.read(data, { ...READ_OPTIONS, sheetRows: limits.rows + 2 });
  } catch (err) {
    if (/password|encrypt/i.test(String((err as Error)?.message))) throw new ImportError(422, 'import.encrypted');
    throw new ImportError(422, 'import.unreadable');
  }
  if (wb.bookType && !['xlsx', 'xls', 'biff8', 'biff5', 'biff2', 'biff3', 'biff4', 'xlml'].includes(String(wb.bookType))) {
    throw new ImportError(422, 'import.notSpreadsheet');
  }
  const ws = wb.SheetNames.length ? wb.Sheets[wb.SheetNames[0]] : undefined;
  const rows = ((ws as any)?.['!data'] ?? []) as SheetData['rows'];
  const ref = ws?.['!ref'];
  if (!ws || !ref) throw new ImportError(422, 'import.noRows');
  const range = XLSX.utils.decode_range(ref);
  // The header is the first non-empty row of the sheet's range.
  let headerRow = range.s.r;
  while (headerRow <= range.e.r && !(rows[headerRow] ?? []).some((c) => c && c.v !== undefined && String(c.v).trim() !== '')) headerRow++;
  if (headerRow > range.e.r) throw new ImportError(422, 'import.noRows');
  const dataRows = Math.max(0, Math.min(rows.length, range.e.r + 1) - headerRow - 1);
  if (dataRows > limits.rows) throw new ImportError(413, 'import.tooManyRows', { limit: groupDigits(limits.rows) });
  const headers: string[] = [];
  for (const [c, cell] of (rows[headerRow] ?? []).entries()) headers[c] = cell?.v === undefined ? '' : String(cell.v);
  return { headers, headerRow, rows, firstCol: range.s.c };
}

/** 200000 → "200 000": digit groups with a space read the same in it, en and fr. */
export const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
