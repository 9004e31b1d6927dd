import path from 'node:path';
import type { Db } from '../db/index.js';
import type { DB, RateSheetTable } from '../db/types.js';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { FileStore } from '../lib/files.js';
import { settleAfterError } from '../lib/fileSweep.js';
import { nowIso } from '../lib/tokens.js';
import { generateSheetCode } from '../pricing/sheets.js';
import type { RateType, SheetZone } from '../pricing/types.js';
import { rateRowsSpec } from '../../model/tariffs.js';
import { compareSets, refusedCheck, storedPages, type CheckResult, type CheckSummary } from './check.js';
import { tariffImpact } from './impact.js';
import { ImportError, checkErrors } from './errors.js';
import { insertRows } from './insert.js';
import { readRows } from './read/pool.js';
import { importContext, lockCompany, type UploadedSpreadsheet } from './tables.js';
import type { ImportRow } from './validate.js';

export const RATE_SHEET_FILES = 'rate-sheets' as const;

/** Today's date in Europe/Rome, YYYY-MM-DD (pricing.md §0: the quote date; also the code's date). */
export function romeToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export interface NewRateSheet {
  companyId: number;
  legalName: string;
  rateType: RateType;
  zone: SheetZone;
  area: 'Customer' | 'Supplier';
  isStandard: 0 | 1;
  validateFrom: string;
  validateTo: string;
  description: string | null;
  /** An existing category of the company with the same rate type and zone (checked by the caller), or null for a new one. */
  categoryId: number | null;
  file: UploadedSpreadsheet;
  /** YYYY-MM-DD used in the generated code; today in Europe/Rome by default. */
  today?: string;
}

/**
 * Rows of a rate sheet. A standard sheet must hold rows for its zone (a national sheet prices Italian
 * places, an international one the foreign end: pricing.md §3.2): a file uploaded under the wrong zone
 * is refused. Rows of the other zone are kept (the template shows both kinds), they simply never price.
 */
export async function parseRateSheetRows(db: Db, companyId: number, rateType: RateType, zone: SheetZone, file: UploadedSpreadsheet): Promise<ImportRow[]> {
  const spec = rateRowsSpec(rateType);
  // Read and validated in the reading pool (read/pool.ts), off the request thread.
  const rows = await readRows(companyId, { data: file.data, fileName: file.filename, spec, ctx: await importContext(db) });
  if (rateType === 'STD') {
    const fits = rows.some((r) => (zone === 'NAT' ? r.country === 'IT' : r.country !== 'IT'));
    if (!fits) throw new ImportError(422, zone === 'NAT' ? 'import.noNationalRows' : 'import.noInternationalRows');
  }
  return rows;
}

/**
 * Creates a rate sheet version (pricing.md §1): the file is checked and every row validated first;
 * then the original file is kept in the file store (area rate-sheets) and, in one transaction, the category
 * (when none is given: its code is the sheet's generated code), the sheet and all its rows are written.
 * Nothing stays behind when any step fails; when the process dies before the commit, the file's pending
 * mark lets the next start's sweep remove it (lib/files.ts).
 */
