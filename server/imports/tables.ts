import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../db/index.js';
import type { DB } from '../db/types.js';
import { isPostgres } from '../migrations/helpers.js';
import type { TariffTableSpec } from '../../model/tariffs.js';
import { compareSets, refusedCheck, storedPages, type CheckResult, type CheckSummary } from './check.js';
import { tariffImpact } from './impact.js';
import { ImportError, checkErrors } from './errors.js';
import { insertRows } from './insert.js';
import { readRows } from './read/pool.js';
import type { CellContext } from './cells.js';
import type { ImportRow, ValidateOptions } from './validate.js';

export interface UploadedSpreadsheet {
  filename: string;
  data: Buffer;
}

/** What the cells are checked against: the countries table's ISO codes and the provinces table's siglas. */
export async function importContext(db: Db): Promise<CellContext> {
  const rows = await db.selectFrom('countries').select(['iso_alpha_2', 'code_alpha']).execute();
  const countries = new Set<string>();
  for (const r of rows) for (const v of [r.iso_alpha_2, r.code_alpha]) if (v && /^[A-Za-z]{2}$/.test(v)) countries.add(v.toUpperCase());
  const provinces = new Set((await db.selectFrom('provinces').select('sigla').execute()).map((p) => p.sigla.toUpperCase()));
  // Before the reference data is loaded the built-in list of model/tariffPlaces.ts stands in.
  return { countries, provinces: provinces.size ? provinces : undefined };
}

/**
 * Serialises writers of one company's tariff data: on PostgreSQL a row lock on the company, so two
 * uploads at the same moment cannot both find the set empty; SQLite runs one write transaction at a time.
 */
export async function lockCompany(trx: Transaction<DB>, companyId: number) {
  if (isPostgres(trx)) await sql`select id from companies where id = ${companyId} for update`.execute(trx);
}

export async function countRows(db: Db | Transaction<DB>, spec: TariffTableSpec, companyId: number): Promise<number> {
  const r = await (db as Db)
    .selectFrom(spec.table as 'express_hub_costs')
    .select(sql<number>`count(*)`.as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/**
 * Reads and validates a file for a table in the reading pool (read/pool.ts: off the request thread,
 * within its limits, at most two files of one company at once); throws an ImportError listing every
 * problem, or 429 when the pool's queue is full.
 */
export function parseTable(spec: TariffTableSpec, file: UploadedSpreadsheet, companyId: number, opts: ValidateOptions = {}): Promise<ImportRow[]> {
  return readRows(companyId, { data: file.data, fileName: file.filename, spec, ctx: opts });
}

/**
 * Publishes a whole tariff table for a company: the file is read and every row validated first, then
 * in one transaction the stored set is deleted and the new rows written, so quotes see the old set or
 * the new one, never an empty or partial one (issue 20: no "delete the table first"). Answers the
 * number of rows stored and of rows replaced, and what changed (the check's summary).
 */
export async function importTariffTable(
  db: Db,
  spec: TariffTableSpec,
  companyId: number,
  file: UploadedSpreadsheet,
): Promise<{ count: number; replaced: number; summary: CheckSummary }> {
  const rows = await parseTable(spec, file, companyId, await importContext(db));
  const { replaced, summary } = await db.transaction().execute(async (trx) => {
    await lockCompany(trx, companyId);
    // What the publish changes, compared as the check does (issue 35: the message says it), under the lock.
    const { summary } = await compareSets(spec, storedPages(trx as Kysely<any>, spec, ['company_id', companyId]), rows);
    const gone = await deleteTariffTable(trx, spec, companyId);
    await insertRows(
      trx,
      spec.table,
      spec.columns.map((c) => c.name),
      rows,
      { company_id: companyId },
    );
    return { replaced: gone, summary };
  });
  return { count: rows.length, replaced, summary };
}

/**
 * A dry run of a table upload: reads and validates the file like a publish, compares it with the
 * company's stored set and writes nothing. Row errors are answered (not thrown); file-level problems
 * (not a spreadsheet, missing headers, no rows) throw their ImportError as a publish would.
 */
export async function checkTariffTable(
  db: Db,
  spec: TariffTableSpec,
  companyId: number,
  file: UploadedSpreadsheet,
  req: Pick<FastifyRequest, 't'>,
): Promise<CheckResult> {
  let rows: ImportRow[];
  try {
    rows = await parseTable(spec, file, companyId, await importContext(db));
  } catch (err) {
    if (err instanceof ImportError && err.rowErrors.length) return refusedCheck(checkErrors(req, err.rowErrors));
    throw err;
  }
  // The impact first, then the comparison: their memory does not add up at the peak.
  const impact = await tariffImpact(db, companyId, { kind: 'table', spec, rows });
  const stored = storedPages(db as Kysely<any>, spec, ['company_id', companyId]);
  return { dry_run: true, errors: [], ...(await compareSets(spec, stored, rows)), impact };
}

/** Deletes a company's whole set of a table; answers how many rows went. */
export async function deleteTariffTable(db: Db | Transaction<DB>, spec: TariffTableSpec, companyId: number): Promise<number> {
  const r = await (db as Db)
    .deleteFrom(spec.table as 'express_hub_costs')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}
