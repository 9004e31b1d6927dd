import { beforeAll, expect, it } from 'vitest';
import { romeToday } from '../../server/lib/romeDate.js';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, insertWorkedExample, multipart, type World } from './requestsFixtures.js';

/**
 * Fuel surcharge (pricing.md §7) and postal-code surcharges (§8) through the quote route and the
 * transport requests, on both databases: the worked example of §6 (Milano → Roma 00184, one pallet
 * 250 kg) priced by carrier Beta with a fuel plan (base 1.500, step 0.020, 0.5 %, cap 8) and a ZTL 00184
 * at delivery (7.00). Diesel 1.587 this month → 4 steps → 2 %.
 *   GOLD:   119.00 + 2.38 fuel + 7.00 ZTL = 128.38; end user +10 % → 141.22 (+ fee 4.50 = 145.72)
 *   SILVER:  85.00 + 1.70 fuel + 7.00 ZTL =  93.70; end user +10 % → 103.07
 */
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
  palletWeight: [250],
  palletWidth: [120],
  palletLength: [80],
  palletHeight: [90],
};
const month = romeToday().slice(0, 7);
const monthIt = new Intl.DateTimeFormat('it-IT', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
const earlier = (() => {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 2);
  return d.toISOString().slice(0, 7);
})();

describeEachDb('fuel and postal-code surcharges in quotes and requests', (p) => {
  let w: World;
  const db = () => p().db.db;
  const setDiesel = async (rows: Array<[string, string]>) => {
    await db().deleteFrom('diesel_prices').execute();
    for (const [m, price] of rows)
      await db().insertInto('diesel_prices').values({ month: m, price, note: 'test', created_at: new Date().toISOString() }).execute();
  };
  beforeAll(async () => {
    w = await createWorld(p());
    await insertWorkedExample(p(), w.beta);
    await db().updateTable('companies').set({ increase_percent: '10', national_admin_fee: 450 }).where('id', '=', w.bianchi).execute();
    await db()
      .updateTable('companies')
      .set({ fuel_base_price: '1.500', fuel_step: '0.020', fuel_step_percent: '0.5', fuel_max_percent: '8' })
      .where('id', '=', w.beta)
      .execute();
    await db()
      .insertInto('postal_surcharges')
      .values([
        { company_id: w.beta, country: 'IT', postal_code: '00184', kind: 'ztl', flow: 'OUT', fixed: 700, percent: null },
        { company_id: w.beta, country: 'IT', postal_code: '001*', kind: 'ztl', flow: 'OUT', fixed: 9900, percent: null },
        { company_id: w.beta, country: 'IT', postal_code: '20121', kind: 'ztl', flow: 'OUT', fixed: 9900, percent: null },
      ])
      .execute();
    await setDiesel([
      [earlier, '1.620'],
      [month, '1.587'],
    ]);
  });
  const quote = (token: string, lang = 'it') => p().api('POST', '/visitor/costRequest', { token, body: QUOTE, lang });

  it('the end user gets data.fuel, the month and percent and the ZTL in Italian, and only its own prices', async () => {
    const r = await quote(w.tokens.bianchi);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(true);
    expect(r.body.data.fuel).toEqual({ month, price: '1.587', percent: '2' });
    expect(r.body.data.prices_list).toMatchObject({ x_total_gold_sell: 141.22, x_total_silver_sell: 103.07, admin_fee: 4.5, total_gold_sell: null });
    const labels = r.body.data.breakdown.map((l: { label: string }) => l.label);
    expect(labels).toContain(`Adeguamento gasolio ${monthIt}: 2 %`);
    expect(labels).toContain('ZTL 00184, consegna');
    const keys = r.body.data.breakdown.map((l: { key: string }) => l.key);
    for (const k of ['pricing.fuelAmount', 'pricing.postalSurcharge', 'pricing.listTotal']) expect(keys).not.toContain(k);
    for (const l of r.body.data.breakdown.filter((x: { key: string }) => x.key === 'pricing.fuel' || x.key === 'pricing.postalInfo'))
      expect(l.amount).toBeNull();
  });

  it('the carrier sees the amounts per class and side, in its language', async () => {
    const r = await quote(w.tokens.beta, 'en');
    const lines = r.body.data.breakdown as Array<{ key: string; label: string; amount: number | null }>;
    expect(lines.find((l) => l.label === 'Fuel surcharge 2% GOLD (sell)')?.amount).toBe(2.38);
    expect(lines.find((l) => l.label === 'ZTL 00184, delivery GOLD (sell)')?.amount).toBe(7);
    expect(r.body.data.prices_list).toMatchObject({ total_gold_sell: 128.38, total_silver_sell: 93.7 });
  });

  it('without this month the latest earlier one prices; without any row the carrier is told', async () => {
    await setDiesel([[earlier, '1.620']]);
    const r = await quote(w.tokens.bianchi);
    expect(r.body.data.fuel).toEqual({ month: earlier, price: '1.620', percent: '3' });
    await setDiesel([]);
    const none = await quote(w.tokens.beta, 'it');
    expect(none.body.data.fuel).toBeNull();
    expect(none.body.data.breakdown.some((l: { key: string }) => l.key === 'pricing.noDieselPrice')).toBe(true);
    expect(none.body.data.prices_list.total_gold_sell).toBe(126); // 119.00 + 7.00 ZTL, no fuel
    const eu = await quote(w.tokens.bianchi);
    expect(eu.body.data.breakdown.some((l: { key: string }) => l.key === 'pricing.noDieselPrice')).toBe(false);
    await setDiesel([
      [earlier, '1.620'],
      [month, '1.587'],
    ]);
  });

  it('a request stores the fuel it was priced with; a later diesel change leaves it alone', async () => {
    const pallets = { palletWeight: ['250'], palletWidth: ['120'], palletLength: ['80'], palletHeight: ['90'] };
    const mp = await multipart({ ...QUOTE, ...pallets, ...handShipment(0), shipmentclass: 'GOLD', cost: '141.22', admin_fees: '4.50' });
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.bianchi, payload: mp.payload, headers: mp.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, data: { cost: 141.22, admin_fees: 4.5, total: 145.72, fuel: { month, price: '1.587', percent: '2' } } });
    const id = res.body.data.id;
    const stored = await db()
      .selectFrom('transport_requests')
      .select(['fuel_month', 'fuel_price', 'fuel_percent', 'cost'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ fuel_month: month, fuel_price: '1.587', fuel_percent: '2', cost: 14122 });

    await db().updateTable('diesel_prices').set({ price: '1.700' }).where('month', '=', month).execute();
    expect((await quote(w.tokens.bianchi)).body.data.fuel.percent).toBe('5');
    const shown = await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.beta });
    expect(shown.body.data).toMatchObject({ cost: 141.22, fuel: { month, price: '1.587', percent: '2' } });
    const mine = await p().api('GET', `/enduser/transport_requests/show/${id}`, { token: w.tokens.bianchi });
    expect(mine.body.data.fuel).toEqual({ month, price: '1.587', percent: '2' });
  });
});
