import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, DEMO } from './helpers.js';
import { buildPricingWorld, type PricingWorld } from './pricingFixtures.js';

/** The worked example of pricing.md §6 and the same quotes for every caller (pricing.md §1). */
const EXAMPLE = {
  zone: 'national',
  service: 'palletExpress',
  flow: 'OUT',
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: '00118',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
  palletWeight: [250],
  palletWidth: [120],
  palletLength: [80],
  palletHeight: [90],
};
const STANDARD = {
  zone: 'national',
  service: 'standard',
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: '00118',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
  standardunits: 2,
  standardweight: 250,
  standardvolume: 1.2,
  standardvolumeType: 'CBM',
};

describeEachDb('cost request per caller', (p) => {
  let w: PricingWorld;
  const tokens: Record<string, string> = {};
  let visitorIp = 0;
  /** A visitor call from its own address, so the per-address throttle of other tests never interferes. */
  const asVisitor = async (body: unknown, lang = 'it') => {
    const res = await p().app.inject({
      method: 'POST',
      url: '/api/v1/visitor/costRequest',
      remoteAddress: `10.8.0.${++visitorIp}`,
      headers: { 'x-api-password': p().config.apiPassword, 'accept-language': lang },
      payload: body as object,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const quote = (who: string, body: unknown, lang = 'it') => p().api('POST', '/visitor/costRequest', { token: tokens[who], body, lang });

  beforeAll(async () => {
    w = await buildPricingWorld(p().db.db, 'roles');
    tokens.carrier = await p().login(w.logins.carrier);
    tokens.endUser = await p().login(w.logins.endUser);
    tokens.endUser2 = await p().login(w.logins.endUser2);
    tokens.admin = await p().login(DEMO.admin);
  });

  it('prices the worked example of pricing.md §6 to the cent for the end user, and shows only its own price', async () => {
    const r = await quote('endUser', EXAMPLE);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(true);
    expect(r.body.message).toBe('');
    expect(r.body.data.palletData).toEqual([{ row: 1, weight: '250', width: '120', length: '80', height: '90', measure: '120×80×90', type: 'p300' }]);
    expect(r.body.data.prices_list).toEqual({
      total_silver_buy: null,
      total_gold_buy: null,
      max_leadtime_buy_silver: null,
      max_leadtime_buy_gold: null,
      total_silver_sell: null,
      total_gold_sell: null,
      admin_fee: 4.5,
      x_total_silver_sell: 93.5,
      x_total_gold_sell: 130.9,
      max_leadtime_sell_silver: 2,
      max_leadtime_sell_gold: 1,
    });
    const labels = r.body.data.breakdown.map((l: any) => l.label);
    expect(r.body.data.breakdown).toContainEqual({ key: 'pricing.total', label: 'Totale GOLD', amount: 135.4 });
    expect(r.body.data.breakdown).toContainEqual({ key: 'pricing.total', label: 'Totale SILVER', amount: 98 });
    expect(labels).toContain('Pallet 1: 120×80×90 cm, 250 kg → fascia p300');
    expect(labels).toContain('Tempi di resa GOLD: 1 giorno');
    // nothing that reveals a list or buy price, the hub or the adjustments
    for (const l of r.body.data.breakdown)
      expect(['pricing.listTotal', 'pricing.buyTotal', 'pricing.hub', 'pricing.hubCost', 'pricing.increase', 'pricing.palletBase']).not.toContain(l.key);
    expect(JSON.stringify(r.body)).not.toMatch(/\b85\b|\b119\b|HUBMI/);
  });

  it('the carrier sees list, offer and buy prices, with its end user or without one', async () => {
    const withEndUser = await quote('carrier', { ...EXAMPLE, enduser_id: w.endUser });
    expect(withEndUser.body.status).toBe(true);
    expect(withEndUser.body.data.prices_list).toEqual({
      total_silver_buy: 65,
      total_gold_buy: 99,
      max_leadtime_buy_silver: 3,
      max_leadtime_buy_gold: 2,
      total_silver_sell: 85,
      total_gold_sell: 119,
      admin_fee: 4.5,
      x_total_silver_sell: 93.5,
      x_total_gold_sell: 130.9,
      max_leadtime_sell_silver: 2,
      max_leadtime_sell_gold: 1,
    });
    const keys = withEndUser.body.data.breakdown.map((l: any) => l.key);
    expect(keys).toEqual(
      expect.arrayContaining(['pricing.hub', 'pricing.palletBase', 'pricing.hubCost', 'pricing.listTotal', 'pricing.increase', 'pricing.buyTotal']),
    );
    expect(withEndUser.body.data.breakdown).toContainEqual({ key: 'pricing.hubCost', label: 'Pallet 1 GOLD (acquisto): costo hub HUBMI', amount: 9 });

    const alone = await quote('carrier', EXAMPLE);
    expect(alone.body.data.prices_list).toMatchObject({
      total_silver_sell: 85,
      total_gold_sell: 119,
      x_total_silver_sell: 85,
      x_total_gold_sell: 119,
      admin_fee: 3,
      total_silver_buy: 65,
      total_gold_buy: 99,
    });
  });

  it('the admin prices for the company it names, with or without an end user', async () => {
    const r = await quote('admin', { ...EXAMPLE, company_id: w.carrier, enduser_id: w.endUser });
    expect(r.body.data.prices_list).toMatchObject({
      total_silver_sell: 85,
      x_total_silver_sell: 93.5,
      x_total_gold_sell: 130.9,
      admin_fee: 4.5,
      total_gold_buy: 99,
    });
    const other = await quote('admin', { ...EXAMPLE, company_id: w.other });
    expect(other.body.data.prices_list).toMatchObject({ x_total_silver_sell: 1099, x_total_gold_sell: 1099, admin_fee: 1, total_silver_buy: null });
  });

  it('a visitor gets the visitor carrier’s price with its multiplier and fee, and no buy prices', async () => {
    const r = await asVisitor(EXAMPLE);
    expect(r.status).toBe(200);
    expect(r.body.data.prices_list).toEqual({
      total_silver_buy: null,
      total_gold_buy: null,
      max_leadtime_buy_silver: null,
      max_leadtime_buy_gold: null,
      total_silver_sell: null,
      total_gold_sell: null,
      admin_fee: 3,
      x_total_silver_sell: 93.5,
      x_total_gold_sell: 130.9,
      max_leadtime_sell_silver: 2,
      max_leadtime_sell_gold: 1,
    });
    expect(r.body.data.breakdown.map((l: any) => l.key)).not.toContain('pricing.visitorMultiplier');
  });

  it('prices a standard quote per caller with the ratio each may use', async () => {
    // end user: its company's CBM ratio 300 → 360 kg volumetric; 15.00 per 100 kg = 54.00, +10 % = 59.40
    const e = await quote('endUser', STANDARD);
    expect(e.body.data.costo_complete).toEqual({
      final_cost_lane_one: null,
      final_cost_lane_two: null,
      shipment_cost: 59.4,
      admin_fee: 4.5,
      totla: 63.9,
      lead_time: 3,
    });
    expect(e.body.data.units).toEqual({
      standardunits: 2,
      standardweight: '250',
      standardvolume: '1.2',
      standardvolumeType: 'CBM',
      ratio: 300,
      chargeable_weight: 360,
    });
    // a ratio the end user sends is ignored
    const e2 = await quote('endUser', { ...STANDARD, calculationRatio: 'CBM500' });
    expect(e2.body.data.units.ratio).toBe(300);

    // carrier: chooses CBM250 → 300 kg → 45.00; actual weight lane 37.50
    const c = await quote('carrier', { ...STANDARD, calculationRatio: 'CBM250' });
    expect(c.body.data.costo_complete).toEqual({
      final_cost_lane_one: 37.5,
      final_cost_lane_two: 45,
      shipment_cost: 45,
      admin_fee: 3,
      totla: 48,
      lead_time: 3,
    });

    // admin for carrier C and end user E, CBM350 → 420 kg → 63.00, +10 % = 69.30
    const a = await quote('admin', { ...STANDARD, calculationRatio: 'CBM350', company_id: w.carrier, enduser_id: w.endUser });
    expect(a.body.data.costo_complete).toEqual({
      final_cost_lane_one: 37.5,
      final_cost_lane_two: 63,
      shipment_cost: 69.3,
      admin_fee: 4.5,
      totla: 73.8,
      lead_time: 3,
    });

    // visitor: the carrier's ratio 250 → 45.00 × 1.1 = 49.50, carrier fee 3.00
    const v = await asVisitor(STANDARD);
    expect(v.body.data.costo_complete).toEqual({
      final_cost_lane_one: null,
      final_cost_lane_two: null,
      shipment_cost: 49.5,
      admin_fee: 3,
      totla: 52.5,
      lead_time: 3,
    });
  });

  it('an end user with its own standard category is priced from it', async () => {
    // E2: its list 10.00 per 100 kg; carrier's ratio 250 → 300 kg → 30.00, −5 % = 28.50; no fee of its own
    const r = await quote('endUser2', STANDARD);
    expect(r.body.data.costo_complete).toMatchObject({ shipment_cost: 28.5, admin_fee: 0, totla: 28.5, lead_time: 2 });
    expect(r.body.data.breakdown[0].label).toMatch(/^Listino di vendita T\w+ \(listino del cliente\)$/);
  });

  it('answers in the caller’s language', async () => {
    const en = await quote('endUser', EXAMPLE, 'en');
    expect(en.body.data.breakdown.map((l: any) => l.label)).toContain('Lead time SILVER: 2 days');
    const fr = await quote('endUser', EXAMPLE, 'fr');
    expect(fr.body.data.breakdown.map((l: any) => l.label)).toContain('Délai SILVER : 2 jours');
  });
});
