import { beforeAll, expect, it } from 'vitest';
import { PROVINCE_SIGLAS } from '../../model/tariffPlaces.js';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS, type RowsSpec } from '../../model/tariffs.js';
import { romeToday } from '../../server/imports/rateSheets.js';
import { DEMO, describeEachDb } from './helpers.js';
import { listStore } from './fileHelpers.js';
import { createCarrier, download, form, readRows, xlsx } from './tariffs.helpers.js';

const sheetFields = (extra: Record<string, string | number> = {}) => ({
  zone: 'NAT',
  rate_type: 'EXP',
  area: 'Customer',
  validate_from: '2025-01-01',
  validate_to: '2030-12-31',
  is_standard: 1,
  code: 'ignored',
  description: 'Listino prova',
  ...extra,
});
const today = () => romeToday().replace(/-/g, '');

/** The example rows as the rows view answers them. */
function expectedRows(spec: RowsSpec) {
  return spec.examples.map((ex) =>
    Object.fromEntries(
      spec.columns.map((c) => {
        const v = ex[c.name];
        if (v === null || v === '') return [c.name, null];
        return [c.name, c.kind === 'money' || c.kind === 'int' ? Number(v) : String(v)];
      }),
    ),
  );
}

describeEachDb('rate sheets', (p) => {
  let admin: string;
  let carrier: string;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
  });
  const store = (token: string, ns: 'admin' | 'company', fields: Record<string, string | number>, data: Buffer, name = 'listino.xlsx', lang?: string) =>
    p().api('POST', `/${ns}/rate_sheet/store`, { token, lang, payload: form(fields, { field: 'rate_sheet', name, data }) });

  it('creates express and standard sheets from their templates: generated code, new category, rows, original file, list', async () => {
    const c = await createCarrier(p(), 'Omega Spedizioni');
    const exp = await download(p(), '/company/tariff_templates/express_rate_sheet', c.token);
    const std = await download(p(), '/company/tariff_templates/standard_rate_sheet', c.token);
    expect(readRows(exp.data)[0]).toEqual(EXPRESS_RATE_ROWS.columns.map((col) => col.name));

    const r1 = await store(c.token, 'company', sheetFields({ company_id: 1 }), exp.data, 'Listino Express 2025.xlsx');
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(r1.body.data).toMatchObject({
      company_id: c.id,
      code: `OMEXPNAT${today()}`,
      zone: 'NAT',
      rate_type: 'EXP',
      area: 'Customer',
      is_standard: 1,
      rows: 4,
    });
    expect(r1.body.message).toBe(`Listino OMEXPNAT${today()} creato: 4 righe nuove.`);
    const cat = await p().api('GET', '/visitor/category_list', { token: c.token });
    expect(cat.body.category_list).toEqual([
      expect.objectContaining({ id: r1.body.data.category_id, code: `OMEXPNAT${today()}`, rate_type: 'EXP', zone: 'NAT', company_id: c.id }),
    ]);

    const rows = await p().api('GET', `/company/rate_sheet/rows/${r1.body.data.id}?sort=id`, { token: c.token });
    expect(rows.body.sheet.code).toBe(`OMEXPNAT${today()}`);
    expect(rows.body.data.map(({ id: _i, rate_sheet_id: _r, ...r }: any) => r)).toEqual(expectedRows(EXPRESS_RATE_ROWS));

    const file = await download(p(), `/company/rate_sheet/download/${r1.body.data.id}`, c.token);
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.data, exp.data)).toBe(0);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="Listino Express 2025.xlsx"; filename*=UTF-8''Listino%20Express%202025.xlsx`);

    // A second version of the same category (same day: the code takes a suffix).
    const r2 = await store(admin, 'admin', sheetFields({ company_id: c.id, category_id: r1.body.data.category_id, validate_from: '2026-01-01' }), exp.data);
    expect(r2.body.data).toMatchObject({ code: `OMEXPNAT${today()}-2`, category_id: r1.body.data.category_id });

    const r3 = await store(admin, 'admin', sheetFields({ company_id: c.id, rate_type: 'STD', zone: 'INT', is_standard: 0 }), std.data, 'std.xlsx');
    expect(r3.status, JSON.stringify(r3.body)).toBe(200);
    const stdRows = await p().api('GET', `/admin/rate_sheet/rows/${r3.body.data.id}?company_id=${c.id}&per_page=100&sort=id`, { token: admin });
    expect(stdRows.body.data.map(({ id: _i, rate_sheet_id: _r, ...r }: any) => r)).toEqual(expectedRows(STANDARD_RATE_ROWS));

    const all = await p().api('GET', `/admin/rate_sheet?company_id=${c.id}`, { token: admin });
    expect(all.body).toMatchObject({ total: 3, current_page: 1, company_id: c.id });
    expect(all.body.data[0]).toEqual(
      expect.objectContaining({ validate_from: '2026-01-01', file_path: expect.stringMatching(/^[a-f0-9]{32}\.xlsx$/), rows: 4 }),
    );
    const byCat = await p().api('GET', `/company/rate_sheet?category_id=${r1.body.data.category_id}`, { token: c.token });
    expect(byCat.body.data.map((s: any) => s.id).sort()).toEqual([r1.body.data.id, r2.body.data.id].sort());
    const stdOnly = await p().api('GET', '/company/rate_sheet?rate_type=STD&zone=INT', { token: c.token });
    expect(stdOnly.body.data.map((s: any) => s.id)).toEqual([r3.body.data.id]);
  });

  it('validates the payload: dates, express national only, category of another kind or carrier, file problems', async () => {
    const c = await createCarrier(p(), 'Sigma Cargo');
    const exp = (await download(p(), '/company/tariff_templates/express_rate_sheet', c.token)).data;
    const dates = await store(c.token, 'company', sheetFields({ validate_to: '2025-01-01' }), exp);
    expect(dates.status).toBe(422);
    expect(dates.body.message).toBe('La data di fine validità deve essere successiva alla data di inizio validità');
    expect(dates.body.errors.validate_to).toEqual(['La data di fine validità deve essere successiva alla data di inizio validità']);
    const en = await store(c.token, 'company', sheetFields({ validate_to: '2024-12-31' }), exp, 'l.xlsx', 'en');
    expect(en.body.message).toBe('Validation To date must be after Validation From date');
    expect((await store(c.token, 'company', sheetFields({ zone: 'INT' }), exp)).body.errors.zone).toEqual([
      'I listini express sono solo nazionali (zona NAT).',
    ]);
    expect((await store(c.token, 'company', sheetFields({ rate_type: 'XXX' }), exp)).status).toBe(422);
    expect((await store(admin, 'admin', sheetFields(), exp)).body.errors.company_id).toBeDefined();

    const std = await store(
      c.token,
      'company',
      sheetFields({ rate_type: 'STD' }),
      (await download(p(), '/company/tariff_templates/standard_rate_sheet', c.token)).data,
    );
    expect(std.status).toBe(200);
    const mismatch = await store(c.token, 'company', sheetFields({ category_id: std.body.data.category_id }), exp);
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.category_id[0]).toContain('STD NAT');
    const demoCats = await p().api('GET', '/visitor/category_list', { token: carrier });
    const foreign = await store(c.token, 'company', sheetFields({ category_id: demoCats.body.category_list[0].id }), exp);
    expect(foreign.status).toBe(404);

    const missing = await p().api('POST', '/company/rate_sheet/store', { token: c.token, payload: form(sheetFields()) });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['rate_sheet']);
    const notSheet = await store(c.token, 'company', sheetFields(), Buffer.from('PK nope'), 'x.xlsx');
    expect(notSheet.status).toBe(422);

    // Every bad row at once: a duplicate province and type, overlapping brackets, a national sheet without IT rows.
    const dupes = await store(
      c.token,
      'company',
      sheetFields(),
      xlsx([
        EXPRESS_RATE_ROWS.columns.map((col) => col.name),
        ['', '', 'IT', '', '', 'MI', 10, 20, 30, 40, 50, 1, 1],
        ['', '', 'IT', '', '', 'mi', 10, 20, 30, 40, 50, 1, 1],
        ['', '', 'IT', '', '', 'MI', 10, 20, 30, 40, 50, 1, 3],
      ]),
    );
    expect(dupes.body.errors).toEqual({
      'Riga 3, province': ['Già presente alla riga 2 (province MI, type_id SILVER).'],
      'Riga 4, type_id': ['"3" non è ammesso: usa uno tra SILVER, GOLD (oppure 1, 2).'],
    });
    const header = STANDARD_RATE_ROWS.columns.map((col) => col.name);
    const overlap = await store(
      c.token,
      'company',
      sheetFields({ rate_type: 'STD' }),
      xlsx([
        header,
        ['', 'IT', 'RM', 0, 100, 30, 'S', '', 2],
        ['', 'IT', 'RM', 100, 300, 25, 'Q', 30, 2],
        ['', 'IT', 'RM', 250, 1000, 20, 'Q', 60, 3],
        ['', 'IT', 'RM', 1000, 1000, 20, 'Q', 60, 3],
        ['', 'IT', 'NA', 0, 100, 30, 'X', '', 2],
      ]),
    );
    expect(overlap.body.errors).toEqual({
      'Riga 4, weight_from': ['Lo scaglione 250–1000 di IT RM si sovrappone alla riga 3 (100–300).'],
      'Riga 5, weight_to': ['weight_to deve essere maggiore di weight_from.'],
      'Riga 6, unit': ['"X" non è ammesso: usa uno tra Q, S.'],
    });
    const wrongZone = await store(c.token, 'company', sheetFields({ rate_type: 'STD' }), xlsx([header, ['', 'FR', '75', 0, 100, 30, 'S', '', 2]]));
    expect(wrongZone.body.message).toBe('Il file non ha righe italiane (country IT): un listino nazionale ne ha bisogno. È forse un listino internazionale?');
    const sheets = await p().api('GET', '/company/rate_sheet', { token: c.token });
    expect(sheets.body.total).toBe(1);
    expect((await listStore(p().app.files)).filter((f) => f.area === 'rate-sheets').length).toBeGreaterThan(0);
  });

  it('keeps rate sheets per carrier and deletes a version with its rows and file', async () => {
    const a = await createCarrier(p(), 'Kappa Trasporti');
    const b = await createCarrier(p(), 'Lambda Trasporti');
    const exp = (await download(p(), '/company/tariff_templates/express_rate_sheet', a.token)).data;
    const s = (await store(a.token, 'company', sheetFields(), exp)).body.data;
    for (const url of [`/company/rate_sheet/download/${s.id}`, `/company/rate_sheet/rows/${s.id}`]) {
      expect((await p().api('GET', url, { token: b.token })).status).toBe(404);
    }
    expect((await p().api('GET', `/company/rate_sheet/destroy/${s.id}`, { token: b.token })).status).toBe(404);
    expect((await p().api('POST', `/admin/rate_sheet/destroy/${s.id}`, { token: admin, body: { company_id: b.id } })).status).toBe(404);
    expect((await p().api('GET', '/company/rate_sheet', { token: b.token })).body.total).toBe(0);
    expect((await p().api('GET', `/visitor/category_list?company_id=${a.id}`, { token: b.token })).status).toBe(404);
    expect((await p().api('GET', `/enduser/getMyRateSheet`, { token: b.token })).status).toBe(403);

    expect(await p().app.files.size('rate-sheets', s.file_path)).toBeGreaterThan(0);
    const del = await p().api('POST', `/admin/rate_sheet/destroy/${s.id}`, { token: admin, body: { company_id: a.id } });
    expect(del.body).toMatchObject({ status: true, message: `Listino ${s.code} eliminato.` });
    expect(await p().app.files.size('rate-sheets', s.file_path)).toBeNull();
    const left = await (p().db.db as any).selectFrom('express_rate_rows').select('id').where('rate_sheet_id', '=', s.id).execute();
    expect(left).toEqual([]);
    expect((await p().api('GET', `/company/rate_sheet/rows/${s.id}`, { token: a.token })).status).toBe(404);
  });

  it('seeds the demo carrier with complete tariffs: every province for both classes, national and international standard', async () => {
    const list = await p().api('GET', '/company/rate_sheet?per_page=100', { token: carrier });
    const byCode = Object.fromEntries(list.body.data.map((s: any) => [s.code, s]));
    expect(Object.keys(byCode).sort()).toEqual(['ACEXPNAT20250101', 'ACEXPNAT20250101-2', 'ACSTDINT20250101', 'ACSTDNAT20250101']);
    expect(byCode.ACEXPNAT20250101).toMatchObject({ area: 'Customer', is_standard: 1, validate_from: '2025-01-01', validate_to: '2030-12-31', rows: 214 });
    expect(byCode['ACEXPNAT20250101-2']).toMatchObject({ area: 'Supplier', rows: 214 });
    expect(byCode.ACSTDNAT20250101.rows).toBe(107 * 5 + 3 * 5);
    const seen = new Map<string, number[]>();
    for (let page = 1; page <= 3; page++) {
      const rows = await p().api('GET', `/company/rate_sheet/rows/${byCode.ACEXPNAT20250101.id}?per_page=100&page=${page}&sort=province`, { token: carrier });
      expect(rows.body.total).toBe(214);
      for (const r of rows.body.data) {
        seen.set(r.province, [...(seen.get(r.province) ?? []), r.type_id].sort());
        for (const band of ['p150', 'p300', 'p550', 'ps550', 'p1000']) expect(r[band]).toBeGreaterThan(0);
      }
    }
    expect([...seen.keys()].sort()).toEqual([...PROVINCE_SIGLAS].sort());
    for (const types of seen.values()) expect(types).toEqual([1, 2]);
    const intl = await p().api('GET', `/company/rate_sheet/rows/${byCode.ACSTDINT20250101.id}?per_page=100`, { token: carrier });
    expect([...new Set(intl.body.data.map((r: any) => r.country))].sort()).toEqual(['AT', 'CH', 'DE', 'ES', 'FR']);
    expect(intl.body.data.filter((r: any) => r.zone_code === '*').length).toBe(25);
    const islands = await p().api('GET', '/company/express_island_zones?per_page=100', { token: carrier });
    for (const island of ['Sicilia', 'Sardegna'])
      expect(
        islands.body.island_zones.data
          .filter((r: any) => r.island === island)
          .map((r: any) => r.type_id)
          .sort(),
      ).toEqual([1, 2]);
    for (const key of ['express_special_zones', 'standard_special_zone', 'standard_no_passage']) {
      const res = await p().api('GET', `/company/${key}`, { token: carrier });
      expect(Object.values(res.body).find((v: any) => v?.total)).toBeTruthy();
    }
  });

  it('lists and changes which categories each end user is priced with, within the carrier', async () => {
    const list = await p().api('GET', '/company/enduser_carrier_categories', { token: carrier });
    expect(list.body.data).toEqual([
      expect.objectContaining({ legal_name: 'Rossi Logistica S.r.l.', exp_category_code: 'ACEXPNAT20250101', std_category_code: 'ACSTDNAT20250101' }),
    ]);
    const rossi = list.body.data[0].id;
    const cats = (await p().api('GET', '/visitor/category_list_filter?rate_type=STD&zone=INT', { token: carrier })).body.category_list;
    expect(cats.map((c: any) => c.code)).toEqual(['ACSTDINT20250101']);
    const set = await p().api('POST', '/company/enduser_carrier_categories/store', {
      token: carrier,
      body: { enduser_id: rossi, std_category_id: cats[0].id },
    });
    expect(set.body).toMatchObject({ status: true, message: 'Categorie salvate.', data: { std_category_id: cats[0].id } });
    const wrong = await p().api('POST', '/company/enduser_carrier_categories/store', {
      token: carrier,
      body: { enduser_id: rossi, exp_category_id: cats[0].id },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.exp_category_id).toEqual(['Scegli una categoria EXP di questo vettore.']);
    const other = await createCarrier(p(), 'Mu Cargo');
    expect(
      (await p().api('POST', '/company/enduser_carrier_categories/store', { token: carrier, body: { enduser_id: other.enduserId, std_category_id: null } }))
        .status,
    ).toBe(404);
    expect(
      (await p().api('POST', '/company/enduser_carrier_categories/store', { token: other.token, body: { enduser_id: rossi, std_category_id: null } })).status,
    ).toBe(404);
    // The admin restores the national category for the demo carrier.
    const nat = (await p().api('GET', '/visitor/category_list?rate_type=STD&zone=NAT', { token: carrier })).body.category_list[0];
    const back = await p().api('POST', '/admin/enduser_carrier_categories/store', {
      token: admin,
      body: { company_id: list.body.company_id, enduser_id: rossi, std_category_id: nat.id },
    });
    expect(back.body.data.std_category_id).toBe(nat.id);
  });

  it('shows the end user its applicable sheets with its own prices, paged, and downloads them', async () => {
    const enduser = await p().login(DEMO.enduser);
    const mine = await p().api('GET', '/enduser/getMyRateSheet?per_page=5', { token: enduser });
    expect(mine.status).toBe(200);
    const { standard_rate_sheet: std, express_rate_sheet: exp } = mine.body;
    expect(std.sheet.code).toBe('ACSTDNAT20250101');
    expect(exp.sheet.code).toBe('ACEXPNAT20250101');
    expect(exp).toMatchObject({ current_page: 1, per_page: 5, total: 214 });
    // Rossi Logistica pays its carrier's list +10 %: each price is shown with it applied.
    const list = await p().api('GET', `/company/rate_sheet/rows/${exp.sheet.id}?per_page=5`, { token: carrier });
    exp.data.forEach((row: any, i: number) => {
      for (const band of ['p150', 'p300', 'p550', 'ps550', 'p1000']) expect(row[band]).toBe(Math.round(list.body.data[i][band] * 110) / 100);
    });
    const intl = await p().api('GET', '/enduser/getMyRateSheet?zone=INT', { token: enduser });
    expect(intl.body.standard_rate_sheet.sheet.code).toBe('ACSTDINT20250101');

    const file = await download(p(), '/enduser/getMyRateSheet/download?rate_type=EXP', enduser);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toContain('ACEXPNAT20250101.xlsx');
    const rows = readRows(file.data);
    expect(rows[0]).toEqual(EXPRESS_RATE_ROWS.columns.map((c) => c.name));
    expect(rows.length).toBe(215);
    expect(rows[1][6]).toBe(exp.data[0].p150);
    expect((await p().api('GET', '/enduser/getMyRateSheet', { token: carrier })).status).toBe(403);
  });
});
