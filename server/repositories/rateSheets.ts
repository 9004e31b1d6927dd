import { sql, type SqlBool } from 'kysely';
import { containsPattern, searchCondition } from '../imports/search.js';
import type { Db } from '../db/index.js';
import { paginate, type ListQuery } from '../lib/paging.js';
import { rateRowsSpec, listColumns } from '../../model/tariffs.js';

export interface SheetFilters {
  companyId?: number;
  categoryId?: number;
  zone?: string;
  rateType?: string;
  area?: string;
  /** A search: the code, description or category code contains it (case-insensitive). */
  q?: string;
}

export const SHEET_SORT = ['id', 'code', 'description', 'zone', 'rate_type', 'area', 'is_standard', 'validate_from', 'validate_to', 'created_at'] as const;

/** Rate sheets (dated versions of a category, pricing.md §1) and their parsed rows. */
export function rateSheetsRepo(db: Db) {
  const withCategory = () =>
    db
      .selectFrom('rate_sheets as s')
      .innerJoin('categories as c', 'c.id', 's.category_id')
      .select([
        's.id',
        's.company_id',
        's.category_id',
        'c.code as category_code',
        's.code',
        's.description',
        's.zone',
        's.rate_type',
        's.area',
        's.is_standard',
        's.validate_from',
        's.validate_to',
        's.file_path',
        's.file_name',
        's.created_at',
        's.updated_at',
      ]);

  return {
    async list(f: SheetFilters, q: ListQuery) {
      let qb = withCategory();
      if (f.companyId !== undefined) qb = qb.where('s.company_id', '=', f.companyId);
      if (f.categoryId !== undefined) qb = qb.where('s.category_id', '=', f.categoryId);
      if (f.zone) qb = qb.where('s.zone', '=', f.zone);
      if (f.rateType) qb = qb.where('s.rate_type', '=', f.rateType);
      if (f.area) qb = qb.where('s.area', '=', f.area);
      const text = f.q?.trim();
      if (text) {
        const p = containsPattern(text);
        qb = qb.where((eb) => eb.or(['s.code', 's.description', 'c.code'].map((col) => sql<SqlBool>`lower(${sql.ref(col)}) like ${p} escape '\\'`)));
      }
      const page = await paginate(qb, q, {
        sortColumns: Object.fromEntries(SHEET_SORT.map((c) => [c, `s.${c}`])),
        defaultSort: 'validate_from',
        defaultOrder: 'desc',
        idColumn: 's.id',
      });
      const ids = page.data.map((s) => s.id);
      const counts = new Map<number, number>();
      if (ids.length) {
        for (const table of ['express_rate_rows', 'standard_rate_rows'] as const) {
          const rows = await db
            .selectFrom(table)
            .select(['rate_sheet_id', sql<number>`count(*)`.as('n')])
            .where('rate_sheet_id', 'in', ids)
            .groupBy('rate_sheet_id')
            .execute();
          for (const r of rows) counts.set(r.rate_sheet_id, Number(r.n));
        }
      }
      return { ...page, data: page.data.map((s) => ({ ...s, rows: counts.get(s.id) ?? 0 })) };
    },

    /** One sheet, only when it belongs to the given company (when one is given). */
    find(id: number, companyId?: number) {
      let qb = withCategory().where('s.id', '=', id);
      if (companyId !== undefined) qb = qb.where('s.company_id', '=', companyId);
      return qb.executeTakeFirst();
    },

    /** A page of a sheet's rows, in file order unless sorted by a listed column. */
    rows(sheet: { id: number; rate_type: string }, q: ListQuery & { q?: string }) {
      const spec = rateRowsSpec(sheet.rate_type);
      const table = spec.table as 'express_rate_rows';
      const sortColumns = Object.fromEntries(['id', ...listColumns(spec).map((c) => c.name)].map((c) => [c, c]));
      const search = searchCondition(spec, q.q);
      const rows = db.selectFrom(table).selectAll();
      // The search narrows this sheet's rows (the sheet was found in the caller's scope).
      return paginate((search ? rows.where(search) : rows).where('rate_sheet_id', '=', sheet.id), q, { sortColumns });
    },
  };
}
