import { describe, expect, it } from 'vitest';
import { carrier, endUser, expressRequest, pallet, sheet, standardInput, standardRequest, workedExample } from './fixtures.test-helpers.js';
import { PUBLIC_LINES } from './keys.js';
import { priceQuote, visibleTo } from './quote.js';
import type { QuoteData } from './types.js';

function data(r: ReturnType<typeof priceQuote>): QuoteData {
  if (!r.ok) throw new Error(`refused: ${r.key}`);
  return r.data;
}

describe('worked example (pricing.md §6)', () => {
  const d = data(priceQuote(workedExample()));

  it('prices SILVER 85.00 / 93.50 and GOLD 119.00 / 130.90, admin fee 4.50, lead times 2 and 1', () => {
    expect(d.prices_list).toEqual({
      total_silver_buy: null,
      total_gold_buy: null,
      max_leadtime_buy_silver: null,
      max_leadtime_buy_gold: null,
      total_silver_sell: 85,
      total_gold_sell: 119,
      admin_fee: 4.5,
      x_total_silver_sell: 93.5,
      x_total_gold_sell: 130.9,
      max_leadtime_sell_silver: 2,
      max_leadtime_sell_gold: 1,
    });
    expect(JSON.stringify(d.prices_list)).toContain('"x_total_gold_sell":130.9,');
  });
  it('describes the pallet', () => {
    expect(d.palletData).toEqual([{ row: 1, weight: 250, width: 120, length: 80, height: 90, measure: '120×80×90', type: 'p300' }]);
  });
  it('explains every step in the breakdown', () => {
    const line = (key: string, params: Record<string, unknown>) =>
      d.breakdown.find((l) => l.key === key && Object.entries(params).every(([k, v]) => l.params[k] === v));
    expect(line('pricing.sellSheet', {})).toEqual({
      key: 'pricing.sellSheet',
      params: { sheetId: 11, code: 'CCEXPNAT20260101', source: 'carrier_standard' },
      amount: null,
    });
    expect(line('pricing.palletBase', { row: 1, class: 'SILVER', side: 'sell' })).toEqual({
      key: 'pricing.palletBase',
      params: { row: 1, class: 'SILVER', band: 'p300', province: 'RM', side: 'sell' },
      amount: 80,
    });
    expect(line('pricing.hubCost', { class: 'GOLD' })?.amount).toBe(9);
    expect(line('pricing.hub', {})?.params).toEqual({ hub: 'HUBMI', code: 'MI', matchedBy: 'province' });
    expect(line('pricing.listTotal', { class: 'GOLD' })?.amount).toBe(119);
    expect(line('pricing.increase', { class: 'GOLD' })).toEqual({ key: 'pricing.increase', params: { class: 'GOLD', percent: '10' }, amount: 11.9 });
    expect(line('pricing.offer', { class: 'SILVER' })?.amount).toBe(93.5);
    expect(line('pricing.adminFee', {})).toEqual({ key: 'pricing.adminFee', params: { scope: 'national', source: 'enduser' }, amount: 4.5 });
    expect(line('pricing.total', { class: 'GOLD' })?.amount).toBe(135.4);
    expect(line('pricing.leadTime', { class: 'SILVER' })?.params.days).toBe(2);
  });
  it('is deterministic and does not depend on row order', () => {
    const input = workedExample();
    input.expressSellRows = [...input.expressSellRows!].reverse();
    expect(data(priceQuote(input))).toEqual(d);
  });
});

describe('visitor quotes', () => {
  it('apply the visitor multiplier and the carrier admin fee, no end user', () => {
    const input = workedExample({
      endUser: null,
      carrier: carrier({ visitor_price_multiplier: '1.1', national_admin_fee: 300 }),
      request: expressRequest({ caller: 'visitor' }),
    });
    expect(data(priceQuote(input)).prices_list).toMatchObject({ total_silver_sell: 85, x_total_silver_sell: 93.5, x_total_gold_sell: 130.9, admin_fee: 3 });
  });
});

