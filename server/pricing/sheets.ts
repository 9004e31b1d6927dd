/**
 * Rate sheet selection (pricing.md §1 "Categories and rate sheet versions") and sheet code generation.
 * Pure: the caller passes the carrier's categories and rate sheets and the quote date D.
 */
import type { Category, EndUserSettings, RateSheet, RateType, SheetChoice, SheetZone } from './types.js';

function day(d: string): string {
  return d.slice(0, 10);
}

/** A version applies on D when validate_from <= D <= validate_to (both inclusive). */
export function applies(sheet: RateSheet, date: string): boolean {
  const d = day(date);
  return day(sheet.validate_from) <= d && d <= day(sheet.validate_to);
}

/** Among applicable sheets: the latest validate_from wins, then the highest id. */
export function pickVersion(sheets: readonly RateSheet[], date: string): RateSheet | null {
  let best: RateSheet | null = null;
  for (const s of sheets) {
    if (!applies(s, date)) continue;
    if (best === null || day(s.validate_from) > day(best.validate_from) || (day(s.validate_from) === day(best.validate_from) && s.id > best.id)) {
      best = s;
    }
  }
  return best;
}

export interface SelectSheetsInput {
  /** the carrier's categories */
  categories: readonly Category[];
  /** the carrier's rate sheets (all versions) */
  sheets: readonly RateSheet[];
  endUser: Pick<EndUserSettings, 'exp_category_id' | 'std_category_id'> | null;
  rateType: RateType;
  zone: SheetZone;
  /** the quote date D, YYYY-MM-DD */
  date: string;
}

/**
 * Sell sheet: the applicable Customer version of the end user's category (exp_category_id for EXP,
 * std_category_id for STD) when that category is of the quote's rate type and zone; otherwise the
 * carrier's applicable Customer sheet with is_standard = 1 whose category has that rate type and zone.
 * Buy sheet (EXP quotes only, and only for zone NAT): the applicable Supplier sheet of an EXP/NAT category,
 * whatever its is_standard. A sheet's rate type and zone are those of its category; sheets whose category
 * is not in `categories` are ignored.
 */
export function selectSheets(input: SelectSheetsInput): SheetChoice {
  const { categories, sheets, endUser, rateType, zone, date } = input;
  const catById = new Map<number, Category>();
  for (const c of categories) catById.set(c.id, c);
  const ofKind = (s: RateSheet, rt: RateType, z: SheetZone): boolean => {
    const c = catById.get(s.category_id);
    return c !== undefined && c.rate_type === rt && c.zone === z;
  };

  const euCatId = endUser ? (rateType === 'EXP' ? endUser.exp_category_id : endUser.std_category_id) : null;
  if (euCatId !== null && euCatId !== undefined) {
    const cat = catById.get(euCatId);
    if (cat && cat.rate_type === rateType && cat.zone === zone) {
      const sell = pickVersion(
        sheets.filter((s) => s.category_id === euCatId && s.area === 'Customer'),
        date,
      );
      if (sell) return { sell, sellSource: 'enduser_category', buy: pickBuy(sheets, ofKind, rateType, zone, date) };
    }
  }
  const sell = pickVersion(
    sheets.filter((s) => s.area === 'Customer' && Number(s.is_standard) === 1 && ofKind(s, rateType, zone)),
    date,
  );
  return { sell, sellSource: 'carrier_standard', buy: pickBuy(sheets, ofKind, rateType, zone, date) };
}

function pickBuy(
  sheets: readonly RateSheet[],
  ofKind: (s: RateSheet, rt: RateType, z: SheetZone) => boolean,
  rateType: RateType,
  zone: SheetZone,
  date: string,
): RateSheet | null {
  if (rateType !== 'EXP' || zone !== 'NAT') return null;
  return pickVersion(
    sheets.filter((s) => s.area === 'Supplier' && ofKind(s, 'EXP', 'NAT')),
    date,
  );
}

/**
 * Generated rate sheet / category code: the first 2 letters of the company legal name in upper case
 * (accents removed, non-letters skipped, padded with 'X' when the name has fewer than 2 letters), then
 * the rate type, the zone and the date as yyyymmdd, with no separator:
 *   generateSheetCode('Acme Cargo srl', 'EXP', 'NAT', '2026-11-21', []) === 'ACEXPNAT20261121'
 * When that code is already taken (case-insensitive), the first free of `<code>-2`, `<code>-3`, … is used.
 */
export function generateSheetCode(companyLegalName: string, rateType: RateType, zone: SheetZone, date: string, existingCodes: Iterable<string>): string {
  const letters = companyLegalName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
  const prefix = (letters + 'XX').slice(0, 2);
  const ymd = day(date).replace(/-/g, '');
  const base = `${prefix}${rateType}${zone}${ymd}`;
  const taken = new Set<string>();
  for (const c of existingCodes) taken.add(c.trim().toUpperCase());
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}
