import type { Db } from '../db/index.js';
import type { AccessRequestTable } from '../db/types.js';
import { COMPANY_ROLE, USER_ROLE } from '../../model/roles.js';
import { conflict } from '../lib/errors.js';
import { mediaUrl } from '../lib/media.js';
import { paginate, type ListQuery } from '../lib/paging.js';
import { romeDayRange } from '../lib/romeDay.js';
import { nowIso } from '../lib/tokens.js';
import type { Lang } from '../i18n/index.js';

export type AccessStatus = 'OP' | 'CF' | 'RF';
/** What each status means (every AccessStatus: the compiler checks the keys). */
export const ACCESS_STATUS_MEANINGS: Record<AccessStatus, string> = {
  OP: 'open, waiting for a review',
  CF: 'confirmed: the company and the user were created',
  RF: 'refused',
};
export type NewAccessRequest = Omit<
  AccessRequestTable,
  'id' | 'status' | 'created_company_id' | 'created_user_id' | 'reviewed_by' | 'reviewed_at' | 'created_at' | 'updated_at'
>;

/**
 * Whose requests a reviewer sees (server.md §4): admins (scope null) the requests for new carriers
 * (no carrier_id); a carrier those addressed to its company.
 */
export type ReviewScope = number | null;

const COLUMNS = [
  'r.id',
  'r.status',
  'r.carrier_id',
  'r.carrier_name',
  'r.carrier_email',
  'r.carrier_phone',
  'r.carrier_city',
  'r.carrier_country_id',
  'r.carrier_language_id',
  'r.carrier_postal_code',
  'r.carrier_province',
  'r.carrier_website_url',
  'r.carrier_address',
  'r.carrier_logo',
  'r.user_first_name',
  'r.user_last_name',
  'r.user_email',
  'r.user_phone',
  'r.created_company_id',
  'r.created_user_id',
  'r.reviewed_at',
  'r.created_at',
  'r.updated_at',
] as const;

