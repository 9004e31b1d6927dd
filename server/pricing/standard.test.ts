import { describe, expect, it } from 'vitest';
import { carrier, endUser, MILANO, place, ROMA, standardInput, standardRequest, stdRow } from './fixtures.test-helpers.js';
import { priceQuote } from './quote.js';
import { findBracket, laneCost, noPassageCharges } from './standard.js';
import type { CostoComplete, NoPassage, QuoteInput, StandardGoods, Units } from './types.js';

function std(input: QuoteInput): { c: CostoComplete; u: Units } {
  const r = priceQuote(input);
  if (!r.ok) throw new Error(`refused: ${r.key} ${JSON.stringify(r.params)}`);
  return { c: r.data.costo_complete!, u: r.data.units! };
}
const goods = (over: Partial<StandardGoods>): StandardGoods => ({ units: 1, weight: 250, volume: 0, volumeType: 'CBM', ratio: 250, ...over });
const withGoods = (over: Partial<StandardGoods>, more: Partial<QuoteInput> = {}) =>
  standardInput({ request: standardRequest({ standard: goods(over) }), ...more });

describe('brackets, units and minimum', () => {
  const rows = [stdRow('IT', 'RM', 0, 100, 3000), stdRow('IT', 'RM', 100, 500, 2000)];
  it('selects weight_from < w <= weight_to', () => {
    expect(findBracket(rows, 100)).toBe(rows[0]);
    expect(findBracket(rows, 101)).toBe(rows[1]);
    expect(findBracket(rows, 1)).toBe(rows[0]);
    expect(findBracket(rows, 500)).toBe(rows[1]);
    expect(findBracket(rows, 501)).toBeNull();
    expect(findBracket(rows, 0)).toBeNull();
  });
  it('unit Q is per 100 kg, unit S per shipment, then at least the minimum, rounded half up', () => {
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 2000), 250)).toEqual({ cents: 5000, minimumApplied: false });
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 1999), 251)).toEqual({ cents: 5017, minimumApplied: false }); // 50.1749
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 1998), 251)).toEqual({ cents: 5015, minimumApplied: false }); // 50.1498
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 1001), 250)).toEqual({ cents: 2503, minimumApplied: false }); // 25.025
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 1990), 251)).toEqual({ cents: 4995, minimumApplied: false }); // 49.949 -> 49.95
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 7000, { unit: 'S' }), 250)).toEqual({ cents: 7000, minimumApplied: false });
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 2000, { minimum: 6000 }), 250)).toEqual({ cents: 6000, minimumApplied: true });
    expect(laneCost(stdRow('IT', 'RM', 0, 500, 2000, { minimum: 5000 }), 250)).toEqual({ cents: 5000, minimumApplied: false });
  });
  it('real weight is rounded up to the kg before the bracket', () => {
    expect(std(withGoods({ weight: '100.2' })).c.final_cost_lane_one).toBe(20.2); // 101 kg at 20.00/q
    expect(std(withGoods({ weight: 100 })).c.final_cost_lane_one).toBe(30); // 100 kg at 30.00/q
  });
  it('refuses when no row has the country, zone code and bracket', () => {
    expect(priceQuote(withGoods({ weight: 6000 }))).toEqual({
      ok: false,
      key: 'pricing.noStandardRate',
      params: { country: 'IT', zone_code: 'RM', weight: 6000, lane: 1 },
    });
    expect(priceQuote(withGoods({ weight: 10, volume: 30 }))).toEqual({
      ok: false,
      key: 'pricing.noStandardRate',
      params: { country: 'IT', zone_code: 'RM', weight: 7500, lane: 2 },
    });
  });
});

