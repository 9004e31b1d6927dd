import { describe, expect, it } from 'vitest';
import { carrier, endUser, expressRequest, expRow, MILANO, pallet, place, ROMA, sheet, workedExample } from './fixtures.test-helpers.js';
import { findHub, palletPrice, resolveIsland } from './express.js';
import { priceQuote } from './quote.js';
import type { IslandZone, PricesList, QuoteInput } from './types.js';

function prices(input: QuoteInput): PricesList {
  const r = priceQuote(input);
  if (!r.ok) throw new Error(`refused: ${r.key} ${JSON.stringify(r.params)}`);
  return r.data.prices_list!;
}
const noAdjust = { endUser: null };

describe('flow and hub', () => {
  it('flow IN rates the origin and takes the hub at the destination', () => {
    const input = workedExample({
      ...noAdjust,
      request: expressRequest({ flow: 'IN', origin: ROMA, destination: MILANO }),
    });
    expect(prices(input)).toMatchObject({ total_silver_sell: 85, total_gold_sell: 119 });
    // OUT with the same places rates Milano: no MI row
    const out = priceQuote({ ...input, request: expressRequest({ flow: 'OUT', origin: ROMA, destination: MILANO }) });
    expect(out).toEqual({ ok: false, key: 'pricing.noExpressRate', params: { province: 'MI', band: 'p300', class: 'SILVER' } });
  });
  it('finds the hub by postal code before the province', () => {
    const codes = [
      { code: 'MI', hub: 'HUBMI' },
      { code: '20121', hub: 'HUBCENTRO' },
    ];
    const costs = [
      { code: 'HUBMI', silver: 500, gold: 900 },
      { code: 'hubcentro', silver: 100, gold: 200 },
    ];
    expect(findHub(MILANO, codes, costs)).toMatchObject({ hub: 'HUBCENTRO', matchedBy: 'postal_code', silver: 100, gold: 200 });
    expect(findHub(place('Milano', 'MI', '20122'), codes, costs)).toMatchObject({ hub: 'HUBMI', matchedBy: 'province', silver: 500 });
    const input = workedExample({ ...noAdjust, hubCodes: codes, hubCosts: costs });
    expect(prices(input)).toMatchObject({ total_silver_sell: 81, total_gold_sell: 112 });
  });
  it('no hub, or a hub without a cost row, costs 0', () => {
    expect(prices(workedExample({ ...noAdjust, hubCodes: [] }))).toMatchObject({ total_silver_sell: 80, total_gold_sell: 110 });
    expect(prices(workedExample({ ...noAdjust, hubCosts: [{ code: 'OTHER', silver: 1, gold: 1 }] }))).toMatchObject({
      total_silver_sell: 80,
    });
    expect(prices(workedExample({ ...noAdjust, hubCosts: [{ code: 'HUBMI', silver: null, gold: 900 }] }))).toMatchObject({
      total_silver_sell: 80,
      total_gold_sell: 119,
    });
  });
});

describe('rate rows and bands', () => {
  it('refuses a missing row or an empty band cell naming province, band and class', () => {
    const rows = [expRow('RM', 1, { p300: 8000, leadtime: 2 }), expRow('RM', 2, { p150: 5000, leadtime: 1 })];
    expect(priceQuote(workedExample({ expressSellRows: rows }))).toEqual({
      ok: false,
      key: 'pricing.noExpressRate',
      params: { province: 'RM', band: 'p300', class: 'GOLD' },
    });
  });
  it('sums pallets of different bands', () => {
    const rows = [expRow('RM', 1, { p150: 5000, p1000: 20000, leadtime: 2 }), expRow('RM', 2, { p150: 6000, p1000: 30000, leadtime: 1 })];
    const request = expressRequest({ pallets: [pallet(150, 120, 80, 80), pallet(900, 100, 120, 200)] });
    const r = priceQuote(workedExample({ ...noAdjust, request, expressSellRows: rows }));
    expect(r.ok && r.data.palletData!.map((p) => p.type)).toEqual(['p150', 'p1000']);
    expect(r.ok && r.data.prices_list).toMatchObject({ total_silver_sell: 50 + 5 + 200 + 5, total_gold_sell: 60 + 9 + 300 + 9 });
  });
  it('refuses an oversize pallet naming its row and the limit', () => {
    const over = (p: ReturnType<typeof pallet>) => priceQuote(workedExample({ request: expressRequest({ pallets: [pallet(100, 120, 80, 80), p] }) }));
    expect(over(pallet(1001, 120, 80, 90))).toEqual({ ok: false, key: 'pricing.palletOverWeight', params: { row: 2, max: 1000, value: '1001' } });
    expect(over(pallet(500, 120, 80, 241))).toEqual({ ok: false, key: 'pricing.palletOverHeight', params: { row: 2, max: 240, value: '241' } });
    expect(over(pallet(500, 130, 80, 100))).toEqual({
      ok: false,
      key: 'pricing.palletOverFootprint',
      params: { row: 2, max: '120×100', width: '130', length: '80' },
    });
  });
});

