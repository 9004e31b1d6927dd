import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, insertWorkedExample, multipart, type World } from './requestsFixtures.js';
import { pdfText } from './pdfText.js';
import { romeToday } from '../../server/lib/romeDate.js';
import { issuedQuotesRepo } from '../../server/repositories/issuedQuotes.js';

/**
 * Issue 36 item 5, "documents say what they are" (docs/request-documents.md): the waybill is a CMR only between
 * two countries; the quote PDF is numbered (P-<year>-<seq>, unique under concurrent downloads, recorded in
 * issued_quotes) and valid to the end of its fuel month; every download is named in the caller's language.
 */

/** The quote of pricing.md §6: Milano → Roma, one pallet 250 kg 120 × 80 × 90, flow OUT. */
const QUOTE = {
  zone: 'national',
  service: 'palletExpress',
  flow: 'OUT',
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: '00184',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
};
const BODY = { ...QUOTE, palletWeight: [250], palletWidth: [120], palletLength: [80], palletHeight: [90] };
const STATUS_URL = '/company/transport_requests/updateTransportRequestStatus';
const LANGS = ['it', 'en', 'fr'] as const;

/** dd/mm/yyyy (it, fr) or dd/mm/yyyy (en-GB): how the PDFs write a YYYY-MM-DD day. */
const day = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
/** The last day of a YYYY-MM month, written out by hand (not the server's function). */
const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return `${month}-${days}`;
};
const previousMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};
const MONTHS_IT = ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'];

