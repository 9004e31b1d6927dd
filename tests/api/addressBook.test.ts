import { expect, it } from 'vitest';
import { readCsvStrict } from '../fixtures/csv.js';
import { DEMO, describeEachDb } from './helpers.js';
import { form, xlsx } from './tariffs.helpers.js';

/**
 * The address book (issue 34, model/resources/address-book.ts): the product's `tenancy: 'company'` resource,
 * built from its declaration alone. End users and carriers each keep their own places (the demo seed gives the
 * demo end user seven and the demo carrier four, server/seed/addressBook.ts); another company's id is 404; the
 * country travels by name beside its id, in the caller's language (the countries name their rows in `it`, `en`,
 * `fr`: declaredScope.ts `languageColumns`), and an import's country cell may be any of those names; `kind`
 * and `country_id` filter the list; admins see every company's.
 */
describeEachDb('the address book', (p) => {
  let admin = '';
  let carrier = '';
  let enduser = '';
  let ids = { enduserCompany: 0, carrierCompany: 0, it: 0, fr: 0 };
  const names = (r: { body: { data: Array<{ name: string }> } }) => r.body.data.map((x) => x.name);

  it('signs in', async () => {
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
    enduser = await p().login(DEMO.enduser);
    const db = p().db.db;
    const companyOf = async (email: string) =>
      (await db.selectFrom('users').select('company_id').where('email', '=', email).executeTakeFirstOrThrow()).company_id;
    const country = async (code: string) => (await db.selectFrom('countries').select('id').where('code_alpha', '=', code).executeTakeFirstOrThrow()).id;
    ids = { enduserCompany: await companyOf(DEMO.enduser), carrierCompany: await companyOf(DEMO.carrier), it: await country('IT'), fr: await country('FR') };
  });

  it('each company reads only its own places, with the country by name', async () => {
    const mine = await p().api('GET', '/enduser/address_book?per_page=50', { token: enduser, lang: 'it' });
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBe(7);
    expect(names(mine)).toEqual([
      'Arredi Navigli S.r.l.',
      'Entrepôt Lyon Corbas',
      'Ferramenta Colosseo',
      'Magazzino Interporto Bologna',
      'Officine Lingotto',
      'Pelletteria Oltrarno',
      'Sede Rossi Logistica',
    ]);
    expect(new Set(mine.body.data.map((r: any) => r.company_id))).toEqual(new Set([ids.enduserCompany]));
    const lingotto = mine.body.data.find((r: any) => r.name === 'Officine Lingotto');
    expect(lingotto).toMatchObject({ kind: 'delivery', city: 'Torino', province: 'TO', country_id: ids.it, country_name: 'Italia' });
    expect(mine.body.data.find((r: any) => r.name === 'Entrepôt Lyon Corbas')).toMatchObject({ country_id: ids.fr, country_name: 'Francia' });

    const theirs = await p().api('GET', '/company/address_book?per_page=50', { token: carrier });
    expect(theirs.status).toBe(200);
    expect(names(theirs)).toEqual(['Deposito Piacenza Le Mose', 'Hub Milano Mecenate', 'Interporto Campano Nola', 'Transit point Verona Quadrante Europa']);
    expect(new Set(theirs.body.data.map((r: any) => r.company_id))).toEqual(new Set([ids.carrierCompany]));

    const shown = await p().api('GET', `/enduser/address_book/show/${lingotto.id}`, { token: enduser, lang: 'it' });
    expect(shown.body.data).toMatchObject({ name: 'Officine Lingotto', country_name: 'Italia', opening_hours: 'Lun–Ven 7:30–16:00' });
  });

  it('names the country in the caller’s language, in answers and exports; filters and sorts are the same', async () => {
    const seeded = await p().db.db.selectFrom('countries').select(['name', 'it', 'en', 'fr']).where('code_alpha', '=', 'IT').executeTakeFirstOrThrow();
    // What the seed holds (server/seed/reference.ts): `name` (the optionText) is the English name.
    expect(seeded).toEqual({ name: 'Italy', it: 'Italia', en: 'Italy', fr: 'Italie' });
    const lingotto = (await p().api('GET', '/enduser/address_book?q=Lingotto', { token: enduser })).body.data[0];
    const shown = async (lang: string) => (await p().api('GET', `/enduser/address_book/show/${lingotto.id}`, { token: enduser, lang })).body.data.country_name;
    expect(await shown('it')).toBe('Italia');
    expect(await shown('en')).toBe('Italy');
    expect(await shown('fr')).toBe('Italie');
    const list = async (lang: string, query = '') =>
      (await p().api('GET', `/enduser/address_book?per_page=50&sort=name${query}`, { token: enduser, lang })).body.data.map((r: any) => [
        r.name,
        r.country_name,
      ]);
    const en = await list('en', `&country_id=${ids.fr}`);
    expect(en).toEqual([['Entrepôt Lyon Corbas', 'France']]);
    expect(await list('it', `&country_id=${ids.fr}`)).toEqual([['Entrepôt Lyon Corbas', 'Francia']]);
    // The same rows in the same order whatever the language: only the names change.
    expect((await list('fr')).map((r: string[]) => r[0])).toEqual((await list('it')).map((r: string[]) => r[0]));

    // An empty name in a language falls back to the optionText (`name`).
    await p().db.db.updateTable('countries').set({ fr: '' }).where('code_alpha', '=', 'IT').execute();
    try {
      expect(await shown('fr')).toBe('Italy');
    } finally {
      await p().db.db.updateTable('countries').set({ fr: 'Italie' }).where('code_alpha', '=', 'IT').execute();
    }

    const csv = async (lang: string) => {
      const res = await p().api('GET', '/enduser/address_book/export?format=csv&q=Lingotto', { token: enduser, lang });
      expect(res.status, String(res.body)).toBe(200);
      return readCsvStrict(String(res.body), lang === 'en' ? ',' : ';');
    };
    const italian = await csv('it');
    const country = italian[0].indexOf('Paese');
    expect(country).toBeGreaterThan(0);
    expect(italian.slice(1).map((r) => [r[0], r[country]])).toEqual([['Officine Lingotto', 'Italia']]);
    const english = await csv('en');
    expect(english.slice(1).map((r) => r[english[0].indexOf('Country')])).toEqual(['Italy']);
  });

  it('filters by kind and by country, and searches', async () => {
    const delivery = await p().api('GET', '/enduser/address_book?kind=delivery&per_page=50', { token: enduser });
    expect(names(delivery)).toEqual(['Arredi Navigli S.r.l.', 'Entrepôt Lyon Corbas', 'Ferramenta Colosseo', 'Officine Lingotto', 'Pelletteria Oltrarno']);
    expect(names(await p().api('GET', '/enduser/address_book?kind=pickup', { token: enduser }))).toEqual(['Magazzino Interporto Bologna']);
    expect(names(await p().api('GET', '/enduser/address_book?kind=both', { token: enduser }))).toEqual(['Sede Rossi Logistica']);
    expect(names(await p().api('GET', `/enduser/address_book?country_id=${ids.fr}`, { token: enduser }))).toEqual(['Entrepôt Lyon Corbas']);
    expect(names(await p().api('GET', `/enduser/address_book?kind=delivery&country_id=${ids.it}&q=lingotto`, { token: enduser }))).toEqual([
      'Officine Lingotto',
    ]);
    // The carrier's filter reads its own rows only.
    expect(names(await p().api('GET', '/company/address_book?kind=delivery', { token: carrier }))).toEqual(['Interporto Campano Nola']);
    expect((await p().api('GET', '/enduser/address_book?kind=ramp', { token: enduser })).status).toBe(422);
  });

  it('stores in the caller’s own company whatever company it names; names are unique per company', async () => {
    const place = { name: 'Magazzino Nord', address: 'Via Larga 3', postal_code: '20122', city: 'Milano', province: 'mi', country_id: ids.it };
    const stored = await p().api('POST', '/enduser/address_book/store', { token: enduser, body: { ...place, company_id: ids.carrierCompany }, lang: 'it' });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      status: true,
      message: 'Luogo salvato nella rubrica',
      data: { name: 'Magazzino Nord', kind: 'both', province: 'MI', company_id: ids.enduserCompany, country_name: 'Italia' },
    });
    // Another company may have a place of the same name; the same company may not.
    expect((await p().api('POST', '/company/address_book/store', { token: carrier, body: place })).status).toBe(200);
    const twice = await p().api('POST', '/enduser/address_book/store', { token: enduser, body: { ...place, address: 'Altrove 1' }, lang: 'en' });
    expect(twice.status).toBe(422);
    expect(Object.keys(twice.body.errors)).toEqual(['name']);
    // The country must exist.
    const nowhere = await p().api('POST', '/enduser/address_book/store', {
      token: enduser,
      body: { ...place, name: 'Da nessuna parte', country_id: 999999 },
      lang: 'it',
    });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors.country_id[0]).toContain('paese');
    expect((await p().api('GET', '/enduser/address_book', { token: enduser })).body.total).toBe(8);
    expect((await p().api('GET', '/company/address_book', { token: carrier })).body.total).toBe(5);
  });

  it('another company’s place is not found, to read, change or delete', async () => {
    const hub = (await p().api('GET', '/company/address_book?q=Mecenate', { token: carrier })).body.data[0];
    const sede = (await p().api('GET', '/enduser/address_book?q=Sede', { token: enduser })).body.data[0];
    const body = { name: 'Preso', address: 'Via X 1', postal_code: '20100', city: 'Milano', country_id: ids.it };
    expect((await p().api('GET', `/enduser/address_book/show/${hub.id}`, { token: enduser })).status).toBe(404);
    expect((await p().api('POST', `/enduser/address_book/update/${hub.id}`, { token: enduser, body })).status).toBe(404);
    expect((await p().api('GET', `/enduser/address_book/destroy/${hub.id}`, { token: enduser })).status).toBe(404);
    expect((await p().api('GET', `/company/address_book/show/${sede.id}`, { token: carrier })).status).toBe(404);
    expect((await p().api('POST', `/company/address_book/update/${sede.id}`, { token: carrier, body })).status).toBe(404);
    // Nothing changed.
    expect((await p().api('GET', `/company/address_book/show/${hub.id}`, { token: carrier })).body.data.name).toBe('Hub Milano Mecenate');
    expect((await p().api('GET', `/enduser/address_book/show/${sede.id}`, { token: enduser })).body.data.name).toBe('Sede Rossi Logistica');
  });

  it('the owner changes and deletes its own place', async () => {
    const nord = (await p().api('GET', '/enduser/address_book?q=Nord', { token: enduser })).body.data[0];
    const upd = await p().api('POST', `/enduser/address_book/update/${nord.id}`, {
      token: enduser,
      body: { name: 'Magazzino Nord', kind: 'pickup', address: 'Via Larga 5', postal_code: '20122', city: 'Milano', country_id: ids.it },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({ kind: 'pickup', address: 'Via Larga 5', company_id: ids.enduserCompany });
    const gone = await p().api('GET', `/enduser/address_book/destroy/${nord.id}`, { token: enduser, lang: 'it' });
    expect(gone.body).toMatchObject({ status: true, message: 'Luogo eliminato dalla rubrica', data: { id: nord.id } });
    expect((await p().api('GET', `/enduser/address_book/show/${nord.id}`, { token: enduser })).status).toBe(404);
    // The carrier's place of the same name stays.
    expect(names(await p().api('GET', '/company/address_book?q=Nord', { token: carrier }))).toEqual(['Magazzino Nord']);
  });

  it('an admin reads every company’s places, by company, and names the company to add one', async () => {
    const all = await p().api('GET', '/admin/address_book?per_page=100', { token: admin });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(12);
    const rossi = await p().api('GET', `/admin/address_book?company_id=${ids.enduserCompany}&per_page=50`, { token: admin });
    expect(rossi.body.total).toBe(7);
    expect(new Set(rossi.body.data.map((r: any) => r.company_name))).toEqual(new Set(['Rossi Logistica S.r.l.']));
    const place = { name: 'Banchina Genova', kind: 'delivery', address: 'Ponte Libia', postal_code: '16126', city: 'Genova', country_id: ids.it };
    expect((await p().api('POST', '/admin/address_book/store', { token: admin, body: place })).status).toBe(422);
    const stored = await p().api('POST', '/admin/address_book/store', { token: admin, body: { ...place, company_id: ids.carrierCompany } });
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ company_id: ids.carrierCompany, company_name: 'Acme Trasporti S.r.l.', country_name: 'Italia' });
    const english = await p().api('POST', '/admin/address_book/store', {
      token: admin,
      body: { ...place, name: 'Molo Genova', company_id: ids.carrierCompany },
      lang: 'en',
    });
    expect(english.body.data.country_name).toBe('Italy');
    expect(names(await p().api('GET', '/company/address_book?q=Genova', { token: carrier }))).toEqual(['Banchina Genova', 'Molo Genova']);
  });

  it('imports a country cell written as the country’s name in any language, its optionText or its id', async () => {
    const headers = ['name', 'address', 'postal_code', 'city', 'country_id'];
    const row = (name: string, country: string | number) => [name, 'Via Roma 1', '10100', 'Torino', country];
    const imp = (rows: Array<Array<string | number>>, lang: string, dry = true) =>
      p().api('POST', '/enduser/address_book/import', {
        token: enduser,
        lang,
        payload: form(dry ? { dry_run: 1 } : {}, { field: 'file', name: 'rubrica.xlsx', data: xlsx([headers, ...rows]) }),
      });
    const names = [row('Import Italia', 'Italia'), row('Import ITALIE', 'ITALIE'), row('Import Italy', 'italy'), row('Import id', ids.it)];
    const italian = await imp(names, 'it');
    expect(italian.status, JSON.stringify(italian.body)).toBe(200);
    expect(italian.body.data.errors).toEqual([]);
    expect(italian.body.data.summary).toEqual({ added: 4, changed: 0, unchanged: 0 });
    const french = await imp([row('Import Italie', 'Italie'), row('Import Francia', 'Francia')], 'fr', false);
    expect(french.status, JSON.stringify(french.body)).toBe(200);
    expect(french.body.data).toEqual({ added: 2, changed: 0, unchanged: 0 });
    const stored = await p()
      .db.db.selectFrom('address_book')
      .select(['name', 'country_id'])
      .where('name', 'in', ['Import Italie', 'Import Francia'])
      .orderBy('name')
      .execute();
    expect(stored.map((r) => [r.name, r.country_id])).toEqual([
      ['Import Francia', ids.fr],
      ['Import Italie', ids.it],
    ]);
    // A name nothing bears is refused; one two countries bear (here another's optionText) is ambiguous.
    await p()
      .db.db.insertInto('countries')
      .values({ name: 'Italia', code_alpha: 'XI', active: '0', created_at: new Date().toISOString() } as any)
      .execute();
    try {
      const refused = await imp([row('Import Nowhere', 'Atlantide'), row('Import Twice', 'italia')], 'en');
      expect(refused.body.data.errors.map((e: any) => [e.row, e.message])).toEqual([
        [2, expect.stringContaining('No')],
        [3, expect.stringContaining('More than one')],
      ]);
    } finally {
      await p().db.db.deleteFrom('countries').where('code_alpha', '=', 'XI').execute();
    }
  });
});
