import { beforeAll, expect, it } from 'vitest';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS } from '../../model/tariffs.js';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, insertWorkedExample, multipart, type World } from './requestsFixtures.js';
import { form, xlsx } from './tariffs.helpers.js';

/** Milano → a province, one pallet 250 kg 120 × 80 × 90 (band p300), flow OUT. */
const express = (province: string, postalCode: string, city: string) => ({
  zone: 'national',
  service: 'palletExpress',
  flow: 'OUT',
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: postalCode,
  destinationLocality: city,
  destinationProvince: province,
  palletWeight: ['250'],
  palletWidth: ['120'],
  palletLength: ['80'],
  palletHeight: ['90'],
});
/** Milano → a province, 3 units, 300 kg, 1 m³ (chargeable 300 kg). */
const standard = (province: string, postalCode: string, city: string) => {
  const { palletWeight: _w, palletWidth: _wi, palletLength: _l, palletHeight: _h, flow: _f, ...rest } = express(province, postalCode, city);
  return { ...rest, service: 'standard', standardunits: '3', standardweight: '300', standardvolume: '1', standardvolumeType: 'CBM' };
};

const EXP_HEAD = EXPRESS_RATE_ROWS.columns.map((c) => c.name);
const STD_HEAD = STANDARD_RATE_ROWS.columns.map((c) => c.name);
const byHead = (head: string[], values: Record<string, string | number | null>) => head.map((h) => values[h] ?? null);
const expRow = (province: string, type: number, p300: number) => byHead(EXP_HEAD, { country: 'IT', province, p300, leadtime: 2, type_id: type });
const stdRow = (zone: string, price: number) =>
  byHead(STD_HEAD, { rate_code: 'R1', country: 'IT', zone_code: zone, weight_from: 0, weight_to: 1000, price, unit: 'Q', minimum: 30, leadtime: 3 });

