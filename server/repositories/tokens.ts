import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../db/index.js';
import { hashBearer, hashToken, inDays, newToken, nowIso } from '../lib/tokens.js';
import { sessionsChanged } from '../lib/liveEvents.js';

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

/** What a sign-in records of where it came from (server.md §3 "Sessions"). */
export interface SessionOrigin {
  userAgent?: string | null;
  ip?: string | null;
}

/** A session of a user as the sessions list shows it. */
export interface SessionRow {
  id: number;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
  user_agent: string | null;
  ip: string | null;
}

/** The User-Agent kept: at most this many characters (a header may be 8 kB). */
export const USER_AGENT_LIMIT = 512;
/** `last_used_at` moves at most once in this many milliseconds per token. */
export const TOUCH_INTERVAL = 60_000;

type Waiter = { resolve: (user: SessionUser | undefined) => void; reject: (err: unknown) => void };

/** At most this many token hashes in one lookup statement (far under SQLite's and PostgreSQL's parameter limits). */
const LOOKUP_CHUNK = 500;
/** Marker of the moment the lookup compares the expiry with. */
const NOW = '\u0000now';

/** Session tokens: random, stored hashed with an expiry (server.md §3). */
export function tokensRepo(db: Db, opts: { onTouchError?: (err: unknown) => void } = {}) {
  /**
   * The sessions of every signed-in request that arrived in one turn of the event loop, looked up in
   * ONE query at the next turn (`token_hash in (…)`), as the visitors' quote counters are written
   * (lib/hitBatcher.ts). Measured under load (issue 11, 50 connections, SQLite): one query per request
   * cost ~85 µs of server CPU, and the requests it interleaved ran colder than the visitors' batched
   * ones; the answer is as exact as before, read from the database at that moment, nothing cached.
   */
  let pending = new Map<string, Waiter[]>();
  let scheduled = false;

  /** The lookup of n hashes, compiled once per n up to 64 (the SQL differs only in the length of its list) and run with the values. */
  const compiled = new Map<number, { query: CompiledQuery; slots: Map<unknown, number> }>();
  function lookupQuery(n: number) {
    let known = compiled.get(n);
    if (!known) {
      const markers = Array.from({ length: n }, (_, i) => `\u0000token-hash-${i}`);
      const query = db
        .selectFrom('auth_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .innerJoin('companies as c', 'c.id', 'u.company_id')
        .select([
          't.token_hash',
          'u.id',
          'u.role_id',
          'u.company_id',
          'u.email',
          'u.first_name',
          'u.last_name',
          'c.company_role_id',
          'c.carrier_id',
          't.id as token_id',
          't.last_used_at',
        ])
        .where('t.token_hash', 'in', markers)
        .where('t.expires_at', '>', NOW)
        .where('u.status_id', '=', 1)
        .where('c.status_id', '=', 1)
        .compile();
      known = { query, slots: new Map<unknown, number>([...markers.map((m, i) => [m, i] as const), [NOW, -1]]) };
      if (n <= 64) compiled.set(n, known);
    }
    return known;
  }

  /**
   * The lookup's rows also say when each token was last used; those used longer than a minute ago get
   * their `last_used_at` moved to now, all of one batch in ONE statement (`id in (…)`, chunked like the
   * lookup), before the batch's requests go on (so an answer never precedes its own timestamp's write).
   * A token costs at most one write a minute, a batch of fresh tokens none, and no request ever gets a
   * statement of its own; the guard in the WHERE makes another process's touch in the same minute change nothing.
   */
  async function touch(ids: number[], now: string) {
    const cutoff = new Date(Date.parse(now) - TOUCH_INTERVAL).toISOString();
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      await db
        .updateTable('auth_tokens')
        .set({ last_used_at: now })
        .where('id', 'in', ids.slice(i, i + LOOKUP_CHUNK))
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', cutoff)]))
        .execute();
    }
  }

  async function lookUp(hashes: string[]) {
    const found = new Map<string, SessionUser>();
    const now = nowIso();
    const cutoff = new Date(Date.parse(now) - TOUCH_INTERVAL).toISOString();
    const stale: number[] = [];
    for (let i = 0; i < hashes.length; i += LOOKUP_CHUNK) {
      const chunk = hashes.slice(i, i + LOOKUP_CHUNK);
      const { query, slots } = lookupQuery(chunk.length);
      const params = query.parameters.map((p) => {
        const slot = slots.get(p);
        return slot === undefined ? p : slot < 0 ? now : chunk[slot];
      });
      const { rows } = await db.executeQuery<SessionUser & { token_hash: string; last_used_at: string | null }>(CompiledQuery.raw(query.sql, params));
      for (const { token_hash, last_used_at, ...user } of rows) {
        found.set(token_hash, user);
        if (!last_used_at || last_used_at < cutoff) stale.push(user.token_id);
      }
    }
    if (stale.length) {
      // The session is valid whatever happens to its timestamp: a failed touch is reported, not answered.
      await touch(stale, now).catch((err) => opts.onTouchError?.(err));
    }
    return found;
  }

  /**
   * One lookup at a time: the requests that arrive while one is in flight (a PostgreSQL round trip)
   * go together in the next, so a slower database makes bigger batches rather than more queries.
   */
  let inFlight = false;
  function schedule() {
    if (scheduled || inFlight || pending.size === 0) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush() {
    const batch = pending;
    pending = new Map();
    scheduled = false;
    inFlight = true;
    lookUp([...batch.keys()])
      .then(
        (found) => {
          for (const [hash, waiters] of batch) for (const w of waiters) w.resolve(found.get(hash));
        },
        (err) => {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
        },
      )
      .finally(() => {
        inFlight = false;
        schedule();
      });
  }

  return {
    /** A new session of the user; the sign-in counts as its first use. */
    async issue(userId: number, remember: boolean, origin: SessionOrigin = {}): Promise<string> {
      const token = newToken();
      const now = nowIso();
      await db
        .insertInto('auth_tokens')
        .values({
          user_id: userId,
          token_hash: hashToken(token),
          expires_at: inDays(remember ? 90 : 30),
          created_at: now,
          last_used_at: now,
          user_agent: origin.userAgent ? origin.userAgent.slice(0, USER_AGENT_LIMIT) : null,
          ip: origin.ip || null,
        })
        .execute();
      return token;
    },

    /** The user's sessions that have not expired, the most recently used first. */
    /**
     * One page of the user's active sessions (issue 35): `currentId`'s first, then the others by last use
     * (newest first), with the total.
     */
    async pageOf(userId: number, currentId: number, page: number, perPage: number): Promise<{ rows: SessionRow[]; total: number }> {
      const active = db.selectFrom('auth_tokens').where('user_id', '=', userId).where('expires_at', '>', nowIso());
      const counted = await active.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const rows = await active
        .select(['id', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'ip'])
        .orderBy(sql`case when id = ${currentId} then 0 else 1 end`)
        .orderBy((eb) => eb.fn.coalesce('last_used_at', 'created_at'), 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { rows, total: Number(counted?.n ?? 0) };
    },

    async listOf(userId: number): Promise<SessionRow[]> {
      return db
        .selectFrom('auth_tokens')
        .select(['id', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'ip'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', nowIso())
        .orderBy((eb) => eb.fn.coalesce('last_used_at', 'created_at'), 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /** Ends one session of the user; false when it is not one of theirs (or has expired). */
    async revokeOwn(userId: number, tokenId: number): Promise<boolean> {
      const r = await db
        .deleteFrom('auth_tokens')
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .where('expires_at', '>', nowIso())
        .executeTakeFirst();
      const ended = Number(r.numDeletedRows) > 0;
      if (ended) await sessionsChanged(db, { tokens: [tokenId] });
      return ended;
    },

    /**
     * The session of a token id as the live stream holds it (lib/liveStream.ts): its user as the lookup
     * answers it, and when it expires; undefined when it has ended, expired, or its user or company is inactive.
     */
    async sessionById(tokenId: number): Promise<(SessionUser & { expires_at: string }) | undefined> {
      return db
        .selectFrom('auth_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .innerJoin('companies as c', 'c.id', 'u.company_id')
        .select([
          'u.id',
          'u.role_id',
          'u.company_id',
          'u.email',
          'u.first_name',
          'u.last_name',
          'c.company_role_id',
          'c.carrier_id',
          't.id as token_id',
          't.expires_at',
        ])
        .where('t.id', '=', tokenId)
        .where('t.expires_at', '>', nowIso())
        .where('u.status_id', '=', 1)
        .where('c.status_id', '=', 1)
        .executeTakeFirst();
    },

    /** The signed-in user behind a token, or undefined when the token is unknown, expired, or its user or company is inactive. */
    resolve(token: string): Promise<SessionUser | undefined> {
      const hash = hashBearer(token);
      return new Promise((resolve, reject) => {
        const waiters = pending.get(hash);
        if (waiters) waiters.push({ resolve, reject });
        else pending.set(hash, [{ resolve, reject }]);
        schedule();
      });
    },

    async revoke(tokenId: number) {
      await db.deleteFrom('auth_tokens').where('id', '=', tokenId).execute();
      await sessionsChanged(db, { tokens: [tokenId] });
    },

    /**
     * Ends every session of a user, but the one given (a password change keeps the session that made it).
     * Answers how many active sessions it ended (the user's expired rows go as well, uncounted).
     */
    async revokeAllOf(userId: number, exceptTokenId?: number): Promise<number> {
      const now = nowIso();
      await db.deleteFrom('auth_tokens').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
      let q = db.deleteFrom('auth_tokens').where('user_id', '=', userId);
      if (exceptTokenId !== undefined) q = q.where('id', '!=', exceptTokenId);
      const r = await q.executeTakeFirst();
      // Also after a deactivation that ended nothing: the user's streams look their session up again.
      await sessionsChanged(db, { users: [userId] });
      return Number(r.numDeletedRows);
    },

    /** Ends every session of every user of a company (company deactivated). */
    async revokeCompany(companyId: number) {
      await db
        .deleteFrom('auth_tokens')
        .where('user_id', 'in', db.selectFrom('users').select('id').where('company_id', '=', companyId))
        .execute();
      await sessionsChanged(db, { companies: [companyId] });
    },
  };
}
