import { ImportError } from '../errors.js';
import { LimitCounter, READ_LIMITS, groupDigits, limitError, maxRowIndex, type Cell, type RawSheet, type ReadLimits } from './types.js';

/**
 * Reading a .csv tariff (docs/tariff-formats.md): UTF-8 with or without BOM, columns separated by commas
 * or semicolons, numbers with a decimal point or a decimal comma. The separator and the decimal mark are
 * detected from the file; when the file does not tell them apart (no separator, both in the header row,
 * rows with the other separator, numbers written both ways, only "1.500"-like numbers) it is refused
 * with a message saying so. Cells come back as text cells (numbers normalised to a decimal point), so
 * postal codes keep their leading zeros and the cell readers see what the user typed.
 */

export type Delimiter = ',' | ';';
export type DecimalMark = '.' | ',';

const QUOTE = 34;
const COMMA = 44;
const SEMI = 59;
const LF = 10;
const CR = 13;

/** Decodes UTF-8 (BOM dropped); anything else is refused. */
export function decodeCsv(data: Buffer): string {
  if (data.includes(0)) throw new ImportError(422, 'import.notSpreadsheet');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    throw new ImportError(422, 'import.csvEncoding');
  }
}

/**
 * Splits the text into records (quoted fields may hold separators, quotes as "" and line breaks). Blank
 * lines give empty records, kept so record numbers stay the rows a spreadsheet program shows. With
 * `limits`, counted as it goes: a field longer than a cell may be, a record with more fields than
 * columns, a non-empty record past the last row are refused there (trailing blank lines cost nothing).
 */
export function splitCsv(text: string, delim: Delimiter, limits?: ReadLimits): string[][] {
  const d = delim.charCodeAt(0);
  const records: string[][] = [];
  const counter = limits && new LimitCounter(limits);
  const maxFields = limits?.columns ?? Infinity;
  let fields: string[] = [];
  let i = 0;
  const n = text.length;
  const push = (record: string[]) => {
    if (counter && record.length) counter.row(records.length);
    records.push(record);
  };
  while (i <= n) {
    if (i === n) {
      if (fields.length) push(fields);
      break;
    }
    let value: string;
    if (text.charCodeAt(i) === QUOTE) {
      let j = i + 1;
      let out = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          out += text.slice(j);
          j = n;
          break;
        }
        out += text.slice(j, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          out += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      // text after the closing quote, up to the separator, is kept as typed
      let k = j;
      while (k < n && text.charCodeAt(k) !== d && text.charCodeAt(k) !== LF && text.charCodeAt(k) !== CR) k++;
      value = out + text.slice(j, k);
      i = k;
    } else {
      let k = i;
      while (k < n && text.charCodeAt(k) !== d && text.charCodeAt(k) !== LF && text.charCodeAt(k) !== CR) k++;
      value = text.slice(i, k);
      i = k;
    }
    if (counter) {
      if (value.length > counter.limits.cellChars) counter.text(value.length, records.length, fields.length);
      if (fields.length >= maxFields) throw limitError('columns', counter.limits, { r: records.length });
    }
    fields.push(value);
    const c = text.charCodeAt(i);
    if (c === d) {
      i++;
      if (i === n) fields.push('');
      continue;
    }
    // end of record (or of text)
    if (c === CR && text.charCodeAt(i + 1) === LF) i += 2;
    else i++;
    push(fields.length === 1 && fields[0] === '' ? [] : fields);
    fields = [];
    if (i >= n) break;
  }
  return records;
}

/** Separators counted outside quotes, per record: [commas, semicolons]. */
function countSeparators(text: string, maxRecords: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let commas = 0;
  let semis = 0;
  let quoted = false;
  let any = false;
  for (let i = 0; i < text.length && out.length < maxRecords; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) quoted = !quoted;
    else if (quoted) continue;
    else if (c === COMMA) commas++;
    else if (c === SEMI) semis++;
    else if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      out.push([commas, semis]);
      commas = semis = 0;
      any = false;
      continue;
    }
    any = true;
  }
  if (any || commas || semis) out.push([commas, semis]);
  return out;
}

/**
 * The column separator: the header (the first record holding a separator) must use exactly one of the
 * two; a later record written with the other one is refused as mixed, naming its row.
 */
