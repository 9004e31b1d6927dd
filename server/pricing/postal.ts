/**
 * Postal-code surcharges (pricing.md §8): ZTL, remote areas and other postal codes with a fixed amount
 * and/or a percent of the freight (the freight of §7: express, the class's pallet prices; standard, the
 * dearer lane).
 */
import { cacheKey } from './cacheKey.js';
import { LINE } from './keys.js';
import { centsToNumber, isBlank, percentOf, type Cents } from './money.js';
import { normalizePostalCode } from './places.js';
import type { BreakdownEntry, Flow, Place, PostalSurcharge, ServiceClass } from './types.js';

export const POSTAL_KINDS = ['ztl', 'remote', 'other'] as const;

export interface PostalMatch {
  /** IN = the origin, OUT = the destination */
  end: Flow;
  row: PostalSurcharge;
}

/** How well a row's postal code matches a place's: -1 none; an exact code beats every prefix; a longer prefix a shorter one. */
export function postalScore(code: string, pc: string): number {
  const c = normalizePostalCode(code);
  if (c === '' || pc === '') return -1;
  if (c.endsWith('*')) {
    const prefix = c.slice(0, -1);
    return prefix !== '' && pc.startsWith(prefix) ? prefix.length : -1;
  }
  return c === pc ? 1000 : -1;
}

/**
 * For each end (IN = origin, then OUT = destination) and each kind (ztl, remote, other), the matching row
 * with the longest postal code. A row's country (empty = IT) must be the place's; its flow must be the
 * end's or empty (either end: it can then match, and add, at both ends).
 * Choice: when a row of the end's own flow and an empty-flow row have the same postal code and kind, the
 * row naming the end wins (it is the more specific one). Ties beyond that cannot happen: the import
 * refuses two rows with the same country, postal code, kind and flow.
 */
export function matchPostalSurcharges(rows: readonly PostalSurcharge[], origin: Place, destination: Place): readonly PostalMatch[] {
  if (rows.length === 0) return [];
  // Remembered per rows array (the tariff cache's, shared by a burst of quotes) and the two ends (issue 37):
  // the answer is shared, read-only.
  let ofRows = postalMatches.get(rows);
  if (!ofRows) postalMatches.set(rows, (ofRows = new Map()));
  const key = cacheKey(origin.country, origin.postal_code, destination.country, destination.postal_code);
  let known = ofRows.get(key);
  if (!known) {
    if (ofRows.size >= 100) ofRows.clear();
    ofRows.set(key, (known = Object.freeze(matchRows(rows, origin, destination))));
  }
  return known;
}

const postalMatches = new WeakMap<readonly PostalSurcharge[], Map<string, readonly PostalMatch[]>>();

function matchRows(rows: readonly PostalSurcharge[], origin: Place, destination: Place): PostalMatch[] {
  const out: PostalMatch[] = [];
  for (const end of ['IN', 'OUT'] as const) {
    const place = end === 'IN' ? origin : destination;
    const country = place.country.trim().toUpperCase();
    const pc = normalizePostalCode(place.postal_code);
    for (const kind of POSTAL_KINDS) {
      let best: { row: PostalSurcharge; score: number } | null = null;
      for (const r of rows) {
        if (r.kind.trim().toLowerCase() !== kind) continue;
        const flow = (r.flow ?? '').trim().toUpperCase();
        if (flow !== '' && flow !== end) continue;
        if ((isBlank(r.country) ? 'IT' : r.country.trim().toUpperCase()) !== country) continue;
        const s = postalScore(r.postal_code, pc);
        if (s < 0) continue;
        const score = s * 2 + (flow === end ? 1 : 0);
        if (!best || score > best.score) best = { row: r, score };
      }
      if (best) out.push({ end, row: best.row });
    }
  }
  return out;
}

const lineParams = (m: PostalMatch) => ({ kind: m.row.kind.trim().toLowerCase(), postal_code: normalizePostalCode(m.row.postal_code), end: m.end });

/** The lines that say which surcharges apply, without amounts (visible to everybody). */
export function postalInfoLines(matches: readonly PostalMatch[]): BreakdownEntry[] {
  return matches.map((m) => ({ key: LINE.postalInfo, params: lineParams(m), amount: null }));
}

/** Each match adds fixed + freight × percent / 100 (round); one line each (carriers and admins). */
export function postalCharges(
  freight: Cents,
  matches: readonly PostalMatch[],
  params: { class: ServiceClass | null; side: 'sell' | 'buy' },
  withLines = true,
): { cents: Cents; lines: BreakdownEntry[] } {
  let total = 0;
  const lines: BreakdownEntry[] = [];
  for (const m of matches) {
    const amount = (m.row.fixed ?? 0) + (isBlank(m.row.percent) ? 0 : percentOf(freight, m.row.percent));
    total += amount;
    // without the lines: the public view (types.ts QuoteInput.view), which would drop them
    if (withLines) lines.push({ key: LINE.postal, params: { ...lineParams(m), ...params }, amount: centsToNumber(amount) });
  }
  return { cents: total, lines };
}