describe('two lanes and the ratio', () => {
  it('lane two prices volume × ratio; the freight is the dearer lane', () => {
    const { c, u } = std(withGoods({ weight: 250, volume: '1.1', ratio: 400 }));
    expect(c).toMatchObject({ final_cost_lane_one: 50, final_cost_lane_two: 88, shipment_cost: 88, lead_time: 3 });
    expect(u).toEqual({ standardunits: 1, standardweight: 250, standardvolume: '1.1', standardvolumeType: 'CBM', ratio: 400, chargeable_weight: 440 });
  });
  it('computes volume × ratio exactly (1.1 × 400 is 440 kg, not 441)', () => {
    const rows = [stdRow('IT', 'RM', 0, 440, 1000, { unit: 'S' }), stdRow('IT', 'RM', 440, 500, 9999, { unit: 'S' })];
    const { c, u } = std(withGoods({ weight: 10, volume: 1.1, ratio: 400 }, { standardSellRows: rows }));
    expect(u.chargeable_weight).toBe(440);
    expect(c.final_cost_lane_two).toBe(10);
  });
  it('LM uses kg per loading metre', () => {
    const { c, u } = std(withGoods({ weight: 100, volume: '0.2', volumeType: 'LM', ratio: 1750 }));
    expect(u.chargeable_weight).toBe(350);
    expect(c).toMatchObject({ final_cost_lane_one: 30, final_cost_lane_two: 70, shipment_cost: 70 });
  });
  it('a volume of 0 makes lane two cost 0, even with a minimum', () => {
    const rows = [stdRow('IT', 'RM', 0, 500, 2000, { minimum: 4000 })];
    expect(std(withGoods({ weight: 100, volume: 0 }, { standardSellRows: rows })).c).toMatchObject({ final_cost_lane_one: 40, final_cost_lane_two: 0 });
  });
  it('lead time and rate code come from the dearer lane, lane one on a tie', () => {
    const rows = [stdRow('IT', 'RM', 0, 300, 5000, { unit: 'S', leadtime: 2 }), stdRow('IT', 'RM', 300, 900, 5000, { unit: 'S', leadtime: 4 })];
    expect(std(withGoods({ weight: 100, volume: 2 }, { standardSellRows: rows })).c.lead_time).toBe(2);
    rows[1] = stdRow('IT', 'RM', 300, 900, 5001, { unit: 'S', leadtime: 4 });
    expect(std(withGoods({ weight: 100, volume: 2 }, { standardSellRows: rows })).c.lead_time).toBe(4);
  });
  it('resolves the ratio by caller', () => {
    const c = carrier({ combo_cbm_ratio: '300', combo_lm_ratio: null });
    const eu = endUser({ combo_cbm_ratio: '350' });
    const ratio = (caller: 'visitor' | 'enduser' | 'carrier' | 'admin', vt: 'CBM' | 'LM', e = eu, form: number | null = 450) =>
      std(standardInput({ carrier: c, endUser: e, request: standardRequest({ caller, standard: goods({ volume: 1, volumeType: vt, ratio: form }) }) })).u.ratio;
    expect(ratio('carrier', 'CBM')).toBe(450);
    expect(ratio('admin', 'CBM')).toBe(450);
    expect(ratio('enduser', 'CBM')).toBe(350);
    expect(ratio('enduser', 'CBM', endUser())).toBe(300);
    expect(ratio('visitor', 'CBM', endUser())).toBe(300);
    expect(ratio('enduser', 'LM')).toBe(1750);
    expect(ratio('carrier', 'CBM', eu, null)).toBe(300);
    expect(std(standardInput({ request: standardRequest({ caller: 'visitor', standard: goods({ ratio: null }) }) })).u.ratio).toBe(250);
  });
});

describe('no-passage', () => {
  const np = (over: Partial<NoPassage>): NoPassage => ({
    postal_code: null,
    city: null,
    cost: 1000,
    cost2: null,
    province: null,
    flow: 'OUT',
    rate_code: null,
    ...over,
  });
  it('IN matches the origin, OUT the destination', () => {
    const rows = [
      np({ flow: 'IN', postal_code: '20121', cost: 100 }),
      np({ flow: 'OUT', city: 'Roma', province: 'RM', cost: 200 }),
      np({ flow: 'IN', postal_code: '00118', cost: 400 }),
      np({ flow: 'OUT', city: 'Milano', province: 'MI', cost: 800 }),
    ];
    expect(noPassageCharges(rows, MILANO, ROMA, 'R1', 250).total).toBe(300);
    expect(noPassageCharges(rows, ROMA, MILANO, 'R1', 250).total).toBe(1200);
  });
  it('rate_code must be empty or equal to the rate code of the dearer lane', () => {
    const rows = [
      np({ city: 'Roma', province: 'RM', rate_code: 'R1', cost: 100 }),
      np({ city: 'Roma', province: 'RM', rate_code: 'R2', cost: 200 }),
      np({ city: 'Roma', province: 'RM', rate_code: '', cost: 400 }),
    ];
    expect(noPassageCharges(rows, MILANO, ROMA, 'r1', 250).total).toBe(500);
    expect(noPassageCharges(rows, MILANO, ROMA, null, 250).total).toBe(400);
  });
  it('adds cost2 per started quintal of the chargeable weight; postal-code rows beat city rows', () => {
    const rows = [np({ postal_code: '00118', cost: 500, cost2: 150 }), np({ city: 'Roma', province: 'RM', cost: 9999 })];
    expect(noPassageCharges(rows, MILANO, ROMA, 'R1', 440).total).toBe(500 + 150 * 5);
    expect(noPassageCharges(rows, MILANO, ROMA, 'R1', 400).total).toBe(500 + 150 * 4);
    expect(noPassageCharges(rows, MILANO, place('Roma', 'RM', '00199'), 'R1', 400).total).toBe(9999);
    expect(noPassageCharges(rows, MILANO, place('Roma', 'RM', '00118', 'FR'), 'R1', 400).total).toBe(0);
  });
  it('is added after ADR, uses the dearer lane rate code and the chargeable weight', () => {
    const rows = [stdRow('IT', 'RM', 0, 300, 2000, { rate_code: 'A' }), stdRow('IT', 'RM', 300, 900, 2000, { rate_code: 'B' })];
    const noPassage = [np({ postal_code: '00118', rate_code: 'A', cost: 100000 }), np({ postal_code: '00118', rate_code: 'B', cost: 1000, cost2: 100 })];
    const input = withGoods(
      { weight: 100, volume: '1.6', ratio: 250 },
      { standardSellRows: rows, noPassage, carrier: carrier({ adr_surcharge_percent: '10' }) },
    );
    input.request.adr = true;
    // lane two 400 kg × 20.00/q = 80.00; ADR 8.00; no-passage 10.00 + 1.00 × 4 = 14.00
    expect(std(input).c).toMatchObject({ final_cost_lane_one: 20, final_cost_lane_two: 80, shipment_cost: 102 });
  });
});