export async function importRateSheet(
  db: Db,
  files: FileStore,
  input: NewRateSheet,
): Promise<{ sheet: Selectable<RateSheetTable>; rows: number; summary: CheckSummary }> {
  const rows = await parseRateSheetRows(db, input.companyId, input.rateType, input.zone, input.file);
  // The original is kept under its own format (checked by the reader): .xlsx, .xls, .ods or .csv.
  const named = path.extname(input.file.filename).toLowerCase();
  const ext = ['.xls', '.ods', '.csv'].includes(named) ? named : '.xlsx';
  const stored = await files.storePending(RATE_SHEET_FILES, input.file.data, ext);
  try {
    const { sheet, summary } = await db.transaction().execute(async (trx) => {
      await lockCompany(trx, input.companyId);
      // What this version changes against the one it follows, as the check compares them (issue 35: the message says it).
      const previous = await previousSheet(trx, input);
      const spec = rateRowsSpec(input.rateType);
      const { summary } = await compareSets(spec, previous ? storedPages(trx as Kysely<any>, spec, ['rate_sheet_id', previous.id]) : [], rows);
      const [cats, sheets] = await Promise.all([
        trx.selectFrom('categories').select('code').where('company_id', '=', input.companyId).execute(),
        trx.selectFrom('rate_sheets').select('code').where('company_id', '=', input.companyId).execute(),
      ]);
      const code = generateSheetCode(
        input.legalName,
        input.rateType,
        input.zone,
        input.today ?? romeToday(),
        [...cats, ...sheets].map((r) => r.code),
      );
      const now = nowIso();
      let categoryId = input.categoryId;
      if (categoryId === null) {
        const cat = await trx
          .insertInto('categories')
          .values({
            company_id: input.companyId,
            code,
            rate_type: input.rateType,
            zone: input.zone,
            description: input.description,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        categoryId = cat.id;
      }
      const sheet = await trx
        .insertInto('rate_sheets')
        .values({
          company_id: input.companyId,
          category_id: categoryId,
          code,
          description: input.description,
          zone: input.zone,
          rate_type: input.rateType,
          area: input.area,
          is_standard: input.isStandard,
          validate_from: input.validateFrom,
          validate_to: input.validateTo,
          file_path: stored,
          file_name: path.basename(input.file.filename).slice(0, 255),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await insertRows(
        trx,
        spec.table,
        spec.columns.map((c) => c.name),
        rows,
        { rate_sheet_id: sheet.id },
      );
      return { sheet, summary };
    });
    await files.settle(RATE_SHEET_FILES, stored, true);
    return { sheet, rows: rows.length, summary };
  } catch (err) {
    await settleAfterError(db, files, RATE_SHEET_FILES, [stored]);
    throw err;
  }
}

/** The version a new sheet follows: the newest sheet (highest id) of its category with the same area and rate type; none for a new category. */
function previousSheet(db: Db | Transaction<DB>, input: Pick<NewRateSheet, 'companyId' | 'rateType' | 'area' | 'categoryId'>) {
  if (input.categoryId === null) return Promise.resolve(undefined);
  return (db as Db)
    .selectFrom('rate_sheets')
    .select('id')
    .where('company_id', '=', input.companyId)
    .where('category_id', '=', input.categoryId)
    .where('area', '=', input.area)
    .where('rate_type', '=', input.rateType)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * A dry run of a rate-sheet upload: the file is read and validated as a publish would, and compared
 * with the version it follows: the newest sheet (highest id) of the chosen category with the same area;
 * with no category (a new one would be made) or no such sheet, every row is added. Nothing is written,
 * no file kept. Row errors are answered; file-level problems throw as a publish would.
 */
export async function checkRateSheet(
  db: Db,
  input: Pick<NewRateSheet, 'companyId' | 'rateType' | 'zone' | 'area' | 'isStandard' | 'categoryId' | 'file'>,
  req: Pick<FastifyRequest, 't'>,
): Promise<CheckResult> {
  let rows: ImportRow[];
  try {
    rows = await parseRateSheetRows(db, input.companyId, input.rateType, input.zone, input.file);
  } catch (err) {
    if (err instanceof ImportError && err.rowErrors.length) return refusedCheck(checkErrors(req, err.rowErrors));
    throw err;
  }
  const spec = rateRowsSpec(input.rateType);
  const previous = await previousSheet(db, input);
  // The impact first, then the comparison: their memory does not add up at the peak.
  const impact = await tariffImpact(db, input.companyId, {
    kind: 'sheet',
    rateType: input.rateType,
    zone: input.zone,
    area: input.area,
    isStandard: input.isStandard,
    categoryId: input.categoryId,
    rows,
  });
  const stored = previous ? storedPages(db as Kysely<any>, spec, ['rate_sheet_id', previous.id]) : [];
  return { dry_run: true, errors: [], ...(await compareSets(spec, stored, rows)), impact };
}

/**
 * Deletes a sheet version with its rows and its file; its category stays (end users may be priced with it).
 * The file is marked first, so a process dying between the commit and the file's removal leaves it to the sweep.
 */
export async function deleteRateSheet(db: Db, files: FileStore, sheet: Pick<RateSheetTable, 'file_path'> & { id: number }) {
  await files.markPending(RATE_SHEET_FILES, sheet.file_path);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('express_rate_rows').where('rate_sheet_id', '=', sheet.id).execute();
      await trx.deleteFrom('standard_rate_rows').where('rate_sheet_id', '=', sheet.id).execute();
      await trx.deleteFrom('rate_sheets').where('id', '=', sheet.id).execute();
    });
  } catch (err) {
    await settleAfterError(db, files, RATE_SHEET_FILES, [sheet.file_path]);
    throw err;
  }
  await files.settle(RATE_SHEET_FILES, sheet.file_path, false);
}
