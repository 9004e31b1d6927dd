import { expect, it } from 'vitest';
import { generate } from 'otplib';
import { DEMO, describeEachDb, type TestPortal } from './helpers.js';
import { ACCOUNT_FAILURES } from '../../server/lib/signInThrottle.js';
import { createUser, nextIp } from './accountsHelpers.js';
import { hashPassword } from '../../server/lib/passwords.js';

/** A code of the app for `secret`, `steps` time steps (of 30 s) away from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Signs in with the password alone; answers the body (a token, or a challenge). */
async function passwordStep(p: TestPortal, email: string, password: string, opts: { remember?: boolean; lang?: string } = {}) {
  const r = await p.api('POST', '/visitor/login', { body: { email, password, remember: opts.remember ?? false }, headers: nextIp(), lang: opts.lang });
  expect(r.status).toBe(200);
  return r.body;
}
const secondStep = (p: TestPortal, challenge: string, code: string, lang = 'en') =>
  p.api('POST', '/visitor/login/mfa', { body: { challenge, code }, headers: nextIp(), lang });

/** Enrols the user behind `token`; answers the secret and the recovery codes. */
async function enrol(p: TestPortal, token: string) {
  const setup = await p.api('POST', '/visitor/mfa/setup', { token });
  expect(setup.status).toBe(200);
  const { secret } = setup.body.data;
  const on = await p.api('POST', '/visitor/mfa/enable', { token, body: { code: await codeAt(secret) } });
  expect(on.status).toBe(200);
  return { secret: secret as string, codes: on.body.data.recovery_codes as string[] };
}

async function freshUser(p: TestPortal) {
  const user = await createUser(p);
  return { ...user, token: await p.login(user.email, user.password) };
}

