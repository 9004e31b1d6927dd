import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { filesState } from './fileHelpers.js';
import { counts, createWorld, handShipment, insertWorkedExample, multipart, type World } from './requestsFixtures.js';

/** The quote of pricing.md §6: Milano → Roma, one pallet 250 kg 120 × 80 × 90, flow OUT. */
const EXPRESS_QUOTE = {
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
  palletWeight: ['250'],
  palletWidth: ['120'],
  palletLength: ['80'],
  palletHeight: ['90'],
};
const STANDARD_QUOTE = {
  ...EXPRESS_QUOTE,
  service: 'standard',
  flow: undefined,
  palletWeight: undefined,
  palletWidth: undefined,
  palletLength: undefined,
  palletHeight: undefined,
  standardunits: '3',
  standardweight: '300',
  standardvolume: '1',
  standardvolumeType: 'CBM',
};
const pdf = { filename: 'cmr.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 cmr') };

const clean = (o: Record<string, any>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

describeEachDb('transport requests from a quote, priced again by the server', (p) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(p());
    await insertWorkedExample(p(), w.beta);
    // The end user of pricing.md §6: increase 10 %, national admin fee 4.50.
    await p().db.db.updateTable('companies').set({ increase_percent: '10', national_admin_fee: 450 }).where('id', '=', w.bianchi).execute();
    // The visitor carrier, with a visitor price multiplier of 1.2 and its own admin fee of 3.00.
    await p().db.db.updateTable('companies').set({ visitor_price_multiplier: '1.2', national_admin_fee: 300 }).where('id', '=', w.beta).execute();
    await p()
      .db.db.insertInto('settings')
      .values({ key: 'visitor_company_id', value: String(w.beta), public: 1 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(w.beta) }))
      .execute();
  });

  const send = async (url: string, fields: Record<string, any>, token?: string) => {
    const mp = await multipart(clean(fields));
    return p().api('POST', url, { token, payload: mp.payload, headers: mp.headers });
  };

  it('stores a GOLD express request at 130.90 + 4.50 (pricing.md §6) with its quote, pallets and document', async () => {
    const res = await send(
      '/enduser/transport_requests/newRequest',
      {
        ...EXPRESS_QUOTE,
        ...handShipment(0, { pickuppostalcode: '99999', pickupcity: 'Altrove' }),
        shipmentclass: 'GOLD',
        cost: '130.90',
        admin_fees: '4.50',
        documents: [pdf],
        doctypes: [String(w.docType)],
      },
      w.tokens.bianchi,
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    const r = res.body.data;
    expect(r).toMatchObject({
      cost: 130.9,
      admin_fees: 4.5,
      total: 135.4,
      to_be_quoted: false,
      carrier_id: w.beta,
      enduser: { id: w.bianchi },
      lead_time: 1,
      transport_class: { name: 'GOLD' },
      quote: { zone: 'national', service: 'palletExpress', flow: 'OUT', class: 'GOLD' },
    });
    expect(r.shipment).toHaveLength(1);
    // The quote's places win over the address fields.
    expect(r.shipment[0].shipment_addess_pick_up).toMatchObject({ postal_code: '20121', city: 'Milano', province: 'MI' });
    expect(r.shipment[0].shipment_address_delivery).toMatchObject({ postal_code: '00184', city: 'Roma', province: 'RM' });
    expect(r.shipment[0]).toMatchObject({ transport_request_type_id: 1, transport_class: { name: 'GOLD' } });
    expect(r.shipment[0].shipment_detail).toEqual([
      expect.objectContaining({ shipment_type_id: 1, pallet_weight: 250, pallet_width: 120, pallet_length: 80, pallet_height: 90, pallet_type: 'p300' }),
    ]);
    expect(r.documents).toHaveLength(1);
  });

  it("stores a SILVER express request and a standard one at the server's price", async () => {
    const silver = await send(
      '/enduser/transport_requests/newRequest',
      { ...EXPRESS_QUOTE, ...handShipment(0), shipmentclass: 'SILVER', cost: '93.50', admin_fees: '4.50' },
      w.tokens.bianchi,
    );
    expect(silver.body).toMatchObject({ status: true, data: { cost: 93.5, admin_fees: 4.5, lead_time: 2 } });
    // Standard: 300 kg against 1 m³ × 250 kg: 300 kg at 20.00 per 100 kg = 60.00, + 10 % = 66.00.
    const std = await send(
      '/enduser/transport_requests/newRequest',
      { ...STANDARD_QUOTE, ...handShipment(0), cost: '66', admin_fees: '4.5' },
      w.tokens.bianchi,
    );
    expect(std.body).toMatchObject({ status: true, data: { cost: 66, admin_fees: 4.5, total: 70.5, lead_time: 3, transport_class: { name: 'STANDARD' } } });
    expect(std.body.data.shipment[0].shipment_detail).toEqual([
      expect.objectContaining({ shipment_type_id: 2, total_units: 3, gross_weight: 300, volume: 1, volume_type: 'CBM' }),
    ]);
  });

  it('refuses a client price that differs by a cent, and stores nothing', async () => {
    const before = await counts(p());
    const files = () => filesState(p());
    const stored = await files();
    for (const [cost, fee] of [
      ['130.89', '4.50'],
      ['130.90', '4.51'],
      ['0', '0'],
    ]) {
      const res = await send(
        '/enduser/transport_requests/newRequest',
        {
          ...EXPRESS_QUOTE,
          ...handShipment(0),
          shipmentclass: 'GOLD',
          cost,
          admin_fees: fee,
          documents: [pdf],
          doctypes: [String(w.docType)],
        },
        w.tokens.bianchi,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ outcome: 'not_booked', status: false, message: 'Il prezzo è cambiato, ricalcola il costo' });
    }
    expect(await counts(p())).toEqual(before);
    expect(await files()).toEqual(stored);
  });

  it('answers a quote that cannot be priced with status false and stores nothing', async () => {
    const before = await counts(p());
    const res = await send(
      '/enduser/transport_requests/newRequest',
      {
        ...EXPRESS_QUOTE,
        destinationPostalCode: '80121',
        destinationLocality: 'Napoli',
        destinationProvince: 'NA',
        ...handShipment(0),
        shipmentclass: 'GOLD',
        cost: '1',
        admin_fees: '1',
      },
      w.tokens.bianchi,
    );
    expect(res.body.status).toBe(false);
    expect(res.body.message).toMatch(/NA/);
    expect(await counts(p())).toEqual(before);
  });

  it('lets a visitor book from a quote: the visitor carrier gets it, priced for visitors', async () => {
    const contact = { visitor_company: 'Ditta Verdi', firstname: 'Luca', lastname: 'Verdi', email: 'Luca@Verdi.example', phone: '+39 333 1234567' };
    // GOLD for a visitor: 119.00 × 1.2 = 142.80, admin fee 3.00.
    const wrong = await send('/visitor/saveExpressRequest', {
      ...EXPRESS_QUOTE,
      ...handShipment(0),
      ...contact,
      shipmentclass: 'GOLD',
      shipmentprice: '130.90',
      adminfee: '4.50',
    });
    expect(wrong.body).toEqual({ outcome: 'not_booked', status: false, message: 'Il prezzo è cambiato, ricalcola il costo' });
    const res = await send('/visitor/saveExpressRequest', {
      ...EXPRESS_QUOTE,
      ...handShipment(0),
      ...contact,
      shipmentclass: 'GOLD',
      shipmentprice: '142.80',
      adminfee: '3.00',
      shipmentleadtime: '1',
    });
    expect(res.body).toMatchObject({ status: true, message: 'Richiesta di trasporto creata con successo' });
    const id = res.body.data.id;
    const shown = await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.beta });
    expect(shown.body.data).toMatchObject({
      cost: 142.8,
      admin_fees: 3,
      enduser: null,
      visitor_company: 'Ditta Verdi',
      firstname: 'Luca',
      email: 'luca@verdi.example',
    });
    expect((await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.acme })).status).toBe(404);
    const std = await send('/visitor/saveStandardRequest', { ...STANDARD_QUOTE, ...handShipment(0), ...contact, shipmentprice: '72', adminfee: '3' });
    expect(std.body).toMatchObject({ status: true });
    // Contact details are required; the express call takes only express quotes.
    const missing = await send('/visitor/saveStandardRequest', { ...STANDARD_QUOTE, ...handShipment(0), shipmentprice: '72', adminfee: '3' });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['email', 'firstname', 'lastname', 'phone']);
    const crossed = await send('/visitor/saveExpressRequest', { ...STANDARD_QUOTE, ...handShipment(0), ...contact, shipmentprice: '72', adminfee: '3' });
    expect(crossed.status).toBe(422);
  });

  it('throttles visitor saves per address', async () => {
    const headers = { 'x-forwarded-for': '10.77.0.1' };
    let last = 0;
    for (let i = 0; i < 21; i++) {
      const mp = await multipart(clean({ ...STANDARD_QUOTE }));
      last = (await p().api('POST', '/visitor/saveStandardRequest', { payload: mp.payload, headers: { ...mp.headers, ...headers } })).status;
    }
    expect(last).toBe(429);
    const mp = await multipart(clean({ ...STANDARD_QUOTE }));
    expect(
      (await p().api('POST', '/visitor/saveStandardRequest', { payload: mp.payload, headers: { ...mp.headers, 'x-forwarded-for': '10.77.0.2' } })).status,
    ).toBe(422);
  });
});
