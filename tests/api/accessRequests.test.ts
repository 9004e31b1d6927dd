import { afterAll, beforeAll, expect, it } from 'vitest';
import { multipart, nextIp, png } from './accountsHelpers.js';
import { DEMO, describeEachDb, type TestPortal } from './helpers.js';
import { startSmtpSink } from './smtpSink.js';

const sink = await startSmtpSink();
afterAll(() => sink.close());

let n = 0;

describeEachDb(
  'access requests: the public form and the review (server.md §4)',
  (p) => {
    const ids: Record<string, number> = {};
    let admin = '';
    let carrier = '';
    let enduser = '';
    beforeAll(async () => {
      const db = p().db.db;
      ids.it = (await db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirstOrThrow()).id;
      for (const code of ['it', 'en', 'fr'])
        ids[code + 'Lang'] = (await db.selectFrom('languages').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
      ids.acme = (await db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow()).id;
      ids.rossi = (await db.selectFrom('companies').select('id').where('legal_name', '=', 'Rossi Logistica S.r.l.').executeTakeFirstOrThrow()).id;
      const now = new Date().toISOString();
      ids.other = (
        await db
          .insertInto('companies')
          .values({ legal_name: 'Altro Vettore S.p.A.', company_role_id: 2, status_id: 1, is_inbound: 1, type: 'Customer', created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      admin = await p().login(DEMO.admin);
      carrier = await p().login(DEMO.carrier);
      enduser = await p().login(DEMO.enduser);
    });

    const form = (over: Record<string, unknown> = {}) => {
      n += 1;
      return {
        carrier_name: `Trasporti Nuovi ${n} S.r.l.`,
        carrier_email: `info${n}@nuovi.example`,
        carrier_phone: '+39 011 555 0101',
        carrier_city: 'Torino',
        carrier_country_id: ids.it,
        carrier_language_id: ids.itLang,
        carrier_postal_code: '10121',
        carrier_province: 'TO',
        carrier_website_url: 'www.nuovi.example',
        carrier_address: 'Corso Francia 10',
        user_first_name: 'Paolo',
        user_last_name: 'Neri',
        user_email: `paolo${n}-${Date.now()}@nuovi.example`,
        user_phone: '+39 333 555 0101',
        user_password: 'Accesso123',
        user_password_confirmation: 'Accesso123',
        ...over,
      };
    };
    const store = (body: Record<string, unknown>, lang = 'en') => p().api('POST', '/visitor/request_access/store', { body, lang, headers: nextIp() });
    const list = (token: string, query = '') => p().api('GET', `/company/request_access${query}`, { token });
    const changeStatus = (token: string, id: number, status: string, lang = 'en') =>
      p().api('POST', '/company/request_access/changeStatus', { token, body: { id, status }, lang });
    const count = async (table: 'companies' | 'users') =>
      Number(
        (
          await p()
            .db.db.selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('stores a request with status OP and the password hashed at once', async () => {
      const body = form();
      const r = await store(body);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: true,
        message: 'Your access request has been sent. You will receive an email once it has been reviewed.',
        data: { status: 'OP' },
      });
      const row = await p().db.db.selectFrom('access_requests').selectAll().where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'OP', carrier_id: null, carrier_name: body.carrier_name, user_email: body.user_email });
      expect(row.user_password_hash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(row)).not.toContain('Accesso123');
    });

    it('requires every field, with messages per field, and stores nothing', async () => {
      const before = await p().db.db.selectFrom('access_requests').select('id').execute();
      const r = await store({}, 'it');
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.errors).sort()).toEqual([
        'carrier_address',
        'carrier_city',
        'carrier_country_id',
        'carrier_email',
        'carrier_language_id',
        'carrier_name',
        'carrier_phone',
        'carrier_postal_code',
        'carrier_province',
        'user_email',
        'user_first_name',
        'user_last_name',
        'user_password',
        'user_password_confirmation',
        'user_phone',
      ]);
      expect(r.body.errors.carrier_name).toEqual(['Il campo ragione sociale è obbligatorio.']);
      const blank = await store(form({ carrier_city: '   ' }));
      expect(blank.body.errors).toEqual({ carrier_city: ['The city field is required.'] });
      const bad = await store(
        form({
          carrier_email: 'nope',
          user_email: 'also-nope',
          user_password: 'short',
          user_password_confirmation: 'other',
          carrier_country_id: 999999,
          carrier_language_id: 999999,
          carrier_website_url: 'not a site',
        }),
      );
      expect(bad.status).toBe(422);
      expect(bad.body.errors.carrier_email).toEqual(['The company email field must be a valid email address.']);
      expect(bad.body.errors.user_email).toBeDefined();
      const bad2 = await store(
        form({
          user_password: 'short',
          user_password_confirmation: 'other',
          carrier_country_id: 999999,
          carrier_language_id: 999999,
          carrier_website_url: 'not a site',
        }),
      );
      expect(bad2.body.errors).toEqual({
        user_password: ['The password must be 8 to 128 characters long and contain both letters and numbers.'],
        user_password_confirmation: ['The password confirmation does not match the password.'],
        carrier_country_id: ['The selected country is invalid.'],
        carrier_language_id: ['The selected language is invalid.'],
        carrier_website_url: ['The website field must be a valid web address.'],
      });
      expect((await p().db.db.selectFrom('access_requests').select('id').execute()).length).toBe(before.length);
    });

    it('takes a request without a website (optional, issue 35), empty or left out, and confirms it into a company without one', async () => {
      for (const over of [{ carrier_website_url: '' }, { carrier_website_url: '   ' }, { carrier_website_url: undefined }]) {
        const body = form(over);
        if (over.carrier_website_url === undefined) delete (body as Record<string, unknown>).carrier_website_url;
        const r = await store(body, 'it');
        expect(r.status).toBe(200);
        expect(r.body.data.status).toBe('OP');
      }
      const body = form({ carrier_website_url: '' });
      const id = (await store(body)).body.data.id;
      const confirmed = await changeStatus(admin, id, 'CF');
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data.carrier_website_url).toBe('');
      const company = await p().db.db.selectFrom('companies').selectAll().where('id', '=', confirmed.body.data.created_company_id).executeTakeFirstOrThrow();
      expect(company.website_url).toBeNull();
      // Given, it must still read as a web address.
      const bad = await store(form({ carrier_website_url: 'non è un sito' }), 'it');
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors)).toEqual(['carrier_website_url']);
    });

    it('addresses a request to the carrier of an invitation link, and only to an active carrier', async () => {
      const ok = await store(form({ carrier_id: ids.acme }));
      expect(ok.status).toBe(200);
      expect((await p().db.db.selectFrom('access_requests').select('carrier_id').where('id', '=', ok.body.data.id).executeTakeFirstOrThrow()).carrier_id).toBe(
        ids.acme,
      );
      for (const bad of [ids.rossi, 999999]) {
        const r = await store(form({ carrier_id: bad }));
        expect(r.status).toBe(422);
        expect(r.body.errors).toEqual({ carrier_id: ['The selected carrier is invalid.'] });
      }
    });

    it('takes the form as multipart too, with a logo checked by its bytes', async () => {
      const body = form({ carrier_id: ids.acme });
      const fields = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
      const r = await p().api('POST', '/visitor/request_access/store', {
        ...(await multipart({ ...fields, carrier_logo: { filename: 'logo.png', type: 'image/png', data: png() } }, nextIp())),
      });
      expect(r.status).toBe(200);
      const rows = await list(carrier, '?per_page=100');
      const row = rows.body.data.find((x: any) => x.id === r.body.data.id);
      expect(row.carrier_logo).toMatch(/^\/media\/[a-f0-9]{32}\.png$/);
      const fake = await p().api('POST', '/visitor/request_access/store', {
        lang: 'en',
        ...(await multipart({ ...fields, carrier_logo: { filename: 'logo.png', type: 'image/png', data: Buffer.from('GIF89a not really') } }, nextIp())),
      });
      expect(fake.body.errors).toEqual({ carrier_logo: ['The image must be a PNG, JPEG or WebP picture.'] });
    });

    it('throttles the form per address: 5 an hour, then 429', async () => {
      const ip = nextIp();
      const send = () => p().api('POST', '/visitor/request_access/store', { body: form(), headers: ip, lang: 'en' });
      // Refused forms do not use up the hour.
      expect((await p().api('POST', '/visitor/request_access/store', { body: form({ user_password: 'x' }), headers: ip })).status).toBe(422);
      for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200);
      const sixth = await send();
      expect(sixth.status).toBe(429);
      expect(sixth.body.message).toMatch(/Too many attempts/);
    });

    it('lists requests as {data, meta}: admins those for new carriers, a carrier those addressed to it, nobody else', async () => {
      const forAdmin = (await store(form())).body.data.id;
      const forAcme = (await store(form({ carrier_id: ids.acme }))).body.data.id;
      const forOther = (await store(form({ carrier_id: ids.other }))).body.data.id;
      const a = await list(admin, '?per_page=100');
      expect(a.status).toBe(200);
      expect(a.body.meta).toMatchObject({ current_page: 1, per_page: 100, last_page: 1 });
      expect(a.body.meta.total).toBe(a.body.data.length);
      const adminIds = a.body.data.map((r: any) => r.id);
      expect(adminIds).toContain(forAdmin);
      expect(adminIds).not.toContain(forAcme);
      expect(a.body.data.every((r: any) => r.carrier_id === null)).toBe(true);
      const c = await list(carrier, '?per_page=100');
      const carrierIds = c.body.data.map((r: any) => r.id);
      expect(carrierIds).toContain(forAcme);
      expect(carrierIds).not.toContain(forAdmin);
      expect(carrierIds).not.toContain(forOther);
      expect(JSON.stringify(c.body)).not.toMatch(/password/);
      expect(c.body.data[0]).toMatchObject({
        carrier_country: 'Italia',
        carrier_country_en: 'Italy',
        carrier_language: 'Italiano',
        carrier_language_en: 'Italian',
      });
      expect((await list(enduser)).status).toBe(403);
      expect((await p().api('GET', '/company/request_access')).status).toBe(401);
    });

    it('filters by status and by day (Europe/Rome), newest first, and pages', async () => {
      const id = (await store(form())).body.data.id;
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
      const byDay = await list(admin, `?date=${today}&status=OP&per_page=100`);
      expect(byDay.body.data.map((r: any) => r.id)).toContain(id);
      expect(byDay.body.data.every((r: any) => r.status === 'OP')).toBe(true);
      expect((await list(admin, '?date=2001-01-01')).body).toEqual({ data: [], meta: { current_page: 1, per_page: 15, last_page: 1, total: 0 } });
      expect((await list(admin, '?status=CF&per_page=100')).body.data.every((r: any) => r.status === 'CF')).toBe(true);
      expect((await list(admin, '?status=XX')).status).toBe(422);
      expect((await list(admin, '?date=yesterday')).status).toBe(422);
      const first = await list(admin, '?per_page=2&page=1');
      const second = await list(admin, '?per_page=2&page=2');
      expect(first.body.data[0].id).toBe(Math.max(...(await list(admin, '?per_page=100')).body.data.map((r: any) => r.id)));
      expect(first.body.meta.last_page).toBe(Math.ceil(first.body.meta.total / 2));
      expect(second.body.data.map((r: any) => r.id)).not.toContain(first.body.data[0].id);
    });

    it('confirms a request for a new carrier once: a Carrier company and user that can sign in, and a mail in their language', async () => {
      const body = form({ carrier_language_id: ids.enLang });
      const id = (await store(body)).body.data.id;
      const [companies, users] = [await count('companies'), await count('users')];
      const before = sink.received.length;
      const r = await changeStatus(admin, id, 'CF');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: true, message: 'Status changed successfully', data: { id, status: 'CF' } });
      expect([await count('companies'), await count('users')]).toEqual([companies + 1, users + 1]);
      const company = await p().db.db.selectFrom('companies').selectAll().where('id', '=', r.body.data.created_company_id).executeTakeFirstOrThrow();
      expect(company).toMatchObject({
        legal_name: body.carrier_name,
        company_role_id: 2,
        carrier_id: null,
        status_id: 1,
        city: 'Torino',
        province: 'TO',
        domestic_email: body.carrier_email,
      });
      const login = await p().api('POST', '/visitor/login', { body: { email: body.user_email, password: 'Accesso123' }, headers: nextIp() });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ role: 'Carrier', user: { first_name: 'Paolo', company: { legal_name: body.carrier_name } } });
      const mail = await sink.next(body.user_email, before);
      expect(mail.subject).toBe('Your access to the freight portal is ready');
      expect(mail.text).toContain(body.user_email);

      // Twice: 409, nothing created again.
      const again = await changeStatus(admin, id, 'CF');
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('This request is already confirmed.');
      const refuse = await changeStatus(admin, id, 'RF');
      expect(refuse.status).toBe(409);
      expect(refuse.body.message).toBe('You cannot reject this request because it is already confirmed');
      expect((await changeStatus(admin, id, 'RF', 'it')).body.message).toBe('Non puoi rifiutare questa richiesta perché è già confermata');
      expect([await count('companies'), await count('users')]).toEqual([companies + 1, users + 1]);
    });

    it('confirms a request addressed to a carrier as its end-user company, by that carrier only', async () => {
      const body = form({ carrier_id: ids.acme });
      const id = (await store(body)).body.data.id;
      expect((await changeStatus(admin, id, 'CF')).status).toBe(404);
      const otherCarrierUser = await (async () => {
        const now = new Date().toISOString();
        const { hashPassword } = await import('../../server/lib/passwords.js');
        await p()
          .db.db.insertInto('users')
          .values({
            role_id: 3,
            company_id: ids.other,
            first_name: 'O',
            last_name: 'V',
            email: `other${Date.now()}@altro.example`,
            password_hash: await hashPassword('Altro1234'),
            status_id: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
        const u = await p().db.db.selectFrom('users').select('email').where('company_id', '=', ids.other).executeTakeFirstOrThrow();
        return p().login(u.email, 'Altro1234');
      })();
      expect((await changeStatus(otherCarrierUser, id, 'CF')).status).toBe(404);
      expect((await changeStatus(enduser, id, 'CF')).status).toBe(403);
      const r = await changeStatus(carrier, id, 'CF');
      expect(r.status).toBe(200);
      const company = await p().db.db.selectFrom('companies').selectAll().where('id', '=', r.body.data.created_company_id).executeTakeFirstOrThrow();
      expect(company).toMatchObject({ company_role_id: 3, carrier_id: ids.acme });
      const login = await p().api('POST', '/visitor/login', { body: { email: body.user_email, password: 'Accesso123' }, headers: nextIp() });
      expect(login.body).toMatchObject({ role: 'Enduser' });
    });

    it('creates exactly one account when two reviewers confirm at the same moment', async () => {
      const id = (await store(form())).body.data.id;
      const admin2 = await p().login(DEMO.admin);
      const [companies, users] = [await count('companies'), await count('users')];
      const answers = await Promise.all([changeStatus(admin, id, 'CF'), changeStatus(admin2, id, 'CF')]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect([await count('companies'), await count('users')]).toEqual([companies + 1, users + 1]);
    });

    it('refuses a request (RF, with a mail), after which it cannot be confirmed or refused again', async () => {
      const body = form({ carrier_language_id: ids.frLang });
      const id = (await store(body)).body.data.id;
      const before = sink.received.length;
      const r = await changeStatus(admin, id, 'RF', 'it');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ message: 'Stato modificato con successo', data: { status: 'RF', created_company_id: null } });
      const mail = await sink.next(body.user_email, before);
      expect(mail.subject).toBe('Votre demande d’accès au portail transport');
      expect(mail.text).toContain('Portale Trasporti');
      const companies = await count('companies');
      expect((await changeStatus(admin, id, 'CF')).body.message).toBe('This request has already been refused.');
      expect((await changeStatus(admin, id, 'RF')).status).toBe(409);
      expect(await count('companies')).toBe(companies);
      expect((await p().api('POST', '/visitor/login', { body: { email: body.user_email, password: 'Accesso123' }, headers: nextIp() })).status).toBe(401);
    });

    it('answers 409 and creates nothing when the user email already has an account', async () => {
      const id = (await store(form({ user_email: 'Carrier@Portal.demo' }))).body.data.id;
      const [companies, users] = [await count('companies'), await count('users')];
      const r = await changeStatus(admin, id, 'CF');
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('A user with the email carrier@portal.demo already exists, so this request cannot be confirmed.');
      expect([await count('companies'), await count('users')]).toEqual([companies, users]);
      expect((await p().db.db.selectFrom('access_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('OP');
      // It can still be refused.
      expect((await changeStatus(admin, id, 'RF')).status).toBe(200);
    });

    it('validates the status change body', async () => {
      const id = (await store(form())).body.data.id;
      expect((await changeStatus(admin, id, 'OP')).status).toBe(422);
      expect((await changeStatus(admin, 999999, 'CF')).status).toBe(404);
      expect((await p().api('POST', '/company/request_access/changeStatus', { token: admin, body: { status: 'CF' } })).status).toBe(422);
    });
  },
  { smtpUrl: sink.url } as Partial<TestPortal['config']>,
);
