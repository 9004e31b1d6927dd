import type { Db } from '../db/index.js';
import { hashToken, inDays, newToken, nowIso } from '../lib/tokens.js';

/** A device token is valid this many days from the last sign-in it took part in (server.md §3: one year). */
export const DEVICE_TOKEN_DAYS = 365;
/** At most this many device tokens per user: the oldest go first (an API client that never keeps its cookie). */
export const DEVICE_TOKENS_PER_USER = 20;

/** Device tokens (lib/signInThrottle.ts): random, stored hashed, one year. */
export function deviceTokensRepo(db: Db) {
  return {
    /** The valid (unexpired) token `token` when it belongs to the user of `email` (normalised), else undefined. */
    findForEmail(token: string, email: string) {
      return db
        .selectFrom('device_tokens as d')
        .innerJoin('users as u', 'u.id', 'd.user_id')
        .select(['d.id', 'd.user_id'])
        .where('d.token_hash', '=', hashToken(token))
        .where('u.email', '=', email)
        .where('d.expires_at', '>', nowIso())
        .executeTakeFirst();
    },

    /** A new token for `userId`; answers the token (only its hash is stored). */
    async issue(userId: number): Promise<string> {
      const token = newToken();
      await db
        .insertInto('device_tokens')
        .values({ user_id: userId, token_hash: hashToken(token), created_at: nowIso(), expires_at: inDays(DEVICE_TOKEN_DAYS) })
        .execute();
      const keep = db.selectFrom('device_tokens').select('id').where('user_id', '=', userId).orderBy('id', 'desc').limit(DEVICE_TOKENS_PER_USER);
      await db.deleteFrom('device_tokens').where('user_id', '=', userId).where('id', 'not in', keep).execute();
      // Expired tokens of anyone are of no further use.
      await db.deleteFrom('device_tokens').where('expires_at', '<=', nowIso()).execute();
      return token;
    },

    /** Another year for a token that took part in a successful sign-in. */
    async renew(id: number) {
      await db
        .updateTable('device_tokens')
        .set({ expires_at: inDays(DEVICE_TOKEN_DAYS) })
        .where('id', '=', id)
        .execute();
    },

    /** Voids a token (10 wrong passwords in 15 minutes). */
    async void(id: number) {
      await db.deleteFrom('device_tokens').where('id', '=', id).execute();
    },
  };
}
