/**
 * Entry point of the pricing engine: `priceQuote` and `visibleTo` (pricing.md §5, §1 "What each caller
 * sees"). Pure: no I/O, no clock; the quote date D and all tariff rows of the carrier come in `input`.
 *
 * Usage by the server:
 *   const sheets = selectSheets({ categories, sheets, endUser, rateType, zone, date });
 *   // load the rows of sheets.sell (and sheets.buy) plus the carrier's tariff tables, then
 *   const r = priceQuote({ request, date, carrier, endUser, sheets, expressSellRows, ... });
 *   r.ok ? reply({ status: true, message: '', data: visibleTo(kind, r.data) })
 *        : reply({ status: false, message: t(r.key, r.params) });
 */
import { priceExpress } from './express.js';
import { PUBLIC_LINES } from './keys.js';
import { priceStandard } from './standard.js';
import type { CallerKind, QuoteData, QuoteInput, QuoteResult } from './types.js';

export function priceQuote(input: QuoteInput): QuoteResult {
  return input.request.service === 'palletExpress' ? priceExpress(input) : priceStandard(input);
}

/**
 * What a caller may receive. Carriers and admins see everything. End users and visitors never receive
 * buy prices, list prices before their adjustments, or breakdown lines revealing them:
 * - prices_list: total_*_buy, max_leadtime_buy_* and total_*_sell are set to null (keys kept, so the
 *   answer keeps its shape); the price to show and charge is x_total_<class>_sell + admin_fee;
 * - costo_complete: final_cost_lane_one / final_cost_lane_two (lane costs before adjustments) are null;
 *   shipment_cost, admin_fee, totla and lead_time stay;
 * - breakdown: only the keys of PUBLIC_LINES remain (sheet, bands, island, lead times, ratio, zone code,
 *   chargeable weight, offers, shipment cost, admin fee, totals, the fuel month and percent, the postal
 *   surcharges that apply without their amounts);
 * - fuel: month, price and percent (the same for everybody; no amount).
 * Returns a new object; `data` is not modified.
 */
export function visibleTo(kind: CallerKind, data: QuoteData): QuoteData {
  if (kind === 'carrier' || kind === 'admin') return structuredClone(data);
  return { ...visibleParts(kind, data), breakdown: visibleLines(kind, data.breakdown).map((l) => ({ ...l, params: { ...l.params } })) };
}

/**
 * The breakdown lines a caller may receive (`visibleTo`'s rule), the engine's own objects (not copies):
 * for the answer's route, which turns them into new `{key, label, amount}` at once (issue 37: a quote
 * allocated each line twice, the copy and its translation).
 */
export function visibleLines(kind: CallerKind, lines: QuoteData['breakdown']): QuoteData['breakdown'] {
  return kind === 'carrier' || kind === 'admin' ? lines : lines.filter((l) => PUBLIC_LINES.has(l.key));
}

/** `visibleTo` without the breakdown (`[]`): fuel, prices, goods as the caller may see them; new objects. */
export function visibleParts(kind: CallerKind, data: QuoteData): QuoteData {
  if (kind === 'carrier' || kind === 'admin') return structuredClone({ ...data, breakdown: [] });
  const out: QuoteData = { fuel: data.fuel ? { ...data.fuel } : null, breakdown: [] };
  if (data.palletData) out.palletData = data.palletData.map((p) => ({ ...p }));
  if (data.prices_list) {
    out.prices_list = {
      ...data.prices_list,
      total_silver_buy: null,
      total_gold_buy: null,
      max_leadtime_buy_silver: null,
      max_leadtime_buy_gold: null,
      total_silver_sell: null,
      total_gold_sell: null,
    };
  }
  if (data.costo_complete) {
    out.costo_complete = { ...data.costo_complete, final_cost_lane_one: null, final_cost_lane_two: null };
  }
  if (data.units) out.units = { ...data.units };
  return out;
}
