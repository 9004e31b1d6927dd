import { describe, expect, it } from 'vitest';
import { D, MILANO, ROMA, place } from './fixtures.test-helpers.js';
import { expressExample, MESTRE_30172, MILANO_20121, PLAN, POSTAL, ROMA_00118, standardExample } from './fuelExamples.test-helpers.js';
import { chooseFuel } from './fuel.js';
import { LINE } from './keys.js';
import { matchPostalSurcharges, postalScore } from './postal.js';
import { priceQuote, visibleTo } from './quote.js';
import type { BreakdownEntry, PostalSurcharge, QuoteData, QuoteInput } from './types.js';

function priced(input: QuoteInput): QuoteData {
  const r = priceQuote(input);
  if (!r.ok) throw new Error(`refused: ${r.key} ${JSON.stringify(r.params)}`);
  return r.data;
}
const amounts = (d: QuoteData, key: string): Array<Record<string, unknown>> =>
  d.breakdown.filter((l) => l.key === key).map((l) => ({ ...l.params, amount: l.amount }));
const line = (d: QuoteData, key: string): BreakdownEntry | undefined => d.breakdown.find((l) => l.key === key);

describe('docs/pricing-examples.md, example 1 (pallet express with fuel and a ZTL)', () => {
  const d = priced(expressExample());
  it('fuel: 1.587 €/l against base 1.500, step 0.020 → 4 steps × 0.5 % = 2 %', () => {
    expect(d.fuel).toEqual({ month: '2026-11', price: '1.587', percent: '2' });
    expect(line(d, LINE.fuel)).toEqual({ key: LINE.fuel, params: { month: '2026-11', price: '1.587', percent: '2', steps: 4 }, amount: null });
  });
  it('ZTL 20121 at delivery applies; the 2012* pickup row and the 301* row do not', () => {
    expect(amounts(d, LINE.postalInfo)).toEqual([{ kind: 'ztl', postal_code: '20121', end: 'OUT', amount: null }]);
  });
  it('every number of the sell side', () => {
    expect(amounts(d, LINE.adr)).toEqual([
      { class: 'SILVER', side: 'sell', percent: '5', amount: 4.25 },
      { class: 'SILVER', side: 'buy', percent: '5', amount: 3.25 },
      { class: 'GOLD', side: 'sell', percent: '5', amount: 5.95 },
      { class: 'GOLD', side: 'buy', percent: '5', amount: 4.7 },
    ]);
    expect(amounts(d, LINE.fuelAmount)).toEqual([
      { class: 'SILVER', side: 'sell', month: '2026-11', percent: '2', amount: 1.7 },
      { class: 'SILVER', side: 'buy', month: '2026-11', percent: '2', amount: 1.3 },
      { class: 'GOLD', side: 'sell', month: '2026-11', percent: '2', amount: 2.38 },
      { class: 'GOLD', side: 'buy', month: '2026-11', percent: '2', amount: 1.88 },
    ]);
    expect(amounts(d, LINE.postal).map((l) => l.amount)).toEqual([7, 7, 7, 7]);
    expect(amounts(d, LINE.increase).map((l) => l.amount)).toEqual([9.8, 13.43]);
    expect(d.prices_list).toEqual({
      total_silver_sell: 97.95,
      x_total_silver_sell: 107.75,
      total_gold_sell: 134.33,
      x_total_gold_sell: 147.76,
      total_silver_buy: 76.55,
      total_gold_buy: 107.58,
      max_leadtime_sell_silver: 2,
      max_leadtime_sell_gold: 1,
      max_leadtime_buy_silver: 3,
      max_leadtime_buy_gold: 2,
      admin_fee: 4.5,
    });
    expect(amounts(d, LINE.total).map((l) => l.amount)).toEqual([112.25, 152.26]);
  });
  it('the end user sees the month, the percent and the ZTL, never the amounts before its increase', () => {
    const v = visibleTo('enduser', d);
    expect(v.fuel).toEqual(d.fuel);
    expect(v.breakdown.map((l) => l.key)).toContain(LINE.fuel);
    expect(v.breakdown.map((l) => l.key)).toContain(LINE.postalInfo);
    for (const key of [LINE.fuelAmount, LINE.postal, LINE.adr, LINE.noDieselPrice]) expect(v.breakdown.some((l) => l.key === key)).toBe(false);
    expect(v.breakdown.filter((l) => l.key === LINE.fuel || l.key === LINE.postalInfo).every((l) => l.amount === null)).toBe(true);
    expect(visibleTo('visitor', d).fuel).toEqual(d.fuel);
  });
});

