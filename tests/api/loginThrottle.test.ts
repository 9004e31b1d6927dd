import { afterAll, beforeAll, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { signInThrottle } from '../../server/lib/signInThrottle.js';
import { hashToken } from '../../server/lib/tokens.js';
import { API_PASSWORD, describeEachDb } from './helpers.js';
import { createUser } from './accountsHelpers.js';

/**
 * Sign-in throttling with device tokens (server.md §3 "Login", docs/sign-in-throttling.md): a browser that
 * signed in before counts its failures on its own (10 in 15 minutes void its token); untrusted sign-ins
 * take 10 failures per account (then 429 for 15 minutes) and 100 per address.
 */
describeEachDb('sign-in throttle with device tokens', (p) => {
  let second: FastifyInstance;
  beforeAll(async () => {
    // A second server process on the same database.
    second = await buildApp({ config: p().config, db: p().db });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
  });

  let addr = 0;
  /** A fresh client address (the test portal trusts 127.0.0.1 as its proxy). */
  const nextIp = () => `198.18.${Math.floor(++addr / 250)}.${(addr % 250) + 1}`;

  interface Try {
    ip?: string;
    /** Sent as the `deviceToken` cookie. */
    cookie?: string;
    /** Sent as `X-Device-Token`. */
    header?: string;
    lang?: string;
    app?: FastifyInstance;
    proto?: string;
  }
  async function login(email: string, password: string, t: Try = {}) {
    const headers: Record<string, string> = { 'x-api-password': API_PASSWORD, 'x-forwarded-for': t.ip ?? nextIp(), 'accept-language': t.lang ?? 'it' };
    if (t.cookie) headers.cookie = `other=1; deviceToken=${t.cookie}; last=2`;
    if (t.header) headers['x-device-token'] = t.header;
    if (t.proto) headers['x-forwarded-proto'] = t.proto;
    const res = await (t.app ?? p().app).inject({ method: 'POST', url: '/api/v1/visitor/login', headers, payload: { email, password } });
    const setCookie = res.headers['set-cookie'];
    const cookieLine = (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).find((c) => c.startsWith('deviceToken='));
    return { status: res.statusCode, body: res.json(), headers: res.headers, cookieLine, device: cookieLine?.split(';')[0].slice('deviceToken='.length) };
  }
  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
  /** Runs `n` calls, `width` at a time. */
  async function inWaves<T>(n: number, width: number, call: (i: number) => Promise<T>) {
    const out: T[] = [];
    for (let i = 0; i < n; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => call(i + j)))));
    return out;
  }
  const retryAfter = (r: { headers: Record<string, unknown> }) => Number(r.headers['retry-after']);

  it("survives 1 000 wrong passwords on one e-mail from varied addresses: the victim's trusted browser signs in at once", async () => {
    const victim = await createUser(p());
    const trusted = await login(victim.email, victim.password);
    expect(trusted.status).toBe(200);
    expect(trusted.device).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const results = await inWaves(1000, 25, (i) => login(victim.email, `wrong-pass${i}`, { ip: `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}` }));
    // Exactly 10 guesses reach a password check, however the concurrent calls interleave.
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 10, 429: 990 });

    const atOnce = await login(victim.email, victim.password, { cookie: trusted.device });
    expect(atOnce.status).toBe(200);
    // From an untrusted browser the account is locked for 15 minutes, even with the right password.
    const fresh = await login(victim.email, victim.password);
    expect(fresh.status).toBe(429);
    expect(retryAfter(fresh)).toBeGreaterThan(880);
    expect(retryAfter(fresh)).toBeLessThanOrEqual(900);
    expect(fresh.body.message).toBe('Troppi tentativi: riprova tra 15 minuti.');
  });

  it('answers the 11th untrusted failure with 429 and Retry-After ≈ 900 s, in the caller’s language', async () => {
    const u = await createUser(p());
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-pass1')).status).toBe(401);
    const eleventh = await login(u.email, 'wrong-pass1', { lang: 'en' });
    expect(eleventh.status).toBe(429);
    expect(retryAfter(eleventh)).toBeGreaterThan(890);
    expect(retryAfter(eleventh)).toBeLessThanOrEqual(900);
    expect(eleventh.body.message).toBe('Too many attempts: try again in 15 minutes.');
    expect((await login(u.email, u.password, { lang: 'fr' })).body.message).toBe('Trop de tentatives : réessayez dans 15 minutes.');
  });

  it('lets 50 users behind one address sign in while one of them mistypes 20 times', async () => {
    const office = nextIp();
    const hash = await hashPassword('Office123');
    const company = await p().db.db.selectFrom('users').select('company_id').where('email', '=', 'enduser@portal.demo').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const emails = Array.from({ length: 50 }, (_, i) => `office${i}-${Date.now()}@example.test`);
    await p()
      .db.db.insertInto('users')
      .values(
        emails.map((email) => ({
          role_id: 6,
          company_id: company.company_id,
          first_name: 'Ufficio',
          last_name: 'Rossi',
          email,
          password_hash: hash,
          status_id: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const [mistyper, ...others] = emails;
    const [typos, signIns] = await Promise.all([
      inWaves(20, 1, (i) => login(mistyper, `Office12${i}x`, { ip: office })),
      inWaves(others.length, 7, (i) => login(others[i], 'Office123', { ip: office })),
    ]);
    expect(tally(typos.map((r) => r.status))).toEqual({ 401: 10, 429: 10 });
    expect(signIns.every((r) => r.status === 200)).toBe(true);
  });

  it('counts the failures of a trusted browser against its token alone, and voids the token at the 10th', async () => {
    const u = await createUser(p());
    const first = await login(u.email, u.password);
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-pass1', { cookie: first.device })).status).toBe(401);
    const rows = await p().db.db.selectFrom('device_tokens').select('token_hash').where('user_id', '=', u.id).execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(hashToken(first.device!));
    // The account's untrusted budget is untouched: 10 more failures are checked, the 11th is refused.
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-pass1', { cookie: first.device })).status).toBe(401);
    expect((await login(u.email, u.password, { cookie: first.device })).status).toBe(429);
  });

  it('counts a forged, another user’s or an expired device token as untrusted', async () => {
    const u = await createUser(p());
    const other = await createUser(p());
    const mine = (await login(u.email, u.password)).device!;
    const stale = (await login(u.email, u.password)).device!;
    const foreign = (await login(other.email, other.password)).device!;
    await p()
      .db.db.updateTable('device_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(stale))
      .execute();
    const forged = 'A'.repeat(43);
    const tries: Try[] = [{ cookie: forged }, { header: foreign }, { cookie: stale }, { header: 'not a token!' }, { cookie: foreign }];
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-pass1', tries[i % tries.length])).status).toBe(401);
    for (const t of tries) expect((await login(u.email, u.password, t)).status).toBe(429);
    // The owner's valid token, as a cookie or as X-Device-Token, still signs in.
    expect((await login(u.email, u.password, { cookie: mine })).status).toBe(200);
    expect((await login(u.email, u.password, { header: mine })).status).toBe(200);
  });

  it('refuses the untrusted sign-ins of an address after its 100th failure', async () => {
    const u = await createUser(p());
    const trusted = (await login(u.email, u.password)).device!;
    const nat = nextIp();
    const results = await inWaves(100, 10, (i) => login(`nat${i}-${Date.now()}@example.test`, 'wrong-pass1', { ip: nat }));
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 100 });
    const refused = await login(u.email, u.password, { ip: nat });
    expect(refused.status).toBe(429);
    expect(retryAfter(refused)).toBeGreaterThan(800);
    expect(retryAfter(refused)).toBeLessThanOrEqual(900);
    // A trusted browser behind that address, and the same user elsewhere, still sign in.
    expect((await login(u.email, u.password, { ip: nat, cookie: trusted })).status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('answers an unknown e-mail exactly as a known one, up to the lock', async () => {
    const u = await createUser(p());
    const unknown = `nobody-${Date.now()}@example.test`;
    for (let i = 0; i < 10; i++) {
      const [a, b] = [await login(u.email, 'wrong-pass1'), await login(unknown, 'wrong-pass1')];
      expect([a.status, a.cookieLine]).toEqual([401, undefined]);
      expect([b.status, b.body]).toEqual([a.status, a.body]);
    }
    const [a, b] = [await login(u.email, 'wrong-pass1'), await login(unknown, 'wrong-pass1')];
    expect(a.status).toBe(429);
    expect([b.status, b.body]).toEqual([a.status, a.body]);
    expect(Math.abs(retryAfter(a) - retryAfter(b))).toBeLessThanOrEqual(2);
  });

  it('shares the counters and the device tokens between two server processes on one database', async () => {
    const u = await createUser(p());
    const device = (await login(u.email, u.password, { app: second })).device!;
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-pass1', { app: i % 2 ? second : p().app })).status).toBe(401);
    expect((await login(u.email, u.password, { app: second })).status).toBe(429);
    expect((await login(u.email, u.password)).status).toBe(429);
    expect((await login(u.email, u.password, { cookie: device })).status).toBe(200);
  });

  it('sets the device cookie HttpOnly, SameSite=Strict on /api, Secure only behind TLS, and renews the same token', async () => {
    const u = await createUser(p());
    const plain = await login(u.email, u.password);
    expect(plain.cookieLine).toMatch(/^deviceToken=[A-Za-z0-9_-]{43}; Max-Age=31536000; Path=\/api; HttpOnly; SameSite=Strict$/);
    const tls = await login(u.email, u.password, { proto: 'https' });
    expect(tls.cookieLine).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    // Only the hash is stored.
    const stored = await p().db.db.selectFrom('device_tokens').selectAll().where('user_id', '=', u.id).orderBy('id').execute();
    expect(stored.map((r) => r.token_hash)).toEqual([hashToken(plain.device!), hashToken(tls.device!)]);
    // A sign-in with a valid token renews that token (same value, another year), no new one.
    await p()
      .db.db.updateTable('device_tokens')
      .set({ expires_at: new Date(Date.now() + 86_400_000).toISOString() })
      .where('id', '=', stored[0].id)
      .execute();
    const again = await login(u.email, u.password, { cookie: plain.device });
    expect(again.device).toBe(plain.device);
    const renewed = await p().db.db.selectFrom('device_tokens').select('expires_at').where('id', '=', stored[0].id).executeTakeFirstOrThrow();
    expect(new Date(renewed.expires_at).getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    expect(await p().db.db.selectFrom('device_tokens').select('id').where('user_id', '=', u.id).execute()).toHaveLength(2);
    // A failed sign-in sets no cookie.
    expect((await login(u.email, 'wrong-pass1')).cookieLine).toBeUndefined();
  });

  it('settles an attempt its route left open by the answer: a success gives it back (a second-factor step), an error counts', async () => {
    // A route of another module (the second factor's) that begins attempts and settles none itself.
    const step = Fastify();
    step.decorate('db', p().db.db);
    await step.register(async (f) => {
      const t = signInThrottle(f);
      f.post<{ Body: { email: string; ok: boolean } }>('/step', async (req, reply) => {
        await t.begin(req, req.body.email);
        return reply.status(req.body.ok ? 200 : 401).send({});
      });
    });
    await step.ready();
    try {
      const call = (email: string, ok: boolean) => step.inject({ method: 'POST', url: '/step', payload: { email, ok } });
      const u = await createUser(p());
      for (let i = 0; i < 15; i++) expect((await call(u.email, true)).statusCode).toBe(200);
      for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-pass1')).status).toBe(401);
      expect((await login(u.email, u.password)).status).toBe(429);

      const v = await createUser(p());
      for (let i = 0; i < 10; i++) expect((await call(v.email, false)).statusCode).toBe(401);
      expect((await call(v.email, true)).statusCode).toBe(429);
      expect((await login(v.email, v.password)).status).toBe(429);
    } finally {
      await step.close();
    }
  });
});
