import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { invalidatePricingData } from '../../server/repositories/pricingData.js';
import { addExpressRows, addSheet, buildPricingWorld, type PricingWorld } from './pricingFixtures.js';

const place = (end: 'origin' | 'destination', locality: string, province: string, postal: string, country = 'IT') => ({
  [`${end}Country`]: country,
  [`${end}PostalCode`]: postal,
  [`${end}Locality`]: locality,
  [`${end}Province`]: province,
});
const MILANO = place('origin', 'Milano', 'MI', '20121');
const ROMA = place('destination', 'Roma', 'RM', '00118');
const EXPRESS = {
  zone: 'national',
  service: 'palletExpress',
  ...MILANO,
  ...ROMA,
  palletWeight: [250],
  palletWidth: [120],
  palletLength: [80],
  palletHeight: [90],
};
const STANDARD = {
  zone: 'national',
  service: 'standard',
  ...MILANO,
  ...ROMA,
  standardunits: 1,
  standardweight: 250,
  standardvolume: 0,
  standardvolumeType: 'CBM',
  calculationRatio: 'CBM250',
};

/** The rows the repository loads for each rule: hubs, islands, special zones, zone codes, no-passage, versions. */
describeEachDb('cost request tariff data', (p) => {
  let w: PricingWorld;
  let token: string;
  const quote = async (body: unknown) => {
    const r = await p().api('POST', '/visitor/costRequest', { token, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status, r.body.message).toBe(true);
    return r.body.data;
  };
  const labels = (d: any) => d.breakdown.map((l: any) => l.label);

  beforeAll(async () => {
    w = await buildPricingWorld(p().db.db, 'data');
    token = await p().login(w.logins.carrier);
  });

  it('flow IN rates the origin and takes the hub of the destination', async () => {
    const d = await quote({ ...EXPRESS, flow: 'IN' });
    expect(d.prices_list).toMatchObject({ total_silver_sell: 56, total_gold_sell: 77, max_leadtime_sell_silver: 1, total_silver_buy: null });
    expect(labels(d)).toContain('Hub HUBRM (codice RM, per provincia)');
  });

  it('finds the hub by postal code before the province', async () => {
    const d = await quote({ ...EXPRESS, ...place('origin', 'Sesto San Giovanni', 'MI', '20099') });
    expect(d.prices_list).toMatchObject({ total_silver_sell: 83, total_gold_sell: 114 });
    expect(labels(d)).toContain('Hub HUBSESTO (codice 20099, per CAP)');
  });

  it('prices each pallet in its band', async () => {
    const d = await quote({
      ...EXPRESS,
      palletWeight: [150, 300, 550],
      palletWidth: [120, 100, 80],
      palletLength: [80, 120, 120],
      palletHeight: [80, 100, 150],
    });
    expect(d.palletData.map((x: any) => x.type)).toEqual(['p150', 'p300', 'p550']);
    expect(d.prices_list).toMatchObject({ total_silver_sell: 60 + 80 + 100 + 15, total_gold_sell: 90 + 110 + 140 + 27 });
  });

  it('prices an island from the island list, a minor island before its region', async () => {
    const d = await quote({ ...EXPRESS, ...place('destination', 'Lipari', 'ME', '98055') });
    // SILVER (95 + 5) × 1.2 + 10 + 2 × 3 quintals = 136.00; GOLD (125 + 9) × 1.25 + 12 + 3 × 3 = 188.50
    expect(d.prices_list).toMatchObject({ total_silver_sell: 136, total_gold_sell: 188.5, max_leadtime_sell_silver: 3, max_leadtime_sell_gold: 2 });
    expect(labels(d)).toContain('Isola: Eolie (dall’elenco delle isole)');
  });

  it('prices the island named in the request', async () => {
    const d = await quote({ ...EXPRESS, island: 'eolie' });
    // SILVER (80 + 5) × 1.2 + 10 + 6 = 118.00; GOLD (110 + 9) × 1.25 + 12 + 9 = 169.75
    expect(d.prices_list).toMatchObject({ total_silver_sell: 118, total_gold_sell: 169.75 });
  });

  it('adds a day of lead time in an express special zone matched by postal code only', async () => {
    const special = await quote({ ...EXPRESS, ...place('destination', 'Napoli', 'NA', '80121') });
    expect(special.prices_list).toMatchObject({ total_silver_sell: 90, max_leadtime_sell_silver: 3, max_leadtime_sell_gold: 2 });
    const ordinary = await quote({ ...EXPRESS, ...place('destination', 'Napoli', 'NA', '80131') });
    expect(ordinary.prices_list).toMatchObject({ max_leadtime_sell_silver: 2, max_leadtime_sell_gold: 1 });
  });

  it('adds ADR and tail lift to sell and buy totals', async () => {
    const d = await quote({ ...EXPRESS, adr: 1, taillift: 1 });
    expect(d.prices_list).toMatchObject({ total_silver_sell: 113.5, total_gold_sell: 150.9, total_silver_buy: 91.5, total_gold_buy: 128.9 });
  });

  it('takes a standard special zone’s code and the no-passage rows of the destination city', async () => {
    const zs = await quote({ ...STANDARD, ...place('destination', 'Firenze', 'FI', '50121') });
    // zone ZS1 (25.00 per 100 kg) → 62.50; no-passage 5.00 + 1.00 × 3 quintals = 8.00
    expect(zs.costo_complete).toEqual({ final_cost_lane_one: 62.5, final_cost_lane_two: 0, shipment_cost: 70.5, admin_fee: 3, totla: 73.5, lead_time: 5 });
    expect(labels(zs)).toContain('Zona tariffaria IT ZS1 (zona speciale)');
    expect(labels(zs)).toContain('Supplemento non transito alla consegna: Firenze (FI)');
    const fi = await quote({ ...STANDARD, ...place('destination', 'Firenze', 'FI', '50123') });
    expect(fi.costo_complete).toMatchObject({ shipment_cost: 45 + 8, lead_time: 2 });
  });

  it('prices international quotes on the zone code of the postal prefix, either way', async () => {
    const munich = { ...STANDARD, zone: 'international', ...place('destination', 'München', '', '80331', 'DE'), standardvolume: 1 };
    const d = await quote(munich);
    expect(d.costo_complete).toEqual({ final_cost_lane_one: 75, final_cost_lane_two: 75, shipment_cost: 75, admin_fee: 8, totla: 83, lead_time: 5 });
    expect(labels(d)).toContain('Zona tariffaria DE 80 (prefisso del CAP)');
    const berlin = await quote({ ...munich, ...place('destination', 'Berlin', '', '10115', 'DE') });
    expect(berlin.costo_complete).toMatchObject({ shipment_cost: 100, lead_time: 6 });
    const inbound = await quote({ ...munich, ...place('origin', 'München', '', '80331', 'de'), ...ROMA });
    expect(inbound.costo_complete).toMatchObject({ shipment_cost: 75, totla: 83 });
  });

  it('prices loading metres with an LM ratio', async () => {
    const d = await quote({ ...STANDARD, standardvolumeType: 'LM', standardvolume: 0.2, calculationRatio: 'LM1500' });
    expect(d.units).toMatchObject({ ratio: 1500, chargeable_weight: 300, standardvolumeType: 'LM' });
    expect(d.costo_complete).toMatchObject({ final_cost_lane_one: 37.5, final_cost_lane_two: 45, shipment_cost: 45 });
  });

  it('uses the applicable version with the latest start: never an expired or a future one', async () => {
    expect((await quote(EXPRESS)).prices_list.total_silver_sell).toBe(85);
    const category = await p()
      .db.db.selectFrom('rate_sheets')
      .select('category_id')
      .where('company_id', '=', w.carrier)
      .where('rate_type', '=', 'EXP')
      .where('area', '=', 'Customer')
      .executeTakeFirstOrThrow();
    const newer = await addSheet(p().db.db, w.carrier, { rateType: 'EXP', zone: 'NAT', categoryId: category.category_id, from: '2020-01-01', code: 'NEWER' });
    await addExpressRows(p().db.db, newer.sheetId, [
      { province: 'RM', type_id: 1, p300: 81 },
      { province: 'RM', type_id: 2, p300: 111 },
    ]);
    const d = await quote(EXPRESS);
    expect(d.prices_list).toMatchObject({ total_silver_sell: 86, total_gold_sell: 120 });
    expect(labels(d)[0]).toBe('Listino di vendita NEWER (listino standard del vettore)');
  });
});

/** PRICING_CACHE_MS: rows read for a quote are reused for a while; a tariff change in this process shows at once. */
describeEachDb(
  'cost request tariff cache',
  (p) => {
    it('reuses the rows it read until the tariffs change, then reads them again', async () => {
      const w = await buildPricingWorld(p().db.db, 'cache');
      const token = await p().login(w.logins.carrier);
      const silver = async () => (await p().api('POST', '/visitor/costRequest', { token, body: EXPRESS })).body.data.prices_list.total_silver_sell;
      expect(await silver()).toBe(85);
      const sheet = await p()
        .db.db.selectFrom('rate_sheets')
        .select('id')
        .where('company_id', '=', w.carrier)
        .where('rate_type', '=', 'EXP')
        .where('area', '=', 'Customer')
        .where('validate_from', '=', '2000-01-01')
        .where('validate_to', '=', '2099-12-31')
        .executeTakeFirstOrThrow();
      await p()
        .db.db.updateTable('express_rate_rows')
        .set({ p300: 9000 })
        .where('rate_sheet_id', '=', sheet.id)
        .where('province', '=', 'RM')
        .where('type_id', '=', 1)
        .execute();
      expect(await silver()).toBe(85); // still the rows read a moment ago
      invalidatePricingData(p().db.db);
      expect(await silver()).toBe(95);
      // a carrier's tariff delete through the API empties the cache before it answers: no hub cost any more
      const del = await p().api('GET', '/company/express_hub_costs/destroy', { token });
      expect(del.status, JSON.stringify(del.body)).toBe(200);
      expect(await silver()).toBe(90);
    });
  },
  { pricingCacheMs: 60_000 },
);