describeEachDb('two-step verification (TOTP)', (get) => {
  it('enrols from the settings: QR code and secret, a wrong code refused, a right one turns it on with ten recovery codes', async () => {
    const p = get();
    const u = await freshUser(p);
    expect((await p.api('GET', '/visitor/mfa', { token: u.token })).body.data).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
      required: false,
    });
    const wrongFirst = await p.api('POST', '/visitor/mfa/enable', { token: u.token, body: { code: '123456' }, lang: 'en' });
    expect(wrongFirst.status).toBe(409);
    expect(wrongFirst.body.message).toBe('Start the setup first: the QR code has not been created.');

    const setup = await p.api('POST', '/visitor/mfa/setup', { token: u.token });
    expect(setup.status).toBe(200);
    const { secret, uri, qr } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(uri).toBe(`otpauth://totp/Portale%20Trasporti:${encodeURIComponent(u.email)}?secret=${secret}&issuer=Portale%20Trasporti`);
    expect(Buffer.from(qr.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toMatch(/^<svg[^>]*viewBox/);

    const good = await codeAt(secret);
    const wrong = good === '000000' ? '111111' : '000000';
    const refused = await p.api('POST', '/visitor/mfa/enable', { token: u.token, body: { code: wrong }, lang: 'it' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.code).toEqual(['Il codice è errato, scaduto o già usato.']);
    expect((await p.api('GET', '/visitor/mfa', { token: u.token })).body.data.enabled).toBe(false);

    const on = await p.api('POST', '/visitor/mfa/enable', { token: u.token, body: { code: good }, lang: 'en' });
    expect(on.status).toBe(200);
    expect(on.body.message).toBe('Two-step verification is on. Keep your recovery codes somewhere safe.');
    const codes: string[] = on.body.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
    const state = await p.api('GET', '/visitor/mfa', { token: u.token });
    expect(state.body.data).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // Stored: the secret (to verify) and only hashes of the recovery codes.
    const stored = await p.db.db.selectFrom('mfa_recovery_codes').select('code_hash').where('user_id', '=', u.id).execute();
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0].slice(0, 5));
    // A second setup would replace the secret of an enrolled user: refused.
    expect((await p.api('POST', '/visitor/mfa/setup', { token: u.token })).status).toBe(409);
  });

  it('signs in in two steps; a reused code, an expired code, a forged challenge are refused', async () => {
    const p = get();
    // "The enrolment's code" below is the code of the current 30 s step: enrolment and that check must not
    // straddle a step boundary (CI under load saw it, and the next step's code was rightly taken).
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    const u = await freshUser(p);
    const { secret } = await enrol(p, u.token);

    const first = await passwordStep(p, u.email, u.password, { remember: true, lang: 'en' });
    expect(first).toEqual({
      step: 'verify',
      status: true,
      message: 'Enter the code from your authenticator app.',
      mfa_required: true,
      challenge: expect.any(String),
    });
    expect(first.token).toBeUndefined();

    // Expired: a code of three steps back.
    const expired = await secondStep(p, first.challenge, await codeAt(secret, -3));
    expect(expired.status).toBe(422);
    expect(expired.body.errors.code).toEqual(['The code is wrong, expired or already used.']);
    // The enrolment's code (this step) was used: the next step's code is taken (within ±1 step).
    const reusedAtEnrolment = await secondStep(p, first.challenge, await codeAt(secret, 0));
    expect(reusedAtEnrolment.status).toBe(422);

    const next = await codeAt(secret, 1);
    const ok = await secondStep(p, first.challenge, next);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: true, message: 'Login successful', type: 'Enduser', role: 'Enduser', user: { email: u.email } });
    expect(ok.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ok.body.recovery_codes).toBeUndefined();
    expect((await p.api('GET', '/visitor/getProfile', { token: ok.body.token })).status).toBe(200);
    // `remember` travelled with the challenge: a 90-day session.
    const session = await p.db.db.selectFrom('auth_tokens').select('expires_at').where('user_id', '=', u.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(new Date(session.expires_at).getTime() - Date.now()).toBeGreaterThan(89 * 86_400_000);

    // The challenge is used up; a new one does not take the same code again.
    expect((await secondStep(p, first.challenge, next)).status).toBe(401);
    const again = await passwordStep(p, u.email, u.password);
    const reused = await secondStep(p, again.challenge, next);
    expect(reused.status).toBe(422);

    // Forged and expired challenges: 401, in the caller's language.
    const forged = await secondStep(p, 'not-a-challenge', next, 'fr');
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe('Cette étape de connexion a expiré ou n’est pas valide. Reconnectez-vous avec votre mot de passe.');
    await p.db.db
      .updateTable('mfa_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', u.id)
      .execute();
    expect((await secondStep(p, again.challenge, await codeAt(secret, 1))).status).toBe(401);
    // No session was made by any refused step.
    expect(await p.db.db.selectFrom('auth_tokens').select('id').where('user_id', '=', u.id).execute()).toHaveLength(2);
  });

  it('takes each of the ten recovery codes once, at sign-in', async () => {
    const p = get();
    const u = await freshUser(p);
    const { codes } = await enrol(p, u.token);
    for (const [i, code] of codes.entries()) {
      const { challenge } = await passwordStep(p, u.email, u.password);
      // Typed in lowercase, without the dash, for one of them: the same code.
      const r = await secondStep(p, challenge, i === 3 ? code.replace('-', '').toLowerCase() : code);
      expect(r.status, `code ${i}`).toBe(200);
    }
    expect((await p.api('GET', '/visitor/mfa', { token: u.token })).body.data.recovery_codes_left).toBe(0);
    const { challenge } = await passwordStep(p, u.email, u.password);
    const reused = await secondStep(p, challenge, codes[0]);
    expect(reused.status).toBe(422);
  });

  it('counts wrong codes and forged challenges like wrong passwords (lib/signInThrottle.ts): then 429 with Retry-After', async () => {
    const p = get();
    const u = await freshUser(p);
    const { secret } = await enrol(p, u.token);
    const wrong = (await codeAt(secret, 1)) === '000000' ? '111111' : '000000';
    // Four wrong codes on each of two challenges, two on a third: the count is the account's, not the challenge's.
    let challenge = '';
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      if (i % 4 === 0) challenge = (await passwordStep(p, u.email, u.password)).challenge;
      expect((await secondStep(p, challenge, i % 2 ? 'ABCDE-FGHJK' : wrong)).status, `try ${i}`).toBe(422);
    }
    const locked = await secondStep(p, challenge, await codeAt(secret, 1));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await p.api('POST', '/visitor/login', { body: { email: u.email, password: u.password }, headers: nextIp() })).status).toBe(429);

    // Forged challenges count too (against the address and an empty account): refused, then 429.
    const from = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i <= ACCOUNT_FAILURES; i++) {
      statuses.push((await p.api('POST', '/visitor/login/mfa', { body: { challenge: `forged-${i}`, code: '123456' }, headers: from })).status);
    }
    expect(statuses[0]).toBe(401);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('gives the device token only after the whole sign-in', async () => {
    const p = get();
    const u = await freshUser(p);
    const { secret } = await enrol(p, u.token);
    const first = await p.api('POST', '/visitor/login', { body: { email: u.email, password: u.password }, headers: nextIp() });
    expect(first.body.mfa_required).toBe(true);
    expect(first.headers['set-cookie']).toBeUndefined();
    const done = await secondStep(p, first.body.challenge, await codeAt(secret, 1));
    expect(done.status).toBe(200);
    expect(String(done.headers['set-cookie'])).toMatch(/^deviceToken=[A-Za-z0-9_-]+;/);
  });

  it('turns off with a current code or the password; regenerates recovery codes', async () => {
    const p = get();
    const u = await freshUser(p);
    const { codes } = await enrol(p, u.token);
    const none = await p.api('POST', '/visitor/mfa/disable', { token: u.token, body: {}, lang: 'en' });
    expect(none.status).toBe(422);
    expect(none.body.errors.code).toEqual(['Enter a code from your authenticator app or your password.']);
    const badPassword = await p.api('POST', '/visitor/mfa/disable', { token: u.token, body: { password: 'Wrong1234' }, headers: nextIp(), lang: 'en' });
    expect(badPassword.status).toBe(422);
    expect(badPassword.body.errors.password).toEqual(['The code or the password is wrong.']);
    expect((await p.api('GET', '/visitor/mfa', { token: u.token })).body.data.enabled).toBe(true);

    const fresh = await p.api('POST', '/visitor/mfa/recovery_codes', { token: u.token, body: { code: codes[0] }, headers: nextIp() });
    expect(fresh.status).toBe(200);
    const newCodes: string[] = fresh.body.data.recovery_codes;
    expect(newCodes).toHaveLength(10);
    expect(newCodes).not.toContain(codes[1]);
    // The old codes no longer work.
    const { challenge } = await passwordStep(p, u.email, u.password);
    expect((await secondStep(p, challenge, codes[1])).status).toBe(422);

    const off = await p.api('POST', '/visitor/mfa/disable', { token: u.token, body: { password: u.password }, headers: nextIp(), lang: 'en' });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe('Two-step verification is off.');
    expect((await p.api('GET', '/visitor/mfa', { token: u.token })).body.data).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    const plain = await passwordStep(p, u.email, u.password);
    expect(plain.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await p.db.db.selectFrom('mfa_recovery_codes').select('id').where('user_id', '=', u.id).execute()).toHaveLength(0);
    expect((await p.api('POST', '/visitor/mfa/disable', { token: u.token, body: { password: u.password } })).status).toBe(409);
  });

  it('lets an admin see it and turn it off for a user who lost phone and codes; nobody else', async () => {
    const p = get();
    const u = await freshUser(p);
    await enrol(p, u.token);
    const admin = await p.login(DEMO.admin);
    const carrier = await p.login(DEMO.carrier);
    expect((await p.api('GET', `/admin/users/mfa/${u.id}`, { token: admin })).body.data).toEqual({ enabled: true });
    expect((await p.api('POST', `/admin/users/mfaReset/${u.id}`, { token: carrier })).status).toBe(403);
    expect((await p.api('POST', `/admin/users/mfaReset/${u.id}`, { token: u.token })).status).toBe(403);
    expect((await p.api('POST', '/admin/users/mfaReset/999999', { token: admin })).status).toBe(404);
    const reset = await p.api('POST', `/admin/users/mfaReset/${u.id}`, { token: admin, lang: 'en' });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('Two-step verification of the user is off: they sign in with the password and may turn it on again.');
    expect((await p.api('GET', `/admin/users/mfa/${u.id}`, { token: admin })).body.data).toEqual({ enabled: false });
    expect((await passwordStep(p, u.email, u.password)).token).toBeTruthy();
    expect((await p.api('POST', `/admin/users/mfaReset/${u.id}`, { token: admin })).status).toBe(409);
  });

  it('leaves users without it and the demo admin signing in with the password alone', async () => {
    const p = get();
    const r = await passwordStep(p, DEMO.admin, DEMO.password);
    expect(r.token).toBeTruthy();
    expect(r.mfa_required).toBeUndefined();
  });
});

