import { sql, type ExpressionBuilder, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../db/index.js';
import type { CompanyTable, DB } from '../db/types.js';
import { mediaUrl } from '../lib/media.js';
import { centsToNumberOrNull as fromCents } from '../pricing/money.js';
import { paginate, type ListQuery } from '../lib/paging.js';

/**
 * Which companies a caller may touch (server.md §2): everything (admin, `carrierId` null), or a
 * carrier's own company and the end-user companies whose `carrier_id` is that company.
 */
export interface CompanyScope {
  carrierId: number | null;
}

export interface CompanyFilters {
  search?: string;
  company_role_id?: number;
  status_id?: number;
  carrier_id?: number;
  price_category_id?: number;
  type?: string;
}

export const COMPANY_SORT_COLUMNS: Record<string, string> = {
  id: 'c.id',
  legal_name: 'c.legal_name',
  city: 'c.city',
  postal_code: 'c.postal_code',
  company_role_id: 'c.company_role_id',
  status_id: 'c.status_id',
  type: 'c.type',
  created_at: 'c.created_at',
  role_name: 'r.name',
  price_category_name: 'pc.name',
  carrier_name: 'cr.legal_name',
  language_name: 'l.en',
};

type Eb = ExpressionBuilder<DB, 'companies'>;
/** The scope condition on a companies row (works for the aliased `c` as well, through the column names). */
export function inCompanyScope(scope: CompanyScope, col: { id: string; carrier: string }) {
  return (eb: ExpressionBuilder<any, any>) =>
    scope.carrierId === null ? sql<boolean>`1 = 1` : eb.or([eb(col.id, '=', scope.carrierId), eb(col.carrier, '=', scope.carrierId)]);
}

const like = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export type CompanyRow = NonNullable<Awaited<ReturnType<ReturnType<typeof companiesRepo>['find']>>>;

/** A company as the API answers it: names of its references, the logo as a URL, money in euros. */
export function presentCompany(row: CompanyRow) {
  return {
    ...row,
    site_header_logo: mediaUrl(row.site_header_logo),
    logo: mediaUrl(row.logo),
    taillift_fee: fromCents(row.taillift_fee),
    national_admin_fee: fromCents(row.national_admin_fee),
    international_admin_fee: fromCents(row.international_admin_fee),
    combo_cbm_ratio: row.combo_cbm_ratio === null ? null : Number(row.combo_cbm_ratio),
    combo_lm_ratio: row.combo_lm_ratio === null ? null : Number(row.combo_lm_ratio),
    users_count: Number(row.users_count ?? 0),
  };
}

/** Companies: scoped reads with their reference names, writes, and what still refers to a company. */
export function companiesRepo(db: Db) {
  const base = () =>
    db
      .selectFrom('companies as c')
      .leftJoin('company_roles as r', 'r.id', 'c.company_role_id')
      .leftJoin('price_categories as pc', 'pc.id', 'c.price_category_id')
      .leftJoin('companies as cr', 'cr.id', 'c.carrier_id')
      .leftJoin('languages as l', 'l.id', 'c.language_id')
      .leftJoin('countries as co', 'co.id', 'c.country_id')
      .leftJoin('categories as ec', 'ec.id', 'c.exp_category_id')
      .leftJoin('categories as sc', 'sc.id', 'c.std_category_id')
      .selectAll('c')
      .select((eb) => [
        'r.name as role_name',
        'pc.name as price_category_name',
        'cr.legal_name as carrier_name',
        'l.en as language_name',
        'l.code as language_code',
        'co.en as country_name',
        'co.code_alpha as country_code',
        'ec.code as exp_category_code',
        'sc.code as std_category_code',
        eb
          .selectFrom('users as u')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('u.company_id', '=', 'c.id')
          .as('users_count'),
      ]);

  return {
    async list(scope: CompanyScope, q: ListQuery & CompanyFilters) {
      let qb = base().where(inCompanyScope(scope, { id: 'c.id', carrier: 'c.carrier_id' }));
      if (q.search) {
        const s = like(q.search.trim());
        qb = qb.where((eb) =>
          eb.or(['c.legal_name', 'c.city', 'c.fax', 'c.domestic_email', 'c.postal_code'].map((col) => eb(sql`lower(${sql.ref(col)})`, 'like', s))),
        );
      }
      if (q.company_role_id !== undefined) qb = qb.where('c.company_role_id', '=', q.company_role_id);
      if (q.status_id !== undefined) qb = qb.where('c.status_id', '=', q.status_id);
      if (q.carrier_id !== undefined) qb = qb.where('c.carrier_id', '=', q.carrier_id);
      if (q.price_category_id !== undefined) qb = qb.where('c.price_category_id', '=', q.price_category_id);
      if (q.type !== undefined) qb = qb.where('c.type', '=', q.type);
      return paginate(qb, q, { sortColumns: COMPANY_SORT_COLUMNS, defaultSort: 'id', defaultOrder: 'desc', idColumn: 'c.id' });
    },

    /** One company inside the scope, or undefined (the caller answers 404). */
    find(scope: CompanyScope, id: number) {
      return base()
        .where('c.id', '=', id)
        .where(inCompanyScope(scope, { id: 'c.id', carrier: 'c.carrier_id' }))
        .executeTakeFirst();
    },

    /** The bare row, unscoped: for checks on referenced companies (a carrier named by an admin). */
    raw(id: number) {
      return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insert(values: Insertable<CompanyTable>) {
      const row = await db.insertInto('companies').values(values).returning('id').executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async update(id: number, values: Updateable<CompanyTable>) {
      await db.updateTable('companies').set(values).where('id', '=', id).execute();
    },

    async remove(id: number) {
      await db.deleteFrom('companies').where('id', '=', id).execute();
    },

    /** Switches 1 ↔ 0 in one statement and answers the new status. */
    async toggleStatus(id: number, updatedAt: string) {
      await db
        .updateTable('companies')
        .set((eb: Eb) => ({ status_id: eb.case().when('status_id', '=', 1).then(0).else(1).end(), updated_at: updatedAt }))
        .where('id', '=', id)
        .execute();
      const row = await db.selectFrom('companies').select('status_id').where('id', '=', id).executeTakeFirstOrThrow();
      return Number(row.status_id);
    },

    category(id: number) {
      return db.selectFrom('categories').select(['id', 'company_id', 'rate_type', 'code']).where('id', '=', id).executeTakeFirst();
    },

    exists(table: 'price_categories' | 'languages' | 'countries', id: number) {
      return db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst().then(Boolean);
    },

    /** Roles of a company's users, each once (a role change must keep them fitting). */
    async userRoles(companyId: number): Promise<number[]> {
      const rows = await db.selectFrom('users').select('role_id').distinct().where('company_id', '=', companyId).execute();
      return rows.map((r) => Number(r.role_id));
    },

    async countCustomers(companyId: number) {
      const row = await db
        .selectFrom('companies')
        .select(sql<number>`count(*)`.as('n'))
        .where('carrier_id', '=', companyId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
