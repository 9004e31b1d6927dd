import * as XLSX from '@e965/xlsx';
import { beforeAll, expect, it } from 'vitest';
import dieselPrices from '../../model/resources/diesel-prices.js';
import { describeEachDb } from './helpers.js';
import { createWorld, insertRequest, type World } from './requestsFixtures.js';
import { guardCsvText, guardText } from '../../server/lib/listExport.js';
import { looksLikeFormula, readCsvLikeExcel, readCsvStrict } from '../fixtures/csv.js';

/**
 * The list exports (issue 24 item 3, docs/list-exports.md): every row the list would show under the same
 * filters and scope, as .xlsx (typed cells) or .csv (per language), with the labels in the caller's language.
 */
describeEachDb('list exports', (p) => {
  let w: World;
  const AT = '2026-03-10T08:05:00.000Z'; // 09:05 in Rome

  /** The raw answer (inject's bytes): the API helper reads bodies as text. */
  async function download(url: string, token: string, lang = 'it') {
    const res = await p().app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { 'x-api-password': 'test-api-password', authorization: `Bearer ${token}`, 'accept-language': lang },
    });
    return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, text: res.body };
  }
  const sheetOf = (raw: Buffer) => {
    const wb = XLSX.read(raw, { type: 'buffer', dense: true, cellNF: true });
    const ws = wb.Sheets[wb.SheetNames[0]];
    return {
      ws,
      rows: XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true }),
      cell: (a: string) => ws['!data']![XLSX.utils.decode_cell(a).r]?.[XLSX.utils.decode_cell(a).c],
    };
  };
  const csvLines = (text: string) =>
    text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);

  beforeAll(async () => {
    w = await createWorld(p());
    await insertRequest(p(), { carrier_id: w.acme, enduser_company_id: w.rossi, cost: 123456, admin_fees: 500, created_at: AT });
    await insertRequest(p(), {
      carrier_id: w.acme,
      enduser_company_id: w.rossi,
      cost: null,
      admin_fees: null,
      status: 4,
      created_at: '2026-03-11T10:00:00.000Z',
    });
    await insertRequest(p(), { carrier_id: w.beta, enduser_company_id: w.bianchi, cost: 9900, admin_fees: 0, created_at: AT });
  });

  it('exports the requests as .xlsx in the caller’s language: typed money and date cells, only the caller’s scope', async () => {
    const res = await download('/company/transport_requests/export?format=xlsx', w.tokens.acme);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="richieste-di-trasporto-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const { rows, cell } = sheetOf(res.raw);
    expect(rows[0]).toEqual(['N.', 'Data', 'Cliente', 'Tratta', 'Servizio', 'Costo', 'Diritti amministrativi', 'Totale', 'Stato']);
    expect(rows).toHaveLength(3); // Acme's two, newest first; Beta's never
    expect(rows[1][8]).toBe('Rifiutata');
    expect(rows[1][7]).toBe('Da quotare');
    expect(rows[2][2]).toBe('Rossi Logistica S.r.l.');
    const money = cell('H3')!;
    expect(money.t).toBe('n');
    expect(money.v).toBe(1239.56);
    expect(money.z).toBe('#,##0.00');
    const date = cell('B3')!;
    expect(date.t).toBe('n');
    expect(String(date.z)).toMatch(/^dd\/mm\/yyyy hh:mm/);
    // 09:05 in Rome on 10/03/2026, as Excel's serial day
    expect(XLSX.SSF.format(String(date.z), Number(date.v))).toBe('10/03/2026 09:05');
    // read with real dates, it is a Date
    const wb = XLSX.read(res.raw, { type: 'buffer', cellDates: true });
    expect(wb.Sheets[wb.SheetNames[0]].B3.v).toBeInstanceOf(Date);

    const admin = sheetOf((await download('/admin/transport_requests/export', w.tokens.admin, 'en')).raw).rows;
    expect(admin[0]).toContain('Carrier');
    expect(admin).toHaveLength(4);
  });

  it('writes CSV with a BOM, `;` and a decimal comma in Italian and French, `,` and a point in English', async () => {
    const it_ = await download('/company/transport_requests/export?format=csv', w.tokens.acme, 'it');
    expect(it_.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(it_.raw.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csvLines(it_.text);
    expect(lines[0]).toBe('N.;Data;Cliente;Tratta;Servizio;Costo;Diritti amministrativi;Totale;Stato');
    expect(lines[2]).toContain(';10/03/2026 09:05;');
    // a decimal comma is a `,` in the field: quoted, as every such field in every language (issue 31)
    expect(lines[2]).toContain(';"1234,56";"5,00";"1239,56";Aperta');
    const en = csvLines((await download('/company/transport_requests/export?format=csv', w.tokens.acme, 'en')).text);
    expect(en[0]).toBe('No.,Date,Customer,Route,Service,Cost,Admin fees,Total,Status');
    expect(en[2]).toContain(',1234.56,5.00,1239.56,Open');
    const fr = csvLines((await download('/company/transport_requests/export?format=csv', w.tokens.acme, 'fr')).text);
    expect(fr[0].split(';')[8]).toBe('Statut');
  });

  it('honours the list’s filters and scopes: a status, an end user seeing only its own, another carrier’s end user 404', async () => {
    const refused = csvLines((await download('/company/transport_requests/export?format=csv&transport_request_status_id=4', w.tokens.acme)).text);
    expect(refused).toHaveLength(2);
    expect(refused[1]).toContain('Rifiutata');
    const dated = csvLines((await download('/admin/transport_requests/export?format=csv&date=2026-03-10', w.tokens.admin)).text);
    expect(dated).toHaveLength(3);
    const bianchi = csvLines((await download('/enduser/transport_requests/export?format=csv', w.tokens.bianchi)).text);
    expect(bianchi).toHaveLength(2);
    expect(bianchi[0]).not.toContain('Cliente');
    expect(bianchi[1]).toContain('99,00');
    // a carrier naming another carrier's end user: 404 as the list
    expect((await download(`/company/transport_requests/export?enduser_id=${w.bianchi}`, w.tokens.acme)).status).toBe(404);
    // a carrier's companies export holds its own rows only
    const beta = csvLines((await download('/company/companies/export?format=csv', w.tokens.beta)).text).join('\n');
    expect(beta).toContain('Bianchi Mobili');
    expect(beta).not.toContain('Rossi Logistica');
    expect(beta).not.toContain('Acme');
    const users = csvLines((await download('/company/users/export?format=csv', w.tokens.beta)).text).join('\n');
    expect(users).toContain('mario@bianchi.test');
    expect(users).not.toContain('portal.demo');
  });

  it('neutralises formulas in text cells, CSV and .xlsx alike', async () => {
    await p().db.db.updateTable('companies').set({ legal_name: '=HYPERLINK("http://x.test","click")' }).where('id', '=', w.bianchi).execute();
    try {
      const csv = csvLines((await download('/company/companies/export?format=csv&search=hyperlink', w.tokens.beta)).text);
      expect(csv).toHaveLength(2);
      expect(csv[1]).toContain(`;"'=HYPERLINK(""http://x.test"",""click"")";`);
      const { rows } = sheetOf((await download('/company/companies/export?search=hyperlink', w.tokens.beta)).raw);
      expect(rows[1][1]).toBe(`'=HYPERLINK("http://x.test","click")`);
    } finally {
      await p().db.db.updateTable('companies').set({ legal_name: 'Bianchi Mobili S.n.c.' }).where('id', '=', w.bianchi).execute();
    }
  });

  it('keeps hostile names one text cell in it/en/fr: quoted, guarded after every separator, for any reader (issue 31)', async () => {
    const db = p().db.db;
    const names = ['x,=1+1', 'x;=HYPERLINK("http://evil.test","click")', 'tab\t@SUM(1)', 'line\n=3+3', '"quoted";+2'];
    const user = await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('email', '=', 'mario@bianchi.test').executeTakeFirstOrThrow();
    await db.updateTable('companies').set({ legal_name: names[0] }).where('id', '=', w.bianchi).execute();
    await db
      .updateTable('users')
      .set({ first_name: names[1], last_name: names.slice(2).join(' ') })
      .where('id', '=', user.id)
      .execute();
    try {
      for (const lang of ['it', 'en', 'fr']) {
        const own = lang === 'en' ? ',' : ';';
        for (const [url, expected] of [
          ['/company/companies/export?format=csv', [names[0]]],
          ['/company/users/export?format=csv', [names[1], names.slice(2).join(' ')]],
        ] as const) {
          const text = (await download(url, w.tokens.beta, lang)).text;
          // the file's own delimiter: the names come back whole, with apostrophes only before what could start a cell
          const cells = readCsvStrict(text, own).flat();
          for (const name of expected) expect(cells.some((c) => c.includes(guardCsvText(guardText(name))))).toBe(true);
          // any reader, any delimiter: no cell starts a formula
          for (const delimiter of [',', ';', '\t']) expect(readCsvLikeExcel(text, delimiter).flat().filter(looksLikeFormula)).toEqual([]);
          for (const FS of [',', ';']) {
            const ws = XLSX.read(text, { type: 'string', FS, cellFormula: true }).Sheets.Sheet1;
            const found = Object.entries(ws).filter(([k, c]) => !k.startsWith('!') && (c.f !== undefined || (c.t === 's' && looksLikeFormula(String(c.v)))));
            expect(found).toEqual([]);
          }
        }
      }
    } finally {
      await db.updateTable('companies').set({ legal_name: 'Bianchi Mobili S.n.c.' }).where('id', '=', w.bianchi).execute();
      await db.updateTable('users').set({ first_name: user.first_name, last_name: user.last_name }).where('id', '=', user.id).execute();
    }
  });

  it('reads past one batch in the list’s order: ties on the sort column, both directions, the nullable cost by offset', async () => {
    const db = p().db.db;
    const base = (await db.selectFrom('transport_requests').selectAll().where('carrier_id', '=', w.beta).executeTakeFirstOrThrow()) as Record<string, unknown>;
    const { id: _id, ...template } = base;
    // 4 500 rows of Beta (more than two batches of 2 000), many sharing a created_at, status and cost
    const rows = Array.from({ length: 4500 }, (_, i) => ({
      ...template,
      created_at: `2026-02-${String(1 + (i % 20)).padStart(2, '0')}T10:00:00.000Z`,
      transport_request_status_id: [1, 3, 4][i % 3],
      cost: i % 7 === 0 ? null : 1000 + (i % 50),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('transport_requests')
        .values(rows.slice(i, i + 500) as never)
        .execute();
    const ids = async (sort: string, order: 'asc' | 'desc') =>
      csvLines((await download(`/company/transport_requests/export?format=csv&sort=${sort}&order=${order}`, w.tokens.beta)).text)
        .slice(1)
        .map((l) => Number(l.split(';')[0]));
    for (const [sort, order] of [
      ['created_at', 'desc'],
      ['transport_request_status_id', 'asc'],
      ['id', 'desc'],
      ['cost', 'asc'],
    ] as const) {
      const got = await ids(sort, order);
      // the list's own pages, read through the list route, in the same order
      const listed: number[] = [];
      for (let page = 1; listed.length < got.length + 1; page++) {
        const r = await p().api('GET', `/company/transport_requests?sort=${sort}&order=${order}&per_page=100&page=${page}`, { token: w.tokens.beta });
        const data = r.body.transportRequests.data as Array<{ id: number }>;
        if (!data.length) break;
        listed.push(...data.map((d) => d.id));
      }
      expect(got, `${sort} ${order}`).toHaveLength(4501);
      expect(new Set(got).size).toBe(4501);
      expect(got, `${sort} ${order}`).toEqual(listed);
    }
  });

  it('refuses an unknown format with a message in the caller’s language, and checks the filters as the list does', async () => {
    const res = await p().api('GET', '/company/transport_requests/export?format=pdf', { token: w.tokens.acme, lang: 'en' });
    expect(res.status).toBe(422);
    expect(res.body.errors.format[0]).toBe('The selected file format is invalid.');
    const it_ = await p().api('GET', '/admin/currencies/export?format=ods', { token: w.tokens.admin, lang: 'it' });
    expect(it_.status).toBe(422);
    expect(it_.body.errors.format[0]).toContain('formato del file');
    const bad = await p().api('GET', '/company/audit_log/export?from=2026-03-10&to=2026-03-01', { token: w.tokens.acme, lang: 'it' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('La data finale non può precedere quella iniziale.');
  });

  it('exports a declared resource from its declaration: labels, words for flags, months as dates, the search', async () => {
    const { rows, cell } = sheetOf((await download('/admin/diesel_prices/export', w.tokens.admin, 'fr')).raw);
    expect(rows[0]).toEqual([dieselPrices.fieldLabels.fr.month, dieselPrices.fieldLabels.fr.price, dieselPrices.fieldLabels.fr.note]);
    expect(rows.length).toBeGreaterThan(1);
    expect(cell('A2')!.z).toBe('mm/yyyy');
    expect(cell('B2')!.t).toBe('n');
    const currencies = csvLines((await download('/admin/currencies/export?format=csv&q=euro', w.tokens.admin)).text);
    expect(currencies[0].split(';')).toEqual(['Nome', 'Codice', 'Simbolo', 'Attiva']);
    expect(currencies.length).toBeGreaterThanOrEqual(2);
    expect(currencies.slice(1).every((l) => /euro/i.test(l))).toBe(true);
    expect(currencies[1]).toMatch(/;(Attivo|Non attivo)$/);
    // the carrier's own path, with the carrier's policy
    expect((await download('/company/diesel_prices/export?format=csv', w.tokens.acme)).status).toBe(200);
    expect((await download('/company/diesel_prices/export?format=csv', w.tokens.rossi)).status).toBe(403);
  });

  it('exports the audit log in the tenant’s scope and the access requests of the reviewer', async () => {
    const acme = csvLines((await download('/company/audit_log/export?format=csv', w.tokens.acme)).text);
    expect(acme[0]).toBe('Quando;Chi;Azienda;Azione;Risorsa;ID risorsa;Modifiche;Indirizzo IP');
    expect(acme.join('\n')).not.toContain('owner@beta.test');
    const beta = csvLines((await download('/company/audit_log/export?format=csv&action=login', w.tokens.beta)).text);
    expect(beta.length).toBeGreaterThanOrEqual(2);
    expect(beta.slice(1).every((l) => l.includes(';Accesso;'))).toBe(true);
    const access = await download('/company/request_access/export?format=csv', w.tokens.acme);
    expect(access.status).toBe(200);
    expect(csvLines(access.text)[0].split(';').slice(0, 3)).toEqual(['Ricevuta il', 'Stato', 'Azienda']);
  });
});
