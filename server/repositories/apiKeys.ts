import crypto from 'node:crypto';
import type { Db } from '../db/index.js';
import { hashBearer, hashToken, nowIso } from '../lib/tokens.js';
import { API_KEY_PREFIX, API_KEY_SHOWN, type ApiKeyScope } from '../../model/apiKeys.js';
import { TOUCH_INTERVAL, type SessionUser } from './tokens.js';

/** A key as lists show it: never the key, never its hash. */
export interface ApiKeyRow {
  id: number;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** What a request made with a key knows of it (req.user.apiKey). */
export interface KeyIdentity {
  id: number;
  name: string;
  scopes: ApiKeyScope[];
}

/** Why a key does not act (each answered 401 with its own message, lib/apiKeyAuth.ts). */
export type KeyRefusal = 'unknown' | 'revoked' | 'inactive';

/** 288 random bits after the prefix (48 base64url characters); the first 4 are shown in lists. */
export const newApiKey = () => API_KEY_PREFIX + crypto.randomBytes(36).toString('base64url');

const scopesOf = (text: string) => text.split(',').filter(Boolean) as ApiKeyScope[];

/** A company's API keys (migration 0019, docs/integrations.md): stored as the SHA-256 of the key. */
export function apiKeysRepo(db: Db, opts: { onTouchError?: (err: unknown) => void } = {}) {
  /**
   * `last_used_at` moves at most once a minute per key, and the keys used in one turn of the event loop
   * are touched in ONE statement (as sessions are, repositories/tokens.ts); the request waits for it, so
   * an answer never precedes its own timestamp. The guard in the WHERE makes a second process's touch in
   * the same minute change nothing.
   */
  let stale = new Map<number, Array<() => void>>();
  let scheduled = false;
  function flushTouches() {
    const batch = stale;
    stale = new Map();
    scheduled = false;
    const now = nowIso();
    const cutoff = new Date(Date.parse(now) - TOUCH_INTERVAL).toISOString();
    db.updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', 'in', [...batch.keys()])
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', cutoff)]))
      .execute()
      .catch((err) => opts.onTouchError?.(err))
      .finally(() => {
        for (const done of batch.values()) for (const d of done) d();
      });
  }
  const touch = (id: number) =>
    new Promise<void>((resolve) => {
      const waiting = stale.get(id);
      if (waiting) waiting.push(resolve);
      else stale.set(id, [resolve]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushTouches);
      }
    });

  return {
    async create(v: { companyId: number; name: string; scopes: ApiKeyScope[]; userId: number; userName: string }) {
      const key = newApiKey();
      const row = await db
        .insertInto('api_keys')
        .values({
          company_id: v.companyId,
          name: v.name,
          prefix: key.slice(0, API_KEY_PREFIX.length + API_KEY_SHOWN),
          hash: hashToken(key),
          scopes: v.scopes.join(','),
          created_by: v.userId,
          created_by_name: v.userName,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: Number(row.id), key, prefix: key.slice(0, API_KEY_PREFIX.length + API_KEY_SHOWN) };
    },

    /** The company's keys, the active ones first, newest first. */
    async listOf(companyId: number): Promise<ApiKeyRow[]> {
      const rows = await db
        .selectFrom('api_keys')
        .select(['id', 'name', 'prefix', 'scopes', 'created_by', 'created_by_name', 'created_at', 'last_used_at', 'revoked_at'])
        .where('company_id', '=', companyId)
        .orderBy((eb) => eb.case().when('revoked_at', 'is', null).then(0).else(1).end())
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), scopes: scopesOf(r.scopes) }));
    },

    /** Revokes one active key of the company; undefined when there is none such (another company's, unknown, revoked). */
    async revoke(companyId: number, id: number): Promise<{ name: string; prefix: string } | undefined> {
      const row = await db
        .updateTable('api_keys')
        .set({ revoked_at: nowIso() })
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .where('revoked_at', 'is', null)
        .returning(['name', 'prefix'])
        .executeTakeFirst();
      return row;
    },

    /**
     * The user a key acts as (its creator, as it is now: role, company) and the key, or why the key does not
     * act: `unknown`, `revoked`, or `inactive` (its creator deleted, deactivated or moved, or its company
     * deactivated). The refusal's reason costs a second query, only on a refusal.
     */
    async resolve(key: string): Promise<(SessionUser & { apiKey: KeyIdentity }) | { refused: KeyRefusal }> {
      const row = await db
        .selectFrom('api_keys as k')
        .innerJoin('users as u', 'u.id', 'k.created_by')
        .innerJoin('companies as c', 'c.id', 'k.company_id')
        .select([
          'k.id as key_id',
          'k.name as key_name',
          'k.scopes',
          'k.last_used_at',
          'u.id',
          'u.role_id',
          'u.company_id',
          'u.email',
          'u.first_name',
          'u.last_name',
          'c.company_role_id',
          'c.carrier_id',
        ])
        .where('k.hash', '=', hashBearer(key))
        .where('k.revoked_at', 'is', null)
        .whereRef('u.company_id', '=', 'k.company_id')
        .where('u.status_id', '=', 1)
        .where('c.status_id', '=', 1)
        .executeTakeFirst();
      if (!row) {
        const known = await db.selectFrom('api_keys').select('revoked_at').where('hash', '=', hashBearer(key)).executeTakeFirst();
        return { refused: !known ? 'unknown' : known.revoked_at ? 'revoked' : 'inactive' };
      }
      const { key_id, key_name, scopes, last_used_at, ...user } = row;
      const cutoff = new Date(Date.now() - TOUCH_INTERVAL).toISOString();
      if (!last_used_at || last_used_at < cutoff) await touch(Number(key_id));
      return { ...user, token_id: 0, apiKey: { id: Number(key_id), name: key_name, scopes: scopesOf(scopes) } };
    },
  };
}
