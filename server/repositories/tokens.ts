import { CompiledQuery } from 'kysely';
import type { Db } from '../db/index.js';
import { hashToken, inDays, newToken, nowIso } from '../lib/tokens.js';

export interface SessionUser {
  id: number;
  role_id: number;
  company_id: number;
  email: string;
  first_name: string;
  last_name: string;
  company_role_id: number;
  carrier_id: number | null;
  token_id: number;
}

/** Markers of the values the compiled token query takes at each call. */
const HASH = '\u0000token-hash';
const NOW = '\u0000now';

/** Session tokens: random, stored hashed with an expiry (server.md §3). */
export function tokensRepo(db: Db) {
  const resolveQuery = db.selectFrom('auth_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select(['u.id', 'u.role_id', 'u.company_id', 'u.email', 'u.first_name', 'u.last_name', 'c.company_role_id', 'c.carrier_id', 't.id as token_id'])
    .where('t.token_hash', '=', HASH)
    .where('t.expires_at', '>', NOW)
    .where('u.status_id', '=', 1)
    .where('c.status_id', '=', 1)
    .compile();
  return {
    async issue(userId: number, remember: boolean): Promise<string> {
      const token = newToken();
      await db.insertInto('auth_tokens').values({
        user_id: userId,
        token_hash: hashToken(token),
        expires_at: inDays(remember ? 90 : 30),
        created_at: nowIso(),
      }).execute();
      return token;
    },

    /**
     * The signed-in user behind a token, or undefined when the token is unknown, expired, or its user or company is inactive.
     * Every signed-in request runs this: the query is compiled once and run with the new values
     * (building it each time cost more than running it, issue 8's benchmark).
     */
    async resolve(token: string): Promise<SessionUser | undefined> {
      const params = resolveQuery.parameters.map((p) => (p === HASH ? hashToken(token) : p === NOW ? nowIso() : p));
      const r = await db.executeQuery<SessionUser>(CompiledQuery.raw(resolveQuery.sql, params));
      return r.rows[0];
    },

    async revoke(tokenId: number) {
      await db.deleteFrom('auth_tokens').where('id', '=', tokenId).execute();
    },

    /** Ends every session of a user, but the one given (a password change keeps the session that made it). */
    async revokeAllOf(userId: number, exceptTokenId?: number) {
      let q = db.deleteFrom('auth_tokens').where('user_id', '=', userId);
      if (exceptTokenId !== undefined) q = q.where('id', '!=', exceptTokenId);
      await q.execute();
    },

    /** Ends every session of every user of a company (company deactivated). */
    async revokeCompany(companyId: number) {
      await db.deleteFrom('auth_tokens')
        .where('user_id', 'in', db.selectFrom('users').select('id').where('company_id', '=', companyId))
        .execute();
    },
  };
}
