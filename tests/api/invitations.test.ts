import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO, describeEachDb, type TestPortal } from './helpers.js';
import { nextIp } from './accountsHelpers.js';
import { PASSWORD, createTenants, userBody, type Tenants } from './accountsFixtures.js';
import { startSmtpSink } from './smtpSink.js';
import { hashToken } from '../../server/lib/tokens.js';
import { moveToPortalLanguages } from '../../server/migrations/0027_invitations.js';

const sink = await startSmtpSink();
afterAll(() => sink.close());

/** The set-password link of a mail, and its token. */
const linkIn = (text: string) => {
  const m = /(https?:\/\/\S+\/#\/set-password\?token=([\w-]+)&lang=(\w+))/.exec(text);
  expect(m, text).not.toBeNull();
  return { link: m![1], token: decodeURIComponent(m![2]), lang: m![3] };
};

/** Invitations (issue 35 item 9): a user created without a password chooses one through a mailed link. */
describeEachDb(
  'invitations: creating a user without a password',
  (p) => {
    let t: Tenants;
    let admin: string;
    let carrier: string;
    let n = 0;
    beforeAll(async () => {
      t = await createTenants(p());
      admin = await p().login(DEMO.admin);
      carrier = await p().login(DEMO.carrier);
    });
    const email = () => `invited${++n}-${p().dialect}@example.test`;
    const check = (token: string, lang = 'it') => p().api('POST', '/visitor/checkInvitation', { body: { token }, lang, headers: nextIp() });
    const accept = (token: string, password = 'Scelta123', lang = 'it', confirmation = password) =>
      p().api('POST', '/visitor/acceptInvitation', { body: { token, password, password_confirmation: confirmation }, lang, headers: nextIp() });
    const login = (e: string, password: string) => p().api('POST', '/visitor/login', { body: { email: e, password }, headers: nextIp() });
    /** Creates a user without password as `token`'s caller; answers the answer and the mail it caused. */
    async function invite(path: string, token: string, extra: Record<string, unknown>) {
      const e = (extra.email as string) ?? email();
      const before = sink.received.length;
      const body = userBody(t, { email: e, ...extra });
      delete (body as Record<string, unknown>).password;
      delete (body as Record<string, unknown>).password_confirmation;
      const r = await p().api('POST', path, { token, body, lang: 'it' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const mail = await sink.next(e, before);
      return { r, mail, email: e, ...linkIn(mail.text) };
    }

    it('admin: mails a link in the user’s language; the link sets the password once, then the user signs in', async () => {
      const {
        r,
        mail,
        email: e,
        token,
        lang,
        link,
      } = await invite('/admin/users/store', admin, {
        company_id: t.rossi,
        role_id: 6,
        language_id: t.enLanguage,
        first_name: 'Sara',
      });
      expect(r.body.message).toBe(`Utente creato: abbiamo inviato a ${e} un link per scegliere la password (valido 72 ore).`);
      expect(r.body.data).toMatchObject({ email: e, first_name: 'Sara', status_id: 1 });
      expect(mail.subject).toBe('Your freight portal account: choose a password');
      expect(mail.text).toContain('valid for 72 hours');
      expect(link.startsWith(p().config.publicUrl)).toBe(true);
      expect(lang).toBe('en');
      // Only the token's hash is stored, with its own expiry: 72 hours.
      const row = await p()
        .db.db.selectFrom('password_resets as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .select(['r.code_hash', 'r.kind', 'r.created_at', 'r.expires_at', 'r.consumed_at'])
        .where('u.email', '=', e)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ kind: 'invite', code_hash: hashToken(token), consumed_at: null });
      expect(JSON.stringify(row)).not.toContain(token);
      expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(72 * 3_600_000);
      // Nobody can sign in before the link is used (no password was ever given).
      expect((await login(e, PASSWORD)).status).toBe(401);

      const shown = await check(token, 'en');
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual({ status: true, data: { email: e, first_name: 'Sara', expires_at: row.expires_at } });
      // The password rule of every other form applies, and the confirmation must match; nothing is used up.
      const weak = await accept(token, 'weak');
      expect(weak.status).toBe(422);
      expect(weak.body.errors.password).toEqual(['La password deve avere da 8 a 128 caratteri e contenere sia lettere sia numeri.']);
      const mismatch = await accept(token, 'Scelta123', 'it', 'Scelta124');
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.errors.password_confirmation).toHaveLength(1);

      const before = sink.received.length;
      const done = await accept(token);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ status: true, message: 'La password è impostata. Ora puoi accedere.' });
      expect((await login(e, 'Scelta123')).status).toBe(200);
      expect((await sink.next(e, before)).subject).toBe('Your password has been changed');

      // Used: refused with a message that says so, in the caller's language, and the password stays.
      const again = await accept(token, 'Another123');
      expect(again.status).toBe(422);
      expect(again.body.message).toBe(
        'Questo link è già stato usato per impostare la password. Accedi con quella password, oppure usa “Password dimenticata?” se non la ricordi.',
      );
      expect(again.body.errors.token).toEqual([again.body.message]);
      expect((await check(token, 'fr')).body.message).toMatch(/^Ce lien a déjà servi/);
      expect((await login(e, 'Another123')).status).toBe(401);
      expect((await login(e, 'Scelta123')).status).toBe(200);
    });

    it('refuses a link after 72 hours, and an unknown one, with a clear message', async () => {
      const { email: e, token } = await invite('/admin/users/store', admin, { company_id: t.rossi, role_id: 6 });
      // The clock moves: the stored expiry is set to just past (72 h after a creation 72 h and a second ago).
      const hash = hashToken(token);
      const created = new Date(Date.now() - 72 * 3_600_000 - 1000);
      await p()
        .db.db.updateTable('password_resets')
        .set({ created_at: created.toISOString(), expires_at: new Date(created.getTime() + 72 * 3_600_000).toISOString() })
        .where('code_hash', '=', hash)
        .execute();
      const late = await accept(token);
      expect(late.status).toBe(422);
      expect(late.body.message).toBe(
        'Questo link è scaduto (era valido 72 ore). Usa “Password dimenticata?” nella pagina di accesso con la tua email: riceverai un codice per scegliere la password.',
      );
      expect((await check(token, 'en')).body.message).toMatch(/^This link has expired/);
      expect((await login(e, 'Scelta123')).status).toBe(401);
      // Still open one minute before its end.
      await p()
        .db.db.updateTable('password_resets')
        .set({ expires_at: new Date(Date.now() + 60_000).toISOString() })
        .where('code_hash', '=', hash)
        .execute();
      expect((await check(token)).status).toBe(200);

      const forged = await accept(`${token}x`);
      expect(forged.status).toBe(422);
      expect(forged.body.message).toMatch(/^Questo link non è valido/);
      // A reset code asked for the same address leaves the invitation open; a reset with it voids it.
      const before = sink.received.length;
      await p().api('POST', '/visitor/forgetPassword', { body: { email: e }, headers: nextIp() });
      expect((await check(token)).status).toBe(200);
      // The way the refusal points to works for an invited account: the code sets the password, the link dies.
      const code = /\b(\d{4})\b/.exec((await sink.next(e, before)).text)![1];
      const reset = await p().api('POST', '/visitor/resetPassword', {
        body: { email: e, otp: code, password: 'Ripreso123', password_confirmation: 'Ripreso123' },
        headers: nextIp(),
      });
      expect(reset.status).toBe(200);
      expect((await login(e, 'Ripreso123')).status).toBe(200);
      expect((await check(token)).body.message).toMatch(/^Questo link è già stato usato/);
    });

    it('a deactivated account’s link is refused; an admin’s new password for the user voids it', async () => {
      const first = await invite('/admin/users/store', admin, { company_id: t.rossi, role_id: 6 });
      const id = first.r.body.data.id as number;
      await p().db.db.updateTable('users').set({ status_id: 0 }).where('id', '=', id).execute();
      const off = await check(first.token);
      expect(off.status).toBe(422);
      expect(off.body.message).toBe('Questo account non è attivo. Contatta chi lo ha creato.');
      expect((await accept(first.token)).status).toBe(422);
      await p().db.db.updateTable('users').set({ status_id: 1 }).where('id', '=', id).execute();
      // An admin's new password for the user voids the link too.
      const pw = await p().api('POST', `/admin/users/update/${id}`, { token: admin, body: { password: 'Admin1234', password_confirmation: 'Admin1234' } });
      expect(pw.status).toBe(200);
      expect((await check(first.token)).body.message).toMatch(/^Questo link è già stato usato/);
    });

    it('a carrier invites its own staff and its end users’ users the same way', async () => {
      const staff = await invite('/company/users/store', carrier, { role_id: 5 });
      expect(staff.mail.subject).toBe('Il tuo account sul portale trasporti: scegli la password');
      expect(staff.mail.text).toContain(staff.email);
      expect((await accept(staff.token, 'Personale9')).status).toBe(200);
      expect((await login(staff.email, 'Personale9')).status).toBe(200);
      const customer = await invite('/company/users/store', carrier, { company_id: t.rossi, role_id: 6 });
      expect((await accept(customer.token, 'Cliente99')).status).toBe(200);
      expect((await login(customer.email, 'Cliente99')).status).toBe(200);
    });

    it('with a password from its creator: no link, a welcome mail, and the user signs in with it', async () => {
      const e = email();
      const before = sink.received.length;
      const r = await p().api('POST', '/admin/users/store', { token: admin, lang: 'it', body: userBody(t, { company_id: t.rossi, role_id: 6, email: e }) });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('Utente creato con successo');
      const mail = await sink.next(e, before);
      expect(mail.subject).toBe('Il tuo account sul portale trasporti è pronto');
      expect(mail.text).not.toContain('set-password');
      expect(mail.text).not.toContain(PASSWORD);
      expect((await login(e, PASSWORD)).status).toBe(200);
      // A confirmation without a password is refused, as before.
      const half = userBody(t, { company_id: t.rossi, role_id: 6, email: email() }) as Record<string, unknown>;
      delete half.password;
      const refused = await p().api('POST', '/admin/users/store', { token: admin, lang: 'it', body: half });
      expect(refused.status).toBe(422);
      expect(Object.keys(refused.body.errors)).toEqual(['password']);
    });

    it('offers the portal’s languages only, and refuses another with a clear message', async () => {
      const langs = await p().api('GET', '/visitor/languages_list');
      expect(langs.body.data.map((l: { code: string }) => l.code)).toEqual(['it', 'en', 'fr']);
      const ids = langs.body.data.map((l: { id: number }) => l.id) as number[];
      const outside = Math.max(...ids) + 1;
      for (const [lang, text] of [
        ['it', 'Il portale parla italiano, inglese e francese: scegli una di queste lingue.'],
        ['en', 'The portal speaks Italian, English and French: choose one of these languages.'],
      ]) {
        const r = await p().api('POST', '/admin/users/store', {
          token: admin,
          lang,
          body: userBody(t, { company_id: t.rossi, role_id: 6, email: email(), language_id: outside }),
        });
        expect(r.status).toBe(422);
        expect(r.body.errors).toEqual({ language_id: [text] });
      }
      // A German row left in the table (an installation before migration 0027) is refused too.
      await p().db.db.insertInto('languages').values({ code: 'de', en: 'German', native: 'Deutsch' }).execute();
      const de = await p().db.db.selectFrom('languages').select('id').where('code', '=', 'de').executeTakeFirstOrThrow();
      const r = await p().api('POST', `/admin/users/update/${t.rossiUser.id}`, { token: admin, lang: 'it', body: { language_id: de.id } });
      expect(r.status).toBe(422);
      expect(r.body.errors.language_id).toEqual(['Il portale parla italiano, inglese e francese: scegli una di queste lingue.']);

      // Migration 0027 moves whoever spoke German to English and removes the row.
      await p().db.db.updateTable('users').set({ language_id: de.id }).where('id', '=', t.rossiUser.id).execute();
      await p().db.db.updateTable('companies').set({ language_id: de.id }).where('id', '=', t.bianchi).execute();
      await moveToPortalLanguages(p().db.db);
      const user = await p().db.db.selectFrom('users').select('language_id').where('id', '=', t.rossiUser.id).executeTakeFirstOrThrow();
      const company = await p().db.db.selectFrom('companies').select('language_id').where('id', '=', t.bianchi).executeTakeFirstOrThrow();
      expect([user.language_id, company.language_id]).toEqual([t.enLanguage, t.enLanguage]);
      expect(await p().db.db.selectFrom('languages').select('code').where('code', '=', 'de').executeTakeFirst()).toBeUndefined();
    });
  },
  { smtpUrl: sink.url } as Partial<TestPortal['config']>,
);