export function accessRequestsRepo(db: Db) {
  // Country and language named for the reader: the country in the caller's language, the language by
  // its own name (languages carry only their English and native names).
  const scoped = (scope: ReviewScope, lang: Lang = 'it') => {
    const q = db
      .selectFrom('access_requests as r')
      .leftJoin('countries as co', 'co.id', 'r.carrier_country_id')
      .leftJoin('languages as l', 'l.id', 'r.carrier_language_id')
      .select([...COLUMNS, `co.${lang} as carrier_country`, 'co.en as carrier_country_en', 'l.native as carrier_language', 'l.en as carrier_language_en']);
    return scope === null ? q.where('r.carrier_id', 'is', null) : q.where('r.carrier_id', '=', scope);
  };
  // Never the password hash; the logo as its URL.
  const present = <T extends { carrier_logo: string | null; status: string }>(row: T) => ({
    ...row,
    // (the column is text; the routes write only these three values)
    status: row.status as AccessStatus,
    carrier_logo: mediaUrl(row.carrier_logo),
  });

  return {
    async create(values: NewAccessRequest) {
      const now = nowIso();
      return db
        .insertInto('access_requests')
        .values({ ...values, status: 'OP', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    async list(scope: ReviewScope, q: ListQuery & { status?: AccessStatus; date?: string }, lang: Lang = 'it') {
      let qb = scoped(scope, lang);
      if (q.status) qb = qb.where('r.status', '=', q.status);
      if (q.date) {
        const { from, to } = romeDayRange(q.date);
        qb = qb.where('r.created_at', '>=', from).where('r.created_at', '<', to);
      }
      const page = await paginate(qb, q, {
        sortColumns: { id: 'r.id', created_at: 'r.created_at', status: 'r.status', carrier_name: 'r.carrier_name', user_email: 'r.user_email' },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'r.id',
      });
      return { ...page, data: page.data.map(present) };
    },

    async find(scope: ReviewScope, id: number) {
      const row = await scoped(scope).where('r.id', '=', id).executeTakeFirst();
      return row ? present(row) : undefined;
    },

    /** Sets RF on an open request. False when the request is no longer open. */
    async refuse(id: number, reviewerId: number): Promise<boolean> {
      const now = nowIso();
      const row = await db
        .updateTable('access_requests')
        .set({ status: 'RF', reviewed_by: reviewerId, reviewed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'OP')
        .returning('id')
        .executeTakeFirst();
      return !!row;
    },

    /**
     * Sets CF on an open request and creates its company and user, all in one transaction, so a
     * request is confirmed, and its account created, exactly once. False when the request is no
     * longer open; a 409 (and nothing created) when its user email already has an account.
     */
    async confirm(id: number, reviewerId: number): Promise<{ companyId: number; userId: number } | false> {
      try {
        return await db.transaction().execute(async (trx) => {
          const now = nowIso();
          const r = await trx
            .updateTable('access_requests')
            .set({ status: 'CF', reviewed_by: reviewerId, reviewed_at: now, updated_at: now })
            .where('id', '=', id)
            .where('status', '=', 'OP')
            .returningAll()
            .executeTakeFirst();
          if (!r) return false as const;
          if (await trx.selectFrom('users').select('id').where('email', '=', r.user_email).executeTakeFirst()) {
            throw conflict('accessRequests.emailTaken', { email: r.user_email });
          }
          // Addressed to a carrier: a customer of it (end-user company, Enduser user). Otherwise a new
          // carrier (Carrier company, Carrier user). Commercial settings (price category, fees, ratios)
          // stay empty: the reviewer sets them in company management, and pricing falls back to the
          // carrier's values meanwhile (pricing.md §2–3).
          const forCarrier = r.carrier_id !== null;
          const company = await trx
            .insertInto('companies')
            .values({
              legal_name: r.carrier_name,
              address: r.carrier_address,
              city: r.carrier_city,
              province: r.carrier_province,
              postal_code: r.carrier_postal_code,
              country_id: r.carrier_country_id,
              language_id: r.carrier_language_id,
              phone: r.carrier_phone,
              domestic_email: r.carrier_email,
              fax: r.user_email,
              website_url: r.carrier_website_url || null, // optional in the request: no website, none on the company
              logo: r.carrier_logo,
              company_role_id: forCarrier ? COMPANY_ROLE.ENDUSER : COMPANY_ROLE.CARRIER,
              carrier_id: r.carrier_id,
              status_id: 1,
              is_inbound: 1,
              type: 'Customer',
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const user = await trx
            .insertInto('users')
            .values({
              role_id: forCarrier ? USER_ROLE.ENDUSER : USER_ROLE.CARRIER,
              company_id: company.id,
              language_id: r.carrier_language_id,
              first_name: r.user_first_name,
              last_name: r.user_last_name,
              email: r.user_email,
              phone: r.user_phone,
              password_hash: r.user_password_hash,
              country_id: r.carrier_country_id,
              city: r.carrier_city,
              status_id: 1,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx.updateTable('access_requests').set({ created_company_id: company.id, created_user_id: user.id }).where('id', '=', id).execute();
          return { companyId: company.id, userId: user.id };
        });
      } catch (err) {
        // A user with that email created meanwhile by someone else: the unique index refused ours.
        const row = await db.selectFrom('access_requests').select('user_email').where('id', '=', id).executeTakeFirst();
        if (
          row &&
          !(err as { statusCode?: number }).statusCode &&
          (await db.selectFrom('users').select('id').where('email', '=', row.user_email).executeTakeFirst())
        ) {
          throw conflict('accessRequests.emailTaken', { email: row.user_email });
        }
        throw err;
      }
    },

    /** The company that reviews requests of a scope, for the outcome mail. */
    async reviewerName(companyId: number) {
      return (await db.selectFrom('companies').select('legal_name').where('id', '=', companyId).executeTakeFirst())?.legal_name ?? '';
    },

    /**
     * An active carrier company, which may receive requests through its invitation link. Carriers only:
     * the public `carriers_list` names them for the form, while resellers are not public (server.md §2).
     */
    async invitingCarrier(id: number) {
      return db
        .selectFrom('companies')
        .select(['id', 'legal_name'])
        .where('id', '=', id)
        .where('status_id', '=', 1)
        .where('company_role_id', '=', COMPANY_ROLE.CARRIER)
        .executeTakeFirst();
    },
  };
}
