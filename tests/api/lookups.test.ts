import { beforeAll, expect, it } from 'vitest';
import { DEMO, describeEachDb } from './helpers.js';

describeEachDb('visitor lookups', (p) => {
  let admin: string;
  let carrier: string;
  let enduser: string;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
    enduser = await p().login(DEMO.enduser);
    const db = p().db.db;
    for (const c of await db.selectFrom('companies').select(['id', 'legal_name']).execute()) ids[c.legal_name] = c.id;
    // A second carrier with its own end-user company and tariff categories: outside the demo carrier's scope.
    const now = new Date().toISOString();
    const base = { status_id: 1, is_inbound: 1, type: 'Customer', created_at: now, updated_at: now };
    const other = await db
      .insertInto('companies')
      .values({ ...base, legal_name: 'Other Carrier', company_role_id: 2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const otherEnd = await db
      .insertInto('companies')
      .values({ ...base, legal_name: 'Other Customer', company_role_id: 3, carrier_id: other.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('companies')
      .values({ ...base, legal_name: 'Resale Srl', company_role_id: 4 })
      .execute();
    ids.other = other.id;
    ids.otherEnd = otherEnd.id;
    const demoCarrier = ids['Acme Trasporti S.r.l.'];
    await db
      .insertInto('categories')
      .values([
        { company_id: demoCarrier, code: 'AC-EXP-NAT', rate_type: 'EXP', zone: 'NAT', description: 'Express', created_at: now },
        { company_id: demoCarrier, code: 'AC-STD-INT', rate_type: 'STD', zone: 'INT', description: 'Standard', created_at: now },
        { company_id: other.id, code: 'OT-EXP-NAT', rate_type: 'EXP', zone: 'NAT', description: null, created_at: now },
      ])
      .execute();
  });

  const get = async (url: string, token?: string, lang?: string) => {
    const r = await p().api('GET', `/visitor/${url}`, { token, lang });
    expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };

  it('answers the public lists from the database', async () => {
    const countries = (await get('countries')).data;
    expect(countries.length).toBeGreaterThan(240);
    expect(countries.find((c: any) => c.iso_alpha_2 === 'FR')).toMatchObject({ en: 'France', it: 'Francia' });
    expect((await get('country_list')).data).toHaveLength(countries.length);
    expect((await get('languages_list')).data.map((l: any) => l.code)).toEqual(['it', 'en', 'fr']);
    expect((await get('company_roles_list')).data).toEqual([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'Carrier' },
      { id: 3, name: 'Enduser company' },
      { id: 4, name: 'Reseller' },
    ]);
    expect((await get('user_roles_list')).data.map((r: any) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await get('support_roles_list')).data.length).toBe(3);
    expect((await get('company_price_categories_list')).data.map((c: any) => c.name)).toEqual(['Standard', 'Silver', 'Gold', 'Platinum']);
    expect((await get('ticket_categories')).data.length).toBeGreaterThanOrEqual(5);
    const docs = (await get('document_types_list')).data.map((d: any) => d.name);
    expect(docs).toEqual(expect.arrayContaining(['CMR', 'DDT']));
    expect((await get('transport_request_status_list', undefined, 'en')).data).toEqual([
      { id: 1, code: 'OP', name: 'Open' },
      { id: 3, code: 'CF', name: 'Confirmed' },
      { id: 4, code: 'RF', name: 'Refused' },
      { id: 5, code: 'IT', name: 'In transit' },
      { id: 6, code: 'DL', name: 'Delivered' },
      { id: 7, code: 'CN', name: 'Cancelled' },
    ]);
    expect((await get('transport_request_status_list', undefined, 'it')).data[0].name).toBe('Aperta');
    const settings = (await get('settings')).data;
    expect(Object.keys(settings)).toEqual(expect.arrayContaining(['visitor_company_id', 'express_rate_sheet', 'standard_rate_sheet']));
  });

  it('document_types_list and countries answer active rows only', async () => {
    await p().api('POST', '/admin/document_types/store', { token: admin, body: { name: 'Inactive doc' } });
    expect((await get('document_types_list')).data.map((d: any) => d.name)).not.toContain('Inactive doc');
    await p().api('POST', '/admin/countries/store', { token: admin, body: { name: 'Nowhere', code_alpha: 'NW', en: 'Nowhere' } });
    expect((await get('countries')).data.map((c: any) => c.en)).not.toContain('Nowhere');
  });

  it('answers the Italian places: provinces, municipalities with postal codes, islands', async () => {
    const provinces = (await get('province_list')).data;
    expect(provinces.length).toBe(107);
    expect(provinces.find((x: any) => x.sigla === 'MI')).toMatchObject({ name: 'Milano', region: 'Lombardia', province: 'MI' });
    expect((await get('province_list?region=Sardegna')).data.map((x: any) => x.sigla).sort()).toEqual(['CA', 'NU', 'OR', 'SS', 'SU']);
    const bo = (await get('city_list?province=bo')).data;
    expect(bo.length).toBe(55);
    expect(bo.find((c: any) => c.city === 'Bologna')).toMatchObject({ province: 'BO', istat_code: '037006' });
    expect((await get('city_list?search=Forl')).data.map((c: any) => c.city)).toContain('Forlì');
    expect((await get('city_list?postal_code=98055')).data.map((c: any) => c.city)).toEqual(['Lipari']);
    const roma = (await get('postal_code_list?city=roma&province=RM')).data;
    expect(roma.length).toBeGreaterThan(50);
    expect(roma[0]).toMatchObject({ postal_code: '00118', city: 'Roma', province: 'RM' });
    expect((await get('postal_code_list?search=4013')).data.map((c: any) => c.city)).toContain('Bologna');
    expect((await get('city_list?search=agli')).data.map((c: any) => c.city)).toEqual(expect.arrayContaining(['Agliè', 'Aglientu']));
    expect((await get('city_list?search=a&limit=3')).data).toHaveLength(3);
  });

  it('lists the islands, a minor island taking precedence over its region', async () => {
    const islands = (await get('island_list')).data.map((i: any) => i.island);
    expect(islands).toEqual(
      expect.arrayContaining([
        'Sicilia',
        'Sardegna',
        'Elba',
        'Capri',
        'Ischia',
        'Eolie',
        'Egadi',
        'Pantelleria',
        'Pelagie',
        'Ustica',
        'La Maddalena',
        'San Pietro',
        "Sant'Antioco",
        'Capraia',
        'Giglio',
        'Procida',
        'Ponza',
        'Ventotene',
        'Tremiti',
      ]),
    );
    expect(islands).toHaveLength(19);
    expect((await get('island_list?city=Lipari&province=ME')).data).toEqual([{ island: 'Eolie', city: 'Lipari', province: 'ME' }]);
    expect((await get('island_list?city=Palermo')).data).toEqual([{ island: 'Sicilia', city: 'Palermo', province: 'PA' }]);
    expect((await get('island_list?city=Carloforte')).data[0].island).toBe('San Pietro');
    expect((await get('island_list?city=Milano')).data).toEqual([]);
  });

  it('carriers_list is public; resellers_list needs a sign-in and shows resellers to admins only', async () => {
    const carriers = (await get('carriers_list')).data.map((c: any) => c.legal_name);
    expect(carriers).toEqual(['Acme Trasporti S.r.l.', 'Other Carrier']);
    expect((await p().api('GET', '/visitor/resellers_list')).status).toBe(401);
    expect((await get('resellers_list', admin)).data.map((c: any) => c.legal_name)).toEqual(['Resale Srl']);
    expect((await get('resellers_list', carrier)).data).toEqual([]);
  });

  it('companies_list and enduser_list need a sign-in and answer only the caller’s scope', async () => {
    expect((await p().api('GET', '/visitor/companies_list')).status).toBe(401);
    expect((await p().api('GET', '/visitor/enduser_list')).status).toBe(401);
    const all = (await get('companies_list', admin)).data.map((c: any) => c.legal_name);
    expect(all).toEqual(expect.arrayContaining(['Acme Trasporti S.r.l.', 'Rossi Logistica S.r.l.', 'Other Carrier', 'Other Customer']));
    expect((await get('companies_list', carrier)).data.map((c: any) => c.legal_name).sort()).toEqual(['Acme Trasporti S.r.l.', 'Rossi Logistica S.r.l.']);
    expect((await get('companies_list', enduser)).data.map((c: any) => c.legal_name)).toEqual(['Rossi Logistica S.r.l.']);
    expect((await get('companies_list?company_role_id=3', admin)).data.map((c: any) => c.legal_name).sort()).toEqual([
      'Other Customer',
      'Rossi Logistica S.r.l.',
    ]);

    const acme = ids['Acme Trasporti S.r.l.'];
    expect((await get(`enduser_list?company_id=${acme}`, admin)).data).toEqual([
      { id: ids['Rossi Logistica S.r.l.'], legal_name: 'Rossi Logistica S.r.l.', carrier_name: 'Rossi Logistica S.r.l.', carrier_id: acme },
    ]);
    expect((await get(`enduser_list?company_id=${ids.other}`, admin)).data.map((c: any) => c.legal_name)).toEqual(['Other Customer']);
    expect((await get('enduser_list', carrier)).data.map((c: any) => c.legal_name)).toEqual(['Rossi Logistica S.r.l.']);
    expect((await get(`enduser_list?company_id=${acme}`, carrier)).data).toHaveLength(1);
    expect((await p().api('GET', `/visitor/enduser_list?company_id=${ids.other}`, { token: carrier })).status).toBe(404);
    expect((await get('enduser_list', enduser)).data.map((c: any) => c.legal_name)).toEqual(['Rossi Logistica S.r.l.']);
  });

  it('category_list answers a carrier only its own categories, filtered by rate type and zone', async () => {
    expect((await p().api('GET', '/visitor/category_list')).status).toBe(401);
    const mine = (await get('category_list', carrier)).category_list.map((c: any) => c.code);
    // The demo carrier also has the demo tariffs' categories (ACEXPNAT2025…); never another carrier's.
    expect(mine).toEqual(expect.arrayContaining(['AC-EXP-NAT', 'AC-STD-INT']));
    expect(mine.some((c: string) => c.startsWith('OT'))).toBe(false);
    const std = (await get('category_list?rate_type=STD', carrier)).category_list;
    expect(std.map((c: any) => c.code)).toContain('AC-STD-INT');
    expect(std.every((c: any) => c.rate_type === 'STD')).toBe(true);
    expect((await p().api('GET', `/visitor/category_list?company_id=${ids.other}`, { token: carrier })).status).toBe(404);
    expect((await get(`category_list_filter?company_id=${ids.other}&rate_type=EXP&zone=NAT`, admin)).category_list.map((c: any) => c.code)).toEqual([
      'OT-EXP-NAT',
    ]);
    expect((await get('category_list', admin)).category_list.map((c: any) => c.code)).toEqual(
      expect.arrayContaining(['AC-EXP-NAT', 'AC-STD-INT', 'OT-EXP-NAT']),
    );
    expect((await p().api('GET', '/visitor/category_list?rate_type=XXX', { token: admin })).status).toBe(422);
  });
});
