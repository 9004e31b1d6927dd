import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { TARIFF_LIMITS } from '../../model/tariffs.js';
import { readCsv } from './csv.js';
import { ImportError } from './errors.js';
import { findHeaderRow, readSheets } from './sheets.js';

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

export type SpreadsheetKind = 'xlsx' | 'xls' | 'ods' | 'csv';

/** The accepted file names: the extension decides which content is expected. */
export const SPREADSHEET_EXTENSIONS = ['.xlsx', '.xls', '.ods', '.csv'] as const;

/**
 * The kind of file the bytes hold, by their first bytes: 'xls' (OLE2), 'xlsx' for any zip (an .xlsx or
 * an .ods: checkZip tells them apart from the directory), 'csv' for text without NUL bytes; null otherwise.
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

/**
 * Walks the zip's central directory: every entry must be stored or deflated, the declared unzipped
 * sizes must add up to at most the cap, the archive must hold an Excel workbook, and (`inflateEntries`)
 * each deflated entry must inflate to no more than its declared size (a lying header is caught after at
 * most the cap). Without `inflateEntries` the caller inflates what it reads with the same bound.
 */
export function checkZip(data: Buffer, limits: Pick<Limits, 'unzippedBytes'>, inflateEntries = true): 'xlsx' | 'ods' {
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
  const names = new Set(entries.map((e) => e.name.toLowerCase()));
  const kind = names.has('xl/workbook.xml') ? 'xlsx' : names.has('content.xml') && names.has('mimetype') ? 'ods' : null;
  if (!kind) throw new ImportError(422, 'import.notSpreadsheet');

  for (const e of entries) {
    if (e.local + 30 > data.length || data.readUInt32LE(e.local) !== ZIP_LOCAL) throw unreadable();
    const start = e.local + 30 + data.readUInt16LE(e.local + 26) + data.readUInt16LE(e.local + 28);
    if (start + e.csz > data.length) throw unreadable();
    if (e.method !== 8 || !inflateEntries) continue;
    try {
      zlib.inflateRawSync(data.subarray(start, start + e.csz), { maxOutputLength: Math.max(1, e.usz) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ImportError(413, 'import.unzippedTooLarge', { limit: mb(limits.unzippedBytes) });
      }
      throw unreadable();
    }
  }
  if (kind === 'ods') {
    const m = entries.find((e) => e.name === 'mimetype');
    const start = m ? m.local + 30 + data.readUInt16LE(m.local + 26) + data.readUInt16LE(m.local + 28) : 0;
    const type = m && m.method === 0 ? data.toString('latin1', start, start + m.csz) : '';
    if (type !== 'application/vnd.oasis.opendocument.spreadsheet') throw new ImportError(422, 'import.notSpreadsheet');
  }
  return kind;
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
 * Checks an uploaded file and parses its data sheet (the first sheet holding a cell). The file name must
 * end in .xlsx, .xls, .ods or .csv, and the content must be what the name says (a zip for .xlsx/.ods, an
 * OLE2 file or a zip for .xls — Excel opens both —, text for .csv): caps on size, unzipped size and rows.
 */
export function readSpreadsheet(data: Buffer, fileName: string, limits: Limits = TARIFF_LIMITS): SheetData {
  if (data.length > limits.fileBytes) throw new ImportError(413, 'import.tooLarge', { limit: mb(limits.fileBytes) });
  const ext = /\.(xlsx|xls|ods|csv)$/i.exec(fileName.trim())?.[1].toLowerCase();
  if (!ext) throw new ImportError(422, 'import.extension');
  const sniffed = sniffSpreadsheet(data);
  if (!sniffed) throw new ImportError(422, 'import.notSpreadsheet');
  // An .xlsx read by the lean reader inflates only the parts it reads, each bounded by its declared size
  // (a lying entry fails there); before SheetJS reads one, every entry is inflated with the cap as before.
  const kind = sniffed === 'xlsx' ? checkZip(data, limits, false) : sniffed;
  if (kind === 'ods') checkZip(data, limits);
  if (ext === 'csv' ? kind !== 'csv' : kind === 'csv' || (ext === 'ods') !== (kind === 'ods')) {
    throw new ImportError(422, 'import.contentMismatch', { extension: `.${ext}` });
  }

  // Header row + the cap + one more row, so "more than the cap" is seen without reading the rest.
  const rows =
    kind === 'csv' ? readCsv(data, limits.rows + 2 + 50).rows : readSheets(data, limits.rows + 2, kind === 'xlsx' ? () => checkZip(data, limits) : undefined);
  let last = rows.length - 1;
  while (last >= 0 && !nonEmpty(rows[last])) last--;
  const headerRow = findHeaderRow(rows, last);
  if (headerRow < 0) throw new ImportError(422, 'import.noRows');
  const dataRows = Math.max(0, last - headerRow);
  if (dataRows > limits.rows) throw new ImportError(413, 'import.tooManyRows', { limit: groupDigits(limits.rows) });
  const headers: string[] = [];
  for (const [c, cell] of (rows[headerRow] ?? []).entries()) headers[c] = cell?.v === undefined ? '' : String(cell.v).trim();
  return { headers, headerRow, rows: rows.slice(0, last + 1), firstCol: 0 };
}

const nonEmpty = (row: SheetData['rows'][number]) => (row ?? []).some((c) => c && c.v !== undefined && c.v !== null && String(c.v).trim() !== '');

/** 200000 → "200 000": digit groups with a space read the same in it, en and fr. */
export const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
