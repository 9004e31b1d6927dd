import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createUser, multipart, nextIp, png } from './accountsHelpers.js';
import { describeEachDb, type TestPortal } from './helpers.js';
import { REAL } from '../fixtures/images.js';
import { filesState } from './fileHelpers.js';
import { startSmtpSink } from './smtpSink.js';

const sink = await startSmtpSink();
afterAll(() => sink.close());

describeEachDb(
  'account settings: password change, profile, email (accounts document §2, server.md §3, §8)',
  (p) => {
    const change = (token: string, body: Record<string, string>, lang = 'en') => p().api('POST', '/visitor/changePassword', { token, body, lang });

    it('needs a sign-in for every settings call', async () => {
      for (const url of ['/visitor/changePassword', '/visitor/updateProfile', '/visitor/changeEmail']) {
        expect((await p().api('POST', url, { body: {} })).status).toBe(401);
      }
    });

    it('gives the documented messages and changes nothing on bad input', async () => {
      const u = await createUser(p());
      const token = await p().login(u.email, u.password);
      const missing = await change(token, { oldPassword: '', password: 'NewSecret9', password_confirmation: 'Different9' });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual({
        oldPassword: ['old password is required'],
        password_confirmation: ['confirmation password must be like new password'],
      });
      const weak = await change(token, { oldPassword: u.password, password: '12345678', password_confirmation: '12345678' }, 'it');
      expect(weak.body.errors).toEqual({ password: ['La password deve avere da 8 a 128 caratteri e contenere sia lettere sia numeri.'] });
      const long = 'a1'.repeat(65);
      expect((await change(token, { oldPassword: u.password, password: long, password_confirmation: long })).status).toBe(422);
      const wrongOld = await change(token, { oldPassword: 'NotMine123', password: 'NewSecret9', password_confirmation: 'NewSecret9' });
      expect(wrongOld.status).toBe(422);
      expect(wrongOld.body.errors).toEqual({ oldPassword: ['The old password is not correct.'] });
      await p().login(u.email, u.password);
    });

    it('changes the password, keeps this session, ends the others, and tells the owner by mail', async () => {
      const u = await createUser(p(), { lang: 'en', first_name: 'Tom' });
      const mine = await p().login(u.email, u.password);
      const other = await p().login(u.email, u.password);
      const before = sink.received.length;
      const r = await change(mine, { oldPassword: u.password, password: 'Changed123', password_confirmation: 'Changed123' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: true, message: 'Password changed successfully' });
      expect((await p().api('GET', '/visitor/getProfile', { token: mine })).status).toBe(200);
      expect((await p().api('GET', '/visitor/getProfile', { token: other })).status).toBe(401);
      expect((await p().api('POST', '/visitor/login', { body: { email: u.email, password: u.password }, headers: nextIp() })).status).toBe(401);
      await p().login(u.email, 'Changed123');
      const mail = await sink.next(u.email, before);
      expect(mail.subject).toBe('Your password has been changed');
      expect(mail.text).toContain('Hello Tom');
    });

    it('throttles guesses of the old password: 5 wrong, then 429 even for the right one', async () => {
      const u = await createUser(p());
      const token = await p().login(u.email, u.password);
      for (let i = 0; i < 5; i++)
        expect((await change(token, { oldPassword: `Guess${i}abc`, password: 'NewSecret9', password_confirmation: 'NewSecret9' })).status).toBe(422);
      expect((await change(token, { oldPassword: u.password, password: 'NewSecret9', password_confirmation: 'NewSecret9' })).status).toBe(429);
    });

    it('updates names, country and city from JSON, ignoring fields it does not own', async () => {
      const u = await createUser(p());
      const token = await p().login(u.email, u.password);
      const fr = await p().db.db.selectFrom('countries').select('id').where('code_alpha', '=', 'FR').executeTakeFirstOrThrow();
      const r = await p().api('POST', '/visitor/updateProfile', {
        token,
        lang: 'en',
        body: { first_name: '  Marta ', last_name: 'Verdi', country_id: fr.id, city: 'Lyon', role_id: 1, email: 'evil@example.test', company_id: 1 },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: true,
        message: 'Profile Updated Successfully',
        data: { first_name: 'Marta', last_name: 'Verdi', country_id: fr.id, city: 'Lyon', email: u.email, role_id: 6 },
      });
      const me = await p().api('GET', '/visitor/getProfile', { token });
      expect(me.body.user).toMatchObject({ first_name: 'Marta', last_name: 'Verdi', city: 'Lyon', role: 'Enduser' });
    });

    it('refuses empty names and an unknown country, changing nothing', async () => {
      const u = await createUser(p());
      const token = await p().login(u.email, u.password);
      const r = await p().api('POST', '/visitor/updateProfile', { token, lang: 'it', body: { first_name: '  ', last_name: 'Verdi', country_id: 999999 } });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual({ first_name: ['Il campo nome è obbligatorio.'], country_id: ['Il valore selezionato per paese non è valido.'] });
      const missing = await p().api('POST', '/visitor/updateProfile', { token, lang: 'en', body: { first_name: 'A' } });
      expect(missing.body.errors.last_name).toEqual(['The last name field is required.']);
      const row = await p().db.db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ first_name: 'Giulia', last_name: 'Bianchi' });
    });

    it('takes a profile picture by multipart, serves it at /media with nosniff, and replaces the old file', async () => {
      const u = await createUser(p());
      const token = await p().login(u.email, u.password);
      const form = await multipart({ first_name: 'Lia', last_name: 'Neri', city: 'Torino', image: { filename: 'me.png', type: 'image/png', data: png() } });
      const r = await p().api('POST', '/visitor/updateProfile', { token, ...form });
      expect(r.status).toBe(200);
      const url: string = r.body.data.image;
      expect(url).toMatch(/^\/media\/[a-f0-9]{32}\.png$/);
      const served = await p().app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.equals(png())).toBe(true);

      const jpeg = REAL.jpeg;
      const again = await p().api('POST', '/visitor/updateProfile', {
        token,
        ...(await multipart({ first_name: 'Lia', last_name: 'Neri', image: { filename: 'x.jpg', type: 'image/jpeg', data: jpeg } })),
      });
      expect(again.body.data.image).toMatch(/\.jpg$/);
      expect(await p().app.files.size('media', path.basename(url))).toBeNull();
      expect((await p().app.inject({ method: 'GET', url })).statusCode).toBe(404);
      // City untouched when not sent.
      expect(again.body.data.city).toBe('Torino');
    });

    it('refuses a picture over 1 MB (413 with the limit) and anything that is not PNG, JPEG or WebP by its bytes', async () => {
      const u = await createUser(p());
      const token = await p().login(u.email, u.password);
      const files = () => filesState(p());
      const count = await files();
      const big = await p().api('POST', '/visitor/updateProfile', {
        token,
        lang: 'en',
        ...(await multipart({ first_name: 'X', last_name: 'Y', image: { filename: 'big.png', type: 'image/png', data: png(1024 * 1024 + 1) } })),
      });
      expect(big.status).toBe(413);
      expect(big.body.message).toBe('The upload is too large (limit 1 MB).');
      const huge = await p().api('POST', '/visitor/updateProfile', {
        token,
        lang: 'en',
        ...(await multipart({ first_name: 'X', last_name: 'Y', image: { filename: 'huge.png', type: 'image/png', data: png(6 * 1024 * 1024) } })),
      });
      expect(huge.status).toBe(413);
      expect(huge.body.message).toBe('The upload is too large (limit 1 MB).');
      const svg = await p().api('POST', '/visitor/updateProfile', {
        token,
        lang: 'en',
        ...(await multipart({
          first_name: 'X',
          last_name: 'Y',
          image: { filename: 'evil.png', type: 'image/png', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') },
        })),
      });
      expect(svg.status).toBe(422);
      expect(svg.body.errors.image).toEqual(['The image must be a PNG, JPEG or WebP picture.']);
      expect(await files()).toEqual(count);
      const row = await p().db.db.selectFrom('users').select(['first_name', 'image']).where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ first_name: 'Giulia', image: null });
      // Exactly 1 MB is allowed.
      const edge = await p().api('POST', '/visitor/updateProfile', {
        token,
        ...(await multipart({ first_name: 'X', last_name: 'Y', image: { filename: 'ok.png', type: 'image/png', data: png(1024 * 1024) } })),
      });
      expect(edge.status).toBe(200);
    });

    it('keeps the email read-only: changeEmail explains and changes nothing', async () => {
      const u = await createUser(p());
      const token = await p().login(u.email, u.password);
      const r = await p().api('POST', '/visitor/changeEmail', { token, lang: 'en', body: { email: 'new@example.test' } });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Your email address is your sign-in name and cannot be changed here. Please ask your administrator to change it.');
      expect((await p().api('GET', '/visitor/getProfile', { token })).body.user.email).toBe(u.email);
    });

    it('has the lookups the account screens pick from, public', async () => {
      const countries = await p().api('GET', '/visitor/country_list', { lang: 'it' });
      expect(countries.status).toBe(200);
      expect(countries.body.data.find((c: any) => c.iso_alpha_2 === 'IT')).toMatchObject({ id: expect.any(Number), en: 'Italy', it: 'Italia', fr: 'Italie' });
      const langs = await p().api('GET', '/visitor/languages_list');
      expect(langs.body.data.map((l: any) => l.code)).toEqual(expect.arrayContaining(['it', 'en', 'fr']));
      const carriers = await p().api('GET', '/visitor/carriers_list');
      expect(carriers.body.data).toContainEqual({ id: expect.any(Number), legal_name: 'Acme Trasporti S.r.l.' });
    });
  },
  { smtpUrl: sink.url } as Partial<TestPortal['config']>,
);
