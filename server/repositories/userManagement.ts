import type { Lang } from '../../model/resource.js';
import { titleIn } from '../../model/referenceNames.js';
import { USER_COLUMNS } from './users.js';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../db/index.js';
import type { UserTable } from '../db/types.js';
import { mediaUrl } from '../lib/media.js';
import { paginate, type ListQuery } from '../lib/paging.js';
import { inCompanyScope, type CompanyScope } from './companies.js';

export interface UserFilters {
  search?: string;
  role_id?: number;
  status_id?: number;
  company_id?: number;
}

export const USER_SORT_COLUMNS: Record<string, string> = {
  id: 'u.id',
  first_name: 'u.first_name',
  last_name: 'u.last_name',
  email: 'u.email',
  city: 'u.city',
  postal_code: 'u.postal_code',
  role_id: 'u.role_id',
  status_id: 'u.status_id',
  created_at: 'u.created_at',
  company_id: 'c.legal_name',
  company_legal_name: 'c.legal_name',
};

const like = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export type ManagedUserRow = NonNullable<Awaited<ReturnType<ReturnType<typeof userManagementRepo>['find']>>>;

/**
 * A user as the user-management API answers it: never the password hash; the image as a URL; a usual title
 * in the reader's language `lang` (issue 35: "Sig." reads "Mr" in English, model/referenceNames.ts `titleIn`;
 * another title as written).
 */
export function presentUser(row: ManagedUserRow, lang: Lang = 'it') {
  const { password_hash: _hash, ...rest } = row as ManagedUserRow & { password_hash?: string };
  return { ...rest, title: titleIn(row.title, lang), image: mediaUrl(row.image) };
}

/**
 * Users as admins and carriers manage them: scoped reads (a carrier sees the users of its own company
 * and of its end-user companies), writes, and the company each one belongs to.
 */
export function userManagementRepo(db: Db) {
  const base = () =>
    db
      .selectFrom('users as u')
      .innerJoin('companies as c', 'c.id', 'u.company_id')
      .leftJoin('user_roles as r', 'r.id', 'u.role_id')
      .leftJoin('languages as l', 'l.id', 'u.language_id')
      .leftJoin('countries as co', 'co.id', 'u.country_id')
      .select([
        ...USER_COLUMNS,
        'u.created_at',
        'u.updated_at',
        'c.legal_name as company_legal_name',
        'c.company_role_id',
        'c.carrier_id as company_carrier_id',
        'r.name as role_name',
        'l.en as language_name',
        'l.code as language_code',
        'co.en as country_name',
        'co.code_alpha as country_code',
      ]);
  const scoped = (scope: CompanyScope) => base().where(inCompanyScope(scope, { id: 'c.id', carrier: 'c.carrier_id' }));

  return {
    async list(scope: CompanyScope, q: ListQuery & UserFilters) {
      let qb = scoped(scope);
      if (q.search) {
        const s = like(q.search.trim());
        qb = qb.where((eb) =>
          eb.or(['u.first_name', 'u.last_name', 'u.email', 'u.city', 'c.legal_name'].map((col) => eb(sql`lower(${sql.ref(col)})`, 'like', s))),
        );
      }
      if (q.role_id !== undefined) qb = qb.where('u.role_id', '=', q.role_id);
      if (q.status_id !== undefined) qb = qb.where('u.status_id', '=', q.status_id);
      if (q.company_id !== undefined) qb = qb.where('u.company_id', '=', q.company_id);
      return paginate(qb, q, { sortColumns: USER_SORT_COLUMNS, defaultSort: 'id', defaultOrder: 'desc', idColumn: 'u.id' });
    },

    /** One user inside the scope, or undefined (the caller answers 404). */
    find(scope: CompanyScope, id: number) {
      return scoped(scope).where('u.id', '=', id).executeTakeFirst();
    },

    /** Another user (any company) holding this email, compared without case. */
    emailOwner(email: string) {
      return db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
    },

    async insert(values: Insertable<UserTable>) {
      const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async update(id: number, values: Updateable<UserTable>) {
      await db.updateTable('users').set(values).where('id', '=', id).execute();
    },

    async remove(id: number) {
      await db.deleteFrom('users').where('id', '=', id).execute();
    },

    /** Switches 1 ↔ 0 in one statement and answers the new status. */
    async toggleStatus(id: number, updatedAt: string) {
      await db
        .updateTable('users')
        .set((eb) => ({ status_id: eb.case().when('status_id', '=', 1).then(0).else(1).end(), updated_at: updatedAt }))
        .where('id', '=', id)
        .execute();
      const row = await db.selectFrom('users').select('status_id').where('id', '=', id).executeTakeFirstOrThrow();
      return Number(row.status_id);
    },
  };
}