describe('docs/pricing-examples.md, example 2 (standard with fuel, a ZTL at pickup and a remote area)', () => {
  const d = priced(standardExample());
  it('every number', () => {
    expect(line(d, LINE.chargeableWeight)?.params).toEqual({ lane_one_kg: 420, lane_two_kg: 500, chargeable_kg: 500 });
    expect(amounts(d, LINE.lane).map((l) => l.amount)).toEqual([75.6, 90]);
    expect(line(d, LINE.freight)).toMatchObject({ params: { lane: 2 }, amount: 90 });
    expect(amounts(d, LINE.fuelAmount)).toEqual([{ class: null, side: 'sell', month: '2026-11', percent: '2', amount: 1.8 }]);
    expect(amounts(d, LINE.postal)).toEqual([
      { kind: 'ztl', postal_code: '2012*', end: 'IN', class: null, side: 'sell', amount: 4 },
      { kind: 'remote', postal_code: '301*', end: 'OUT', class: null, side: 'sell', amount: 6.8 },
    ]);
    expect(line(d, LINE.taillift)?.amount).toBe(20);
    expect(line(d, LINE.listTotal)?.amount).toBe(122.6);
    expect(line(d, LINE.increase)?.amount).toBe(12.26);
    expect(d.costo_complete).toEqual({
      final_cost_lane_one: 75.6,
      final_cost_lane_two: 90,
      shipment_cost: 134.86,
      admin_fee: 4.5,
      totla: 139.36,
      lead_time: 3,
    });
    expect(d.fuel).toEqual({ month: '2026-11', price: '1.587', percent: '2' });
  });
  it('the surcharges come in the order of the spec: ADR, fuel, no-passage, postal, tail lift, then the adjustments', () => {
    const keys = d.breakdown.map((l) => l.key);
    const at = (k: string) => keys.indexOf(k);
    expect(at(LINE.freight)).toBeLessThan(at(LINE.fuelAmount));
    expect(at(LINE.fuelAmount)).toBeLessThan(at(LINE.postal));
    expect(at(LINE.postal)).toBeLessThan(at(LINE.taillift));
    expect(at(LINE.taillift)).toBeLessThan(at(LINE.listTotal));
    expect(at(LINE.listTotal)).toBeLessThan(at(LINE.increase));
  });
});

describe('fuel edge cases (pricing.md §7)', () => {
  const pct = (price: string, over: Partial<typeof PLAN> = {}) =>
    priced(standardExample({ diesel: { month: '2026-11', price }, carrier: { ...standardExample().carrier, ...over } }));
  it('below the base: the plan applies at 0 %, no amount', () => {
    const d = pct('1.450');
    expect(d.fuel).toEqual({ month: '2026-11', price: '1.450', percent: '0' });
    expect(amounts(d, LINE.fuelAmount)).toEqual([]);
    expect(d.costo_complete!.shipment_cost).toBe(132.88); // (90 + 4 + 6.80 + 20) × 1.1
  });
  it('exactly on a step counts that step; one thousandth below does not', () => {
    expect(pct('1.580').fuel?.percent).toBe('2');
    expect(pct('1.579').fuel?.percent).toBe('1.5');
    expect(amounts(pct('1.579'), LINE.fuelAmount)[0]?.amount).toBe(1.35);
  });
  it('the cap', () => {
    const d = pct('2.500'); // 50 steps × 0.5 = 25 %, capped at 8
    expect(d.fuel?.percent).toBe('8');
    expect(amounts(d, LINE.fuelAmount)[0]?.amount).toBe(7.2);
    expect(pct('2.500', { fuel_max_percent: '' }).fuel?.percent).toBe('25');
  });
  it('no diesel row for the month: no surcharge, and a line for carriers and admins only', () => {
    const d = priced(standardExample({ diesel: null }));
    expect(d.fuel).toBeNull();
    expect(amounts(d, LINE.fuelAmount)).toEqual([]);
    expect(line(d, LINE.noDieselPrice)).toEqual({ key: LINE.noDieselPrice, params: { month: '2026-11' }, amount: null });
    expect(d.costo_complete!.shipment_cost).toBe(132.88);
    expect(visibleTo('enduser', d).breakdown.some((l) => l.key === LINE.noDieselPrice)).toBe(false);
  });
  it('an earlier month chosen by the server prices with its month and says so', () => {
    const d = priced(expressExample({ diesel: { month: '2026-09', price: '1.620' } }));
    expect(d.fuel).toEqual({ month: '2026-09', price: '1.620', percent: '3' });
    expect(amounts(d, LINE.fuelAmount)[0]).toMatchObject({ class: 'SILVER', side: 'sell', month: '2026-09', amount: 2.55 });
  });
  it('without a plan: no fuel, no line, whatever the diesel table says', () => {
    const d = priced(expressExample({ carrier: { ...expressExample().carrier, fuel_base_price: null } }));
    expect(d.fuel).toBeNull();
    expect(d.breakdown.some((l) => [LINE.fuel, LINE.fuelAmount, LINE.noDieselPrice].includes(l.key as never))).toBe(false);
    expect(chooseFuel(expressExample().carrier, undefined, D).lines.map((l) => l.key)).toEqual([LINE.noDieselPrice]);
  });
  it('fuel is on the freight only: ADR, no-passage, postal surcharges and tail lift excluded', () => {
    // express SILVER: freight 85.00 (ADR 4.25, ZTL 7.00 beside it) → 2 % of 85.00 = 1.70
    expect(amounts(priced(expressExample()), LINE.fuelAmount)[0]?.amount).toBe(1.7);
  });
});

