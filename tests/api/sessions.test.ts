import { expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { tokensRepo } from '../../server/repositories/tokens.js';
import { hashToken } from '../../server/lib/tokens.js';
import { DEMO, describeEachDb } from './helpers.js';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

/** Active sessions (server.md §3 "Sessions", routes/visitor/sessions.ts, repositories/tokens.ts). */
describeEachDb('active sessions', (p) => {
  /** Signs in with a browser and an address of its own; answers the token. */
  async function signIn(email: string, userAgent: string, ip: string) {
    const r = await p().api('POST', '/visitor/login', {
      body: { email, password: DEMO.password },
      headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
    });
    expect(r.status).toBe(200);
    return r.body.token as string;
  }
  const list = async (token: string, lang = 'en') => {
    const r = await p().api('GET', '/visitor/sessions?per_page=50', { token, lang });
    expect(r.status).toBe(200);
    return r.body.data as Array<Record<string, any>>;
  };
  const profile = async (token: string) => (await p().api('GET', '/visitor/getProfile', { token })).status;
  const tokenRow = (id: number) => p().db.db.selectFrom('auth_tokens').selectAll().where('id', '=', id).executeTakeFirst();

  it("lists the caller's own sessions only, with browser, address and which one is current", async () => {
    const firefox = await signIn(DEMO.enduser, FIREFOX, '203.0.113.7');
    const chrome = await signIn(DEMO.enduser, CHROME, '203.0.113.8');
    const other = await signIn(DEMO.carrier, CHROME, '198.51.100.1');
    const mine = await list(firefox);
    const ids = (
      await p().db.db.selectFrom('auth_tokens as t').innerJoin('users as u', 'u.id', 't.user_id').select('t.id').where('u.email', '=', DEMO.enduser).execute()
    ).map((r) => r.id);
    expect(mine.map((s) => s.id).sort()).toEqual(ids.sort());
    const ff = mine.find((s) => s.current)!;
    expect(ff).toMatchObject({ browser: 'Firefox 128 · Windows', ip: '203.0.113.7', current: true });
    expect(mine.filter((s) => s.current)).toHaveLength(1);
    expect(mine[0]).toBe(ff); // the current one first
    expect(mine.find((s) => s.ip === '203.0.113.8')).toMatchObject({ browser: 'Chrome 156 · Linux', current: false });
    for (const s of mine) {
      expect(Object.keys(s).sort()).toEqual(['browser', 'created_at', 'current', 'expires_at', 'id', 'ip', 'last_used_at']);
      expect(Date.parse(s.expires_at)).toBeGreaterThan(Date.now());
    }
    // The other user's sessions never show, and cannot be ended: 404, and they go on.
    const carrierIds = (await list(other)).map((s) => s.id);
    expect(carrierIds.some((id) => mine.some((s) => s.id === id))).toBe(false);
    for (const id of carrierIds) {
      const r = await p().api('GET', `/visitor/sessions/destroy/${id}`, { token: chrome, lang: 'it' });
      expect(r.status).toBe(404);
      expect(r.body.message).toBeTruthy();
    }
    expect(await profile(other)).toBe(200);
    // An expired session is not listed either.
    const expired = (await list(chrome)).find((s) => !s.current && s.ip === '203.0.113.7')!;
    await p()
      .db.db.updateTable('auth_tokens')
      .set({ expires_at: minutesAgo(1) })
      .where('id', '=', expired.id)
      .execute();
    expect((await list(chrome)).some((s) => s.id === expired.id)).toBe(false);
    expect((await p().api('GET', `/visitor/sessions/destroy/${expired.id}`, { token: chrome })).status).toBe(404);
  });

  it('pages the list (current session first, then by last use) with the total; the page size is bounded', async () => {
    const user = await p().db.db.selectFrom('users').select('id').where('email', '=', DEMO.admin).executeTakeFirstOrThrow();
    await p().db.db.deleteFrom('auth_tokens').where('user_id', '=', user.id).execute();
    const current = await signIn(DEMO.admin, FIREFOX, '198.51.100.40');
    // 23 more sessions of the admin, each last used a minute further back.
    for (let i = 1; i <= 23; i++) {
      const t = await signIn(DEMO.admin, CHROME, `198.51.100.${40 + i}`);
      await p()
        .db.db.updateTable('auth_tokens')
        .set({ last_used_at: minutesAgo(i) })
        .where('token_hash', '=', hashToken(t))
        .execute();
    }
    const page = (query: string) => p().api('GET', `/visitor/sessions${query}`, { token: current, lang: 'it' });
    const first = await page('');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: true, current_page: 1, per_page: 10, last_page: 3, total: 24 });
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]).toMatchObject({ current: true, ip: '198.51.100.40' });
    expect(first.body.data.slice(1).map((s: any) => s.ip)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `198.51.100.${40 + i}`));
    const third = await page('?page=3&per_page=10');
    expect(third.body).toMatchObject({ current_page: 3, last_page: 3, total: 24 });
    expect(third.body.data.map((s: any) => s.ip)).toEqual([20, 21, 22, 23].map((i) => `198.51.100.${40 + i}`));
    expect(third.body.data.some((s: any) => s.current)).toBe(false);
    // Every session once across the pages.
    const seen = new Set<number>();
    for (const n of [1, 2, 3]) for (const s of (await page(`?page=${n}`)).body.data) seen.add(s.id);
    expect(seen.size).toBe(24);
    expect((await page('?page=4')).body).toMatchObject({ data: [], total: 24, last_page: 3 });
    expect((await page('?per_page=50')).body.data).toHaveLength(24);
    // Out of bounds: refused by the schema, with the field named in the caller's language.
    for (const q of ['?per_page=51', '?per_page=0', '?page=0', '?page=x']) {
      const r = await page(q);
      expect(r.status, q).toBe(422);
      expect(Object.keys(r.body.errors).length, q).toBe(1);
    }
  });

  it('ends another session of the caller (its token is refused at once), and the current one signs out', async () => {
    const a = await signIn(DEMO.carrier, FIREFOX, '203.0.113.20');
    const b = await signIn(DEMO.carrier, CHROME, '203.0.113.21');
    const bId = (await list(b)).find((s) => s.current)!.id;
    const r = await p().api('GET', `/visitor/sessions/destroy/${bId}`, { token: a, lang: 'it' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: true, message: 'Sessione terminata', data: { id: bId, current: false } });
    expect(await profile(b)).toBe(401);
    expect(await tokenRow(bId)).toBeUndefined();
    expect(await profile(a)).toBe(200);

    const aId = (await list(a)).find((s) => s.current)!.id;
    const self = await p().api('GET', `/visitor/sessions/destroy/${aId}`, { token: a, lang: 'fr' });
    expect(self.body).toEqual({ status: true, message: 'Session terminée : vous êtes déconnecté', data: { id: aId, current: true } });
    expect(await profile(a)).toBe(401);
  });

  it('ends all the other sessions and keeps the current one; bad ids are refused and change nothing', async () => {
    const keep = await signIn(DEMO.enduser, CHROME, '203.0.113.30');
    const others = [await signIn(DEMO.enduser, FIREFOX, '203.0.113.31'), await signIn(DEMO.enduser, FIREFOX, '203.0.113.32')];
    const carrier = await signIn(DEMO.carrier, CHROME, '203.0.113.33');
    const before = (await list(keep)).length;
    expect(before).toBeGreaterThanOrEqual(3);
    for (const bad of ['0', '-1', 'abc', '99999999999']) {
      const r = await p().api('GET', `/visitor/sessions/destroy/${bad}`, { token: keep, lang: 'it' });
      expect([404, 422]).toContain(r.status);
    }
    expect((await list(keep)).length).toBe(before);
    const r = await p().api('GET', '/visitor/sessions/destroyOthers', { token: keep, lang: 'en' });
    expect(r.body).toEqual({ status: true, message: `${before - 1} other sessions ended`, data: { count: before - 1 } });
    for (const t of others) expect(await profile(t)).toBe(401);
    expect(await profile(keep)).toBe(200);
    expect(await profile(carrier)).toBe(200);
    expect((await list(keep)).map((s) => s.current)).toEqual([true]);
  });

  it("lets an admin end every session of a user (404 for an unknown user); others' refused", async () => {
    const admin = await signIn(DEMO.admin, CHROME, '203.0.113.40');
    const victims = [await signIn(DEMO.carrier, CHROME, '203.0.113.41'), await signIn(DEMO.carrier, FIREFOX, '203.0.113.42')];
    const bystander = await signIn(DEMO.enduser, CHROME, '203.0.113.43');
    const carrierId = (await p().db.db.selectFrom('users').select('id').where('email', '=', DEMO.carrier).executeTakeFirstOrThrow()).id;
    // Not for the carrier or the end user themselves.
    expect((await p().api('GET', `/admin/users/destroySessions/${carrierId}`, { token: victims[0] })).status).toBe(403);
    expect((await p().api('GET', `/admin/users/destroySessions/${carrierId}`, { token: bystander })).status).toBe(403);
    expect(await profile(victims[0]!)).toBe(200);
    const unknown = await p().api('GET', '/admin/users/destroySessions/999999', { token: admin, lang: 'it' });
    expect(unknown.status).toBe(404);
    const r = await p().api('GET', `/admin/users/destroySessions/${carrierId}`, { token: admin, lang: 'it' });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(carrierId);
    expect(r.body.data.count).toBeGreaterThanOrEqual(2);
    expect(r.body.message).toBe(`Tutte le sessioni dell’utente sono state terminate (${r.body.data.count})`);
    for (const t of victims) expect(await profile(t)).toBe(401);
    expect(await p().db.db.selectFrom('auth_tokens').select('id').where('user_id', '=', carrierId).execute()).toEqual([]);
    expect(await profile(admin)).toBe(200);
    expect(await profile(bystander)).toBe(200);
  });

  it('moves last_used_at as the token is used, at most once a minute', async () => {
    const token = await signIn(DEMO.enduser, CHROME, '203.0.113.50');
    const id = (await list(token)).find((s) => s.current)!.id;
    const issued = (await tokenRow(id))!;
    expect(issued.last_used_at).toBe(issued.created_at); // the sign-in is the first use
    expect(await profile(token)).toBe(200);
    expect((await tokenRow(id))!.last_used_at).toBe(issued.created_at); // used again within the minute: unchanged
    const old = minutesAgo(5);
    await p().db.db.updateTable('auth_tokens').set({ last_used_at: old }).where('id', '=', id).execute();
    const before = Date.now();
    expect(await profile(token)).toBe(200);
    const touched = (await tokenRow(id))!.last_used_at!;
    expect(Date.parse(touched)).toBeGreaterThanOrEqual(before - 5);
    expect(await profile(token)).toBe(200);
    expect((await tokenRow(id))!.last_used_at).toBe(touched);
    expect((await list(token)).find((s) => s.id === id)!.last_used_at).toBe(touched);
  });

  it('touches the stale tokens of one batch in one statement, and none when all are fresh', async () => {
    const state = { statements: 0, updates: 0 };
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === 'UpdateQueryNode') state.updates++;
        return args.node;
      },
      transformResult: async (args) => {
        state.statements++;
        return args.result;
      },
    };
    const repo = tokensRepo(p().db.db.withPlugin(plugin));
    const users = await p().db.db.selectFrom('users').select('id').where('status_id', '=', 1).orderBy('id').limit(3).execute();
    const tokens = await Promise.all(
      Array.from({ length: 30 }, (_, i) => repo.issue(users[i % users.length]!.id, false, { userAgent: CHROME, ip: '203.0.113.60' })),
    );
    const ids = (await p().db.db.selectFrom('auth_tokens').select('id').where('ip', '=', '203.0.113.60').orderBy('id').execute()).map((r) => r.id);
    expect(ids).toHaveLength(30);

    Object.assign(state, { statements: 0, updates: 0 });
    await Promise.all(tokens.map((t) => repo.resolve(t)));
    expect(state).toEqual({ statements: 1, updates: 0 }); // all fresh: the lookup alone

    const stale = ids.slice(0, 20);
    await p()
      .db.db.updateTable('auth_tokens')
      .set({ last_used_at: minutesAgo(2) })
      .where('id', 'in', stale)
      .execute();
    Object.assign(state, { statements: 0, updates: 0 });
    const found = await Promise.all(tokens.map((t) => repo.resolve(t)));
    expect(found.every(Boolean)).toBe(true);
    expect(state).toEqual({ statements: 2, updates: 1 }); // one lookup, one update for the 20
    const rows = await p().db.db.selectFrom('auth_tokens').select(['id', 'last_used_at', 'created_at']).where('id', 'in', ids).execute();
    for (const r of rows) {
      if (stale.includes(r.id)) expect(Date.parse(r.last_used_at!)).toBeGreaterThan(Date.now() - 10_000);
      else expect(r.last_used_at).toBe(r.created_at);
    }

    Object.assign(state, { statements: 0, updates: 0 });
    await Promise.all(tokens.map((t) => repo.resolve(t)));
    expect(state).toEqual({ statements: 1, updates: 0 }); // touched a moment ago: not again within the minute
  });

  it('answers the requests even when the touch fails, and reports the failure', async () => {
    let failUpdates = 1;
    const updates = new WeakSet<object>();
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === 'UpdateQueryNode') updates.add(args.queryId);
        return args.node;
      },
      transformResult: async (args) => {
        if (updates.has(args.queryId) && failUpdates > 0) {
          failUpdates--;
          throw new Error('connection lost (test)');
        }
        return args.result;
      },
    };
    const reported: unknown[] = [];
    const repo = tokensRepo(p().db.db.withPlugin(plugin), { onTouchError: (err) => reported.push(err) });
    const user = await p().db.db.selectFrom('users').select(['id', 'email']).where('email', '=', DEMO.enduser).executeTakeFirstOrThrow();
    const token = await repo.issue(user.id, false);
    await p()
      .db.db.updateTable('auth_tokens')
      .set({ last_used_at: minutesAgo(3) })
      .where('user_agent', 'is', null)
      .where('user_id', '=', user.id)
      .execute();
    expect((await repo.resolve(token))?.email).toBe(DEMO.enduser);
    expect(reported).toHaveLength(1);
    // Still stale, so the next use moves it.
    expect((await repo.resolve(token))?.email).toBe(DEMO.enduser);
    expect(reported).toHaveLength(1);
    const row = await p().db.db.selectFrom('auth_tokens').select('last_used_at').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(Date.parse(row.last_used_at!)).toBeGreaterThan(Date.now() - 10_000);
  });
});
