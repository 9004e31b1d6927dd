/**
 * Stable message keys. The engine never produces text: refusals carry `{key, params}` and breakdown lines
 * `{key, params, amount}`; the server translates them (it, en, fr).
 */
import type { Params, Refusal } from './types.js';

/** Refusals (answer HTTP 200, status: false). */
export const REFUSAL = {
  /** {rateType: 'EXP'|'STD', zone: 'NAT'|'INT', date: 'YYYY-MM-DD'} */
  noSellSheet: 'pricing.noSellSheet',
  /** {province, band, class} — no row for the province and class, or an empty cell for the band */
  noExpressRate: 'pricing.noExpressRate',
  /** {row, max: 1000, value} */
  palletOverWeight: 'pricing.palletOverWeight',
  /** {row, max: 240, value} */
  palletOverHeight: 'pricing.palletOverHeight',
  /** {row, max: '120×100', width, length} */
  palletOverFootprint: 'pricing.palletOverFootprint',
  /** {island, class} */
  noIslandZone: 'pricing.noIslandZone',
  /** {country, zone_code, weight, lane} */
  noStandardRate: 'pricing.noStandardRate',
  /** {origin, destination} (country codes) */
  bothEndsAbroad: 'pricing.bothEndsAbroad',
  /** {} — pallet express is national only (normally caught by validation first) */
  expressNationalOnly: 'pricing.expressNationalOnly',
  /** {} — a pallet express request without pallets, or a standard one without goods (validation first) */
  nothingToPrice: 'pricing.nothingToPrice',
} as const;

/** Breakdown lines. */
export const LINE = {
  // visible to everybody
  sellSheet: 'pricing.sellSheet', // {sheetId, code, source}
  palletBand: 'pricing.palletBand', // {row, band, measure, weight}
  island: 'pricing.island', // {island, source: 'request'|'list'}
  specialZone: 'pricing.specialZoneLeadTime', // {days: 1}
  leadTime: 'pricing.leadTime', // {class|null, days}
  offer: 'pricing.offer', // {class} amount = x_total_<class>_sell
  ratio: 'pricing.ratio', // {volumeType, ratio, source}
  zoneCode: 'pricing.zoneCode', // {country, zone_code, source}
  chargeableWeight: 'pricing.chargeableWeight', // {lane_one_kg, lane_two_kg, chargeable_kg}
  shipmentCost: 'pricing.shipmentCost', // {} amount = shipment_cost
  adminFee: 'pricing.adminFee', // {scope: 'national'|'international', source: 'enduser'|'carrier'}
  total: 'pricing.total', // {class|null} amount = offer + admin fee
  fuel: 'pricing.fuel', // {month, price, percent, steps} the fuel surcharge's month and percent, no amount
  postalInfo: 'pricing.postalInfo', // {kind, postal_code, end: 'IN'|'OUT'} a postal surcharge applies, no amount
  // carriers and admins only
  buySheet: 'pricing.buySheet', // {sheetId, code}
  noBuySheet: 'pricing.noBuySheet', // {}
  hub: 'pricing.hub', // {hub, code, matchedBy: 'postal_code'|'province'|null}
  palletBase: 'pricing.palletBase', // {row, class, band, province, side: 'sell'|'buy'}
  hubCost: 'pricing.hubCost', // {row, class, hub, side}
  islandSurcharge: 'pricing.islandSurcharge', // {row, class, island, multiplier, quintals, side}
  palletPrice: 'pricing.palletPrice', // {row, class, side}
  adr: 'pricing.adr', // {class|null, percent, side}
  taillift: 'pricing.taillift', // {class|null, side}
  listTotal: 'pricing.listTotal', // {class|null} amount = total_<class>_sell (standard: before adjustments)
  buyTotal: 'pricing.buyTotal', // {class} amount = total_<class>_buy (null when not priced)
  increase: 'pricing.increase', // {class|null, percent} amount = the increase
  decrease: 'pricing.decrease', // {class|null, percent} amount = the decrease (negative)
  visitorMultiplier: 'pricing.visitorMultiplier', // {class|null, multiplier} amount = the difference
  lane: 'pricing.lane', // {lane: 1|2, weight, country, zone_code, rate_code, unit, price, minimumApplied}
  freight: 'pricing.freight', // {lane: 1|2} amount = the dearer lane
  noPassage: 'pricing.noPassage', // {flow, postal_code, city, province, quintals}
  noDieselPrice: 'pricing.noDieselPrice', // {month} a fuel plan but no diesel reference row: no fuel surcharge
  fuelAmount: 'pricing.fuelAmount', // {class|null, side, month, percent} amount = freight × percent / 100
  postal: 'pricing.postalSurcharge', // {kind, postal_code, end, class|null, side} amount = fixed + freight × percent / 100
} as const;

/** Breakdown keys an end user or a visitor may see: none of them reveals a buy or a list price. */
export const PUBLIC_LINES: ReadonlySet<string> = new Set<string>([
  LINE.sellSheet,
  LINE.palletBand,
  LINE.island,
  LINE.specialZone,
  LINE.leadTime,
  LINE.offer,
  LINE.ratio,
  LINE.zoneCode,
  LINE.chargeableWeight,
  LINE.shipmentCost,
  LINE.adminFee,
  LINE.total,
  // the fuel month and percent and the postal surcharges that apply, never their amounts before the
  // caller's adjustments (pricing.md §7, §8): those are fuelAmount / postal, carriers and admins only
  LINE.fuel,
  LINE.postalInfo,
]);

export function refuse(key: string, params: Params = {}): Refusal {
  return { ok: false, key, params };
}
