import { beforeAll, expect, it } from 'vitest';
import { createTenants, endUserBody, multipart, type Tenants } from './accountsFixtures.js';
import { createUser } from './accountsHelpers.js';
import { DEMO, describeEachDb } from './helpers.js';
import { handShipment, shipmentLists } from './requestsFixtures.js';

/**
 * Zero-width and text-direction characters can disguise a name in lists, exports and PDFs (issue 31,
 * server/lib/invisibleText.ts): every body's text refuses them in one place (plugins/inputGuards.ts), each
 * field with its own 422 message, and nothing is stored; passwords are left alone; the chat strips them.
 */
const RLO = '\u202E';
const ranges = 'U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+061C, U+FEFF';

describeEachDb('invisible and text-direction characters in what is stored', (p) => {
  let t: Tenants;
  let admin: string;
  const count = async (table: 'companies' | 'transport_requests' | 'currencies') =>
    Number(
      (
        await p()
          .db.db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTenants(p());
    admin = await p().login(DEMO.admin);
  });

  it('refuses a company name with U+202E (JSON and multipart), in it/en/fr, and stores nothing', async () => {
    const before = await count('companies');
    const messages = {
      it: `Il campo ragione sociale contiene caratteri invisibili o di direzione del testo (${ranges}), che possono camuffare ciò che si vede: rimuovili.`,
      en: `The legal name field holds invisible or text-direction characters (${ranges}), which can disguise what is shown: remove them.`,
      fr: `Le champ raison sociale contient des caractères invisibles ou de direction du texte (${ranges}), qui peuvent déguiser ce qui s’affiche : supprimez-les.`,
    };
    for (const [lang, message] of Object.entries(messages)) {
      const r = await p().api('POST', '/admin/companies/store', { token: admin, lang, body: endUserBody(t, { legal_name: `Acme${RLO}fdp.exe S.r.l.` }) });
      expect([r.status, r.body.errors]).toEqual([422, { legal_name: [message] }]);
    }
    const form = multipart(endUserBody(t, { legal_name: `Acme${RLO}fdp.exe S.r.l.` }));
    const r = await p().api('POST', '/admin/companies/store', { token: admin, lang: 'en', ...form });
    expect([r.status, Object.keys(r.body.errors)]).toEqual([422, ['legal_name']]);
    expect(await count('companies')).toBe(before);
    expect(await p().db.db.selectFrom('companies').select('id').where('legal_name', 'like', `%${RLO}%`).execute()).toEqual([]);
  });

  it('names every field holding one (zero-width, marks, isolates), and leaves a renamed company as it was', async () => {
    const r = await p().api('POST', `/admin/companies/update/${t.rossi}`, {
      token: admin,
      lang: 'en',
      body: { legal_name: 'Rossi\u200BLogistica', address: 'Via \u2066Roma\u2069 1', city: 'Tor\u200Fino' },
    });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors).sort()).toEqual(['address', 'city', 'legal_name']);
    const row = await p().db.db.selectFrom('companies').select(['legal_name', 'address', 'city']).where('id', '=', t.rossi).executeTakeFirstOrThrow();
    expect(row.legal_name).toBe('Rossi Logistica S.r.l.');
    expect(JSON.stringify(row)).not.toMatch(/[\u200B-\u200F\u2066-\u2069]/);
  });

  it('refuses them in a user’s names, a request’s references and notes, and a declared resource’s text', async () => {
    const u = await createUser(p());
    const token = await p().login(u.email, u.password);
    const profile = await p().api('POST', '/visitor/updateProfile', { token, lang: 'en', body: { first_name: `Giulia${RLO}`, last_name: 'Bianchi\uFEFF' } });
    expect([profile.status, Object.keys(profile.body.errors).sort()]).toEqual([422, ['first_name', 'last_name']]);
    expect((await p().db.db.selectFrom('users').select('first_name').where('id', '=', u.id).executeTakeFirstOrThrow()).first_name).toBe('Giulia');

    const enduser = await p().login(DEMO.enduser);
    const requests = await count('transport_requests');
    const booking = await p().api('POST', '/enduser/transport_requests/newRequest', {
      token: enduser,
      lang: 'en',
      body: { ...shipmentLists([handShipment(0, { shipperref: `RIF${RLO}1` }), handShipment(1)]), notes: 'Consegna\u2067 urgente' },
    });
    expect(booking.status).toBe(422);
    expect(Object.keys(booking.body.errors).sort()).toEqual(['notes', 'shipperref.0']);
    expect(await count('transport_requests')).toBe(requests);

    const currencies = await count('currencies');
    const currency = await p().api('POST', '/admin/currencies/store', { token: admin, lang: 'en', body: { name: 'Euro\u202D', code_alpha: 'EUX' } });
    expect([currency.status, Object.keys(currency.body.errors)]).toEqual([422, ['name']]);
    expect(await count('currencies')).toBe(currencies);
  });

  it('keeps an emoji’s joiner (one emoji, nothing hidden), and any password as it is', async () => {
    const enduser = await p().login(DEMO.enduser);
    const booking = await p().api('POST', '/enduser/transport_requests/newRequest', {
      token: enduser,
      body: { ...shipmentLists([handShipment(0)]), notes: 'Famiglia 👨\u200D👩\u200D👧 ❤️\u200D🔥' },
    });
    expect(booking.status).toBe(200);
    // a password is compared, never shown: whatever it holds, it signs in
    const u = await createUser(p(), { password: `Pass\u200Dword${RLO}1` });
    expect(await p().login(u.email, `Pass\u200Dword${RLO}1`)).toBeTruthy();
  });

  it('strips them from chat subjects and messages (pasted text), an emoji’s joiner kept', async () => {
    const enduser = await p().login(DEMO.enduser);
    const category = (await p().api('GET', '/visitor/ticket_categories')).body.data[0].id;
    const r = await p().api('POST', '/enduser/chats/newTicket', {
      token: enduser,
      body: { ticket_category_id: category, subject: `Fattura${RLO}fdp.exe`, message: 'Ciao\u200B, ecco 👩\u200D💻\u2066!' },
    });
    expect(r.status).toBe(200);
    const ticket = await p().db.db.selectFrom('tickets').select('subject').where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
    expect(ticket.subject).toBe('Fatturafdp.exe');
    const messages = await p().db.db.selectFrom('chat_messages').select('body').where('chat_id', '=', r.body.data.id).execute();
    expect(messages.map((m) => m.body)).toEqual(['Ciao, ecco 👩\u200D💻!']);
  });
});
