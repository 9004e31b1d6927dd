import { roundHalfUp } from '../pricing/money.js';

/** How many requests the impact lists: the ones whose price changes most (issue 20, item 2). */
export const LISTED_IMPACT_REQUESTS = 5;

/** One request priced twice, in cents: with the current tariffs and with the proposed set (null: not priceable). */
export interface PricedTwice {
  id: number;
  code: string;
  created_on: string;
  before: number | null;
  after: number | null;
}

export interface ImpactRequest {
  id: number;
  code: string;
  created_on: string;
  /** euros, 2 decimals */
  before: number;
  after: number;
  change_percent: number;
}

/** The `impact` of a dry run (docs/tariff-checks.md "Impact"). */
export interface Impact {
  considered: number;
  repriced: number;
  unchanged: number;
  not_priceable: number;
  /** not priceable today, priceable with the proposed set (not in the contract's sum of the three above) */
  newly_priceable: number;
  median_change_percent: number | null;
  max_increase_percent: number | null;
  max_decrease_percent: number | null;
  requests: ImpactRequest[];
}

/** hundredths of a percent as a number with 2 decimals */
const hundredths = (h: bigint) => Number(h) / 100;

/**
 * The change from `before` to `after` cents in percent of `before`, rounded half-up (away from zero)
 * to 2 decimals by the engine's one rounding helper. A price of 0 before: 0 when still 0, else ±100.
 */
export function changePercent(before: number, after: number): number {
  if (before === 0) return after === 0 ? 0 : after > 0 ? 100 : -100;
  const num = BigInt(Math.round(after - before)) * 10_000n;
  const den = BigInt(Math.round(before));
  return den > 0n ? hundredths(roundHalfUp(num, den)) : hundredths(-roundHalfUp(num, -den));
}

/** The median of the values (mean of the two middle ones for an even count, rounded to 2 decimals); null for none. */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  if (s.length % 2) return s[mid];
  // the two middle percents are in hundredths: their mean in hundredths is exact to a half, rounded half-up
  const sum = BigInt(Math.round(s[mid - 1] * 100)) + BigInt(Math.round(s[mid] * 100));
  return hundredths(roundHalfUp(sum, 2n));
}

/**
 * The figures of an impact from requests priced twice: repriced (both priceable, price differs),
 * unchanged (both priceable, same price), not priceable (not with the proposed set), the median change
 * over repriced and unchanged, the largest rise and fall (a fall as a positive number; null when none),
 * and the five requests with the largest |change|, ties by the larger euro difference, then the newest id.
 * Null when there is no request.
 */
export function impactFigures(priced: readonly PricedTwice[]): Impact | null {
  if (!priced.length) return null;
  let repriced = 0;
  let unchanged = 0;
  let notPriceable = 0;
  let newlyPriceable = 0;
  const changes: number[] = [];
  const moved: Array<ImpactRequest & { diff: number }> = [];
  for (const r of priced) {
    if (r.after === null) {
      notPriceable++;
      continue;
    }
    if (r.before === null) {
      newlyPriceable++;
      continue;
    }
    const pct = changePercent(r.before, r.after);
    changes.push(pct);
    if (r.before === r.after) {
      unchanged++;
      continue;
    }
    repriced++;
    moved.push({
      id: r.id,
      code: r.code,
      created_on: r.created_on,
      before: r.before / 100,
      after: r.after / 100,
      change_percent: pct,
      diff: Math.abs(r.after - r.before),
    });
  }
  const rises = changes.filter((c) => c > 0);
  const falls = changes.filter((c) => c < 0);
  moved.sort((a, b) => Math.abs(b.change_percent) - Math.abs(a.change_percent) || b.diff - a.diff || b.id - a.id);
  return {
    considered: priced.length,
    repriced,
    unchanged,
    not_priceable: notPriceable,
    newly_priceable: newlyPriceable,
    median_change_percent: median(changes),
    max_increase_percent: rises.length ? Math.max(...rises) : null,
    max_decrease_percent: falls.length ? -Math.min(...falls) : null,
    requests: moved.slice(0, LISTED_IMPACT_REQUESTS).map(({ diff: _diff, ...r }) => r),
  };
}