describe('lead times', () => {
  it('are the rate row lead times', () => {
    expect(prices(workedExample())).toMatchObject({ max_leadtime_sell_silver: 2, max_leadtime_sell_gold: 1 });
  });
  it('gain 1 day when the rated place is in an express special zone', () => {
    const byPc = workedExample({ expressSpecialZones: [{ province: 'RM', city: null, postal_code: '00118' }] });
    expect(prices(byPc)).toMatchObject({ max_leadtime_sell_silver: 3, max_leadtime_sell_gold: 2 });
    const byCity = workedExample({ expressSpecialZones: [{ province: 'rm', city: 'ROMA', postal_code: '' }] });
    expect(prices(byCity)).toMatchObject({ max_leadtime_sell_silver: 3 });
    // the hub place (origin Milano) does not count
    const origin = workedExample({ expressSpecialZones: [{ province: 'MI', city: 'Milano', postal_code: null }] });
    expect(prices(origin)).toMatchObject({ max_leadtime_sell_silver: 2 });
  });
});

describe('buy side', () => {
  const buyRows = [expRow('RM', 1, { p300: 6000, leadtime: 3 }), expRow('RM', 2, { p300: null, leadtime: 2 })];
  it('is null without a buy sheet', () => {
    expect(prices(workedExample())).toMatchObject({
      total_silver_buy: null,
      total_gold_buy: null,
      max_leadtime_buy_silver: null,
      max_leadtime_buy_gold: null,
    });
  });
  it('prices each class on the buy row with hub cost and surcharges, never adjusted; null for an empty cell', () => {
    const input = workedExample({
      sheets: { sell: sheet(11), sellSource: 'carrier_standard', buy: sheet(12, { area: 'Supplier' }) },
      expressBuyRows: buyRows,
      carrier: carrier({ adr_surcharge_percent: '10', taillift_fee: 1500 }),
      request: expressRequest({ adr: true, taillift: true }),
    });
    expect(prices(input)).toMatchObject({
      total_silver_buy: 65 + 6.5 + 15, // (60 + 5) + 10 % ADR + tail lift
      max_leadtime_buy_silver: 3,
      total_gold_buy: null,
      max_leadtime_buy_gold: null,
      total_silver_sell: 85 + 8.5 + 15,
      x_total_silver_sell: 119.35, // 108.50 + 10 %
      total_gold_sell: 119 + 11.9 + 15,
    });
  });
});

describe('surcharges on express', () => {
  it('ADR is a percentage of the freight (sum of pallet prices), tail lift once per shipment', () => {
    const input = workedExample({
      ...noAdjust,
      carrier: carrier({ adr_surcharge_percent: '2.5', taillift_fee: 1000 }),
      request: expressRequest({ adr: true, taillift: true, pallets: [pallet(250, 120, 80, 90), pallet(250, 120, 80, 90), pallet(201, 120, 80, 90)] }),
    });
    // SILVER freight 3 × 85 = 255.00; ADR 6.375 -> 6.38; tail lift 10 once
    // GOLD freight 3 × 119 = 357.00; ADR 8.925 -> 8.93
    expect(prices(input)).toMatchObject({ total_silver_sell: 271.38, total_gold_sell: 375.93, x_total_silver_sell: 271.38 });
  });
  it('empty ADR percent and tail lift fee mean 0', () => {
    const input = workedExample({ ...noAdjust, request: expressRequest({ adr: true, taillift: true }) });
    expect(prices(input)).toMatchObject({ total_silver_sell: 85, total_gold_sell: 119 });
  });
});

