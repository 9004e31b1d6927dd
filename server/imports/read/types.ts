import { TARIFF_LIMITS } from '../../../model/tariffs.js';
import { ImportError } from '../errors.js';

/**
 * What every format's reader gives (issue 31): the data sheet as dense rows of cells, the same cells
 * SheetJS gave the importer with its values-only options (`t`: 's' text, 'n' number, 'b' boolean, 'e'
 * an error code), rows and columns 0-based and absolute (row 0 = the sheet's row 1), and the merged
 * ranges (a merged header cell names its column on every row of the merge: sheet.ts copies it down).
 */
export interface Cell {
  t: 's' | 'n' | 'b' | 'e';
  v: string | number | boolean;
}
export type Row = Array<Cell | undefined>;
export type Rows = Array<Row | undefined>;
export interface CellAddress {
  r: number;
  c: number;
}
export interface Range {
  s: CellAddress;
  e: CellAddress;
}
export interface RawSheet {
  rows: Rows;
  merges: Range[];
}

/**
 * The hard limits of one read, counted while reading (never after materialising), the same for .xlsx,
 * .xls, .ods and .csv. A reader stops at the first one passed and throws the ImportError `limitError`
 * makes; nothing it read is kept.
 */
export interface ReadLimits {
  /** bytes of the uploaded file */
  fileBytes: number;
  /** data rows (the header row excluded); see `maxRowIndex` for what a reader counts */
  rows: number;
  /** columns a row may use: a non-empty cell at column index ≥ this is refused (repeated cells counted) */
  columns: number;
  /** characters of one cell (Excel's own limit) */
  cellChars: number;
  /** shared strings (.xlsx sst, .xls SST): how many, and their characters in all */
  sharedStrings: number;
  sharedStringChars: number;
  /** bytes inflated from the zip (.xlsx, .ods), every part read counted as it streams */
  inflatedBytes: number;
  /** bytes of one row's XML (or one CSV record): a row is read whole, so this bounds what one row holds */
  rowBytes: number;
  /**
   * cell slots the rows hold (each row a dense array as long as its last cell's column + 1, a repeated
   * row counted once per copy): one value at column 999 on every row would otherwise cost 8 kB a row
   */
  cells: number;
}

/** The portal's limits: TARIFF_LIMITS (the screens quote them) and the reader's own. */
export const READ_LIMITS: ReadLimits = {
  fileBytes: TARIFF_LIMITS.fileBytes,
  rows: TARIFF_LIMITS.rows,
  columns: TARIFF_LIMITS.columns,
  cellChars: TARIFF_LIMITS.cellChars,
  // A tariff's text is codes, places and units: 200 000 rows of five distinct texts fit ten times over.
  sharedStrings: 1_000_000,
  sharedStringChars: 32 * 1024 * 1024,
  inflatedBytes: TARIFF_LIMITS.unzippedBytes,
  rowBytes: 4 * 1024 * 1024,
  // 200 000 rows of 20 columns (the templates have at most 12); 32 MB of row arrays at most.
  cells: 4_000_000,
};

/**
 * Rows a header may sit below the sheet's first row (a title, a logo, blank lines): a reader refuses a
 * non-empty row at an index of `rows + HEADER_ROOM` or more as too many rows, without reading further.
 */
export const HEADER_ROOM = 50;
export const maxRowIndex = (limits: Pick<ReadLimits, 'rows'>) => limits.rows + HEADER_ROOM;

/**
 * 200000 → "200 000": digit groups with a space read the same in it, en and fr; a no-break space, so a
 * message never breaks a number across two lines (a phone showed "1" and "000" on two lines).
 */
export const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Column letters of a 0-based index (0 → A, 26 → AA). */
export function columnName(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(((n - 1) % 26) + 65) + s;
  return s;
}

export type LimitKind = 'rows' | 'columns' | 'cellChars' | 'complex' | 'inflated';

/**
 * The refusal of a limit passed, in words the user can act on (413): too many rows, a row using columns
 * past the limit, a cell longer than Excel allows, a file that inflates past the cap, or the generic
 * "too large or too complex" (shared strings, a huge row, the reading worker's memory or time).
 */
export function limitError(kind: LimitKind, limits: ReadLimits, at: Partial<CellAddress> = {}): ImportError {
  const sizes = { rows: groupDigits(limits.rows), columns: groupDigits(limits.columns) };
  switch (kind) {
    case 'rows':
      return new ImportError(413, 'import.tooManyRows', { limit: sizes.rows });
    case 'columns':
      return new ImportError(413, 'import.tooManyColumns', { limit: sizes.columns, row: (at.r ?? 0) + 1 });
    case 'cellChars':
      return new ImportError(413, 'import.cellTooLong', { limit: groupDigits(limits.cellChars), cell: `${columnName(at.c ?? 0)}${(at.r ?? 0) + 1}` });
    case 'inflated':
      return new ImportError(413, 'import.unzippedTooLarge', { limit: mb(limits.inflatedBytes) });
    default:
      return new ImportError(413, 'import.tooComplex', sizes);
  }
}

/** The damaged-file refusal every reader gives for a structure it cannot follow. */
export const unreadable = () => new ImportError(422, 'import.unreadable');

/**
 * Counts what a reader produces against the limits as it goes: call `cell` for every non-empty cell
 * (with its repeat count along the row), `text` for every cell text. Cheap enough for every cell.
 */
export class LimitCounter {
  readonly maxRow: number;
  private cellSlots = 0;
  constructor(readonly limits: ReadLimits) {
    this.maxRow = maxRowIndex(limits);
  }
  /** `n` more cell slots held by the rows (a row made longer, or a repeated row's copies): past `cells`, too complex. */
  slots(n: number) {
    if ((this.cellSlots += n) > this.limits.cells) throw limitError('complex', this.limits);
  }
  /** A non-empty cell at (r, c), `repeat` times along the row: refused past the last row or column. */
  cell(r: number, c: number, repeat = 1) {
    if (r >= this.maxRow) throw limitError('rows', this.limits);
    if (c + repeat > this.limits.columns) throw limitError('columns', this.limits, { r, c });
  }
  /** A non-empty row at r, `repeat` times down the sheet. */
  row(r: number, repeat = 1) {
    if (r + repeat > this.maxRow) throw limitError('rows', this.limits);
  }
  /** A cell's text (or its length): refused past the characters a cell may hold. */
  text(length: number, r: number, c: number) {
    if (length > this.limits.cellChars) throw limitError('cellChars', this.limits, { r, c });
  }
}
