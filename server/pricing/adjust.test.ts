import { describe, expect, it } from 'vitest';
import { adjustSell, adminFee, resolveRatio, surcharges } from './adjust.js';
import { carrier, endUser } from './fixtures.test-helpers.js';

describe('adjustSell', () => {
  const ctx = (inc: string | null, dec: string | null, caller: 'visitor' | 'enduser' | 'carrier' = 'enduser', mult: string | null = null) => ({
    caller,
    carrier: carrier({ visitor_price_multiplier: mult }),
    endUser: caller === 'visitor' ? null : endUser({ increase_percent: inc, decrease_percent: dec }),
  });
  it('applies the increase: 119.00 + 10 % = 130.90', () => {
    const r = adjustSell(11900, ctx('10', null), 'GOLD');
    expect(r.cents).toBe(13090);
    expect(r.lines).toEqual([{ key: 'pricing.increase', params: { class: 'GOLD', percent: '10' }, amount: 11.9 }]);
  });
  it('rounds after each step: increase then decrease', () => {
    // 0.15 × 1.5 = 0.225 -> 0.23; × 0.5 = 0.115 -> 0.12 (one rounding at the end: 0.1125 -> 0.11)
    expect(adjustSell(15, ctx('50', '50'), null).cents).toBe(12);
  });
  it('applies the decrease after the increase, not before', () => {
    // increase first: 0.05 × 1.5 = 0.075 -> 0.08; × 0.5 = 0.04 (decrease first: 0.025 -> 0.03; 0.045 -> 0.05)
    const r = adjustSell(5, ctx('50', '50'), null);
    expect(r.cents).toBe(4);
    expect(r.lines.map((l) => [l.key, l.amount])).toEqual([
      ['pricing.increase', 0.03],
      ['pricing.decrease', -0.04],
    ]);
  });
  it('ignores percentages outside 0 < p < 100 and empty ones', () => {
    for (const p of ['0', '100', '-5', '150', '', null]) expect(adjustSell(10000, ctx(p, p), null).cents).toBe(10000);
    expect(adjustSell(10000, ctx('99.9999', null), null).cents).toBe(20000); // 199.9999 -> 200.00
  });
  it('throws on an unparseable stored percentage', () => {
    expect(() => adjustSell(10000, ctx('ten', null), null)).toThrow();
  });
  it('applies the visitor multiplier to visitors only, rounded', () => {
    expect(adjustSell(8500, ctx(null, null, 'visitor', '1.2345'), 'SILVER').cents).toBe(10493); // 104.9325
    expect(adjustSell(8500, ctx(null, null, 'visitor', null), 'SILVER')).toEqual({ cents: 8500, lines: [] });
    expect(adjustSell(8500, ctx(null, null, 'enduser', '2'), 'SILVER').cents).toBe(8500);
    expect(adjustSell(8500, ctx(null, null, 'carrier', '2'), 'SILVER').cents).toBe(8500);
  });
  it('the visitor multiplier comes after the end user steps', () => {
    const c = { caller: 'visitor' as const, carrier: carrier({ visitor_price_multiplier: '1.5' }), endUser: endUser({ increase_percent: '50' }) };
    // 0.03 × 1.5 = 0.045 -> 0.05 then × 1.5 = 0.075 -> 0.08 (one combined step: 0.0675 -> 0.07)
    expect(adjustSell(3, c, null).cents).toBe(8);
  });
});

describe('adminFee', () => {
  const car = carrier({ national_admin_fee: 300, international_admin_fee: 800 });
  it('takes the end user fee of the zone', () => {
    const eu = endUser({ national_admin_fee: 450, international_admin_fee: 1200 });
    expect(adminFee('national', eu, car)).toEqual({ cents: 450, source: 'enduser' });
    expect(adminFee('international', eu, car)).toEqual({ cents: 1200, source: 'enduser' });
  });
  it("falls back to the carrier's without an end user", () => {
    expect(adminFee('national', null, car)).toEqual({ cents: 300, source: 'carrier' });
    expect(adminFee('international', null, car)).toEqual({ cents: 800, source: 'carrier' });
  });
  it("empty means 0 (an end user's empty fee does not fall back to the carrier's)", () => {
    expect(adminFee('national', endUser(), car)).toEqual({ cents: 0, source: 'enduser' });
    expect(adminFee('national', null, carrier())).toEqual({ cents: 0, source: 'carrier' });
  });
});

describe('surcharges', () => {
  it('ADR percent of the freight rounded half up, tail lift added as is', () => {
    const c = carrier({ adr_surcharge_percent: '4.5', taillift_fee: 1234 });
    const s = surcharges(1010, { adr: true, taillift: true }, c, { class: 'GOLD', side: 'sell' });
    expect([s.adr, s.taillift]).toEqual([45, 1234]); // 45.45 -> 45
    expect(surcharges(1010, { adr: false, taillift: false }, c, { class: 'GOLD', side: 'sell' })).toEqual({ adr: 0, taillift: 0, lines: [] });
    expect(surcharges(1100, { adr: true, taillift: false }, c, { class: null, side: 'sell' }).adr).toBe(50); // 49.5 -> 50
  });
});

describe('resolveRatio', () => {
  it('accepts the form spelling and plain numbers, ignores non-positive values', () => {
    expect(resolveRatio('carrier', 'CBM', 'CBM300', null, carrier()).ratio).toBe('300');
    expect(resolveRatio('admin', 'LM', 'LM1500', null, carrier()).ratio).toBe('1500');
    expect(resolveRatio('carrier', 'CBM', '0', null, carrier())).toEqual({ ratio: '250', source: 'default' });
    expect(resolveRatio('enduser', 'LM', 400, endUser({ combo_lm_ratio: '1500' }), carrier())).toEqual({ ratio: '1500', source: 'enduser' });
  });
});
