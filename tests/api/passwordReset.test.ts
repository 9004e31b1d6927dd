import { afterAll, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';
import { openDb } from '../../server/db/index.js';
import { hashPassword, useTestHashing } from '../../server/lib/passwords.js';
import { createUser, nextIp } from './accountsHelpers.js';
import { DEMO, describeEachDb, type TestPortal } from './helpers.js';
import { startSmtpSink } from './smtpSink.js';

const sink = await startSmtpSink();
afterAll(() => sink.close());

const codeIn = (text: string) => /\b(\d{4})\b/.exec(text)![1];
const wrongCode = (code: string, n = 1) => String((Number(code) + n) % 10_000).padStart(4, '0');

describeEachDb(
  'forgotten password and reset with a code (server.md §3)',
  (p) => {
    const forget = (email: string, headers = nextIp(), lang = 'en') => p().api('POST', '/visitor/forgetPassword', { body: { email }, headers, lang });
    const reset = (email: string, otp: string, password = 'NewSecret9', headers = nextIp(), lang = 'en') =>
      p().api('POST', '/visitor/resetPassword', { body: { email, otp, password, password_confirmation: password }, headers, lang });
    /** Asks for a code and reads it from the mail the SMTP sink received. */
    const codeFor = async (email: string) => {
      const before = sink.received.length;
      expect((await forget(email)).status).toBe(200);
      return codeIn((await sink.next(email, before)).text);
    };

    it('mails a 4-digit code in the recipient language, stores only its hash, and resets the password with it', async () => {
      const u = await createUser(p(), { lang: 'fr', first_name: 'Chloé' });
      const before = sink.received.length;
      const r = await forget(u.email.toUpperCase());
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        status: true,
        message: 'If an account exists for this email, we have sent it a 4-digit code. The code is valid for 10 minutes.',
      });
      const mail = await sink.next(u.email, before);
      expect(mail.subject).toBe('Votre code pour réinitialiser votre mot de passe');
      expect(mail.text).toContain('Bonjour Chloé');
      const code = codeIn(mail.text);
      const row = await p().db.db.selectFrom('password_resets').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
      expect(row.code_hash).toMatch(/^\$argon2id\$/);
      expect(row.code_hash).not.toContain(code);
      expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(10 * 60_000);

      const session = await p().login(u.email, u.password);
      const done = await reset(u.email, code);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ status: true, message: 'Your password has been reset. You can now sign in with the new password.' });
      // Every session of the account ends; the new password works, the old one does not.
      expect((await p().api('GET', '/visitor/getProfile', { token: session })).status).toBe(401);
      expect((await p().api('POST', '/visitor/login', { body: { email: u.email, password: u.password }, headers: nextIp() })).status).toBe(401);
      await p().login(u.email, 'NewSecret9');
      // One use only.
      expect((await reset(u.email, code, 'Another99')).status).toBe(422);
      // The owner hears about the change, in French.
      expect((await sink.next(u.email, before + 1)).subject).toBe('Votre mot de passe a été modifié');
    });

    it('writes Italian mail by default', async () => {
      // A user without a language (the portal's languages are it, en, fr: issue 35).
      const u = await createUser(p());
      await p().db.db.updateTable('users').set({ language_id: null }).where('id', '=', u.id).execute();
      const before = sink.received.length;
      await forget(u.email);
      expect((await sink.next(u.email, before)).subject).toBe('Il tuo codice per reimpostare la password');
    });

    it('answers an unknown or deactivated email exactly as a known one, and mails nothing', async () => {
      const u = await createUser(p());
      const off = await createUser(p());
      await p().db.db.updateTable('users').set({ status_id: 0 }).where('id', '=', off.id).execute();
      const before = sink.received.length;
      const known = await forget(u.email, nextIp(), 'it');
      const unknown = await forget('nobody-here@example.test', nextIp(), 'it');
      const inactive = await forget(off.email, nextIp(), 'it');
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      expect(inactive.body).toEqual(known.body);
      await sink.next(u.email, before);
      await new Promise((r) => setTimeout(r, 300));
      expect(sink.received.slice(before).map((m) => m.to[0])).toEqual([u.email]);
      // A wrong code answers the same for a known and an unknown email too.
      const wrongKnown = await reset(u.email, '0000', 'NewSecret9', nextIp(), 'it');
      const wrongUnknown = await reset('nobody-here@example.test', '0000', 'NewSecret9', nextIp(), 'it');
      expect(wrongKnown.status).toBe(422);
      expect(wrongUnknown).toMatchObject({ status: wrongKnown.status, body: wrongKnown.body });
      expect(wrongKnown.body.errors.otp).toEqual(['Il codice non è valido o è scaduto. Richiedi un nuovo codice.']);
    });

    it('takes about as long for an unknown email as for a known one', async () => {
      // At the portal's own hashing cost, not the tests' (tests/setup/testHashing.ts): the cost is what evens the two out.
      useTestHashing(false);
      onTestFinished(() => useTestHashing(true));
      // The first hashes at 19 MiB after the tests' 1 MiB ones are slower (fresh memory for argon2 in each of libuv's
      // threads: about 90 ms against 30 ms measured here), so a few are made before anything is timed.
      await Promise.all(Array.from({ length: 8 }, (_, i) => hashPassword(`warm-up-${i}`)));
      const u = await createUser(p());
      const median = async (email: string) => {
        const times: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t = performance.now();
          await p().api('POST', '/visitor/forgetPassword', { body: { email: i ? `${i}${email}` : email }, headers: nextIp() });
          times.push(performance.now() - t);
        }
        return times.sort((a, b) => a - b)[1];
      };
      // Known emails hash their code; unknown ones hash a throw-away code: within the same order of time.
      const known = await median(u.email);
      const unknown = await median('ghost@example.test');
      expect(unknown).toBeGreaterThan(known * 0.4);
    });

    it('gives the documented messages for a missing code and a different confirmation, without counting a try', async () => {
      const u = await createUser(p());
      const code = await codeFor(u.email);
      const r = await p().api('POST', '/visitor/resetPassword', {
        body: { email: u.email, otp: '', password: 'NewSecret9', password_confirmation: 'Other1234' },
        lang: 'en',
      });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual({ otp: ['Please Enter OPT Number'], password_confirmation: ['Confirmation Password Not Same New Password'] });
      const weak = await p().api('POST', '/visitor/resetPassword', {
        body: { email: u.email, otp: code, password: 'short', password_confirmation: 'short' },
        lang: 'en',
      });
      expect(weak.body.errors).toEqual({ password: ['The password must be 8 to 128 characters long and contain both letters and numbers.'] });
      const lettersOnly = await p().api('POST', '/visitor/resetPassword', {
        body: { email: u.email, otp: code, password: 'abcdefghij', password_confirmation: 'abcdefghij' },
      });
      expect(lettersOnly.body.errors.password).toEqual(['La password deve avere da 8 a 128 caratteri e contenere sia lettere sia numeri.']);
      const row = await p().db.db.selectFrom('password_resets').select('attempts').where('user_id', '=', u.id).executeTakeFirstOrThrow();
      expect(row.attempts).toBe(0);
      expect((await reset(u.email, code)).status).toBe(200);
    });

    it('voids a code at its fifth wrong try, even for the right code afterwards', async () => {
      const u = await createUser(p());
      const code = await codeFor(u.email);
      for (let i = 1; i <= 5; i++) expect((await reset(u.email, wrongCode(code, i))).status).toBe(422);
      const late = await reset(u.email, code);
      expect(late.status).toBe(422);
      expect(late.body.errors.otp).toEqual(['The code is not valid or has expired. Please request a new code.']);
    });

    it('accepts the right code on the fifth try', async () => {
      const u = await createUser(p());
      const code = await codeFor(u.email);
      for (let i = 1; i <= 4; i++) expect((await reset(u.email, wrongCode(code, i))).status).toBe(422);
      expect((await reset(u.email, code)).status).toBe(200);
    });

    it('voids the older code when a newer one is sent', async () => {
      const u = await createUser(p());
      const first = await codeFor(u.email);
      let second = await codeFor(u.email);
      if (second === first) second = await codeFor(u.email); // 1 in 10,000: the same digits twice
      expect((await reset(u.email, first)).status).toBe(422);
      expect((await reset(u.email, second)).status).toBe(200);
    });

    it('lets a code expire after 10 minutes', async () => {
      const u = await createUser(p());
      const code = await codeFor(u.email);
      await p()
        .db.db.updateTable('password_resets')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', u.id)
        .execute();
      expect((await reset(u.email, code)).status).toBe(422);
    });

    it('sends at most 3 codes an hour per account, answering unknown emails the same, and again after the hour', async () => {
      const u = await createUser(p());
      for (let i = 0; i < 3; i++) expect((await forget(u.email)).status).toBe(200);
      const fourth = await forget(u.email);
      expect(fourth.status).toBe(429);
      expect(fourth.body.message).toMatch(/Too many attempts/);
      for (let i = 0; i < 3; i++) expect((await forget('ghost2@example.test')).status).toBe(200);
      expect(await forget('ghost2@example.test')).toMatchObject({ status: 429, body: fourth.body });
      // An hour later (the events moved back by an hour) a new code may go out.
      await p()
        .db.db.updateTable('throttle_events')
        .set({ at: Date.now() - 3_600_001 })
        .where('bucket', '=', `reset:send:${u.email}`)
        .execute();
      expect((await forget(u.email)).status).toBe(200);
    });

    it('shares the counters between server processes on the same database', async () => {
      const u = await createUser(p());
      const second = await openDb({ databaseUrl: p().config.databaseUrl, dataDir: p().config.dataDir, poolSize: 2 });
      const other = await buildApp({ config: p().config, db: second });
      try {
        const viaOther = () =>
          other.inject({
            method: 'POST',
            url: '/api/v1/visitor/forgetPassword',
            headers: { 'x-api-password': p().config.apiPassword, ...nextIp() },
            payload: { email: u.email },
          });
        expect((await forget(u.email)).status).toBe(200);
        expect((await viaOther()).statusCode).toBe(200);
        expect((await forget(u.email)).status).toBe(200);
        expect((await viaOther()).statusCode).toBe(429);
      } finally {
        await other.close();
        await second.destroy();
      }
    });

    it('stops a brute force on the code: 10 wrong tries a day per account, then 429 even for the right code', async () => {
      const u = await createUser(p());
      let code = await codeFor(u.email);
      const statuses: number[] = [];
      // An attacker walks through the codes from just after the right one: 0000…9999 would take 10,000 tries.
      for (let i = 1; i <= 40; i++) {
        if (i === 6) code = await codeFor(u.email); // the first code died at its fifth wrong try
        statuses.push((await reset(u.email, wrongCode(code, i))).status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(422));
      expect(statuses.slice(10)).toEqual(Array(30).fill(429));
      const fresh = await codeFor(u.email);
      expect((await reset(u.email, fresh)).status).toBe(429);
      expect((await p().api('POST', '/visitor/login', { body: { email: u.email, password: 'NewSecret9' }, headers: nextIp() })).status).toBe(401);
      // The day's tries are per account: another account is not affected.
      const v = await createUser(p());
      expect((await reset(v.email, await codeFor(v.email))).status).toBe(200);
    });

    it('does not let parallel guesses take more than 5 tries of one code', async () => {
      const u = await createUser(p());
      const code = await codeFor(u.email);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => reset(u.email, wrongCode(code, i + 1))));
      expect(answers.every((a) => a.status === 422 || a.status === 429)).toBe(true);
      const row = await p().db.db.selectFrom('password_resets').select(['attempts', 'consumed_at']).where('user_id', '=', u.id).executeTakeFirstOrThrow();
      expect(row.attempts).toBe(5);
      expect(row.consumed_at).not.toBeNull();
      expect((await reset(u.email, code)).status).not.toBe(200);
    });

    it('limits wrong tries per address over many accounts', async () => {
      const ip = nextIp();
      let last = 0;
      for (let i = 0; i < 31; i++) last = (await reset(`spray${i}@example.test`, '1234', 'NewSecret9', ip)).status;
      expect(last).toBe(429);
    });

    it('refuses a malformed email with a field message', async () => {
      const r = await p().api('POST', '/visitor/forgetPassword', { body: { email: 'not-an-email' }, lang: 'en' });
      expect(r.status).toBe(422);
      expect(r.body.errors.email).toEqual(['The email field must be a valid email address.']);
      expect((await p().api('POST', '/visitor/forgetPassword', { body: {} })).status).toBe(422);
    });

    it('keeps the demo accounts usable (sanity: their password did not change)', async () => {
      await p().login(DEMO.carrier);
    });
  },
  { smtpUrl: sink.url } as Partial<TestPortal['config']>,
);
