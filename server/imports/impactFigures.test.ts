import { describe, expect, it } from 'vitest';
import { changePercent, impactFigures, median, type PricedTwice } from './impactFigures.js';

const req = (id: number, before: number | null, after: number | null): PricedTwice => ({ id, code: String(id), created_on: '2026-11-20', before, after });

describe('changePercent', () => {
  it('is the change in percent of the old price, rounded half-up to 2 decimals', () => {
    expect(changePercent(10000, 11000)).toBe(10);
    expect(changePercent(10000, 9000)).toBe(-10);
    expect(changePercent(3000, 3100)).toBe(3.33); // 3.3333…
    expect(changePercent(3000, 2900)).toBe(-3.33);
    expect(changePercent(800, 801)).toBe(0.13); // 0.125 → half up
    expect(changePercent(800, 799)).toBe(-0.13); // half away from zero
    expect(changePercent(5000, 5000)).toBe(0);
  });
  it('a price of 0 before: 0 when still 0, else ±100', () => {
    expect(changePercent(0, 0)).toBe(0);
    expect(changePercent(0, 500)).toBe(100);
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([])).toBeNull();
    expect(median([5])).toBe(5);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([10, 0, 0, 20])).toBe(5);
    expect(median([0.01, 0.02])).toBe(0.02); // 0.015 → half up
    expect(median([-0.01, -0.02])).toBe(-0.02);
  });
});

describe('impactFigures', () => {
  it('is null without requests', () => {
    expect(impactFigures([])).toBeNull();
  });

  it('counts, median, largest rise and fall, the five largest changes', () => {
    const figures = impactFigures([
      req(1, 10000, 11000), // +10
      req(2, 10000, 10000), // 0
      req(3, 20000, 19000), // -5
      req(4, 10000, null), // not priceable with the proposal
      req(5, null, null), // neither
      req(6, null, 5000), // only with the proposal
      req(7, 4000, 5000), // +25
      req(8, 10000, 10100), // +1
      req(9, 10000, 10200), // +2
      req(10, 10000, 10300), // +3
      req(11, 5000, 5000), // 0
    ]);
    expect(figures).toEqual({
      considered: 11,
      repriced: 6,
      unchanged: 2,
      not_priceable: 2,
      newly_priceable: 1,
      // -5, 0, 0, 1, 2, 3, 10, 25 → (1 + 2) / 2
      median_change_percent: 1.5,
      max_increase_percent: 25,
      max_decrease_percent: 5,
      requests: [
        { id: 7, code: '7', created_on: '2026-11-20', before: 40, after: 50, change_percent: 25 },
        { id: 1, code: '1', created_on: '2026-11-20', before: 100, after: 110, change_percent: 10 },
        { id: 3, code: '3', created_on: '2026-11-20', before: 200, after: 190, change_percent: -5 },
        { id: 10, code: '10', created_on: '2026-11-20', before: 100, after: 103, change_percent: 3 },
        { id: 9, code: '9', created_on: '2026-11-20', before: 100, after: 102, change_percent: 2 },
      ],
    });
  });

  it('no rise, no fall: the maxima are null and no request is listed', () => {
    const figures = impactFigures([req(1, 100, 100), req(2, 200, null)])!;
    expect(figures).toMatchObject({
      repriced: 0,
      unchanged: 1,
      not_priceable: 1,
      median_change_percent: 0,
      max_increase_percent: null,
      max_decrease_percent: null,
    });
    expect(figures.requests).toEqual([]);
  });

  it('equal percents: the larger euro change first, then the newest', () => {
    const figures = impactFigures([req(1, 1000, 1100), req(2, 2000, 2200), req(3, 1000, 1100)])!;
    expect(figures.requests.map((r) => r.id)).toEqual([2, 3, 1]);
    expect(figures.median_change_percent).toBe(10);
  });
});