describe('surcharges, adjustments and totals', () => {
  it('ADR on the freight only, tail lift once, then increase and decrease, then admin fee', () => {
    const input = withGoods(
      { weight: 250 },
      {
        carrier: carrier({ adr_surcharge_percent: '3', taillift_fee: 2500, national_admin_fee: 999 }),
        endUser: endUser({ increase_percent: '10', decrease_percent: '5', national_admin_fee: 350 }),
        noPassage: [{ postal_code: '00118', city: null, cost: 1000, cost2: null, province: 'RM', flow: 'OUT', rate_code: null }],
      },
    );
    input.request.adr = true;
    input.request.taillift = true;
    // freight 50.00; ADR 1.50; no-passage 10.00; tail lift 25.00 -> 86.50; +10 % 95.15; −5 % 90.3925 -> 90.39
    expect(std(input).c).toEqual({ final_cost_lane_one: 50, final_cost_lane_two: 0, shipment_cost: 90.39, admin_fee: 3.5, totla: 93.89, lead_time: 3 });
  });
  it('international quotes rate the end outside Italy and use the international admin fee', () => {
    const paris = place('Paris', '', '75001', 'FR');
    const rows = [stdRow('FR', '75', 0, 1000, 4000, { leadtime: 5 }), stdRow('FR', '*', 0, 1000, 9000)];
    const base = { standardSellRows: rows, carrier: carrier({ national_admin_fee: 100, international_admin_fee: 700 }) };
    const out = standardInput({ ...base, request: standardRequest({ zone: 'international', destination: paris }) });
    expect(std(out).c).toMatchObject({ shipment_cost: 100, admin_fee: 7, totla: 107, lead_time: 5 });
    const inbound = standardInput({
      ...base,
      request: standardRequest({ zone: 'international', origin: place('Lille', '', '59000', 'FR'), destination: ROMA }),
    });
    expect(std(inbound).c).toMatchObject({ shipment_cost: 225 });
    const both = standardInput({
      ...base,
      request: standardRequest({ zone: 'international', origin: paris, destination: place('Berlin', '', '10115', 'DE') }),
    });
    expect(priceQuote(both)).toEqual({ ok: false, key: 'pricing.bothEndsAbroad', params: { origin: 'FR', destination: 'DE' } });
  });
  it('refuses without a sell sheet, naming STD and the zone', () => {
    const input = standardInput({ sheets: { sell: null, sellSource: 'carrier_standard', buy: null }, request: standardRequest({ zone: 'international' }) });
    expect(priceQuote(input)).toEqual({ ok: false, key: 'pricing.noSellSheet', params: { rateType: 'STD', zone: 'INT', date: '2026-11-21' } });
  });
  it('a standard special zone changes the zone code of an Italian destination', () => {
    const rows = [stdRow('IT', 'RM', 0, 1000, 2000), stdRow('IT', 'RM-X', 0, 1000, 3000)];
    const special = [{ province: 'RM', code: 'RM-X', city: 'Roma', postal_code: null }];
    expect(std(standardInput({ standardSellRows: rows, standardSpecialZones: special })).c.shipment_cost).toBe(75);
  });
});
