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

/**
 * A refused import. File-level problems carry a message key (413 or 422); row problems a list of
 * RowErrors (422). Nothing is stored when one is thrown. `toApiError` turns it into the portal's
 * `{message, errors}` answer in the caller's language.
 */
export class ImportError extends Error {
  constructor(
    public status: number,
    public key: string,
    public params: Record<string, unknown> = {},
    public rowErrors: RowError[] = [],
  ) {
    super(key);
  }
}

/** Row errors as sentences in the caller's language ("riga 14, colonna p300: Non è un numero: …"), in row order. */
export function checkErrors(req: Pick<FastifyRequest, 't'>, rowErrors: readonly RowError[]): CheckError[] {
  return [...rowErrors]
    .sort((a, b) => a.row - b.row)
    .slice(0, MAX_LISTED_ERRORS)
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
    (fieldErrors[label] ??= []).push({ key: e.key, params: { ...e.params, field: e.column } });
  }
  const rows = new Set(sorted.map((e) => e.row)).size;
  // Singular and plural (issue 20): "1 errore nella riga 3", "2 errori nella riga 3", "5 errori in 3 righe".
  const key =
    sorted.length > MAX_LISTED_ERRORS
      ? 'import.badRowsTruncated'
      : rows > 1
        ? 'import.badRows'
        : sorted.length > 1
          ? 'import.badRowsOneRow'
          : 'import.badRowsOne';
  // The same list a dry run answers, under `data.errors`, so a screen shows a refused publish like a check.
  const data = { dry_run: false, errors: checkErrors(req, sorted) };
  return new ApiError(422, key, { count: sorted.length, listed: MAX_LISTED_ERRORS, rows, row: sorted[0].row }, fieldErrors, data);
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
