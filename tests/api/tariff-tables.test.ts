import zlib from 'node:zlib';
import { beforeAll, expect, it } from 'vitest';
import { TARIFF_TABLES, tariffTable, type ColumnSpec, type Example } from '../../model/tariffs.js';
import { DEMO, describeEachDb } from './helpers.js';
import { TABLE_NAMES } from '../../model/resources/tariffs.js';
import { slug } from '../../server/lib/downloadNames.js';
import { createCarrier, download, form, readRows, xls, xlsx, zipOf } from './tariffs.helpers.js';
import { lie, xlsxOf } from '../fixtures/hostileSheets.js';

/** What an example cell becomes once imported and listed. */
function expected(col: ColumnSpec, v: Example[string]) {
  if (v === null || v === '') return null;
  if (col.kind === 'money' || col.kind === 'int') return Number(v);
  return String(v);
}

const hubCosts = tariffTable('express_hub_costs')!;
const islands = tariffTable('express_island_zones')!;
const noPassage = tariffTable('standard_no_passage')!;

describeEachDb('tariff tables', (p) => {
  let admin: string;
  let carrier: string;
  beforeAll(async () => {
    admin = await p().login(DEMO.admin);
    carrier = await p().login(DEMO.carrier);
  });

  const upload = (
    token: string,
    ns: 'admin' | 'company',
    key: string,
    file: { field: string; name: string; data: Buffer },
    companyId?: number,
    lang?: string,
  ) => p().api('POST', `/${ns}/${key}/store`, { token, lang, payload: form(companyId ? { company_id: companyId } : {}, file) });
  const count = async (table: string, companyId: number) =>
    Number(
      (
        await (p().db.db as any)
          .selectFrom(table)
          .select((eb: any) => eb.fn.countAll().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirst()
      ).n,
    );

  it('each template downloads as an xlsx and round-trips through the import, under the documented keys', async () => {
    const c = await createCarrier(p(), 'Beta Cargo');
    for (const spec of TARIFF_TABLES) {
      const t = await download(p(), `/admin/tariff_templates/${spec.templateKey}`, admin);
      expect(t.status).toBe(200);
      expect(t.headers['content-type']).toContain('spreadsheetml');
      expect(t.headers['content-disposition']).toContain(`attachment; filename="modello-${slug(TABLE_NAMES[spec.key].it.many)}.xlsx"`);
      expect(readRows(t.data)[0]).toEqual(spec.columns.map((col) => col.name));

      const up = await upload(admin, 'admin', spec.key, { field: spec.fileField, name: spec.templateFile, data: t.data }, c.id);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      expect(up.body).toMatchObject({
        status: true,
        data: { count: spec.examples.length, company_id: c.id, summary: { added: spec.examples.length, changed: 0, removed: 0, unchanged: 0 } },
      });
      expect(up.body.message).toBe(`File pubblicato: ${spec.examples.length} righe nuove.`);

      // The carrier reads its own set under /company, with the same answer.
      const list = await p().api('GET', `/company/${spec.key}?per_page=100&sort=id`, { token: c.token });
      expect(list.status).toBe(200);
      const page = list.body[spec.listKey];
      expect(page).toMatchObject({ current_page: 1, per_page: 100, last_page: 1, total: spec.examples.length });
      expect(list.body.company_id).toBe(c.id);
      page.data.forEach((row: Record<string, unknown>, i: number) => {
        for (const col of spec.columns) expect(row[col.name], `${spec.key} ${col.name}`).toEqual(expected(col, spec.examples[i][col.name]));
      });
    }
    // The keys the calculator document gives.
    expect(TARIFF_TABLES.map((s) => [s.key, s.listKey, s.fileField])).toEqual([
      ['express_hub_costs', 'express_hub_costs', 'hub_costs'],
      ['express_island_zones', 'island_zones', 'island_zones'],
      ['express_hub_codes', 'express_hub_costs', 'hub_codes'],
      ['express_special_zones', 'special_zones', 'special_zones'],
      ['standard_special_zone', 'express_hub_costs', 'standard_special_zone'],
      ['standard_no_passage', 'express_hub_costs', 'standard_no_passage'],
      ['postal_surcharges', 'postal_surcharges', 'postal_surcharges'],
    ]);
  });

  it('normalises cells: any header order and case, extra columns ignored, postal codes, decimal commas, rounding to the cent; .xls too', async () => {
    const c = await createCarrier(p(), 'Gamma Logistica');
    const rows = [
      ['NOTE', 'Type_ID', 'P1000', 'ps550', 'p550', 'p300', 'p150', 'Multiplier', 'quintal_cost', 'special_zone', 'ISLAND'],
      ['ignored', 1, 42.005, null, '26,5', '€ 18', 12.344, 1.10000000000001, 1.5, 'SIC', ' sicilia '],
      ['ignored', '2', 55, 39, 34, 24, 16, '', null, null, 'sant’antioco'],
    ];
    const up = await upload(admin, 'admin', islands.key, { field: 'island_zones', name: 'isole.XLS', data: xls(rows) }, c.id);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const list = await p().api('GET', `/admin/express_island_zones?company_id=${c.id}&sort=type_id`, { token: admin });
    expect(list.body.island_zones.data.map(({ id: _i, company_id: _c, ...r }: any) => r)).toEqual([
      {
        island: 'Sicilia',
        special_zone: 'SIC',
        quintal_cost: 1.5,
        multiplier: '1.1',
        p150: 12.34,
        p300: 18,
        p550: 26.5,
        ps550: null,
        p1000: 42.01,
        type_id: 1,
      },
      { island: "Sant'Antioco", special_zone: null, quintal_cost: null, multiplier: null, p150: 16, p300: 24, p550: 34, ps550: 39, p1000: 55, type_id: 2 },
    ]);

    const codes = await upload(
      admin,
      'admin',
      'express_hub_codes',
      {
        field: 'hub_codes',
        name: 'hub.xlsx',
        data: xlsx([
          ['hub', 'code'],
          ['hubmi', 184],
          [' HubRm ', 'rm'],
          ['HUBBO', '40 1-21'],
        ]),
      },
      c.id,
    );
    expect(codes.status, JSON.stringify(codes.body)).toBe(200);
    const hubList = await p().api('GET', `/admin/express_hub_codes?company_id=${c.id}&sort=id`, { token: admin });
    expect(hubList.body.express_hub_costs.data.map((r: any) => [r.code, r.hub])).toEqual([
      ['00184', 'HUBMI'],
      ['RM', 'HUBRM'],
      ['40121', 'HUBBO'],
    ]);
  });

  it('lists every bad cell with its row and column in the user language, and stores nothing', async () => {
    const c = await createCarrier(p(), 'Delta Trasporti');
    const rows = [
      noPassage.columns.map((col) => col.name),
      ['30121', 'Venezia', 25, 'VE', 'OUT', '', 'IT', '', '', 1.5, ''],
      ['', 'Livigno', 'diciotto', 'XX', 'SIDE', '', 'ITA', '', '', -2, ''],
      ['', '', 5, '', 'IN', '', '', '', '', '', ''],
      [null, null, null, null, null, null, null, null, null, null, null],
      ['80073', 'Capri', 30, 'NA', '', '', '', '', '', '', ''],
    ];
    const res = await upload(admin, 'admin', noPassage.key, { field: 'standard_no_passage', name: 'np.xlsx', data: xlsx(rows) }, c.id);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Il file contiene 7 errori in 3 righe: non è stato importato nulla. Correggili e carica di nuovo il file.');
    expect(res.body.errors).toEqual({
      'Riga 3, cost': ['Non è un numero: "diciotto".'],
      'Riga 3, province': ['"XX" non è la sigla di una provincia italiana (es. MI, RM).'],
      'Riga 3, flow': ['"SIDE" non è ammesso: usa uno tra IN, OUT.'],
      'Riga 3, company_iso_2': ['"ITA" non è un codice paese ISO di due lettere (es. IT, FR).'],
      'Riga 3, cost2': ['Non può essere negativo.'],
      'Riga 4, postal_code': ['Indica un postal_code, oppure una city con la sua province.'],
      'Riga 6, flow': ['Valore obbligatorio.'],
    });
    expect(await count('standard_no_passage', c.id)).toBe(0);

    const en = await upload(admin, 'admin', noPassage.key, { field: 'standard_no_passage', name: 'np.xlsx', data: xlsx(rows) }, c.id, 'en');
    expect(en.body.errors['Row 3, cost']).toEqual(['Not a number: "diciotto".']);

    // Uniqueness: one island zone row per island and type.
    const dup = await upload(
      admin,
      'admin',
      islands.key,
      {
        field: 'island_zones',
        name: 'i.xlsx',
        data: xlsx([islands.columns.map((col) => col.name), ['Elba', '', 1, 1, 1, 1, 1, 1, 1, 1], ['ELBA', '', 1, 1, 1, 1, 1, 1, 1, 1]]),
      },
      c.id,
    );
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ 'Riga 3, island': ['Già presente alla riga 2 (island Elba, type_id SILVER).'] });
  });

  it('refuses a missing header, a file that is not a spreadsheet, an empty sheet, and replaces the set on a second upload', async () => {
    const c = await createCarrier(p(), 'Epsilon Cargo');
    const missing = await upload(
      admin,
      'admin',
      hubCosts.key,
      {
        field: 'hub_costs',
        name: 'h.xlsx',
        data: xlsx([
          ['code', 'silver'],
          ['HUBMI', 5],
        ]),
      },
      c.id,
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors.hub_costs).toEqual(['Colonne mancanti nella prima riga: gold. La prima riga deve contenere: code, silver, gold.']);

    const pdf = await upload(admin, 'admin', hubCosts.key, { field: 'hub_costs', name: 'h.xlsx', data: Buffer.from('%PDF-1.4 not a sheet') }, c.id);
    expect(pdf.status).toBe(422);
    expect(pdf.body.message).toBe('Il file non è un foglio di calcolo (.xlsx, .xls, .ods o .csv).');
    const csv = await upload(admin, 'admin', hubCosts.key, { field: 'hub_costs', name: 'h.csv', data: xlsx([['code', 'silver', 'gold']]) }, c.id);
    expect(csv.body.message).toBe('Il file si chiama .csv ma il contenuto è di un altro formato: salvalo di nuovo come .csv e riprova.');
    const txt = await upload(admin, 'admin', hubCosts.key, { field: 'hub_costs', name: 'h.txt', data: xlsx([['code', 'silver', 'gold']]) }, c.id);
    expect(txt.body.message).toBe('Sono accettati solo file .xlsx, .xls, .ods o .csv.');
    const empty = await upload(admin, 'admin', hubCosts.key, { field: 'hub_costs', name: 'h.xlsx', data: xlsx([['code', 'silver', 'gold']]) }, c.id);
    expect(empty.status).toBe(422);
    const none = await p().api('POST', `/admin/${hubCosts.key}/store`, { token: admin, payload: form({ company_id: c.id }) });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors)).toEqual(['hub_costs']);

    const ok = await upload(c.token, 'company', hubCosts.key, {
      field: 'hub_costs',
      name: 'h.xlsx',
      data: xlsx([
        ['code', 'silver', 'gold'],
        ['HUBMI', 5, 9],
      ]),
    });
    expect(ok.status).toBe(200);
    const again = await upload(c.token, 'company', hubCosts.key, {
      field: 'hub_costs',
      name: 'h.xlsx',
      data: xlsx([
        ['code', 'silver', 'gold'],
        ['HUBRM', 5, 9],
      ]),
    });
    // A second upload replaces the set (issue 20: no "delete the table first").
    expect(again.status).toBe(200);
    expect(await count('express_hub_costs', c.id)).toBe(1);
    expect((await p().db.db.selectFrom('express_hub_costs').select('code').where('company_id', '=', c.id).execute()).map((r) => r.code)).toEqual(['HUBRM']);

    const del = await p().api('GET', `/company/${hubCosts.key}/destroy`, { token: c.token });
    expect(del.body).toMatchObject({ status: true, message: '1 righe eliminate.', data: { count: 1 } });
    expect(await count('express_hub_costs', c.id)).toBe(0);
  });

  it('refuses a zip bomb (declared or lying sizes) and an oversize file fast, storing nothing', async () => {
    const c = await createCarrier(p(), 'Zeta Express');
    const big = zlib.deflateRawSync(Buffer.alloc(170 * 1024 * 1024, 0x20));
    const workbook = { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>'), method: 0 as const, usz: 11 };
    const declared = zipOf([workbook, { name: 'xl/worksheets/sheet1.xml', data: big, method: 8, usz: 170 * 1024 * 1024 }]);
    // The sheet the workbook names declares 4 kB and inflates to 170 MB: refused at its 4 097th byte.
    const lying = lie(
      xlsxOf({ head: '<worksheet><sheetData>', unit: ' '.repeat(1024), times: 170 * 1024, tail: '</sheetData></worksheet>' }),
      'xl/worksheets/sheet1.xml',
      4096,
    );
    for (const data of [declared, lying]) {
      const t0 = performance.now();
      const res = await upload(admin, 'admin', hubCosts.key, { field: 'hub_costs', name: 'bomb.xlsx', data }, c.id);
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('Il file decompresso è troppo grande (limite 160 MB); non è stato letto.');
    }
    const t0 = performance.now();
    const huge = await upload(admin, 'admin', hubCosts.key, { field: 'hub_costs', name: 'huge.xlsx', data: Buffer.alloc(21 * 1024 * 1024, 1) }, c.id);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe('Il file caricato è troppo grande (limite 20 MB).');
    expect(await count('express_hub_costs', c.id)).toBe(0);
  });

  it('keeps carriers apart: a carrier reads and deletes only its own set, and cannot use the admin calls', async () => {
    const a = await createCarrier(p(), 'Eta Trasporti');
    const b = await createCarrier(p(), 'Theta Trasporti');
    const data = xlsx([
      ['code', 'silver', 'gold'],
      ['HUBA', 1, 2],
    ]);
    expect((await upload(a.token, 'company', hubCosts.key, { field: 'hub_costs', name: 'a.xlsx', data })).status).toBe(200);

    // company_id in the query or body never moves the company namespace to another tenant.
    const listB = await p().api('GET', `/company/${hubCosts.key}?company_id=${a.id}`, { token: b.token });
    expect(listB.status).toBe(200);
    expect(listB.body.express_hub_costs.total).toBe(0);
    expect(listB.body.company_id).toBe(b.id);
    const upB = await p().api('POST', `/company/${hubCosts.key}/store`, {
      token: b.token,
      payload: form({ company_id: a.id }, { field: 'hub_costs', name: 'b.xlsx', data }),
    });
    expect(upB.status).toBe(200);
    expect(upB.body.data.company_id).toBe(b.id);
    expect((await p().api('GET', `/company/${hubCosts.key}/destroy`, { token: b.token })).body.data.count).toBe(1);
    expect(await count('express_hub_costs', a.id)).toBe(1);

    // The admin calls refuse carriers and end users; an admin naming a non-carrier company gets 404.
    expect((await p().api('GET', `/admin/${hubCosts.key}?company_id=${a.id}`, { token: b.token })).status).toBe(403);
    expect((await p().api('POST', `/admin/${hubCosts.key}/destroy`, { token: b.token, body: { company_id: a.id } })).status).toBe(403);
    expect((await p().api('GET', `/company/${hubCosts.key}`, { token: b.endToken })).status).toBe(403);
    expect((await p().api('GET', `/admin/${hubCosts.key}?company_id=${a.enduserId}`, { token: admin })).status).toBe(404);
    expect((await p().api('POST', `/admin/${hubCosts.key}/destroy`, { token: admin, body: {} })).status).toBe(422);
    expect(await count('express_hub_costs', a.id)).toBe(1);

    // The admin chooses the company; without one it reads the first carrier (the demo carrier).
    const first = await p().api('GET', `/admin/${hubCosts.key}`, { token: admin });
    const demo = await p().api('GET', '/company/express_hub_costs', { token: carrier });
    expect(first.body.company_id).toBe(demo.body.company_id);
    expect(first.body.express_hub_costs.total).toBe(6);
    const del = await p().api('POST', `/admin/${hubCosts.key}/destroy`, { token: admin, body: { company_id: a.id } });
    expect(del.body.data.count).toBe(1);
    expect(await count('express_hub_costs', a.id)).toBe(0);
  });

  it('serialises two simultaneous uploads: both publish, the set is wholly one of the two files', async () => {
    const c = await createCarrier(p(), 'Iota Cargo');
    const file = (code: string) => ({
      field: 'hub_costs',
      name: 'h.xlsx',
      data: xlsx([
        ['code', 'silver', 'gold'],
        [code, 1, 2],
        [`${code}2`, 3, 4],
      ]),
    });
    const [a, b] = await Promise.all([upload(c.token, 'company', hubCosts.key, file('HUBA')), upload(c.token, 'company', hubCosts.key, file('HUBB'))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const codes = (await p().db.db.selectFrom('express_hub_costs').select('code').where('company_id', '=', c.id).orderBy('code').execute()).map((r) => r.code);
    expect([
      ['HUBA', 'HUBA2'],
      ['HUBB', 'HUBB2'],
    ]).toContainEqual(codes);
  });

  it('pages and sorts a list, and lists the carriers for the admin selector', async () => {
    const res = await p().api('GET', '/company/express_hub_codes?per_page=10&page=2&sort=code&order=desc', { token: carrier });
    expect(res.body.express_hub_costs).toMatchObject({ current_page: 2, per_page: 10, total: 110, last_page: 11 });
    const codes = res.body.express_hub_costs.data.map((r: any) => r.code);
    expect(codes).toEqual([...codes].sort().reverse());
    const companies = await p().api('GET', '/admin/tariff_companies', { token: admin });
    expect(companies.body.data[0]).toMatchObject({ legal_name: 'Acme Trasporti S.r.l.' });
    expect((await p().api('GET', '/admin/tariff_companies', { token: carrier })).status).toBe(403);
  });
});