describe('islands', () => {
  const zone = (over: Partial<IslandZone>): IslandZone => ({
    island: 'Ischia',
    quintal_cost: null,
    multiplier: null,
    p150: null,
    p300: null,
    p550: null,
    ps550: null,
    p1000: null,
    type_id: 1,
    ...over,
  });
  it('palletPrice applies multiplier, band cell and started quintals, rounding once', () => {
    const z = zone({ multiplier: '1.15', p300: 1234, quintal_cost: 250 });
    // (80.00 + 5.00) × 1.15 = 97.75; + 12.34 + 2.50 × ceil(250/100)=3 -> 117.59
    expect(palletPrice(8000, 500, z, 'p300', 250).cents).toBe(11759);
    expect(palletPrice(8000, 500, z, 'p300', 300).cents).toBe(11759);
    expect(palletPrice(8000, 500, z, 'p300', '300.1').cents).toBe(11759 + 250);
    // 85.01 × 1.0005 = 85.052505 -> 85.05
    expect(palletPrice(8501, 0, zone({ multiplier: '1.0005' }), 'p300', 10).cents).toBe(8505);
    // empty multiplier means 1, empty cells 0
    expect(palletPrice(8000, 500, zone({}), 'p300', 250).cents).toBe(8500);
    expect(palletPrice(8000, 500, null, 'p300', 250)).toEqual({ cents: 8500, islandPart: 0, quintals: 0 });
  });
  const islandZones = [zone({ multiplier: '1.1', p300: 500, quintal_cost: 100 }), zone({ type_id: 2, multiplier: '1.2', quintal_cost: 200 })];
  const ischia = place('Forio', 'NA', '80075');
  it('uses the island given in the request', () => {
    const input = workedExample({ ...noAdjust, islandZones, request: expressRequest({ destination: ROMA, island: 'ischia' }) });
    // SILVER 85 × 1.1 + 5 + 1 × 3 = 101.50; GOLD 119 × 1.2 + 0 + 2 × 3 = 148.80
    expect(prices(input)).toMatchObject({ total_silver_sell: 101.5, total_gold_sell: 148.8 });
  });
  it('finds the island of the rated place in the reference list', () => {
    const rows = [expRow('NA', 1, { p300: 8000, leadtime: 2 }), expRow('NA', 2, { p300: 11000, leadtime: 1 })];
    const islandList = [{ island: 'Ischia', city: 'forio', province: 'na' }];
    const input = workedExample({ ...noAdjust, islandZones, islandList, expressSellRows: rows, request: expressRequest({ destination: ischia }) });
    expect(prices(input)).toMatchObject({ total_silver_sell: 101.5, total_gold_sell: 148.8 });
    expect(resolveIsland(null, ischia, islandList)).toEqual({ island: 'Ischia', source: 'list' });
    expect(resolveIsland('  ', place('Napoli', 'NA', '80100'), islandList)).toBeNull();
    expect(resolveIsland('Capri', ischia, islandList)).toEqual({ island: 'Capri', source: 'request' });
  });
  it('refuses an island without a zone row for a class', () => {
    const input = workedExample({ islandZones: [islandZones[0]!], request: expressRequest({ island: 'Ischia' }) });
    expect(priceQuote(input)).toEqual({ ok: false, key: 'pricing.noIslandZone', params: { island: 'Ischia', class: 'GOLD' } });
    expect(priceQuote(workedExample({ request: expressRequest({ island: 'Capri' }) }))).toMatchObject({ ok: false, key: 'pricing.noIslandZone' });
  });
});

describe('express refusals', () => {
  it('no sell sheet names rate type, zone and date', () => {
    const input = workedExample({ sheets: { sell: null, sellSource: 'carrier_standard', buy: null } });
    expect(priceQuote(input)).toEqual({ ok: false, key: 'pricing.noSellSheet', params: { rateType: 'EXP', zone: 'NAT', date: '2026-11-21' } });
  });
  it('pallet express is national only', () => {
    expect(priceQuote(workedExample({ request: expressRequest({ zone: 'international' }) }))).toMatchObject({ ok: false, key: 'pricing.expressNationalOnly' });
  });
  it('the end user adjustments apply on top of island and surcharges', () => {
    const input = workedExample({
      endUser: endUser({ decrease_percent: '50' }),
      request: expressRequest({ taillift: true }),
      carrier: carrier({ taillift_fee: 1001 }),
    });
    expect(prices(input)).toMatchObject({ total_silver_sell: 95.01, x_total_silver_sell: 47.51 });
  });
});