describeEachDb('documents say what they are: CMR or domestic waybill, numbered quotes, file names per language', (p) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(p());
    await insertWorkedExample(p(), w.beta);
    // The end user's GOLD price of pricing.md §6 (130,90 € + 4,50 € fee), as tests/api/requestPdfs.test.ts books it.
    await p().db.db.updateTable('companies').set({ increase_percent: '10', national_admin_fee: 450 }).where('id', '=', w.bianchi).execute();
    await p()
      .db.db.insertInto('settings')
      .values({ key: 'visitor_company_id', value: String(w.beta), public: 1 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(w.beta) }))
      .execute();
  });

  const raw = async (method: 'GET' | 'POST', url: string, opts: { token?: string; lang?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { 'x-api-password': p().config.apiPassword, 'accept-language': opts.lang ?? 'it' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await p().app.inject({ method, url: `/api/v1${url}`, headers, payload: opts.body as any });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => res.json() };
  };
  /** The name a download is saved under: the RFC 6266 `filename*` (checked against the ASCII `filename`). */
  const fileName = (headers: Record<string, unknown>) => {
    const cd = String(headers['content-disposition']);
    const m = /^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S+)$/.exec(cd);
    expect(m, cd).not.toBeNull();
    const exact = decodeURIComponent(m![2]);
    expect(m![1]).toBe(exact.normalize('NFD').replace(/[\u0300-\u036f]/g, ''));
    return exact;
  };

  const confirmedRequest = async () => {
    const mp = await multipart({
      ...QUOTE,
      palletWeight: ['250'],
      palletWidth: ['120'],
      palletLength: ['80'],
      palletHeight: ['90'],
      ...handShipment(0),
      shipmentclass: 'GOLD',
      cost: '130.90',
      admin_fees: '4.50',
    });
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.bianchi, payload: mp.payload, headers: mp.headers });
    expect(res.body.status, JSON.stringify(res.body)).toBe(true);
    const id = res.body.data.id as number;
    expect((await p().api('POST', STATUS_URL, { token: w.tokens.beta, body: { id, transport_request_status_id: 3, note: 'Ok' } })).status).toBe(200);
    return id;
  };

  it('a domestic waybill is a "Documento di trasporto / lettera di vettura" without CMR; an international one is the CMR', async () => {
    const id = await confirmedRequest();
    const waybill = (lang: string) => raw('GET', `/enduser/transport_requests/waybill/${id}`, { token: w.tokens.bianchi, lang });
    const domestic = { it: await waybill('it'), en: await waybill('en'), fr: await waybill('fr') };
    const text = { it: pdfText(domestic.it.bytes), en: pdfText(domestic.en.bytes), fr: pdfText(domestic.fr.bytes) };
    expect(text.it).toContain('Documento di trasporto / lettera di vettura');
    expect(text.it).toContain('Trasporto nazionale di merci su strada');
    expect(text.en).toContain('Transport document / consignment note');
    expect(text.fr).toContain('Document de transport / lettre de voiture');
    for (const l of LANGS) {
      expect(text[l]).not.toMatch(/CMR|Ginevra|Geneva|Genève|internazionale|International|internationale/);
      // the file's own title (its metadata) says the same
      expect(domestic[l].bytes.toString('latin1')).not.toContain('(CMR)');
    }
    expect(fileName(domestic.it.headers)).toBe(`lettera-di-vettura-${id}.pdf`);
    expect(fileName(domestic.en.headers)).toBe(`waybill-${id}.pdf`);
    expect(fileName(domestic.fr.headers)).toBe(`lettre-de-voiture-${id}.pdf`);

    // The delivery moved to France: origin and destination countries differ, the CMR convention applies.
    const fr = await p().db.db.selectFrom('countries').select('id').where('code_alpha', '=', 'FR').executeTakeFirstOrThrow();
    const shipment = await p().db.db.selectFrom('shipments').select('id').where('transport_request_id', '=', id).executeTakeFirstOrThrow();
    await p()
      .db.db.updateTable('shipment_addresses')
      .set({ country_id: Number(fr.id), postal_code: '75001', city: 'Paris', province: null })
      .where('shipment_id', '=', shipment.id)
      .where('kind', '=', 'delivery')
      .execute();
    const flat = async (lang: string) => pdfText((await waybill(lang)).bytes).replace(/\s+/g, ' ');
    const cmr = { it: await flat('it'), en: await flat('en'), fr: await flat('fr') };
    expect(cmr.it).toContain('Lettera di vettura internazionale (CMR)');
    expect(cmr.it).toMatch(/Convenzione relativa al contratto di trasporto internazionale di merci su strada \(CMR\), Ginevra, 19 maggio 1956/);
    expect(cmr.en).toContain('International consignment note (CMR)');
    expect(cmr.en).toMatch(/Geneva, 19 May 1956/);
    expect(cmr.fr).toContain('Lettre de voiture internationale (CMR)');
    expect(cmr.fr).toMatch(/Genève, 19 mai 1956/);
    for (const l of LANGS) expect(cmr[l]).not.toMatch(/Documento di trasporto \/|Transport document \/|Document de transport \//);
    expect(cmr.it).toContain('Paris');
    // the file name stays the document's, whatever its kind
    expect(fileName((await waybill('it')).headers)).toBe(`lettera-di-vettura-${id}.pdf`);
  });

  it('numbers every quote PDF P-<year>-<seq>: unique and consecutive under concurrent downloads, recorded with who, total and inputs', async () => {
    const year = romeToday().slice(0, 4);
    const before = await p().db.db.selectFrom('issued_quotes').select('seq').where('year', '=', Number(year)).execute();
    const callers = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? w.tokens.bianchi : w.tokens.beta));
    const answers = await Promise.all(
      callers.map((token, i) => raw('POST', '/visitor/costRequest/pdf', { token, lang: LANGS[i % 3], body: token === w.tokens.beta ? { ...BODY } : BODY })),
    );
    const numbers = answers.map((a, i) => {
      expect(a.status, String(a.bytes)).toBe(200);
      const text = pdfText(a.bytes);
      const m = /(?:Preventivo n\.|Quote no\.|Devis n°) (P-\d{4}-\d{6})/.exec(text);
      expect(m, text.slice(0, 300)).not.toBeNull();
      const number = m![1];
      const prefix = { it: 'preventivo', en: 'quote', fr: 'devis' }[LANGS[i % 3]];
      expect(fileName(a.headers)).toBe(`${prefix}-${number}.pdf`);
      return number;
    });
    expect(new Set(numbers).size).toBe(12);
    for (const n of numbers) expect(n.startsWith(`P-${year}-`)).toBe(true);
    const seqs = numbers.map((n) => Number(n.slice(7))).sort((a, b) => a - b);
    const first = before.length ? Math.max(...before.map((r) => Number(r.seq))) + 1 : 1;
    expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => first + i));

    const rows = await p().db.db.selectFrom('issued_quotes').selectAll().where('number', 'in', numbers).execute();
    expect(rows).toHaveLength(12);
    const visitorRows = rows.filter((r) => r.company_id === null);
    const enduserRows = rows.filter((r) => Number(r.company_id) === w.bianchi);
    const carrierRows = rows.filter((r) => Number(r.company_id) === w.beta);
    expect([visitorRows.length, enduserRows.length, carrierRows.length]).toEqual([4, 4, 4]);
    for (const r of visitorRows) expect(r.user_id).toBeNull();
    for (const r of [...enduserRows, ...carrierRows]) expect(Number(r.user_id)).toBeGreaterThan(0);
    for (const r of rows) {
      expect(Number(r.carrier_id)).toBe(w.beta);
      expect(r.inputs_hash).toMatch(/^[a-f0-9]{64}$/);
      expect(r.valid_to).toBe('2099-12-31'); // no fuel plan yet: the sheet's last day
      expect(new Date(r.created_at).getTime()).toBeGreaterThan(Date.now() - 120_000);
    }
    // The same question by the same kind of caller hashes the same; the end user's and the visitor's differ.
    expect(new Set(visitorRows.map((r) => r.inputs_hash)).size).toBe(1);
    expect(new Set(enduserRows.map((r) => r.inputs_hash)).size).toBe(1);
    expect(visitorRows[0].inputs_hash).not.toBe(enduserRows[0].inputs_hash);
    // The total kept is the lowest the caller was offered (SILVER + admin fee), as its JSON quote says.
    for (const [token, list] of [
      [undefined, visitorRows],
      [w.tokens.bianchi, enduserRows],
    ] as const) {
      const json = (await p().api('POST', '/visitor/costRequest', { token, body: BODY })).body.data.prices_list;
      const silver = Math.round(json.x_total_silver_sell * 100) + Math.round(json.admin_fee * 100);
      for (const r of list) expect(Number(r.total)).toBe(silver);
    }
  });

  it('issues a yearly sequence race-safe straight from the repository: 25 at once, then past 999999 without cutting', async () => {
    const repo = issuedQuotesRepo(p().db.db);
    const q = { companyId: null, userId: null, carrierId: w.beta, total: 100, validTo: null, inputsHash: 'x'.repeat(64) };
    const many = await Promise.all(Array.from({ length: 25 }, () => repo.issue({ ...q, date: '2031-03-04' })));
    expect(many.map((r) => r.number).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `P-2031-${String(i + 1).padStart(6, '0')}`));
    // Another year starts again at 1.
    expect((await repo.issue({ ...q, date: '2032-01-01' })).number).toBe('P-2032-000001');
    await p()
      .db.db.insertInto('issued_quotes')
      .values({
        ...{ company_id: null, user_id: null, carrier_id: null, total: null, valid_to: null, inputs_hash: 'y' },
        number: 'P-2033-999999',
        year: 2033,
        seq: 999999,
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await repo.issue({ ...q, date: '2033-06-30' })).number).toBe('P-2033-1000000');
  });

  it('is valid to the end of its fuel month (not the sheet’s later last day); a sheet ending first ends it; a missing month row keeps the month', async () => {
    const today = romeToday();
    const month = today.slice(0, 7);
    const now = new Date().toISOString();
    await p()
      .db.db.updateTable('companies')
      .set({ fuel_base_price: '1.500', fuel_step: '0.020', fuel_step_percent: '1', fuel_max_percent: '10' })
      .where('id', '=', w.beta)
      .execute();
    // The demo's diesel prices are put aside for the test and back afterwards.
    const kept = await p().db.db.selectFrom('diesel_prices').select(['month', 'price', 'note', 'created_at']).execute();
    await p().db.db.deleteFrom('diesel_prices').execute();
    await p().db.db.insertInto('diesel_prices').values({ month, price: '1.600', note: null, created_at: now }).execute();
    try {
      const quote = async (lang: string) => {
        const res = await raw('POST', '/visitor/costRequest/pdf', { token: w.tokens.bianchi, lang, body: BODY });
        expect(res.status).toBe(200);
        return pdfText(res.bytes).replace(/\s+/g, ' ');
      };
      // The sheet ends on 31/12/2099, long after the month: the month's last day wins.
      const end = lastDay(month);
      const monthName = MONTHS_IT[Number(month.slice(5)) - 1];
      expect(await quote('it')).toContain(`Valido fino al ${day(end)} (fine del mese dell’adeguamento gasolio, ${monthName} ${month.slice(0, 4)})`);
      expect(await quote('en')).toContain(`Valid until ${day(end)} (end of the fuel surcharge month,`);
      expect(await quote('fr')).toContain(`Valable jusqu’au ${day(end)} (fin du mois de la surcharge carburant,`);
      expect(await quote('it')).not.toContain('31/12/2099');
      const last = await p().db.db.selectFrom('issued_quotes').select('valid_to').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(last.valid_to).toBe(end);

      // Only last month's diesel price is in: the quote is still priced for this month and holds to its end.
      await p().db.db.deleteFrom('diesel_prices').where('month', '=', month).execute();
      await p()
        .db.db.insertInto('diesel_prices')
        .values({ month: previousMonth(month), price: '1.600', note: null, created_at: now })
        .execute();
      expect(await quote('it')).toContain(`Valido fino al ${day(end)} (fine del mese dell’adeguamento gasolio`);

      // A sell sheet ending today, before the month's end, ends the quote today (on a month's last day both agree).
      await p().db.db.updateTable('rate_sheets').set({ validate_to: today }).where('company_id', '=', w.beta).execute();
      const short = await quote('it');
      if (today < end) expect(short).toContain(`Valido fino al ${day(today)} (ultimo giorno del listino)`);
      else expect(short).toContain(`Valido fino al ${day(end)} (fine del mese dell’adeguamento gasolio`);
    } finally {
      await p().db.db.updateTable('rate_sheets').set({ validate_to: '2099-12-31' }).where('company_id', '=', w.beta).execute();
      await p().db.db.deleteFrom('diesel_prices').execute();
      if (kept.length) await p().db.db.insertInto('diesel_prices').values(kept).execute();
      await p()
        .db.db.updateTable('companies')
        .set({ fuel_base_price: null, fuel_step: null, fuel_step_percent: null, fuel_max_percent: null })
        .where('id', '=', w.beta)
        .execute();
    }
  });

  it("names every download in the caller's language: request quote, exports, templates, tariff files", async () => {
    const id = await confirmedRequest();
    const date = romeToday();
    const sheet = await p()
      .db.db.selectFrom('rate_sheets')
      .select(['id', 'code'])
      .where('company_id', '=', w.beta)
      .where('rate_type', '=', 'EXP')
      .executeTakeFirstOrThrow();
    const cases: Array<{ url: string; token: string; names: Record<(typeof LANGS)[number], string> }> = [
      {
        url: `/enduser/transport_requests/quote/${id}`,
        token: w.tokens.bianchi,
        names: { it: `preventivo-richiesta-${id}.pdf`, en: `quote-request-${id}.pdf`, fr: `devis-demande-${id}.pdf` },
      },
      {
        url: '/company/transport_requests/export?format=xlsx',
        token: w.tokens.beta,
        names: { it: `richieste-di-trasporto-${date}.xlsx`, en: `transport-requests-${date}.xlsx`, fr: `demandes-de-transport-${date}.xlsx` },
      },
      {
        url: '/admin/transport_requests/export?format=csv',
        token: w.tokens.admin,
        names: { it: `richieste-di-trasporto-${date}.csv`, en: `transport-requests-${date}.csv`, fr: `demandes-de-transport-${date}.csv` },
      },
      {
        url: '/admin/companies/export',
        token: w.tokens.admin,
        names: { it: `aziende-${date}.xlsx`, en: `companies-${date}.xlsx`, fr: `entreprises-${date}.xlsx` },
      },
      {
        url: '/admin/diesel_prices/export',
        token: w.tokens.admin,
        names: { it: `prezzi-del-gasolio-${date}.xlsx`, en: `diesel-prices-${date}.xlsx`, fr: `prix-du-gazole-${date}.xlsx` },
      },
      {
        url: '/company/tariff_templates/cs_express_hub_costs',
        token: w.tokens.beta,
        names: { it: 'modello-costi-hub.xlsx', en: 'hub-costs-template.xlsx', fr: 'modele-couts-des-hubs.xlsx' },
      },
      {
        url: '/company/tariff_templates/express_rate_sheet',
        token: w.tokens.beta,
        names: { it: 'modello-listino-express.xlsx', en: 'express-rate-sheet-template.xlsx', fr: 'modele-tarif-express.xlsx' },
      },
      {
        url: '/company/express_hub_costs/export',
        token: w.tokens.beta,
        names: { it: `costi-hub-${w.beta}-${date}.xlsx`, en: `hub-costs-${w.beta}-${date}.xlsx`, fr: `couts-des-hubs-${w.beta}-${date}.xlsx` },
      },
      {
        url: `/company/rate_sheet/export/${sheet.id}`,
        token: w.tokens.beta,
        names: { it: `listino-${sheet.code}.xlsx`, en: `rate-sheet-${sheet.code}.xlsx`, fr: `tarif-${sheet.code}.xlsx` },
      },
      {
        url: '/enduser/getMyRateSheet/download?rate_type=EXP',
        token: w.tokens.bianchi,
        names: { it: `listino-${sheet.code}.xlsx`, en: `rate-sheet-${sheet.code}.xlsx`, fr: `tarif-${sheet.code}.xlsx` },
      },
    ];
    for (const c of cases) {
      for (const lang of LANGS) {
        const res = await raw('GET', c.url, { token: c.token, lang });
        expect(res.status, `${c.url} ${lang}: ${String(res.bytes).slice(0, 200)}`).toBe(200);
        expect(fileName(res.headers), `${c.url} ${lang}`).toBe(c.names[lang]);
      }
    }
  });

  it('keeps the name a user uploaded a file with, in both RFC 6266 forms', async () => {
    const mp = await multipart({
      ...QUOTE,
      palletWeight: ['250'],
      palletWidth: ['120'],
      palletLength: ['80'],
      palletHeight: ['90'],
      ...handShipment(0),
      shipmentclass: 'GOLD',
      cost: '130.90',
      admin_fees: '4.50',
      documents: [{ filename: 'bolla (città) n°1.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 bolla') }],
      doctypes: [String(w.docType)],
    });
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.bianchi, payload: mp.payload, headers: mp.headers });
    expect(res.body.status, JSON.stringify(res.body)).toBe(true);
    const doc = res.body.data.documents[0];
    const file = await raw('GET', `/enduser/transport_requests/documents/${doc.id}`, { token: w.tokens.bianchi, lang: 'en' });
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="bolla (citta) n_1.pdf"; filename*=UTF-8''bolla%20%28citt%C3%A0%29%20n%C2%B01.pdf`);
  });
});
