/**
 * Test fixtures only: the two worked examples of docs/pricing-examples.md (an express and a standard
 * quote with the fuel surcharge of pricing.md §7 and postal-code surcharges of §8).
 */
import { carrier, endUser, expRow, pallet, place, sheet, stdRow, D } from './fixtures.test-helpers.js';
import type { PostalSurcharge, QuoteInput } from './types.js';

export const PLAN = { fuel_base_price: '1.500', fuel_step: '0.020', fuel_step_percent: '0.5', fuel_max_percent: '8' };
export const DIESEL_NOV = { month: '2026-11', price: '1.587' };

export const ROMA_00118 = place('Roma', 'RM', '00118');
export const MILANO_20121 = place('Milano', 'MI', '20121');
export const MESTRE_30172 = place('Venezia', 'VE', '30172');

/** The postal surcharge table of both examples (fixed in cents, as stored). */
export const POSTAL: PostalSurcharge[] = [
  { country: 'IT', postal_code: '20121', kind: 'ztl', flow: 'OUT', fixed: 700, percent: null },
  { country: 'IT', postal_code: '2012*', kind: 'ztl', flow: 'IN', fixed: 400, percent: null },
  { country: 'IT', postal_code: '301*', kind: 'remote', flow: null, fixed: 500, percent: '2' },
];

/** Example 1: pallet express Roma 00118 → Milano 20121, one pallet 250 kg 120 × 80 × 90, ADR 5 %, end user +10 %, fee 4.50. */
export function expressExample(over: Partial<QuoteInput> = {}): QuoteInput {
  return {
    request: {
      zone: 'national',
      service: 'palletExpress',
      flow: 'OUT',
      adr: true,
      taillift: false,
      origin: ROMA_00118,
      destination: MILANO_20121,
      pallets: [pallet(250, 120, 80, 90)],
      caller: 'enduser',
    },
    date: D,
    carrier: carrier({ adr_surcharge_percent: '5', ...PLAN }),
    endUser: endUser({ increase_percent: '10', national_admin_fee: 450 }),
    sheets: { sell: sheet(11, { code: 'CCEXPNAT20260101' }), sellSource: 'carrier_standard', buy: sheet(12, { area: 'Supplier', code: 'CCEXPNATBUY' }) },
    expressSellRows: [expRow('MI', 1, { p300: 8000, leadtime: 2 }), expRow('MI', 2, { p300: 11000, leadtime: 1 })],
    expressBuyRows: [expRow('MI', 1, { p300: 6000, leadtime: 3 }), expRow('MI', 2, { p300: 8500, leadtime: 2 })],
    hubCodes: [{ code: 'RM', hub: 'HUBRM' }],
    hubCosts: [{ code: 'HUBRM', silver: 500, gold: 900 }],
    diesel: DIESEL_NOV,
    postalSurcharges: POSTAL,
    ...over,
  };
}

/** Example 2: standard Milano 20121 → Venezia 30172, 420 kg, 2 m³ at CBM250, tail lift 20.00, end user +10 %, fee 4.50. */
export function standardExample(over: Partial<QuoteInput> = {}): QuoteInput {
  return {
    request: {
      zone: 'national',
      service: 'standard',
      flow: 'OUT',
      adr: false,
      taillift: true,
      origin: MILANO_20121,
      destination: MESTRE_30172,
      pallets: [],
      standard: { units: 2, weight: 420, volume: 2, volumeType: 'CBM', ratio: 250 },
      caller: 'carrier',
    },
    date: D,
    carrier: carrier({ taillift_fee: 2000, ...PLAN }),
    endUser: endUser({ increase_percent: '10', national_admin_fee: 450 }),
    sheets: { sell: sheet(21, { code: 'CCSTDNAT20260101' }), sellSource: 'carrier_standard', buy: null },
    standardSellRows: [stdRow('IT', 'VE', 0, 100, 3000), stdRow('IT', 'VE', 100, 500, 1800), stdRow('IT', 'VE', 500, 5000, 1500)],
    diesel: DIESEL_NOV,
    postalSurcharges: POSTAL,
    ...over,
  };
}