describe('visibleTo', () => {
  const withBuy = workedExample({
    sheets: { sell: sheet(11), sellSource: 'enduser_category', buy: sheet(12, { area: 'Supplier' }) },
    expressBuyRows: workedExample().expressSellRows!.map((r) => ({ ...r, p300: (r.p300 ?? 0) - 2000 })),
    endUser: endUser({ increase_percent: '10', decrease_percent: '1', national_admin_fee: 450 }),
    request: expressRequest({ adr: true }),
    carrier: carrier({ adr_surcharge_percent: '1' }),
  });
  const full = data(priceQuote(withBuy));

  it('carriers and admins see everything', () => {
    expect(full.prices_list!.total_silver_buy).toBe(65.65);
    expect(visibleTo('carrier', full)).toEqual(full);
    expect(visibleTo('admin', full)).toEqual(full);
    expect(visibleTo('admin', full)).not.toBe(full);
  });
  for (const kind of ['enduser', 'visitor'] as const) {
    it(`${kind}: no buy prices, no list prices, only public breakdown lines`, () => {
      const v = visibleTo(kind, full);
      expect(v.prices_list).toEqual({
        ...full.prices_list,
        total_silver_buy: null,
        total_gold_buy: null,
        max_leadtime_buy_silver: null,
        max_leadtime_buy_gold: null,
        total_silver_sell: null,
        total_gold_sell: null,
      });
      expect(v.prices_list!.x_total_gold_sell).toBe(full.prices_list!.x_total_gold_sell);
      expect(v.palletData).toEqual(full.palletData);
      const keys = new Set(v.breakdown.map((l) => l.key));
      for (const k of keys) expect(PUBLIC_LINES.has(k)).toBe(true);
      for (const hidden of [
        'pricing.palletBase',
        'pricing.hubCost',
        'pricing.listTotal',
        'pricing.buyTotal',
        'pricing.buySheet',
        'pricing.increase',
        'pricing.decrease',
        'pricing.adr',
        'pricing.hub',
      ]) {
        expect(keys.has(hidden)).toBe(false);
      }
      expect(keys).toContain('pricing.offer');
      expect(keys).toContain('pricing.adminFee');
      // no amount left equals a list or buy total
      const secret = new Set([
        full.prices_list!.total_silver_sell,
        full.prices_list!.total_gold_sell,
        full.prices_list!.total_silver_buy,
        full.prices_list!.total_gold_buy,
      ]);
      for (const l of v.breakdown) expect(secret.has(l.amount)).toBe(false);
      expect(full.prices_list!.total_silver_sell).not.toBeNull(); // the original is untouched
    });
  }
  it('strips the lane costs of a standard quote', () => {
    const input = standardInput({
      endUser: endUser({ increase_percent: '20' }),
      request: standardRequest({ caller: 'enduser', standard: { units: 1, weight: 250, volume: 1, volumeType: 'CBM' } }),
    });
    const d = data(priceQuote(input));
    expect(d.costo_complete).toMatchObject({ final_cost_lane_one: 50, final_cost_lane_two: 50, shipment_cost: 60, totla: 60 });
    const v = visibleTo('enduser', d);
    expect(v.costo_complete).toEqual({ ...d.costo_complete, final_cost_lane_one: null, final_cost_lane_two: null });
    expect(v.units).toEqual(d.units);
    expect(v.breakdown.map((l) => l.key)).not.toContain('pricing.lane');
    expect(v.breakdown.map((l) => l.key)).toContain('pricing.shipmentCost');
    expect(v.breakdown.some((l) => l.amount === 50)).toBe(false);
  });
});

describe('several pallets', () => {
  // Speed is measured by `npm run bench:quote`, never by a timed test.
  it('sums the pallets of a 3-pallet quote', () => {
    const input = workedExample({ request: expressRequest({ pallets: [pallet(250, 120, 80, 90), pallet(120, 120, 80, 70), pallet(280, 100, 120, 95)] }) });
    input.expressSellRows = input.expressSellRows!.map((r) => ({ ...r, p150: 6000 }));
    expect(data(priceQuote(input)).prices_list!.x_total_silver_sell).toBe(258.5); // (85 + 65 + 85) × 1.1
  });
});