/** An admin of the demo admin company (role 2, Admin Users), with its own counters. */
async function createAdmin(p: TestPortal) {
  const db = p.db.db;
  const admin = await db.selectFrom('users').select(['company_id', 'language_id']).where('email', '=', DEMO.admin).executeTakeFirstOrThrow();
  const email = `admin-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.test`;
  const now = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      role_id: 2,
      company_id: admin.company_id,
      language_id: admin.language_id,
      first_name: 'Ada',
      last_name: 'Admin',
      email,
      password_hash: await hashPassword('Secret123'),
      status_id: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { email, password: 'Secret123' };
}

describeEachDb(
  'REQUIRE_ADMIN_MFA=1',
  (get) => {
    it('gives an admin without TOTP no session: a challenge that only allows enrolment, then the session', async () => {
      const p = get();
      const a = await createAdmin(p);
      const first = await passwordStep(p, a.email, a.password, { lang: 'en' });
      expect(first).toEqual({
        step: 'verify',
        status: true,
        message: 'Administrators must turn on two-step verification before signing in.',
        mfa_setup_required: true,
        challenge: expect.any(String),
      });
      // The enrolment challenge signs nobody in by itself, and a code cannot come before the QR code.
      expect((await secondStep(p, first.challenge, '123456')).status).toBe(422);
      const setup = await p.api('POST', '/visitor/login/mfa/setup', { body: { challenge: first.challenge }, headers: nextIp() });
      expect(setup.status).toBe(200);
      const { secret, qr } = setup.body.data;
      expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
      const done = await secondStep(p, first.challenge, await codeAt(secret));
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: true, role: 'Admin Users', user: { email: a.email } });
      expect(done.body.recovery_codes).toHaveLength(10);
      // From now on the usual second step; turning it off is refused while it is required.
      const next = await passwordStep(p, a.email, a.password);
      expect(next.mfa_required).toBe(true);
      const signedIn = await secondStep(p, next.challenge, await codeAt(secret, 1));
      expect(signedIn.status).toBe(200);
      const state = await p.api('GET', '/visitor/mfa', { token: signedIn.body.token });
      expect(state.body.data).toMatchObject({ enabled: true, required: true });
      const off = await p.api('POST', '/visitor/mfa/disable', { token: signedIn.body.token, body: { password: a.password }, lang: 'en' });
      expect(off.status).toBe(403);
      expect(off.body.message).toBe('Two-step verification is required for administrators and cannot be turned off.');
    });

    it('keeps the setup challenge for enrolment only, and other roles sign in as before', async () => {
      const p = get();
      const a = await createAdmin(p);
      const first = await passwordStep(p, a.email, a.password);
      // A setup challenge gives no QR code to a verify challenge's holder and vice versa.
      const u = await createUser(p);
      const plain = await passwordStep(p, u.email, u.password);
      expect(plain.token).toBeTruthy();
      const { secret } = await enrol(p, plain.token);
      const verify = await passwordStep(p, u.email, u.password);
      expect((await p.api('POST', '/visitor/login/mfa/setup', { body: { challenge: verify.challenge }, headers: nextIp() })).status).toBe(401);
      expect((await secondStep(p, verify.challenge, await codeAt(secret, 1))).status).toBe(200);
      expect(first.mfa_setup_required).toBe(true);
    });
  },
  { requireAdminMfa: true },
);
