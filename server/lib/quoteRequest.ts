import type { Kind } from '../../model/roles.js';
import { quoteRequestSchema, type QuoteRequest as CostRequest } from '../../model/quote.js';
import { normalizePostalCode } from '../pricing/places.js';
import type { CallerKind, Place, QuoteRequest } from '../pricing/types.js';
import type { PlaceReference } from '../repositories/placeReference.js';
import { invalid } from './errors.js';

/** The cost request is declared once, in model/quote.ts (the browser's calculator takes its types from there). */
export { MAX_PALLETS, RATIOS } from '../../model/quote.js';
export const costRequestSchema = quoteRequestSchema;
export type CostRequestBody = CostRequest;

type FieldError = string | { key: string; params?: Record<string, unknown> };

/** The four lists of an express request, one entry per pallet, in the order their errors are written. */
const PALLET_LISTS = ['palletWeight', 'palletWidth', 'palletLength', 'palletHeight'] as const;

/** The body's field names of each end, written once (not `${end}Country` per quote). */
const END_FIELDS = {
  origin: { country: 'originCountry', city: 'originLocality', province: 'originProvince', postalCode: 'originPostalCode' },
  destination: { country: 'destinationCountry', city: 'destinationLocality', province: 'destinationProvince', postalCode: 'destinationPostalCode' },
} as const;

/**
 * One end of the request as the engine's place, its problems added to `errors`. A function of the module
 * (issue 37: as a closure of toQuoteRequest it was made on every quote, named by tsx with a defineProperty).
 */
function placeOf(b: CostRequestBody, end: 'origin' | 'destination', national: boolean, ref: PlaceReference, errors: Record<string, FieldError>): Place {
  const f = END_FIELDS[end];
  const country = b[f.country].trim().toUpperCase();
  const city = (b[f.city] ?? '').trim();
  const province = (b[f.province] ?? '').trim().toUpperCase();
  if (!ref.countries.has(country)) errors[f.country] = { key: 'pricing.unknownCountry', params: { value: b[f.country] } };
  else if (national && country !== 'IT') errors[f.country] = 'pricing.nationalItalyOnly';
  const italian = country === 'IT';
  // Locality and province are asked only for Italian places (calculator document §5); abroad they are ignored.
  if (italian) {
    if (!city) errors[f.city] = 'validation.required';
    if (!province) errors[f.province] = 'validation.required';
    else if (!ref.provinces.has(province)) errors[f.province] = { key: 'pricing.unknownProvince', params: { value: b[f.province] } };
    else if (city) {
      // A city the reference list places only in other provinces is a mistake; a city not in the list (a hamlet) is accepted.
      const provinces = ref.municipalities.get(city.toLowerCase());
      if (provinces && !provinces.includes(province)) {
        errors[f.city] = { key: 'pricing.cityInProvince', params: { city, provinces: provinces.join(', ') } };
      }
    }
  }
  return { country, postal_code: normalizePostalCode(b[f.postalCode]), city, province: italian ? province : '' };
}

/**
 * The checks a JSON schema cannot make (pricing.md §0, calculator document §5), then the engine's
 * request. Every problem is collected and answered at once as a 422 with field errors.
 */
export function toQuoteRequest(b: CostRequestBody, caller: CallerKind, ref: PlaceReference): QuoteRequest {
  const errors: Record<string, FieldError> = {};
  const national = b.zone === 'national';
  if (b.service === 'palletExpress' && !national) errors.service = 'pricing.expressNationalOnly';
  // An admin prices for the carrier it names (pricing.md §1); everyone else's carrier comes from the token.
  if (caller === 'admin' && !b.company_id) errors.company_id = 'validation.required';

  const origin = placeOf(b, 'origin', national, ref, errors);
  const destination = placeOf(b, 'destination', national, ref, errors);
  if (!national && !errors.originCountry && !errors.destinationCountry && origin.country === 'IT' && destination.country === 'IT') {
    errors.destinationCountry = 'pricing.internationalNeedsAbroad';
  }

  const request: QuoteRequest = {
    zone: b.zone,
    service: b.service,
    flow: b.flow ?? 'OUT',
    island: b.island?.trim() || null,
    adr: b.adr === 1,
    taillift: b.taillift === 1,
    origin,
    destination,
    pallets: [],
    standard: null,
    caller,
  };

  if (b.service === 'palletExpress') {
    // the four lists read by name (issue 37: an object of them, its values, entries and a spread per quote)
    const rows = Math.max(b.palletWeight?.length ?? 0, b.palletWidth?.length ?? 0, b.palletLength?.length ?? 0, b.palletHeight?.length ?? 0);
    if (rows === 0) {
      for (const k of PALLET_LISTS) errors[k] = 'validation.required';
    } else {
      for (const k of PALLET_LISTS) {
        if ((b[k]?.length ?? 0) !== rows) errors[k] = { key: 'pricing.palletRowsMismatch', params: { rows } };
      }
      for (let i = 0; i < rows; i++) {
        request.pallets.push({
          weight: String(b.palletWeight?.[i]),
          width: String(b.palletWidth?.[i]),
          length: String(b.palletLength?.[i]),
          height: String(b.palletHeight?.[i]),
        });
      }
    }
  } else {
    for (const k of ['standardunits', 'standardweight', 'standardvolume', 'standardvolumeType'] as const) {
      if (b[k] === undefined) errors[k] = 'validation.required';
    }
    // Carriers and admins choose the ratio (required); end users and visitors get their companies' (pricing.md §3.1).
    if ((caller === 'carrier' || caller === 'admin') && !b.calculationRatio) errors.calculationRatio = 'validation.required';
    if (b.calculationRatio && b.standardvolumeType && !b.calculationRatio.startsWith(b.standardvolumeType)) {
      errors.calculationRatio = { key: 'pricing.ratioMismatch', params: { ratio: b.calculationRatio, volumeType: b.standardvolumeType } };
    }
    request.standard = {
      units: b.standardunits ?? 0,
      weight: String(b.standardweight),
      volume: String(b.standardvolume),
      volumeType: b.standardvolumeType ?? 'CBM',
      ratio: caller === 'carrier' || caller === 'admin' ? (b.calculationRatio ?? null) : null,
    };
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return request;
}

/** The engine's caller kind for a session kind (support users do not quote). */
export function callerKind(kind: Kind | undefined): CallerKind | null {
  if (!kind) return 'visitor';
  return kind === 'support' ? null : kind;
}
