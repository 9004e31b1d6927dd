import { createHash } from 'node:crypto';
import { hasFuelPlan } from '../../model/fuel.js';
import { centsOf } from './amounts.js';
import type { CarrierSettings, QuoteData } from '../pricing/types.js';

/**
 * The quote PDF's validity and record (issue 36 item 5, docs/request-documents.md "Quote numbers").
 *
 * Validity. A price with a fuel surcharge holds for the month the surcharge was priced for: the diesel
 * reference of the quote's date (pricing.md §7, `chooseFuel`: that month's row, else the latest earlier one)
 * is replaced by the next month's, and the same shipment priced on the 1st costs something else. So the quote
 * is valid until the LAST DAY OF ITS FUEL MONTH, the month of its date in Europe/Rome — not the diesel row's
 * own month: when this month's price is not in yet and last month's row stood in, the price is still this
 * month's and the quote holds to this month's end. The sell sheet still bounds it: a sheet ending before the
 * month's end ends the quote (`reason: 'sheet'`). A carrier without a fuel plan prices the same all month
 * long: its quote holds until the sheet's last day as before (`'sheet'`), or, open-ended sheet, today only.
 * A plan with no diesel price yet (no surcharge this time) still counts as month-bound: the month's price,
 * once entered, changes the quote.
 */
export interface QuoteValidity {
  /** the last day (YYYY-MM-DD) the quote holds, null = today only */
  validTo: string | null;
  reason: 'fuel' | 'sheet' | null;
  /** the fuel month (YYYY-MM) when `reason` is 'fuel' */
  month: string | null;
}

/** The last day of a month (YYYY-MM → YYYY-MM-DD). A calendar fact: the same in every time zone. */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${month}-${String(last).padStart(2, '0')}`;
}

export function quoteValidity(date: string, data: Pick<QuoteData, 'fuel'>, carrier: CarrierSettings, sheetEnd: string | null): QuoteValidity {
  const plan = {
    fuel_base_price: carrier.fuel_base_price ?? null,
    fuel_step: carrier.fuel_step ?? null,
    fuel_step_percent: carrier.fuel_step_percent ?? null,
    fuel_max_percent: carrier.fuel_max_percent ?? null,
  };
  if (!data.fuel && !hasFuelPlan(plan)) return { validTo: sheetEnd, reason: sheetEnd ? 'sheet' : null, month: null };
  const month = date.slice(0, 7);
  const end = monthEnd(month);
  // Only a sheet ending strictly earlier than the month wins (on the month's last day both say the same day).
  if (sheetEnd && sheetEnd < end) return { validTo: sheetEnd, reason: 'sheet', month: null };
  return { validTo: end, reason: 'fuel', month };
}

/**
 * The SHA-256 of a quote's inputs: the caller's kind and the cost request's body, keys sorted at every
 * level (the same question hashes the same whatever the order its fields came in).
 */
export function inputsHash(kind: string, body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify({ kind, body: canonical(body) }))
    .digest('hex');
}

/** The total the record keeps (cents): the lowest the quote offers (SILVER of an express one, else the standard total). */
export function lowestTotal(data: QuoteData): number | null {
  const p = data.prices_list;
  if (p) {
    return Math.min(centsOf(p.x_total_silver_sell), centsOf(p.x_total_gold_sell)) + centsOf(p.admin_fee);
  }
  return data.costo_complete ? centsOf(data.costo_complete.totla) : null;
}
