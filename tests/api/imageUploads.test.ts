import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { createTenants, endUserBody, multipart, type Tenants } from './accountsFixtures.js';
import { createUser, multipart as formData, nextIp } from './accountsHelpers.js';
import { DEMO, describeEachDb } from './helpers.js';
import { filesState } from './fileHelpers.js';
import { jpegOf, pngOf, REAL, vp8x, vp8l, webpOf } from '../fixtures/images.js';

/**
 * Logos and profile pictures are checked by the pixel size their header declares, before anything decodes
 * them (issue 31, server/lib/imageHeader.ts): a small PNG declaring 50 000 × 50 000 pixels is refused
 * on every upload route, in the caller's language, and nothing is stored; a stored one is not served.
 */
describeEachDb('image uploads: the declared pixel size', (p) => {
  let t: Tenants;
  let admin: string;
  const bomb = pngOf(50_000, 50_000);
  /** What the portal's file store holds (a folder, the database or a bucket, per the test's database). */
  const mediaFiles = () => filesState(p());
  const companies = async () =>
    Number(
      (
        await p()
          .db.db.selectFrom('companies')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTenants(p());
    admin = await p().login(DEMO.admin);
  });

  it('the crafted file is small: the size is only declared', () => {
    expect(bomb.length).toBeLessThan(2048);
  });

  it('refuses a 50 000 × 50 000 PNG as a new company’s logo (422 on the field, in it/en/fr) and stores nothing', async () => {
    const before = [await companies(), await mediaFiles()];
    const expected = {
      en: 'The image is 50000 × 50000 pixels: at most 8192 pixels per side and 25 megapixels in all are accepted.',
      it: 'L’immagine è di 50000 × 50000 pixel: sono accettati al massimo 8192 pixel per lato e 25 megapixel in tutto.',
      fr: 'L’image fait 50000 × 50000 pixels : au plus 8192 pixels par côté et 25 mégapixels en tout sont acceptés.',
    };
    for (const [lang, message] of Object.entries(expected)) {
      const form = multipart(endUserBody(t, { legal_name: `Bomba ${lang} S.r.l.` }), { site_header_logo: { name: 'logo.png', type: 'image/png', data: bomb } });
      const r = await p().api('POST', '/admin/companies/store', { token: admin, lang, ...form });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual({ site_header_logo: [message] });
    }
    expect([await companies(), await mediaFiles()]).toEqual(before);
  });

  it('refuses it as a changed logo, by an admin and by a carrier, and keeps the old one', async () => {
    const carrier = await p().login(t.acmeOwner.email);
    const logoBefore = (await p().db.db.selectFrom('companies').select('site_header_logo').where('id', '=', t.acme).executeTakeFirstOrThrow()).site_header_logo;
    const files = await mediaFiles();
    for (const [token, url] of [
      [admin, `/admin/companies/update/${t.acme}`],
      [carrier, `/company/companies/update/${t.acme}`],
    ]) {
      const form = multipart(
        { legal_name: 'Acme Trasporti S.r.l.' },
        { site_header_logo: { name: 'logo.webp', type: 'image/webp', data: webpOf(vp8x(50_000, 50_000), vp8l(16, 16)) } },
      );
      const r = await p().api('POST', url, { token, lang: 'en', ...form });
      expect(r.status).toBe(422);
      expect(r.body.errors.site_header_logo[0]).toMatch(/^The image is 50000 × 50000 pixels: at most 8192 pixels per side/);
    }
    expect((await p().db.db.selectFrom('companies').select('site_header_logo').where('id', '=', t.acme).executeTakeFirstOrThrow()).site_header_logo).toBe(
      logoBefore,
    );
    expect(await mediaFiles()).toEqual(files);
  });

  it('refuses a damaged header (cut, or lying about itself) with its own message', async () => {
    const cut = REAL.jpeg.subarray(0, 40);
    const lying = pngOf(10, 10, { tamper: (ihdr) => ihdr.writeUInt32BE(50_000, 0) });
    for (const [data, type] of [
      [cut, 'image/jpeg'],
      [lying, 'image/png'],
    ] as const) {
      const form = multipart(endUserBody(t, { legal_name: 'Rotta S.r.l.' }), { site_header_logo: { name: 'x', type, data } });
      const r = await p().api('POST', '/admin/companies/store', { token: admin, lang: 'it', ...form });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual({
        site_header_logo: ['Il file dell’immagine è danneggiato o incompleto: non se ne possono leggere le dimensioni in pixel.'],
      });
    }
  });

  it('takes real pictures within the limits (PNG, JPEG, WebP)', async () => {
    for (const [data, ext] of [
      [pngOf(4032, 3024), 'png'],
      [REAL.jpeg, 'jpg'],
      [REAL.animatedWebp, 'webp'],
    ] as const) {
      const form = multipart(endUserBody(t, { legal_name: `Buona ${ext} S.r.l.` }), { site_header_logo: { name: `x.${ext}`, type: 'image/*', data } });
      const r = await p().api('POST', '/admin/companies/store', { token: admin, ...form });
      expect(r.status).toBe(200);
      expect(r.body.data.site_header_logo).toMatch(new RegExp(`^/media/[a-f0-9]{32}\\.${ext}$`));
      expect((await p().app.inject({ method: 'GET', url: r.body.data.site_header_logo })).statusCode).toBe(200);
    }
  });

  it('refuses it as a profile picture (422 on image) and changes nothing of the profile', async () => {
    const u = await createUser(p());
    const token = await p().login(u.email, u.password);
    const files = await mediaFiles();
    for (const data of [bomb, jpegOf(60_000, 100)]) {
      const r = await p().api('POST', '/visitor/updateProfile', {
        token,
        lang: 'fr',
        ...(await formData({ first_name: 'Autre', last_name: 'Nom', image: { filename: 'moi.png', type: 'image/png', data } })),
      });
      expect(r.status).toBe(422);
      expect(r.body.errors.image[0]).toMatch(/^L’image fait \d+ × \d+ pixels : au plus 8192 pixels par côté et 25 mégapixels en tout sont acceptés\.$/);
    }
    const row = await p().db.db.selectFrom('users').select(['first_name', 'last_name', 'image']).where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ first_name: 'Giulia', last_name: 'Bianchi', image: null });
    expect(await mediaFiles()).toEqual(files);
  });

  it('refuses it as the logo of a public access request, which is not stored', async () => {
    const db = p().db.db;
    const requests = async () =>
      Number(
        (
          await db
            .selectFrom('access_requests')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = [await requests(), await mediaFiles()];
    const r = await p().api('POST', '/visitor/request_access/store', {
      lang: 'en',
      ...(await formData(
        {
          carrier_name: 'Bomba Trasporti S.r.l.',
          carrier_email: 'info@bomba.example',
          carrier_phone: '+39 011 555 0101',
          carrier_city: 'Torino',
          carrier_country_id: t.itCountry,
          carrier_language_id: t.itLanguage,
          carrier_postal_code: '10121',
          carrier_province: 'TO',
          carrier_website_url: 'www.bomba.example',
          carrier_address: 'Corso Francia 10',
          user_first_name: 'Paolo',
          user_last_name: 'Neri',
          user_email: 'paolo@bomba.example',
          user_phone: '+39 333 555 0101',
          user_password: 'Accesso123',
          user_password_confirmation: 'Accesso123',
          carrier_logo: { filename: 'logo.png', type: 'image/png', data: bomb },
        },
        nextIp(),
      )),
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ carrier_logo: ['The image is 50000 × 50000 pixels: at most 8192 pixels per side and 25 megapixels in all are accepted.'] });
    expect([await requests(), await mediaFiles()]).toEqual(before);
  });

  it('does not serve a stored file over the limits (one stored before the check existed): 404', async () => {
    const name = `${crypto.randomBytes(16).toString('hex')}.png`;
    await p().app.files.put('media', name, bomb);
    await p().db.db.updateTable('companies').set({ site_header_logo: name }).where('id', '=', t.rossi).execute();
    const shown = await p().api('GET', `/admin/companies/show/${t.rossi}`, { token: admin });
    expect(shown.body.data.site_header_logo).toBe(`/media/${name}`);
    for (let i = 0; i < 2; i++) expect((await p().app.inject({ method: 'GET', url: `/media/${name}` })).statusCode).toBe(404); // the verdict kept
    const good = `${crypto.randomBytes(16).toString('hex')}.webp`;
    await p().app.files.put('media', good, REAL.webp);
    const served = await p().app.inject({ method: 'GET', url: `/media/${good}` });
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/webp']);
    expect(served.rawPayload.equals(REAL.webp)).toBe(true);
  });
});
