import { describe, expect, it } from 'vitest';
import { dieselRowFor, fuelPercent, hasFuelPlan, hundredthsText, scaled } from './fuel';

const plan = { fuel_base_price: '1.500', fuel_step: '0.020', fuel_step_percent: '0.5', fuel_max_percent: null };

describe('fuel percent (pricing.md §7)', () => {
  it('works the spec example: base 1.500, step 0.020, 0.5 % a step, price 1.587 → 4 steps → 2 %', () => {
    expect(fuelPercent(plan, '1.587')).toEqual({ steps: 4, percent: '2' });
  });
  it('counts a price exactly on a step as that step, and never goes below 0', () => {
    expect(fuelPercent(plan, '1.580')).toEqual({ steps: 4, percent: '2' });
    expect(fuelPercent(plan, '1.579')).toEqual({ steps: 3, percent: '1.5' });
    expect(fuelPercent(plan, '1.500')).toEqual({ steps: 0, percent: '0' });
    expect(fuelPercent(plan, '1.2')).toEqual({ steps: 0, percent: '0' });
  });
  it('caps at the maximum percent', () => {
    expect(fuelPercent({ ...plan, fuel_max_percent: '1.25' }, '1.700')).toEqual({ steps: 10, percent: '1.25' });
    expect(fuelPercent({ ...plan, fuel_max_percent: '0' }, '1.700')?.percent).toBe('0');
  });
  it('prices no fuel without a base or a step', () => {
    expect(hasFuelPlan({ ...plan, fuel_base_price: null })).toBe(false);
    expect(fuelPercent({ ...plan, fuel_step: '' }, '1.7')).toBeNull();
    expect(fuelPercent({ ...plan, fuel_step: '0' }, '1.7')).toBeNull();
  });
  it('reads numbers and decimal commas exactly', () => {
    expect(scaled(1.587, 3)).toBe(1587);
    expect(scaled('1,5', 3)).toBe(1500);
    expect(scaled('1.5875', 3)).toBeNull();
    expect(hundredthsText(5)).toBe('0.05');
    expect(fuelPercent({ ...plan, fuel_step_percent: 0.25 }, 1.56)).toEqual({ steps: 3, percent: '0.75' });
  });
  it('takes the month’s row, else the latest earlier one, else none', () => {
    const rows = [
      { month: '2026-09', price: '1.6' },
      { month: '2026-11', price: '1.587' },
      { month: '2026-12', price: '1.7' },
    ];
    expect(dieselRowFor(rows, '2026-11')?.price).toBe('1.587');
    expect(dieselRowFor(rows, '2026-10')?.price).toBe('1.6');
    expect(dieselRowFor(rows, '2026-08')).toBeNull();
  });
});
