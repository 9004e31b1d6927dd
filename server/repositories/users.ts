import type { Db } from '../db/index.js';
import { mediaUrl } from '../lib/media.js';
import { USER_ROLES, type UserRoleId } from '../../model/roles.js';

/** Users: lookups by email (stored lower-cased) and the profile the shell shows. */
/** A user's own columns as the API shows them (never the password hash), selected from `users as u`. */
export const USER_COLUMNS = [
  'u.id',
  'u.role_id',
  'u.support_role_id',
  'u.company_id',
  'u.language_id',
  'u.title',
  'u.first_name',
  'u.last_name',
  'u.address',
  'u.postal_code',
  'u.city',
  'u.country_id',
  'u.phone',
  'u.phone_2',
  'u.email',
  'u.notes',
  'u.status_id',
  'u.support_skype',
  'u.support_email',
  'u.image',
] as const;

export function usersRepo(db: Db) {
  return {
    findForLogin(email: string) {
      return db
        .selectFrom('users as u')
        .innerJoin('companies as c', 'c.id', 'u.company_id')
        .select(['u.id', 'u.password_hash', 'u.status_id', 'u.role_id', 'c.status_id as company_status_id'])
        .where('u.email', '=', email.trim().toLowerCase())
        .executeTakeFirst();
    },

    /** The profile (me): never the password hash. */
    async profile(userId: number) {
      const u = await db
        .selectFrom('users as u')
        .innerJoin('companies as c', 'c.id', 'u.company_id')
        .leftJoin('languages as l', 'l.id', 'u.language_id')
        .leftJoin('countries as cc', 'cc.id', 'c.country_id')
        .select([
          ...USER_COLUMNS,
          'l.code as language_code',
          'c.legal_name as company_legal_name',
          'c.logo as company_logo',
          'c.site_header_logo as company_site_header_logo',
          'c.company_role_id',
          'c.carrier_id as company_carrier_id',
          'c.address as company_address',
          'c.city as company_city',
          'c.postal_code as company_postal_code',
          'c.province as company_province',
          'c.country_id as company_country_id',
          'cc.code_alpha as company_country_code',
        ])
        .where('u.id', '=', userId)
        .executeTakeFirst();
      if (!u) return undefined;
      const {
        company_legal_name,
        company_logo,
        company_site_header_logo,
        company_role_id,
        company_carrier_id,
        company_address,
        company_city,
        company_postal_code,
        company_province,
        company_country_id,
        company_country_code,
        ...user
      } = u;
      return {
        ...user,
        image: mediaUrl(user.image),
        role: USER_ROLES[user.role_id as UserRoleId],
        company: {
          id: user.company_id,
          legal_name: company_legal_name,
          company_role_id,
          carrier_id: company_carrier_id,
          address: company_address,
          city: company_city,
          postal_code: company_postal_code,
          province: company_province,
          country_id: company_country_id,
          /** ISO alpha-2 of country_id (the calculator defaults an end user's origin from it) */
          country_code: company_country_code,
          logo: mediaUrl(company_logo),
          site_header_logo: mediaUrl(company_site_header_logo),
        },
      };
    },
  };
}
export type Profile = NonNullable<Awaited<ReturnType<ReturnType<typeof usersRepo>['profile']>>>;
