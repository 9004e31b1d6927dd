/**
 * Places: postal code normalization, matching a place to location rows (pricing.md §0), pallet bands
 * (§2.1) and the zone code of a standard quote (§3.2).
 */
import { compareDecimal, exactDouble } from './money.js';
import type { Band, Pallet, Place, StandardRateRow, StandardSpecialZone } from './types.js';

/** Upper case, spaces (any whitespace) and hyphens removed: "ab1 2-cd" -> "AB12CD". */
export function normalizePostalCode(code: string | null | undefined): string {
  if (code === null || code === undefined) return '';
  // a code of digits and capital letters only is normal already (issue 37: the usual case, read without the regex)
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return normalizePostalCodeFully(code);
  }
  return code;
}

/** normalizePostalCode without its fast path (exported for the test that compares the two). */
export function normalizePostalCodeFully(code: string | null | undefined): string {
  return (code ?? '').toUpperCase().replace(/[\s-]+/g, '');
}

/** Names (city, province, island, hub) compare case-insensitively, trimmed. */
export function normalizeName(name: string | null | undefined): string {
  return (name ?? '').trim().toLowerCase();
}

export function isItalian(place: Pick<Place, 'country'>): boolean {
  return place.country.trim().toUpperCase() === 'IT';
}

export interface LocationRow {
  postal_code?: string | null;
  city?: string | null;
  province?: string | null;
}

export interface LocationIndex<T> {
  byPostal: Map<string, T[]>;
  byCity: Map<string, T[]>;
}

