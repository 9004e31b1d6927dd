import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, insertWorkedExample, multipart, type World } from './requestsFixtures.js';
import { pdfText } from './pdfText.js';

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
const PALLETS = { palletWeight: ['250'], palletWidth: ['120'], palletLength: ['80'], palletHeight: ['90'] };
const STATUS_URL = '/company/transport_requests/updateTransportRequestStatus';

/** Euros as an Italian PDF writes them (a no-break space before €). */
const euro = (v: number) => new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(v);

describeEachDb('the transport document and the quote as PDFs', (p) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(p());
    await insertWorkedExample(p(), w.beta);
    await p().db.db.updateTable('companies').set({ increase_percent: '10', national_admin_fee: 450 }).where('id', '=', w.bianchi).execute();
    await p().db.db.updateTable('companies').set({ visitor_price_multiplier: '1.2', national_admin_fee: 300 }).where('id', '=', w.beta).execute();
    await p()
      .db.db.insertInto('settings')
      .values({ key: 'visitor_company_id', value: String(w.beta), public: 1 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(w.beta) }))
      .execute();
  });

  /** A binary answer as bytes (the helper's `api` reads text). */
  const raw = async (method: 'GET' | 'POST', url: string, opts: { token?: string; lang?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { 'x-api-password': p().config.apiPassword, 'accept-language': opts.lang ?? 'it' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await p().app.inject({ method, url: `/api/v1${url}`, headers, payload: opts.body as any });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => res.json() };
  };

  const createGold = async () => {
    const mp = await multipart({
      ...QUOTE,
      ...PALLETS,
      ...handShipment(0, { pickuplocationname: 'Magazzino Città Più', deliverylocationname: 'Négoce Früh & Søn' }),
      shipmentclass: 'GOLD',
      cost: '130.90',
      admin_fees: '4.50',
    });
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.bianchi, payload: mp.payload, headers: mp.headers });
    expect(res.body.status).toBe(true);
    return res.body.data.id as number;
  };

  it("is refused (409) before confirmation, then a PDF in the caller's language with the number, places and accents", async () => {
    const id = await createGold();
    const early = await raw('GET', `/enduser/transport_requests/waybill/${id}`, { token: w.tokens.bianchi });
    expect(early.status).toBe(409);
    expect(early.json().message).toBe('La lettera di vettura è disponibile quando la richiesta è confermata (ora è Aperta).');
    expect((await raw('GET', `/company/transport_requests/waybill/${id}`, { token: w.tokens.beta, lang: 'en' })).json().message).toBe(
      'The transport document is available once the request is confirmed (it is Open).',
    );
    expect((await p().api('POST', STATUS_URL, { token: w.tokens.beta, body: { id, transport_request_status_id: 3, note: 'Ok' } })).status).toBe(200);

    const it = await raw('GET', `/enduser/transport_requests/waybill/${id}`, { token: w.tokens.bianchi });
    expect(it.status).toBe(200);
    expect(it.headers['content-type']).toBe('application/pdf');
    expect(String(it.headers['content-disposition'])).toBe(
      `attachment; filename="lettera-di-vettura-${id}.pdf"; filename*=UTF-8''lettera-di-vettura-${id}.pdf`,
    );
    expect(it.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(it.bytes);
    expect(text).toContain(`Richiesta n. ${id}`);
    // Milano → Roma: a domestic transport, no CMR (issue 36; the CMR case: tests/api/documentNames.test.ts).
    expect(text).not.toContain('CMR');
    for (const s of [
      'Documento di trasporto / lettera di vettura',
      'Magazzino Città Più',
      'Négoce Früh & Søn',
      'Beta Spedizioni S.p.A.',
      'Bianchi Mobili S.n.c.',
      'Pallet express GOLD',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).toContain('120 × 80 × 90');
    expect(text).toMatch(/ADR \(MERCI PERICOLOSE\)\nNo/);
    expect(text).toContain('VETTORE: FIRMA E TIMBRO');
    // The barcode is an image on the page.
    expect(it.bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);

    const en = pdfText((await raw('GET', `/company/transport_requests/waybill/${id}`, { token: w.tokens.beta, lang: 'en' })).bytes);
    expect(en).toContain(`Request no. ${id}`);
    expect(en).toContain('Transport document / consignment note');
    const fr = pdfText((await raw('GET', `/admin/transport_requests/waybill/${id}`, { token: w.tokens.admin, lang: 'fr' })).bytes);
    expect(fr).toContain(`Demande n° ${id}`);
    expect(fr).toContain('Document de transport / lettre de voiture');
  });

  it("writes weights and measures as the downloader's language does: 1.350,5 in Italian, 1,350.5 in English, 1 350,5 in French", async () => {
    const id = await createGold();
    await p().api('POST', STATUS_URL, { token: w.tokens.beta, body: { id, transport_request_status_id: 3, note: 'Ok' } });
    // A weight with a decimal and thousands, and a decimal width (the stored text, as the booking stores it).
    const shipment = await p().db.db.selectFrom('shipments').select('id').where('transport_request_id', '=', id).executeTakeFirstOrThrow();
    await p().db.db.updateTable('shipment_details').set({ pallet_weight: '1350.5', pallet_width: '120.5' }).where('shipment_id', '=', shipment.id).execute();
    const text = (lang: string) => raw('GET', `/enduser/transport_requests/waybill/${id}`, { token: w.tokens.bianchi, lang }).then((r) => pdfText(r.bytes));
    const itText = await text('it');
    expect(itText).toContain('1.350,5');
    expect(itText).toContain('120,5 × 80 × 90');
    expect(itText).toContain('Peso totale: 1.350,5 kg');
    const en = await text('en');
    expect(en).toContain('1,350.5');
    expect(en).toContain('120.5 × 80 × 90');
    const fr = (await text('fr')).replace(/[\u00a0\u202f]/g, ' ');
    expect(fr).toContain('1 350,5');
    expect(fr).toContain('120,5 × 80 × 90');
  });

  it("another tenant's request or an unknown id is 404; a refused request is 409", async () => {
    const id = await createGold();
    await p().api('POST', STATUS_URL, { token: w.tokens.beta, body: { id, transport_request_status_id: 3, note: 'Ok' } });
    for (const [ns, token] of [
      ['enduser', w.tokens.rossi],
      ['company', w.tokens.acme],
    ] as const) {
      expect((await raw('GET', `/${ns}/transport_requests/waybill/${id}`, { token })).status).toBe(404);
    }
    expect((await raw('GET', `/enduser/transport_requests/waybill/999999`, { token: w.tokens.bianchi })).status).toBe(404);
    expect((await raw('GET', `/enduser/transport_requests/waybill/${id}`)).status).toBe(401);
    const refused = await createGold();
    await p().api('POST', STATUS_URL, { token: w.tokens.beta, body: { id: refused, transport_request_status_id: 4, note: 'No' } });
    const r = await raw('GET', `/enduser/transport_requests/waybill/${refused}`, { token: w.tokens.bianchi });
    expect(r.status).toBe(409);
    expect(r.json().message).toContain('Rifiutata');
  });

  it("answers the quote as a PDF with exactly the caller's prices, breakdown, date and validity", async () => {
    const body = { ...QUOTE, palletWeight: [250], palletWidth: [120], palletLength: [80], palletHeight: [90] };
    for (const token of [w.tokens.bianchi, undefined]) {
      const json = await p().api('POST', '/visitor/costRequest', { token, body });
      expect(json.body.status).toBe(true);
      const res = await raw('POST', '/visitor/costRequest/pdf', { token, body });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(res.bytes);
      const pl = json.body.data.prices_list;
      expect(text).toContain(euro(pl.x_total_silver_sell));
      expect(text).toContain(euro(pl.x_total_gold_sell));
      expect(text).toContain(euro(pl.admin_fee));
      for (const line of json.body.data.breakdown) expect(text).toContain(line.label);
      expect(text).toContain('Valido fino al 31/12/2099');
      expect(text).toMatch(/Data: \d{2}\/\d{2}\/\d{4}/);
      expect(text).toContain('Portale Trasporti');
      expect(text).toContain('20121 Milano (MI) IT');
    }
    // The end user's GOLD price of pricing.md §6 and the visitor's, each only to its caller.
    const enduser = pdfText((await raw('POST', '/visitor/costRequest/pdf', { token: w.tokens.bianchi, body })).bytes);
    const visitor = pdfText((await raw('POST', '/visitor/costRequest/pdf', { body })).bytes);
    expect(enduser).toContain(euro(130.9));
    expect(visitor).not.toContain(euro(130.9));
    expect(visitor).toContain(euro(142.8));
  });

  it('an unpriceable quote is 422 with the reason; a malformed one 422 per field', async () => {
    const nowhere = await raw('POST', '/visitor/costRequest/pdf', {
      token: w.tokens.bianchi,
      body: { ...QUOTE, destinationProvince: 'NA', destinationPostalCode: '80100', destinationLocality: 'Napoli', ...PALLETS },
    });
    expect(nowhere.status).toBe(422);
    const json = await p().api('POST', '/visitor/costRequest', {
      token: w.tokens.bianchi,
      body: { ...QUOTE, destinationProvince: 'NA', destinationPostalCode: '80100', destinationLocality: 'Napoli', ...PALLETS },
    });
    expect(json.body.status).toBe(false);
    expect(nowhere.json().message).toBe(json.body.message);
    const bad = await raw('POST', '/visitor/costRequest/pdf', { token: w.tokens.bianchi, body: { ...QUOTE, zone: 'lunar' } });
    expect(bad.status).toBe(422);
    expect(bad.json().errors.zone).toHaveLength(1);
  });
});