export function detectDelimiter(text: string, maxRecords = Infinity): Delimiter {
  const counts = countSeparators(text, maxRecords);
  const h = counts.findIndex(([c, s]) => c > 0 || s > 0);
  if (h < 0) throw new ImportError(422, 'import.csvDelimiter');
  const [hc, hs] = counts[h];
  if (hc > 0 && hs > 0) throw new ImportError(422, 'import.csvDelimiter');
  const delim: Delimiter = hc > 0 ? ',' : ';';
  const [own, other] = delim === ',' ? [0, 1] : [1, 0];
  const width = counts[h][own];
  for (let r = h; r < counts.length; r++) {
    const row = counts[r];
    // a record of a million separators would become a million cells: no template has a tenth of the cap
    if (row[own] >= MAX_CSV_COLUMNS) throw new ImportError(413, 'import.tooManyColumns', { limit: groupDigits(MAX_CSV_COLUMNS), row: r + 1 });
    if (r === h) continue;
    if (row[own] !== width && row[other] > 0 && (row[own] === 0 || row[other] === width)) {
      throw new ImportError(422, 'import.csvMixed', { row: r + 1, expected: delim, found: delim === ',' ? ';' : ',' });
    }
  }
  return delim;
}

/** Columns a CSV record may hold (the templates have a dozen; extra columns are ignored but still read). */
export const MAX_CSV_COLUMNS = READ_LIMITS.columns;

type Evidence = { value: string; row: number } | undefined;

/**
 * The decimal mark, from the numbers of the file: "12,5", "0,500", "1234,500", "1.234,5" say comma;
 * "12.5", "0.500", "1,234.5" say point; "1,500" and "1.500" alone could be either. Both marks → refused;
 * only ambiguous numbers → refused (except "1.500" in a comma-separated file, where a comma cannot be
 * a decimal mark without quotes).
 */
export function detectDecimal(records: string[][], delim: Delimiter, firstRow = 0): DecimalMark {
  let comma: Evidence;
  let point: Evidence;
  let ambComma: Evidence;
  let ambPoint: Evidence;
  for (let r = firstRow; r < records.length; r++) {
    for (const raw of records[r]) {
      const v = raw.trim().replace(/^[+-]/, '');
      if (v.length < 3 || !/^[\d.,]+$/.test(v)) continue;
      const at = { value: raw.trim(), row: r + 1 };
      let m: RegExpExecArray | null;
      if ((m = /^(\d+),(\d+)$/.exec(v))) {
        if (m[2].length !== 3 || m[1].length > 3 || m[1].startsWith('0')) comma ??= at;
        else ambComma ??= at;
      } else if ((m = /^(\d+)\.(\d+)$/.exec(v))) {
        if (m[2].length !== 3 || m[1].length > 3 || m[1].startsWith('0')) point ??= at;
        else ambPoint ??= at;
      } else if (/^\d{1,3}(\.\d{3})+,\d+$/.test(v) || /^\d{1,3}(\.\d{3}){2,}$/.test(v)) comma ??= at;
      else if (/^\d{1,3}(,\d{3})+\.\d+$/.test(v) || /^\d{1,3}(,\d{3}){2,}$/.test(v)) point ??= at;
    }
  }
  if (comma && point) {
    const [a, b] = comma.row <= point.row ? [comma, point] : [point, comma];
    throw new ImportError(422, 'import.csvDecimalMixed', { row: a.row, value: a.value, other_row: b.row, other_value: b.value });
  }
  if (comma) return ',';
  if (point) return '.';
  const amb = ambComma ?? ambPoint;
  if (amb && !(delim === ',' && !ambComma)) throw new ImportError(422, 'import.csvDecimalAmbiguous', { row: amb.row, value: amb.value });
  return '.';
}

const COMMA_NUMBER = /^([+-]?)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?$/;
const POINT_NUMBER = /^([+-]?)(\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/;

/** A number in the file's notation as decimal-point text without grouping; other text unchanged. */
export function normaliseNumber(text: string, mark: DecimalMark): string {
  const t = text.trim();
  const m = (mark === ',' ? COMMA_NUMBER : POINT_NUMBER).exec(t);
  if (!m) return text;
  const int = m[2].replace(/[.,]/g, '');
  return `${m[1]}${int}${m[3] !== undefined ? `.${m[3]}` : ''}`;
}

export interface CsvSheet extends RawSheet {
  delimiter: Delimiter;
  decimal: DecimalMark;
}

/** Reads a CSV into dense text cells, within the limits (rows, columns, characters per cell). */
export function readCsv(data: Buffer, limits: ReadLimits): CsvSheet {
  const text = decodeCsv(data);
  const delimiter = detectDelimiter(text, maxRowIndex(limits) + 1);
  const records = splitCsv(text, delimiter, limits);
  const decimal = detectDecimal(records, delimiter);
  const rows = records.map((rec) =>
    rec.map((f): Cell | undefined => (f.trim() === '' ? undefined : { t: 's', v: decimal === ',' || f.includes(',') ? normaliseNumber(f, decimal) : f })),
  );
  return { rows, merges: [], delimiter, decimal };
}
