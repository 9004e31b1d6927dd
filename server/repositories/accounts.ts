import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';

/** The signed-in person's own account: what the reset, password and profile flows read and write. */
export function accountsRepo(db: Db) {
  return {
    /** An active user of an active company, by email (compared without case). */
    findActiveByEmail(email: string) {
      return db
        .selectFrom('users as u')
        .innerJoin('companies as c', 'c.id', 'u.company_id')
        .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.language_id'])
        .where('u.email', '=', email.trim().toLowerCase())
        .where('u.status_id', '=', 1)
        .where('c.status_id', '=', 1)
        .executeTakeFirst();
    },

    findById(id: number) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name', 'language_id', 'password_hash', 'image'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async setPassword(userId: number, hash: string) {
      await db.updateTable('users').set({ password_hash: hash, updated_at: nowIso() }).where('id', '=', userId).execute();
    },

    async updateProfile(userId: number, fields: { first_name: string; last_name: string; country_id?: number | null; city?: string | null; image?: string }) {
      await db
        .updateTable('users')
        .set({ ...fields, updated_at: nowIso() })
        .where('id', '=', userId)
        .execute();
    },

    async countryExists(id: number) {
      return !!(await db.selectFrom('countries').select('id').where('id', '=', id).executeTakeFirst());
    },

    async languageExists(id: number) {
      return !!(await db.selectFrom('languages').select('id').where('id', '=', id).executeTakeFirst());
    },
  };
}
