/**
 * Fuel surcharge (pricing.md §7). The percent comes from `model/fuel.ts` (`fuelPercent`, one rule shared
 * with the fuel plan's preview); here it becomes money on a freight and breakdown lines.
 */
import { fuelPercent, hasFuelPlan, type DieselPrice } from '../../model/fuel.js';
import { LINE } from './keys.js';
import { centsToNumber, compareDecimal, percentOf, tenThousandths, type Cents } from './money.js';
import type { BreakdownEntry, CarrierSettings, FuelApplied, ServiceClass } from './types.js';

export interface FuelChoice {
  /** `data.fuel`: null without a surcharge (no plan, no diesel row, or an unreadable price) */
  fuel: FuelApplied | null;
  /** the lines said once per quote: the month and percent (public), or "no diesel price" (carriers, admins) */
  lines: BreakdownEntry[];
}

/**
 * The percent of a carrier's plan against a diesel row (false: no plan), remembered per carrier settings
 * object and diesel row object (issue 37: it was worked out from the plan's texts on every quote). Both come
 * from the tariff cache (repositories/pricingData.ts), shared by the quotes of a burst and replaced, not
 * changed, when reloaded: a WeakMap forgets them with the cache. Only numbers and texts are kept, never an
 * object a quote hands on.
 */
const percents = new WeakMap<object, WeakMap<object, { steps: number; percent: string } | null | false>>();
/** The key of "no diesel row" among the rows. */
const NO_DIESEL = {};

/**
 * The fuel the quote is priced with: the carrier's plan against the reference row the server chose for
 * the quote date's month (that month's, else the latest earlier one; `dieselRowFor`).
 * Choice: a plan with a reference row whose price is at or below the base gives `percent: "0"` and the
 * public line says "0 %": the plan applies, the surcharge is nothing this month.
 */
export function chooseFuel(carrier: CarrierSettings, diesel: DieselPrice | null | undefined, date: string): FuelChoice {
  const plan = {
    fuel_base_price: carrier.fuel_base_price,
    fuel_step: carrier.fuel_step,
    fuel_step_percent: carrier.fuel_step_percent,
    fuel_max_percent: carrier.fuel_max_percent,
  };
  let ofCarrier = percents.get(carrier);
  if (!ofCarrier) percents.set(carrier, (ofCarrier = new WeakMap()));
  let known = ofCarrier.get(diesel ?? NO_DIESEL);
  if (known === undefined) {
    known = hasFuelPlan(plan) ? (diesel ? fuelPercent(plan, diesel.price) : null) : false;
    ofCarrier.set(diesel ?? NO_DIESEL, known);
  }
  if (known === false) return { fuel: null, lines: [] };
  if (!diesel) return { fuel: null, lines: [{ key: LINE.noDieselPrice, params: { month: date.slice(0, 7) }, amount: null }] };
  const p = known;
  if (!p) return { fuel: null, lines: [{ key: LINE.noDieselPrice, params: { month: date.slice(0, 7) }, amount: null }] };
  const fuel: FuelApplied = { month: diesel.month, price: String(diesel.price).trim(), percent: p.percent };
  return { fuel, lines: [{ key: LINE.fuel, params: { month: fuel.month, price: fuel.price, percent: fuel.percent, steps: p.steps }, amount: null }] };
}

/**
 * Above zero? The percents fuelPercent writes are plain decimal texts ("0", "2", "2.5"), read as ten-thousandths
 * (issue 37: compareDecimal's BigInts ran four times per express quote); anything else is compared exactly.
 */
function positive(percent: string): boolean {
  // money.ts tenThousandths reads a plain percent of up to 4 places without a regex (issue 37)
  const h = tenThousandths(percent);
  return h !== null ? h > 0 : compareDecimal(percent, 0) > 0;
}

/** §7 amount: freight × percent / 100 (round), once; a 0 % plan adds nothing and shows no amount line. */
export function fuelAmount(
  freight: Cents,
  fuel: FuelApplied | null,
  params: { class: ServiceClass | null; side: 'sell' | 'buy' },
  withLines = true,
): { cents: Cents; lines: BreakdownEntry[] } {
  if (!fuel || !positive(fuel.percent)) return { cents: 0, lines: [] };
  const cents = percentOf(freight, fuel.percent);
  // without its line: the public view (types.ts QuoteInput.view), which would drop it
  if (!withLines) return { cents, lines: [] };
  return {
    cents,
    lines: [
      { key: LINE.fuelAmount, params: { class: params.class, side: params.side, month: fuel.month, percent: fuel.percent }, amount: centsToNumber(cents) },
    ],
  };
}