describeEachDb('tariff checks: impact on recent requests (issue 20, item 2)', (p) => {
  let w: World;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    w = await createWorld(p());
    const db = p().db.db;
    // The worked example of pricing.md §6 (EXP/NAT: RM SILVER p300 80.00, GOLD 110.00; hub MI → HUBMI 5.00 / 9.00;
    // STD/NAT: RM 20.00 per 100 kg), plus rows for NA (express SILVER 90.00, GOLD 120.00; standard 20.00) and FI (standard 20.00).
    await insertWorkedExample(p(), w.beta);
    const sheet = async (code: string) => (await db.selectFrom('rate_sheets').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
    const exp = await sheet('WE-EXP');
    const std = await sheet('WE-STD');
    const nullCells = { rate_code: null, carrier_zone: null, department: null, hub: null, p150: null, p550: null, ps550: null, p1000: null };
    await db
      .insertInto('express_rate_rows')
      .values([
        { ...nullCells, rate_sheet_id: exp, country: 'IT', province: 'NA', type_id: 1, p300: 9000, leadtime: 2 },
        { ...nullCells, rate_sheet_id: exp, country: 'IT', province: 'NA', type_id: 2, p300: 12000, leadtime: 1 },
      ])
      .execute();
    const stdCells = {
      rate_sheet_id: std,
      rate_code: 'R1',
      country: 'IT',
      weight_from: '0',
      weight_to: '1000',
      price: 2000,
      unit: 'Q',
      minimum: 3000,
      leadtime: 3,
    };
    await db
      .insertInto('standard_rate_rows')
      .values([
        { ...stdCells, zone_code: 'NA' },
        { ...stdCells, zone_code: 'FI' },
      ])
      .execute();
    // The end user pays +10 % and a 4.50 admin fee; a visitor pays × 1.2 and the carrier's 3.00 fee.
    await db.updateTable('companies').set({ increase_percent: '10', national_admin_fee: 450 }).where('id', '=', w.bianchi).execute();
    await db.updateTable('companies').set({ visitor_price_multiplier: '1.2', national_admin_fee: 300 }).where('id', '=', w.beta).execute();

    const make = async (name: string, quote: Record<string, unknown>, extra: Record<string, string>) => {
      const mp = await multipart({ ...(quote as Record<string, string>), ...handShipment(0), ...extra });
      const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.bianchi, payload: mp.payload, headers: mp.headers });
      expect(res.body.status, `${name}: ${JSON.stringify(res.body)}`).toBe(true);
      ids[name] = res.body.data.id;
    };
    // Prices paid (sell offer + admin fee): GOLD RM (110 + 9) × 1.1 = 130.90 + 4.50; SILVER RM (80 + 5) × 1.1 = 93.50 + 4.50;
    // SILVER NA (90 + 5) × 1.1 = 104.50 + 4.50; standard 300 kg × 20.00 / 100 kg × 1.1 = 66.00 + 4.50 (RM, NA, FI).
    await make('goldRM', express('RM', '00184', 'Roma'), { shipmentclass: 'GOLD', cost: '130.90', admin_fees: '4.50' });
    await make('silverRM', express('RM', '00184', 'Roma'), { shipmentclass: 'SILVER', cost: '93.50', admin_fees: '4.50' });
    await make('silverNA', express('NA', '80133', 'Napoli'), { shipmentclass: 'SILVER', cost: '104.50', admin_fees: '4.50' });
    await make('visitorRM', express('RM', '00184', 'Roma'), { shipmentclass: 'SILVER', cost: '93.50', admin_fees: '4.50' });
    await make('oldRM', express('RM', '00184', 'Roma'), { shipmentclass: 'SILVER', cost: '93.50', admin_fees: '4.50' });
    await make('stdRM', standard('RM', '00184', 'Roma'), { cost: '66', admin_fees: '4.5' });
    await make('stdNA', standard('NA', '80133', 'Napoli'), { cost: '66', admin_fees: '4.5' });
    await make('stdFI', standard('FI', '50123', 'Firenze'), { cost: '66', admin_fees: '4.5' });
    // One request as a visitor's (priced for a visitor: 85.00 × 1.2 = 102.00 + 3.00), one older than 90 days.
    await db.updateTable('transport_requests').set({ enduser_company_id: null }).where('id', '=', ids.visitorRM).execute();
    const old = addDays(romeDate(), -91);
    await db
      .updateTable('transport_requests')
      .set({ created_on: old, created_at: `${old}T10:00:00.000Z` })
      .where('id', '=', ids.oldRM)
      .execute();
  });

  const today = () => romeDate();
  const listed = (name: string, before: number, after: number, change_percent: number) => ({
    id: ids[name],
    code: String(ids[name]),
    created_on: today(),
    before,
    after,
    change_percent,
  });

  it('a hub-cost table: the express requests of 90 days, each priced for its own caller', async () => {
    // HUBMI SILVER 5.00 → 6.00: every SILVER request pays 1.10 more (end user), 1.20 more (visitor); GOLD unchanged.
    const file = {
      field: 'hub_costs',
      name: 'hub.xlsx',
      data: xlsx([
        ['code', 'silver', 'gold'],
        ['HUBMI', 6, 9],
      ]),
    };
    const res = await p().api('POST', '/company/express_hub_costs/store', { token: w.tokens.beta, payload: form({ dry_run: 1 }, file) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.summary).toEqual({ added: 0, changed: 1, removed: 0, unchanged: 0 });
    expect(res.body.data.impact).toEqual({
      considered: 4, // goldRM, silverRM, silverNA, visitorRM; not the standard ones, not the old one
      repriced: 3,
      unchanged: 1,
      not_priceable: 0,
      newly_priceable: 0,
      // 0, 1.01, 1.12, 1.14 → (1.01 + 1.12) / 2 = 1.065 → 1.07
      median_change_percent: 1.07,
      max_increase_percent: 1.14,
      max_decrease_percent: null,
      requests: [
        listed('visitorRM', 105, 106.2, 1.14), // 1.20 / 105.00
        listed('silverRM', 98, 99.1, 1.12), // 1.10 / 98.00
        listed('silverNA', 109, 110.1, 1.01), // 1.10 / 109.00
      ],
    });
    // Without a cost for HUBMI the hub adds nothing (pricing.md §2.2): every express price falls by its hub cost.
    const none = {
      field: 'hub_costs',
      name: 'hub.xlsx',
      data: xlsx([
        ['code', 'silver', 'gold'],
        ['HUBTO', 6, 9],
      ]),
    };
    const gone = await p().api('POST', '/company/express_hub_costs/store', { token: w.tokens.beta, payload: form({ dry_run: 1 }, none) });
    expect(gone.body.data.impact).toEqual({
      considered: 4,
      repriced: 4,
      unchanged: 0,
      not_priceable: 0,
      newly_priceable: 0,
      // −7.31, −5.71, −5.61, −5.05 → (−5.71 − 5.61) / 2
      median_change_percent: -5.66,
      max_increase_percent: null,
      max_decrease_percent: 7.31,
      requests: [
        listed('goldRM', 135.4, 125.5, -7.31), // 110 × 1.1 + 4.50
        listed('visitorRM', 105, 99, -5.71), // 80 × 1.2 + 3.00
        listed('silverRM', 98, 92.5, -5.61),
        listed('silverNA', 109, 103.5, -5.05),
      ],
    });
    // Nothing was stored.
    const hubs = await p().db.db.selectFrom('express_hub_costs').select(['code', 'silver']).where('company_id', '=', w.beta).execute();
    expect(hubs.map((h) => [h.code, Number(h.silver)])).toEqual([['HUBMI', 500]]);
  });

  it('a postal surcharges table (pricing.md §8): a ZTL at the Roma end reprices express and standard alike', async () => {
    // ZTL 00184 on delivery, 7.00 fixed, before the adjustments: end user × 1.1 = +7.70, visitor × 1.2 = +8.40.
    const file = {
      field: 'postal_surcharges',
      name: 'cap.xlsx',
      data: xlsx([
        ['country', 'postal_code', 'kind', 'flow', 'fixed', 'percent'],
        ['IT', '00184', 'ztl', 'OUT', 7, null],
      ]),
    };
    const res = await p().api('POST', '/company/postal_surcharges/store', { token: w.tokens.beta, payload: form({ dry_run: 1 }, file) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.errors).toEqual([]);
    expect(res.body.data.impact).toEqual({
      considered: 7, // every service: the four express and three standard requests of 90 days
      repriced: 4,
      unchanged: 3,
      not_priceable: 0,
      newly_priceable: 0,
      // 0, 0, 0, 5.69, 7.86, 8.00, 10.92 → the fourth
      median_change_percent: 5.69,
      max_increase_percent: 10.92,
      max_decrease_percent: null,
      requests: [
        listed('stdRM', 70.5, 78.2, 10.92), // (60.00 + 7.00) × 1.1 + 4.50
        listed('visitorRM', 105, 113.4, 8), // (85.00 + 7.00) × 1.2 + 3.00
        listed('silverRM', 98, 105.7, 7.86), // (85.00 + 7.00) × 1.1 + 4.50
        listed('goldRM', 135.4, 143.1, 5.69), // (119.00 + 7.00) × 1.1 + 4.50
      ],
    });
    const stored = await p().db.db.selectFrom('postal_surcharges').select('id').where('company_id', '=', w.beta).execute();
    expect(stored).toEqual([]);
  });

  it('a Customer standard sheet in place of the current version: one zone dearer, one gone', async () => {
    const cat = await p().db.db.selectFrom('categories').select('id').where('code', '=', 'WE-STD').executeTakeFirstOrThrow();
    const file = { field: 'rate_sheet', name: 'std.xlsx', data: xlsx([STD_HEAD, stdRow('RM', 25), stdRow('NA', 20)]) };
    const fields = { zone: 'NAT', rate_type: 'STD', area: 'Customer', is_standard: 1, validate_from: '2030-01-01', validate_to: '2030-12-31' };
    const res = await p().api('POST', '/admin/rate_sheet/store', {
      token: w.tokens.admin,
      payload: form({ ...fields, company_id: w.beta, category_id: cat.id, dry_run: 1 }, file),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // RM: 300 kg × 25.00 / 100 kg × 1.1 = 82.50 + 4.50 = 87.00 against 70.50: +23.40 %; NA unchanged; FI no row.
    expect(res.body.data.impact).toEqual({
      considered: 3,
      repriced: 1,
      unchanged: 1,
      not_priceable: 1,
      newly_priceable: 0,
      median_change_percent: 11.7,
      max_increase_percent: 23.4,
      max_decrease_percent: null,
      requests: [listed('stdRM', 70.5, 87, 23.4)],
    });
    // A Supplier standard sheet prices no quote: no impact.
    const supplier = await p().api('POST', '/admin/rate_sheet/store', {
      token: w.tokens.admin,
      payload: form({ ...fields, area: 'Supplier', company_id: w.beta, dry_run: 1 }, file),
    });
    expect(supplier.body.data.impact).toBeNull();
  });

  it("an end user's sheet: only that end user's requests, cheaper where the sheet has rows", async () => {
    const db = p().db.db;
    const now = new Date().toISOString();
    const cat = await db
      .insertInto('categories')
      .values({ company_id: w.beta, code: 'BIANCHI-EXP', rate_type: 'EXP', zone: 'NAT', description: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('companies').set({ exp_category_id: cat.id }).where('id', '=', w.bianchi).execute();
    // SILVER RM 70.00 (was 80.00), GOLD RM 110.00 as before, no NA row.
    const file = { field: 'rate_sheet', name: 'exp.xlsx', data: xlsx([EXP_HEAD, expRow('RM', 1, 70), expRow('RM', 2, 110)]) };
    const fields = { zone: 'NAT', rate_type: 'EXP', area: 'Customer', is_standard: 0, validate_from: '2026-01-01', validate_to: '2030-12-31' };
    const res = await p().api('POST', '/company/rate_sheet/store', {
      token: w.tokens.beta,
      payload: form({ ...fields, category_id: cat.id, dry_run: 1 }, file),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // SILVER RM (70 + 5) × 1.1 = 82.50 + 4.50 = 87.00 against 98.00: −11.22 %; the visitor's request is not Bianchi's.
    expect(res.body.data.impact).toEqual({
      considered: 3,
      repriced: 1,
      unchanged: 1,
      not_priceable: 1,
      newly_priceable: 0,
      median_change_percent: -5.61,
      max_increase_percent: null,
      max_decrease_percent: 11.22,
      requests: [listed('silverRM', 98, 87, -11.22)],
    });
    // A category no end user has: no request is in the sample.
    const other = await db
      .insertInto('categories')
      .values({ company_id: w.beta, code: 'NESSUNO-EXP', rate_type: 'EXP', zone: 'NAT', description: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const none = await p().api('POST', '/company/rate_sheet/store', {
      token: w.tokens.beta,
      payload: form({ ...fields, category_id: other.id, dry_run: 1 }, file),
    });
    expect(none.body.data.impact).toBeNull();
    await db.updateTable('companies').set({ exp_category_id: null }).where('id', '=', w.bianchi).execute();
  });
});
