import type { FastifyRequest } from 'fastify';
import { ApiError, type FieldErrors } from '../lib/errors.js';

/** One refused cell: spreadsheet row number (1-based, as Excel shows it), column, message key and params. */
export interface RowError {
  row: number;
  column: string;
  key: string;
  params?: Record<string, unknown>;
}

/** One refused cell as a check (and a refused upload's `data.errors`) lists it: the row as the spreadsheet shows it, the header's name, a sentence. */
export interface CheckError {
  row: number;
  column: string;
  message: string;
}

/** At most this many cell errors are listed in one answer; the message gives the full count. */
export const MAX_LISTED_ERRORS = 1000;

/** Characters of a value a message quotes (issue 31): an answer stays small whatever the file holds. */
export const QUOTED_CHARS = 80;

/** A text cut to QUOTED_CHARS characters with an ellipsis (never between the halves of a surrogate pair). */
export function clipText(s: string, max = QUOTED_CHARS): string {
  if (s.length <= max) return s;
  let cut = max - 1;
  const last = s.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${s.slice(0, cut)}…`;
}

/** Message params with every text value clipped (a cell's value, a header, a group of key values). */
export function clipParams(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!params) return params;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'string' && v.length > QUOTED_CHARS) (out ??= { ...params })[k] = clipText(v);
  }
  return out ?? params;
}

/** How many cell errors a refused file has, and in how many rows (the list itself is capped). */
export interface RowErrorTotals {
  count: number;
  rows: number;
}

/**
 * The cell errors of one file as they are found: all counted, the first MAX_LISTED_ERRORS by row kept
 * (their values clipped), so a file of a million bad cells costs a bounded list, not a million objects.
 */
export class RowErrorList {
  private kept: RowError[] = [];
  private rowSet = new Set<number>();
  count = 0;
  push(e: RowError) {
    this.count++;
    this.rowSet.add(e.row);
    this.kept.push(e.params ? { ...e, params: clipParams(e.params) } : e);
    if (this.kept.length >= 2 * MAX_LISTED_ERRORS) this.trim();
  }
  private trim() {
    // A stable sort keeps a row's errors in column order.
    this.kept.sort((a, b) => a.row - b.row);
    this.kept.length = Math.min(this.kept.length, MAX_LISTED_ERRORS);
  }
  get length() {
    return this.count;
  }
  /** The listed errors in row order, at most MAX_LISTED_ERRORS. */
  listed(): RowError[] {
    this.trim();
    return this.kept;
  }
  totals(): RowErrorTotals {
    return { count: this.count, rows: this.rowSet.size };
  }
}

/**
 * A refused import. File-level problems carry a message key (413 or 422); row problems a list of
 * RowErrors (422: the first MAX_LISTED_ERRORS by row, `totals` counting them all). Nothing is stored
 * when one is thrown. Text params are clipped to QUOTED_CHARS characters. `toApiError` turns it into
 * the portal's `{message, errors}` answer in the caller's language.
 */
export class ImportError extends Error {
  public params: Record<string, unknown>;
  public rowErrors: RowError[];
  public totals: RowErrorTotals;
  constructor(
    public status: number,
    public key: string,
    params: Record<string, unknown> = {},
    rowErrors: RowError[] | RowErrorList = [],
  ) {
    super(key);
    this.params = clipParams(params) ?? {};
    if (rowErrors instanceof RowErrorList) {
      this.rowErrors = rowErrors.listed();
      this.totals = rowErrors.totals();
    } else {
      const list = new RowErrorList();
      for (const e of rowErrors) list.push(e);
      this.rowErrors = list.listed();
      this.totals = list.totals();
    }
  }
}

/** Row errors as sentences in the caller's language ("riga 14, colonna p300: Non è un numero: …"), in row order. */
export function checkErrors(req: Pick<FastifyRequest, 't'>, rowErrors: readonly RowError[]): CheckError[] {
  return [...rowErrors]
    .sort((a, b) => a.row - b.row)
    .slice(0, MAX_LISTED_ERRORS)
    .map((e) => ({ ...e, params: clipParams(e.params) }))
    .map((e) => ({
      row: e.row,
      column: e.column,
      message: req.t('import.rowError', { row: e.row, column: e.column, message: req.t(e.key, { ...e.params, field: e.column }) }),
    }));
}

/**
 * The answer of a refused import: file-level messages under the upload's field name; row errors keyed
 * "Riga 5, p300" (translated), one entry per refused cell in row order, so the upload modal lists them all.
 */
export function toApiError(err: ImportError, req: Pick<FastifyRequest, 't'>, fileField: string): ApiError {
  const fieldErrors: FieldErrors = {};
  if (err.rowErrors.length === 0) {
    fieldErrors[fileField] = [{ key: err.key, params: { ...err.params, field: fileField } }];
    return new ApiError(err.status, err.key, err.params, fieldErrors);
  }
  const sorted = [...err.rowErrors].sort((a, b) => a.row - b.row);
  for (const e of sorted.slice(0, MAX_LISTED_ERRORS)) {
    const label = req.t('import.cellLabel', { row: e.row, column: e.column });
    (fieldErrors[label] ??= []).push({ key: e.key, params: { ...clipParams(e.params), field: e.column } });
  }
  const { count, rows } = err.totals;
  // Singular and plural (issue 20): "1 errore nella riga 3", "2 errori nella riga 3", "5 errori in 3 righe".
  const key = count > MAX_LISTED_ERRORS ? 'import.badRowsTruncated' : rows > 1 ? 'import.badRows' : count > 1 ? 'import.badRowsOneRow' : 'import.badRowsOne';
  // The same list a dry run answers, under `data.errors`, so a screen shows a refused publish like a check.
  const data = { dry_run: false, errors: checkErrors(req, sorted) };
  return new ApiError(422, key, { count, listed: MAX_LISTED_ERRORS, rows, row: sorted[0].row }, fieldErrors, data);
}

/** Runs an import step, turning an ImportError into the translated API error. */
export async function answeringImportErrors<T>(req: Pick<FastifyRequest, 't'>, fileField: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ImportError) throw toApiError(err, req, fileField);
    throw err;
  }
}