function cityKey(city: string | null | undefined, province: string | null | undefined): string {
  return `${normalizeName(city)}|${normalizeName(province)}`;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const indexes = new WeakMap<readonly LocationRow[], LocationIndex<any>>();

/**
 * Indexes location rows once: rows with a postal code by it, rows without one by city + province.
 * The index of an array is kept while the array lives (rows are never changed once given to the
 * engine): the loader's cached rows of a big carrier (thousands of special zones and no-passage rows,
 * issue 20) are indexed once per cache period, not once per quote.
 */
export function indexLocations<T extends LocationRow>(rows: readonly T[]): LocationIndex<T> {
  const known = indexes.get(rows);
  if (known) return known;
  const index = buildIndex(rows);
  indexes.set(rows, index);
  return index;
}

function buildIndex<T extends LocationRow>(rows: readonly T[]): LocationIndex<T> {
  const byPostal = new Map<string, T[]>();
  const byCity = new Map<string, T[]>();
  for (const r of rows) {
    const pc = normalizePostalCode(r.postal_code);
    if (pc !== '') push(byPostal, pc, r);
    else if (normalizeName(r.city) !== '') push(byCity, cityKey(r.city, r.province), r);
  }
  return { byPostal, byCity };
}

/**
 * The rows matching a place: postal-code rows with the place's postal code; when there are none, rows
 * without a postal code whose city and province equal the place's. Only Italian places match anything.
 */
export function matchLocation<T>(index: LocationIndex<T>, place: Place): T[] {
  if (!isItalian(place)) return [];
  const byPc = index.byPostal.get(normalizePostalCode(place.postal_code));
  if (byPc && byPc.length > 0) return byPc;
  if (normalizeName(place.city) === '') return [];
  return index.byCity.get(cityKey(place.city, place.province)) ?? [];
}

/** `matchLocation` over the rows that `keep` accepts (the same as indexing only those rows). */
export function matchLocationWhere<T>(index: LocationIndex<T>, place: Place, keep: (row: T) => boolean): T[] {
  if (!isItalian(place)) return [];
  const byPc = (index.byPostal.get(normalizePostalCode(place.postal_code)) ?? []).filter(keep);
  if (byPc.length > 0) return byPc;
  if (normalizeName(place.city) === '') return [];
  return (index.byCity.get(cityKey(place.city, place.province)) ?? []).filter(keep);
}

export function matchLocationRows<T extends LocationRow>(rows: readonly T[], place: Place): T[] {
  return matchLocation(indexLocations(rows), place);
}

// ---- pallet bands (§2.1) ---------------------------------------------------------------------------

export const BANDS: ReadonlyArray<{ band: Band; maxWeight: number; maxHeight: number }> = [
  { band: 'p150', maxWeight: 150, maxHeight: 80 },
  { band: 'p300', maxWeight: 300, maxHeight: 100 },
  { band: 'p550', maxWeight: 550, maxHeight: 150 },
  { band: 'ps550', maxWeight: 550, maxHeight: 240 },
  { band: 'p1000', maxWeight: 1000, maxHeight: 240 },
];
export const MAX_PALLET_WEIGHT = 1000;
export const MAX_PALLET_HEIGHT = 240;
export const FOOTPRINT = { long: 120, short: 100 } as const;

export type BandResult = { ok: true; band: Band } | { ok: false; row: number; limit: 'weight' | 'height' | 'footprint'; max: number | string };

/** width × length within 120 × 100 in this orientation (a function of the module: no closure per pallet, issue 37). */
function fitsFootprint(a: number | string, b: number | string): boolean {
  return compareDecimal(a, FOOTPRINT.long) <= 0 && compareDecimal(b, FOOTPRINT.short) <= 0;
}

/**
 * The first band whose limits the pallet meets (limits inclusive: 150 kg and 80 cm is p150). Refused when
 * over 1000 kg, over 240 cm high, or when the footprint fits 120 × 100 in neither orientation (checked in
 * that order). `row` is the pallet's 1-based row, echoed in a refusal. Zero or negative values are a
 * validation error of the caller (422) and are not checked here.
 */
export function selectBand(p: Pallet, row: number): BandResult {
  // Fast path (issue 37): the four measures as doubles that compare exactly (money.ts exactDouble), each
  // read once instead of once per limit; otherwise every comparison is compareDecimal's.
  const weight = exactDouble(p.weight);
  const height = exactDouble(p.height);
  const width = exactDouble(p.width);
  const length = exactDouble(p.length);
  if (weight === weight && height === height && width === width && length === length) {
    if (weight > MAX_PALLET_WEIGHT) return { ok: false, row, limit: 'weight', max: MAX_PALLET_WEIGHT };
    if (height > MAX_PALLET_HEIGHT) return { ok: false, row, limit: 'height', max: MAX_PALLET_HEIGHT };
    const fits = (width <= FOOTPRINT.long && length <= FOOTPRINT.short) || (length <= FOOTPRINT.long && width <= FOOTPRINT.short);
    if (!fits) return { ok: false, row, limit: 'footprint', max: `${FOOTPRINT.long}×${FOOTPRINT.short}` };
    for (const b of BANDS) if (weight <= b.maxWeight && height <= b.maxHeight) return { ok: true, band: b.band };
    return { ok: false, row, limit: 'weight', max: MAX_PALLET_WEIGHT };
  }
  if (compareDecimal(p.weight, MAX_PALLET_WEIGHT) > 0) return { ok: false, row, limit: 'weight', max: MAX_PALLET_WEIGHT };
  if (compareDecimal(p.height, MAX_PALLET_HEIGHT) > 0) return { ok: false, row, limit: 'height', max: MAX_PALLET_HEIGHT };
  if (!fitsFootprint(p.width, p.length) && !fitsFootprint(p.length, p.width)) {
    return { ok: false, row, limit: 'footprint', max: `${FOOTPRINT.long}×${FOOTPRINT.short}` };
  }
  for (const b of BANDS) {
    if (compareDecimal(p.weight, b.maxWeight) <= 0 && compareDecimal(p.height, b.maxHeight) <= 0) {
      return { ok: true, band: b.band };
    }
  }
  // unreachable: p1000 accepts everything up to the absolute limits checked above
  return { ok: false, row, limit: 'weight', max: MAX_PALLET_WEIGHT };
}

/** "120×80×90": width × length × height, as given. */
export function palletMeasure(p: Pallet): string {
  return `${String(p.width)}×${String(p.length)}×${String(p.height)}`;
}

// ---- zone code (§3.2) --------------------------------------------------------------------------------

export type ZoneSource = 'special_zone' | 'province' | 'postal_prefix' | 'default';

/**
 * The zone code of the rated place of a standard quote:
 * - a standard special zone row matching the (Italian) place gives its `code` (postal-code rows beat
 *   city rows; among several matching rows the first in the given order);
 * - otherwise an Italian place's zone code is its province sigla (upper case, never '*');
 * - a foreign place's is the longest `zone_code` among `rows` of that country that prefixes its
 *   normalized postal code, else '*'.
 * `rows` are the sell sheet's rows (any country: they are filtered here).
 */
export function resolveZoneCode(
  place: Place,
  rows: readonly StandardRateRow[],
  specialZones: LocationIndex<StandardSpecialZone>,
): { zone_code: string; source: ZoneSource } {
  const special = matchLocation(specialZones, place)[0];
  if (special) return { zone_code: special.code.trim().toUpperCase(), source: 'special_zone' };
  if (isItalian(place)) return { zone_code: place.province.trim().toUpperCase(), source: 'province' };
  const country = place.country.trim().toUpperCase();
  const pc = normalizePostalCode(place.postal_code);
  let best = '';
  for (const r of rows) {
    if (r.country.trim().toUpperCase() !== country) continue;
    const z = normalizePostalCode(r.zone_code);
    if (z === '' || z === '*') continue;
    if (z.length > best.length && pc.startsWith(z)) best = z;
  }
  return best === '' ? { zone_code: '*', source: 'default' } : { zone_code: best, source: 'postal_prefix' };
}
