import { beforeAll, expect, it } from 'vitest';
import { DEMO, describeEachDb } from './helpers.js';
import { PASSWORD, createTenants, endUserBody, multipart, png, type Tenants } from './accountsFixtures.js';

describeEachDb('companies under /admin and /company', (p) => {
  let t: Tenants;
  let admin: string;
  let carrier: string;
  beforeAll(async () => {
    t = await createTenants(p());
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
  });
  const count = async () =>
    Number(
      (
        await p()
          .db.db.selectFrom('companies')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('admin: lists every company in the {data, meta} shape with role, price category, carrier and language names', async () => {
    const r = await p().api('GET', '/admin/companies?per_page=100&sort=legal_name&order=asc', { token: admin });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'meta']);
    expect(r.body.meta).toMatchObject({ current_page: 1, per_page: 100, last_page: 1 });
    expect(r.body.meta.total).toBe(r.body.data.length);
    const names = r.body.data.map((c: any) => c.legal_name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    const bianchi = r.body.data.find((c: any) => c.id === t.bianchi);
    expect(bianchi).toMatchObject({
      role_name: 'Enduser company',
      carrier_name: 'Beta Spedizioni S.p.A.',
      price_category_name: 'Test standard',
      language_name: 'Italian',
      country_name: 'Italy',
    });
    const acme = r.body.data.find((c: any) => c.id === t.acme);
    // Money in euros, percentages as exact text.
    expect(acme).toMatchObject({ national_admin_fee: 3.5, international_admin_fee: 9, taillift_fee: 25, adr_surcharge_percent: '15', users_count: 2 });
  });

  it('admin: pages, filters by role, status, carrier and search', async () => {
    const page = await p().api('GET', '/admin/companies?per_page=2&page=2', { token: admin });
    expect(page.body.meta).toMatchObject({ current_page: 2, per_page: 2 });
    expect(page.body.meta.last_page).toBe(Math.ceil(page.body.meta.total / 2));
    const endUsers = await p().api('GET', '/admin/companies?company_role_id=3&per_page=100', { token: admin });
    expect(endUsers.body.data.every((c: any) => c.company_role_id === 3)).toBe(true);
    const ofBeta = await p().api('GET', `/admin/companies?carrier_id=${t.beta}`, { token: admin });
    expect(ofBeta.body.data.map((c: any) => c.id)).toEqual([t.bianchi]);
    const search = await p().api('GET', '/admin/companies?search=rossi', { token: admin });
    expect(search.body.data.map((c: any) => c.id)).toEqual([t.rossi]);
    const bad = await p().api('GET', '/admin/companies?sort=password', { token: admin, lang: 'en' });
    expect(bad.status).toBe(422);
  });

  it('admin: shows one company; an unknown id is 404', async () => {
    const r = await p().api('GET', `/admin/companies/show/${t.rossi}`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: t.rossi, legal_name: 'Rossi Logistica S.r.l.', carrier_name: 'Acme Trasporti S.r.l.', increase_percent: '10' });
    expect((await p().api('GET', '/admin/companies/show/999999', { token: admin })).status).toBe(404);
  });

  it('admin: creates an end-user company of a carrier, storing cents and exact percentages', async () => {
    const r = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, { status_id: 0 }), lang: 'en' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: true, message: 'Company created successfully' });
    expect(r.body.data).toMatchObject({
      legal_name: 'Verdi Alimentari S.r.l.',
      company_role_id: 3,
      carrier_id: t.acme,
      carrier_name: 'Acme Trasporti S.r.l.',
      status_id: 1,
      increase_percent: '12.5',
      national_admin_fee: 4.5,
      international_admin_fee: 12,
      type: 'Customer',
      is_inbound: 1,
      exp_category_code: 'AC-EXP-NAT',
      std_category_code: 'AC-STD-NAT',
      website_url: 'https://www.verdi.test',
      combo_cbm_ratio: 300,
    });
    const row = await p().db.db.selectFrom('companies').selectAll().where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
    expect(row.national_admin_fee).toBe(450);
    expect(row.increase_percent).toBe('12.5');
    // Carrier settings do not belong on an end-user company.
    expect(row.adr_surcharge_percent).toBeNull();
  });

  it('admin: creates a company from multipart form data with a PNG logo, served as an image', async () => {
    const { payload, headers } = multipart(
      { ...endUserBody(t, { legal_name: 'Logo S.r.l.' }) },
      { site_header_logo: { name: 'logo.png', type: 'image/png', data: png() } },
    );
    const r = await p().api('POST', '/admin/companies/store', { token: admin, payload, headers });
    expect(r.status).toBe(200);
    expect(r.body.data.site_header_logo).toMatch(/^\/media\/[a-f0-9]{32}\.png$/);
    const img = await p().app.inject({ method: 'GET', url: r.body.data.site_header_logo });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses logos that are not PNG, JPEG or WebP by their bytes, and over 5 MB on create, 1 MB on update', async () => {
    const before = await count();
    const svg = multipart(endUserBody(t, { legal_name: 'Svg S.r.l.' }), {
      site_header_logo: { name: 'x.png', type: 'image/png', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
    });
    const r1 = await p().api('POST', '/admin/companies/store', { token: admin, ...svg, lang: 'en' });
    expect(r1.status).toBe(422);
    expect(r1.body.errors.site_header_logo).toEqual(['The image must be a PNG, JPEG or WebP file.']);
    const big = multipart(endUserBody(t, { legal_name: 'Big S.r.l.' }), {
      site_header_logo: { name: 'x.png', type: 'image/png', data: png(5 * 1024 * 1024 + 10) },
    });
    const r2 = await p().api('POST', '/admin/companies/store', { token: admin, ...big, lang: 'en' });
    expect(r2.status).toBe(413);
    expect(r2.body.message).toContain('5 MB');
    expect(await count()).toBe(before);
    const twoMb = multipart({ legal_name: 'Rossi Logistica S.r.l.' }, { site_header_logo: { name: 'x.png', type: 'image/png', data: png(2 * 1024 * 1024) } });
    const r3 = await p().api('POST', `/admin/companies/update/${t.rossi}`, { token: admin, ...twoMb, lang: 'en' });
    expect(r3.status).toBe(413);
    expect(r3.body.message).toContain('1 MB');
    const sixMb = multipart({ legal_name: 'Rossi Logistica S.r.l.' }, { site_header_logo: { name: 'x.png', type: 'image/png', data: png(6 * 1024 * 1024) } });
    const r4 = await p().api('POST', `/admin/companies/update/${t.rossi}`, { token: admin, ...sixMb, lang: 'it' });
    expect(r4.status).toBe(413);
    expect(r4.body.message).toBe('Il file caricato è troppo grande (limite 1 MB).');
    const ok = multipart({ legal_name: 'Rossi Logistica S.r.l.' }, { site_header_logo: { name: 'x.png', type: 'image/png', data: png(900 * 1024) } });
    expect((await p().api('POST', `/admin/companies/update/${t.rossi}`, { token: admin, ...ok })).status).toBe(200);
  });

  it('answers 422 in Italian for each missing required field and stores nothing', async () => {
    const before = await count();
    const r = await p().api('POST', '/admin/companies/store', { token: admin, body: { company_role_id: 3, legal_name: '  ' } });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('I dati inviati non sono validi.');
    expect(r.body.errors).toMatchObject({
      legal_name: ['Il campo ragione sociale è obbligatorio.'],
      address: ['Il campo indirizzo è obbligatorio.'],
      city: ['Il campo città è obbligatorio.'],
      postal_code: ['Il campo CAP è obbligatorio.'],
      country_id: ['Il campo paese è obbligatorio.'],
      fax: ['Il campo email amministrazione è obbligatorio.'],
      price_category_id: ['Il campo categoria di prezzo è obbligatorio.'],
      language_id: ['Il campo lingua è obbligatorio.'],
      carrier_id: ['Il campo vettore è obbligatorio.'],
      combo_cbm_ratio: ['Il campo rapporto CBM è obbligatorio.'],
      combo_lm_ratio: ['Il campo rapporto LM è obbligatorio.'],
    });
    const noRole = await p().api('POST', '/admin/companies/store', { token: admin, body: { ...endUserBody(t), company_role_id: null }, lang: 'en' });
    expect(noRole.body.errors.company_role_id).toEqual(['The role field is required.']);
    expect(await count()).toBe(before);
  });

  it('applies the percentage rules with the documented messages, and the ratio options', async () => {
    for (const v of ['0', '100', '150', 0, 100]) {
      const r = await p().api('POST', '/admin/companies/store', {
        token: admin,
        body: endUserBody(t, { increase_percent: v, decrease_percent: v }),
        lang: 'en',
      });
      expect(r.status, String(v)).toBe(422);
      expect(r.body.errors.increase_percent).toEqual(['Increase percentage must be between 0 and 100']);
      expect(r.body.errors.decrease_percent).toEqual(['Decrease percentage must be between 0 and 100']);
    }
    const it = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, { increase_percent: '100' }) });
    expect(it.body.errors.increase_percent).toEqual(['La percentuale di aumento deve essere compresa tra 0 e 100']);
    const neg = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, { increase_percent: '-5' }) });
    expect(neg.status).toBe(422);
    const ok = await p().api('POST', '/admin/companies/store', {
      token: admin,
      body: endUserBody(t, { legal_name: 'Comma S.r.l.', increase_percent: '0,5', decrease_percent: 99.99 }),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ increase_percent: '0.5', decrease_percent: '99.99' });
    for (const [field, value] of [
      ['combo_cbm_ratio', 275],
      ['combo_cbm_ratio', 550],
      ['combo_lm_ratio', 1600],
    ] as const) {
      const r = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, { [field]: value }), lang: 'en' });
      expect(r.status).toBe(422);
      expect(r.body.errors[field]).toEqual([`The selected ${field === 'combo_cbm_ratio' ? 'CBM ratio' : 'LM ratio'} is invalid.`]);
    }
  });

  it('checks references: the carrier, its categories by rate type, price category, emails', async () => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ carrier_id: t.rossi }, 'carrier_id', 'The selected carrier is not a carrier or reseller company.'],
      [{ carrier_id: 999999 }, 'carrier_id', 'The selected carrier is not a carrier or reseller company.'],
      [{ exp_category_id: t.betaExp }, 'exp_category_id', 'The express category must be a EXP category of the company’s carrier.'],
      [{ exp_category_id: t.acmeStd }, 'exp_category_id', 'The express category must be a EXP category of the company’s carrier.'],
      [{ price_category_id: 999999 }, 'price_category_id', 'The selected price category is invalid.'],
      [{ fax: 'not-an-email' }, 'fax', 'The admin email field must be a valid email address.'],
      [{ website_url: 'not a url' }, 'website_url', 'The website field must be a valid web address.'],
      [{ national_admin_fee: -1 }, 'national_admin_fee', 'The national admin fee field must be at least 0.'],
    ];
    for (const [extra, field, message] of cases) {
      const r = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, extra), lang: 'en' });
      expect(r.status, field).toBe(422);
      expect(r.body.errors[field], field).toEqual([message]);
    }
    expect(await count()).toBe(before);
  });

  it('admin: creates a carrier with its carrier settings; end-user settings are not kept on it', async () => {
    const r = await p().api('POST', '/admin/companies/store', {
      token: admin,
      body: endUserBody(t, {
        legal_name: 'Gamma Trasporti',
        company_role_id: 2,
        adr_surcharge_percent: '12.5',
        taillift_fee: 30,
        visitor_price_multiplier: '1.15',
      }),
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      company_role_id: 2,
      carrier_id: null,
      exp_category_id: null,
      increase_percent: null,
      adr_surcharge_percent: '12.5',
      taillift_fee: 30,
      visitor_price_multiplier: '1.15',
    });
    const bad = await p().api('POST', '/admin/companies/store', {
      token: admin,
      body: endUserBody(t, { legal_name: 'X', company_role_id: 2, adr_surcharge_percent: '101' }),
      lang: 'en',
    });
    expect(bad.body.errors.adr_surcharge_percent).toEqual(['The ADR surcharge percentage field must be between 0 and 100.']);
  });

  it('admin: updates part of a company, keeps what is not sent, and refuses role changes that break users or customers', async () => {
    const created = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, { legal_name: 'Update Me S.r.l.' }) });
    const id = created.body.data.id;
    const r = await p().api('POST', `/admin/companies/update/${id}`, {
      token: admin,
      body: { city: 'Milano', decrease_percent: '5', status_id: 0 },
      lang: 'en',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: true, message: 'Company updated successfully' });
    expect(r.body.data).toMatchObject({ city: 'Milano', decrease_percent: '5', increase_percent: '12.5', legal_name: 'Update Me S.r.l.', status_id: 1 });
    const blank = await p().api('POST', `/admin/companies/update/${id}`, { token: admin, body: { legal_name: '' }, lang: 'en' });
    expect(blank.status).toBe(422);
    // Rossi has an Enduser user: it cannot become a carrier.
    const usersBlock = await p().api('POST', `/admin/companies/update/${t.rossi}`, { token: admin, body: { company_role_id: 2 }, lang: 'en' });
    expect(usersBlock.status).toBe(409);
    expect(usersBlock.body.message).toMatch(/users whose roles do not fit/);
    // Acme's users (Carrier, Carrier Users) do not fit a Reseller company either.
    expect((await p().api('POST', `/admin/companies/update/${t.acme}`, { token: admin, body: { company_role_id: 4 } })).status).toBe(409);
    // A carrier without users but with an end-user company cannot stop being carrier-like; Carrier → Reseller keeps them.
    const delta = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, { legal_name: 'Delta', company_role_id: 2 }) });
    await p().api('POST', '/admin/companies/store', {
      token: admin,
      body: endUserBody(t, { legal_name: 'Cliente Delta', carrier_id: delta.body.data.id, exp_category_id: null, std_category_id: null }),
    });
    const customersBlock = await p().api('POST', `/admin/companies/update/${delta.body.data.id}`, {
      token: admin,
      body: { company_role_id: 3, carrier_id: t.acme },
      lang: 'en',
    });
    expect(customersBlock.status).toBe(409);
    expect(customersBlock.body.message).toBe('The role cannot be changed: the company still has end-user companies.');
    expect(
      (await p().api('POST', `/admin/companies/update/${delta.body.data.id}`, { token: admin, body: { company_role_id: 4 } })).body.data.company_role_id,
    ).toBe(4);
    // A company without users may change role; its end-user settings go.
    const toCarrier = await p().api('POST', `/admin/companies/update/${id}`, { token: admin, body: { company_role_id: 2 } });
    expect(toCarrier.body.data).toMatchObject({ company_role_id: 2, carrier_id: null, increase_percent: null });
    expect((await p().api('POST', '/admin/companies/update/999999', { token: admin, body: { city: 'X' } })).status).toBe(404);
  });

  it('admin: delete refuses companies with users, customers or tariffs, naming them; deletes the others; never its own', async () => {
    const withUsers = await p().api('GET', `/admin/companies/destroy/${t.rossi}`, { token: admin, lang: 'en' });
    expect(withUsers.status).toBe(409);
    // The demo end user also has the demo transport requests.
    expect(withUsers.body.message).toMatch(
      /^This company cannot be deleted because it still has: users \(1\)(, transport requests \(\d+\))?\. Deactivate it instead\.$/,
    );
    const carrierBlock = await p().api('GET', `/admin/companies/destroy/${t.acme}`, { token: admin });
    expect(carrierBlock.status).toBe(409);
    expect(carrierBlock.body.message).toMatch(/utenti \(2\).*aziende clienti \(\d+\).*righe di tariffa \(\d+\)/);
    const own = await p().api('GET', `/admin/companies/destroy/${t.adminCompany}`, { token: admin, lang: 'en' });
    expect(own.status).toBe(409);
    expect(own.body.message).toBe('You cannot delete your own company.');
    const created = await p().api('POST', '/admin/companies/store', { token: admin, body: endUserBody(t, { legal_name: 'Delete Me S.r.l.' }) });
    const del = await p().api('GET', `/admin/companies/destroy/${created.body.data.id}`, { token: admin, lang: 'en' });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ status: true, message: 'Company deleted successfully', data: { id: created.body.data.id } });
    expect((await p().api('GET', `/admin/companies/show/${created.body.data.id}`, { token: admin })).status).toBe(404);
    expect((await p().api('GET', `/admin/companies/destroy/${created.body.data.id}`, { token: admin })).status).toBe(404);
  });

  it('changeStatus switches 1 ↔ 0; deactivating ends the company users’ sessions and they cannot sign in', async () => {
    const user = await p().login(t.bianchiUser.email, PASSWORD);
    const off = await p().api('GET', `/admin/companies/changeStatus/${t.bianchi}`, { token: admin, lang: 'en' });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ status: true, data: { id: t.bianchi, status_id: 0 } });
    expect(off.body.message).toMatch(/deactivated/);
    expect((await p().api('GET', '/visitor/getProfile', { token: user })).status).toBe(401);
    const login = await p().api('POST', '/visitor/login', { body: { email: t.bianchiUser.email, password: PASSWORD }, lang: 'en' });
    expect(login.status).toBe(403);
    expect(login.body.message).toMatch(/company account is deactivated/);
    const on = await p().api('GET', `/admin/companies/changeStatus/${t.bianchi}`, { token: admin });
    expect(on.body.data.status_id).toBe(1);
    expect((await p().api('POST', '/visitor/login', { body: { email: t.bianchiUser.email, password: PASSWORD } })).status).toBe(200);
    const own = await p().api('GET', `/admin/companies/changeStatus/${t.adminCompany}`, { token: admin });
    expect(own.status).toBe(409);
  });

  it('carrier: lists only its own company and its end-user companies', async () => {
    const r = await p().api('GET', '/company/companies?per_page=100', { token: carrier });
    expect(r.status).toBe(200);
    const ids = r.body.data.map((c: any) => c.id);
    expect(ids).toContain(t.acme);
    expect(ids).toContain(t.rossi);
    expect(r.body.data.every((c: any) => c.id === t.acme || c.carrier_id === t.acme)).toBe(true);
    expect(ids).not.toContain(t.beta);
    expect(ids).not.toContain(t.bianchi);
    expect(ids).not.toContain(t.adminCompany);
    expect(r.body.meta.total).toBe(ids.length);
    const filtered = await p().api('GET', `/company/companies?carrier_id=${t.beta}`, { token: carrier });
    expect(filtered.body.data).toEqual([]);
  });

  it('carrier: creates only end-user companies of its own, whatever the body says about role, carrier and status', async () => {
    const r = await p().api('POST', '/company/companies/store', {
      token: carrier,
      body: endUserBody(t, { legal_name: 'Cliente Acme S.r.l.', company_role_id: 1, carrier_id: t.beta, status_id: 0, type: 'Supplier' }),
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ company_role_id: 3, carrier_id: t.acme, status_id: 1, type: 'Supplier' });
    const other = await p().api('POST', '/company/companies/store', {
      token: carrier,
      body: endUserBody(t, { legal_name: 'X', exp_category_id: t.betaExp }),
      lang: 'en',
    });
    expect(other.status).toBe(422);
    expect(other.body.errors.exp_category_id).toBeDefined();
    const badType = await p().api('POST', '/company/companies/store', { token: carrier, body: endUserBody(t, { legal_name: 'X', type: 'Partner' }) });
    expect(badType.status).toBe(422);
  });

  it('carrier: updates its customers and its own company without changing role, carrier or status', async () => {
    const r = await p().api('POST', `/company/companies/update/${t.rossi}`, {
      token: carrier,
      body: { phone: '+39 051 000', company_role_id: 2, carrier_id: t.beta, status_id: 0 },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ phone: '+39 051 000', company_role_id: 3, carrier_id: t.acme, status_id: 1 });
    const own = await p().api('POST', `/company/companies/update/${t.acme}`, {
      token: carrier,
      body: { adr_surcharge_percent: '18', taillift_fee: 27.5, province: 'MI', company_role_id: 1 },
    });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ adr_surcharge_percent: '18', taillift_fee: 27.5, province: 'MI', company_role_id: 2, carrier_id: null });
  });

  it('carrier: deletes and switches its customers, never its own company', async () => {
    expect((await p().api('GET', `/company/companies/destroy/${t.acme}`, { token: carrier })).status).toBe(409);
    expect((await p().api('GET', `/company/companies/changeStatus/${t.acme}`, { token: carrier })).status).toBe(409);
    const created = await p().api('POST', '/company/companies/store', { token: carrier, body: endUserBody(t, { legal_name: 'Temporanea S.r.l.' }) });
    const id = created.body.data.id;
    expect((await p().api('GET', `/company/companies/show/${id}`, { token: carrier })).body.data.legal_name).toBe('Temporanea S.r.l.');
    expect((await p().api('GET', `/company/companies/changeStatus/${id}`, { token: carrier })).body.data.status_id).toBe(0);
    expect((await p().api('GET', `/company/companies/destroy/${id}`, { token: carrier })).status).toBe(200);
  });
});
