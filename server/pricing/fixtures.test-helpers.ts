/**
 * Test fixtures only (imported by the *.test.ts files of this folder): the worked example of
 * pricing.md §6 and small builders for other cases.
 */
import type { CarrierSettings, EndUserSettings, ExpressRateRow, Pallet, Place, QuoteInput, QuoteRequest, RateSheet, StandardRateRow } from './types.js';

export const D = '2026-11-21';

export function place(city: string, province: string, postal_code: string, country = 'IT'): Place {
  return { country, postal_code, city, province };
}

export const MILANO = place('Milano', 'MI', '20121');
export const ROMA = place('Roma', 'RM', '00118');

export function carrier(over: Partial<CarrierSettings> = {}): CarrierSettings {
  return {
    id: 7,
    adr_surcharge_percent: null,
    taillift_fee: null,
    national_admin_fee: null,
    international_admin_fee: null,
    visitor_price_multiplier: null,
    combo_cbm_ratio: null,
    combo_lm_ratio: null,
    ...over,
  };
}

export function endUser(over: Partial<EndUserSettings> = {}): EndUserSettings {
  return {
    id: 70,
    exp_category_id: null,
    std_category_id: null,
    increase_percent: null,
    decrease_percent: null,
    national_admin_fee: null,
    international_admin_fee: null,
    combo_cbm_ratio: null,
    combo_lm_ratio: null,
    ...over,
  };
}

export function expRow(province: string, type_id: 1 | 2, cells: Partial<ExpressRateRow>): ExpressRateRow {
  return { province, type_id, p150: null, p300: null, p550: null, ps550: null, p1000: null, leadtime: null, ...cells };
}

export function sheet(id: number, over: Partial<RateSheet> = {}): RateSheet {
  return { id, category_id: 1, area: 'Customer', validate_from: '2026-01-01', validate_to: '2026-12-31', is_standard: 1, ...over };
}

export function pallet(weight: number | string, width: number | string, length: number | string, height: number | string): Pallet {
  return { weight, width, length, height };
}

export function expressRequest(over: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    zone: 'national',
    service: 'palletExpress',
    flow: 'OUT',
    adr: false,
    taillift: false,
    origin: MILANO,
    destination: ROMA,
    pallets: [pallet(250, 120, 80, 90)],
    caller: 'enduser',
    ...over,
  };
}

/** pricing.md §6: carrier C, RM rows, hub MI -> HUBMI, end user +10 %, national fee 4.50. */
export function workedExample(over: Partial<QuoteInput> = {}): QuoteInput {
  return {
    request: expressRequest(),
    date: D,
    carrier: carrier(),
    endUser: endUser({ increase_percent: '10', national_admin_fee: 450 }),
    sheets: { sell: sheet(11, { code: 'CCEXPNAT20260101' }), sellSource: 'carrier_standard', buy: null },
    expressSellRows: [expRow('RM', 1, { p300: 8000, leadtime: 2 }), expRow('RM', 2, { p300: 11000, leadtime: 1 })],
    hubCodes: [{ code: 'MI', hub: 'HUBMI' }],
    hubCosts: [{ code: 'HUBMI', silver: 500, gold: 900 }],
    ...over,
  };
}

export function stdRow(
  country: string,
  zone_code: string,
  weight_from: number,
  weight_to: number,
  price: number,
  over: Partial<StandardRateRow> = {},
): StandardRateRow {
  return { rate_code: 'R1', country, zone_code, weight_from, weight_to, price, unit: 'Q', minimum: null, leadtime: 3, ...over };
}

export function standardRequest(over: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    zone: 'national',
    service: 'standard',
    flow: 'OUT',
    adr: false,
    taillift: false,
    origin: MILANO,
    destination: ROMA,
    pallets: [],
    standard: { units: 3, weight: 250, volume: 0, volumeType: 'CBM', ratio: 250 },
    caller: 'carrier',
    ...over,
  };
}

export function standardInput(over: Partial<QuoteInput> = {}): QuoteInput {
  return {
    request: standardRequest(),
    date: D,
    carrier: carrier(),
    endUser: null,
    sheets: { sell: sheet(21), sellSource: 'carrier_standard', buy: null },
    standardSellRows: [stdRow('IT', 'RM', 0, 100, 3000), stdRow('IT', 'RM', 100, 500, 2000), stdRow('IT', 'RM', 500, 5000, 1500)],
    ...over,
  };
}