describe('postal-code surcharges (pricing.md §8)', () => {
  const row = (postal_code: string, over: Partial<PostalSurcharge> = {}): PostalSurcharge => ({
    country: 'IT',
    postal_code,
    kind: 'ztl',
    flow: null,
    fixed: 100,
    percent: null,
    ...over,
  });
  it('an exact code beats any prefix, a longer prefix a shorter one', () => {
    expect(postalScore('20121', '20121')).toBeGreaterThan(postalScore('2012*', '20121'));
    expect(postalScore('2012*', '20121')).toBeGreaterThan(postalScore('20*', '20121'));
    expect(postalScore('2013*', '20121')).toBe(-1);
    expect(postalScore('2012', '20121')).toBe(-1); // no star: exact only
    const rows = [row('2*', { fixed: 1 }), row('201*', { fixed: 2 }), row('20121', { fixed: 3 }), row('20*', { fixed: 4 })];
    expect(matchPostalSurcharges(rows, ROMA, MILANO).map((m) => m.row.fixed)).toEqual([3]);
    expect(matchPostalSurcharges(rows, ROMA, place('Milano', 'MI', '20139')).map((m) => m.row.fixed)).toEqual([2]);
  });
  it('one row per end and kind; kinds add up', () => {
    const rows = [row('20121', { kind: 'ztl', fixed: 1 }), row('201*', { kind: 'remote', fixed: 2 }), row('20121', { kind: 'other', fixed: 4 })];
    expect(matchPostalSurcharges(rows, ROMA, MILANO).map((m) => [m.end, m.row.kind, m.row.fixed])).toEqual([
      ['OUT', 'ztl', 1],
      ['OUT', 'remote', 2],
      ['OUT', 'other', 4],
    ]);
  });
  it('flow IN matches the origin, OUT the destination, empty either end and then adds once per end', () => {
    const both = [row('20121', { fixed: 500 })];
    const trip = { ...standardExample().request, origin: MILANO_20121, destination: place('Milano', 'MI', '20121') };
    const d = priced(
      standardExample({ request: trip, postalSurcharges: both, standardSellRows: [{ ...standardExample().standardSellRows![1]!, zone_code: 'MI' }] }),
    );
    expect(amounts(d, LINE.postal).map((l) => [l.end, l.amount])).toEqual([
      ['IN', 5],
      ['OUT', 5],
    ]);
    expect(matchPostalSurcharges([row('20121', { flow: 'IN' })], ROMA, MILANO)).toEqual([]);
    expect(matchPostalSurcharges([row('20121', { flow: 'OUT' })], MILANO, ROMA)).toEqual([]);
    expect(matchPostalSurcharges([row('20121', { flow: 'IN' })], MILANO, ROMA).map((m) => m.end)).toEqual(['IN']);
  });
  it('a row naming the end beats an empty-flow row with the same code and kind', () => {
    const rows = [row('20121', { fixed: 1 }), row('20121', { flow: 'OUT', fixed: 2 })];
    expect(matchPostalSurcharges(rows, ROMA, MILANO).map((m) => m.row.fixed)).toEqual([2]);
  });
  it('country: empty is IT; a foreign row matches only its country', () => {
    const de = place('Berlin', '', '10115', 'DE');
    const rows = [row('10115', { country: null, fixed: 1 }), row('101*', { country: 'DE', fixed: 2 })];
    expect(matchPostalSurcharges(rows, ROMA, de).map((m) => m.row.fixed)).toEqual([2]);
    expect(matchPostalSurcharges(rows, ROMA, place('Roma', 'RM', '10115')).map((m) => m.row.fixed)).toEqual([1]);
  });
  it('fixed + freight × percent / 100, rounded once; buy totals take the same', () => {
    const rows = [row('20121', { fixed: 250, percent: '1.5', flow: 'OUT' })];
    const d = priced(expressExample({ postalSurcharges: rows, request: { ...expressExample().request, adr: false } }));
    // SILVER sell freight 85.00: 2.50 + 1.275 → 3.78 (half-up); buy freight 65.00: 2.50 + 0.975 → 3.48;
    // GOLD sell 119.00: 2.50 + 1.785 → 4.29; buy 94.00: 2.50 + 1.41 → 3.91
    expect(amounts(d, LINE.postal).map((l) => [l.class, l.side, l.amount])).toEqual([
      ['SILVER', 'sell', 3.78],
      ['SILVER', 'buy', 3.48],
      ['GOLD', 'sell', 4.29],
      ['GOLD', 'buy', 3.91],
    ]);
    expect(d.prices_list!.total_silver_sell).toBe(85 + 1.7 + 3.78);
  });
  it('no matching row, no table: nothing added', () => {
    const d = priced(standardExample({ postalSurcharges: [], request: { ...standardExample().request, origin: ROMA_00118, destination: MESTRE_30172 } }));
    expect(amounts(d, LINE.postal)).toEqual([]);
    expect(matchPostalSurcharges(POSTAL, ROMA, place('Roma', 'RM', '00184'))).toEqual([]);
  });
});
