/**
 * Standard (groupage) pricing, national or international (pricing.md §3 with the surcharges of §4).
 */
import { adjustSell, adminFee, resolveRatio, surcharges } from './adjust.js';
import { chooseFuel, fuelAmount } from './fuel.js';
import { LINE, PUBLIC_LINES, REFUSAL, refuse } from './keys.js';
import { centsToNumber, ceilKg, ceilQuintals, compareDecimal, roundHalfUp, type Cents } from './money.js';
import { indexLocations, isItalian, matchLocationWhere, normalizePostalCode, resolveZoneCode } from './places.js';
import { matchPostalSurcharges, postalCharges, postalInfoLines } from './postal.js';
import type { BreakdownEntry, NoPassage, Place, QuoteInput, QuoteResult, StandardRateRow } from './types.js';

/** Rows of one country and zone code (zone codes compare upper case without spaces or hyphens). */
export function rowKey(country: string, zoneCode: string): string {
  return `${country.trim().toUpperCase()}|${normalizePostalCode(zoneCode)}`;
}

export function indexStandardRows(rows: readonly StandardRateRow[]): Map<string, StandardRateRow[]> {
  const m = new Map<string, StandardRateRow[]>();
  for (const r of rows) {
    const k = rowKey(r.country, r.zone_code);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

/** The bracket row: weight_from < w <= weight_to (brackets of one zone never overlap). */
export function findBracket(rows: readonly StandardRateRow[] | undefined, w: number): StandardRateRow | null {
  if (!rows) return null;
  for (const r of rows) {
    if (compareDecimal(r.weight_from, w) < 0 && compareDecimal(w, r.weight_to) <= 0) return r;
  }
  return null;
}

/** Lane cost for weight w: unit Q price × w / 100, unit S price; then at least `minimum`; rounded. */
export function laneCost(row: StandardRateRow, w: number): { cents: Cents; minimumApplied: boolean } {
  const raw = row.unit === 'S' ? row.price : Number(roundHalfUp(BigInt(row.price) * BigInt(w), 100n));
  const min = row.minimum ?? 0;
  return raw < min ? { cents: min, minimumApplied: true } : { cents: raw, minimumApplied: false };
}

/**
 * The rated place: the destination for national quotes; for international quotes the end outside Italy
 * (the destination when both are outside Italy is refused; when neither is — an international quote
 * inside Italy, normally stopped by validation — the destination).
 */
export function ratedPlace(zone: 'national' | 'international', origin: Place, destination: Place): Place | null {
  if (zone === 'national') return destination;
  const oIt = isItalian(origin);
  const dIt = isItalian(destination);
  if (!oIt && !dIt) return null;
  return oIt ? destination : origin;
}

/**
 * §3.3: no-passage rows with flow IN matching the origin and flow OUT matching the destination, whose
 * rate_code is empty or equals `rateCode`. Rows are first filtered by flow and rate code, then matched
 * to the place (so a postal-code row of another rate code does not hide a city row that applies).
 * Each adds cost + cost2 × ceil(chargeable / 100).
 */
/** A no-passage row of this end (flow) and of the lane's rate code or of none. */
function noPassageApplies(r: NoPassage, flow: 'IN' | 'OUT', rc: string): boolean {
  if (String(r.flow).trim().toUpperCase() !== flow) return false;
  const own = (r.rate_code ?? '').trim().toUpperCase();
  return own === '' || own === rc;
}

export function noPassageCharges(
  rows: readonly NoPassage[],
  origin: Place,
  destination: Place,
  rateCode: string | null,
  chargeableKg: number,
): { total: Cents; lines: BreakdownEntry[] } {
  const rc = (rateCode ?? '').trim().toUpperCase();
  const quintals = ceilQuintals(chargeableKg);
  const lines: BreakdownEntry[] = [];
  let total = 0;
  const index = indexLocations(rows);
  for (const flow of ['IN', 'OUT'] as const) {
    const matched = matchLocationWhere(index, flow === 'IN' ? origin : destination, (r) => noPassageApplies(r, flow, rc));
    for (const r of matched) {
      const amount = (r.cost ?? 0) + (r.cost2 ?? 0) * quintals;
      total += amount;
      lines.push({
        key: LINE.noPassage,
        params: { flow, postal_code: r.postal_code ?? null, city: r.city ?? null, province: r.province ?? null, quintals },
        amount: centsToNumber(amount),
      });
    }
  }
  return { total, lines };
}

/** The lines of `more` that the view keeps (all, or the public ones: QuoteInput.view) added to `lines`. */
function addLines(lines: BreakdownEntry[], more: readonly BreakdownEntry[], full: boolean): void {
  for (const l of more) if (full || PUBLIC_LINES.has(l.key)) lines.push(l);
}

/** One lane (§3.3): its bracket's cost for the weight, and its line (not in the public view); null: no bracket. */
function priceLane(
  zoneRows: readonly StandardRateRow[] | undefined,
  n: 1 | 2,
  w: number,
  country: string,
  zoneCode: string,
  full: boolean,
  lines: BreakdownEntry[],
): { row: StandardRateRow; cents: Cents } | null {
  const row = findBracket(zoneRows, w);
  if (!row) return null;
  const c = laneCost(row, w);
  if (full)
    lines.push({
      key: LINE.lane,
      params: {
        lane: n,
        weight: w,
        country,
        zone_code: zoneCode,
        rate_code: row.rate_code ?? null,
        unit: row.unit,
        price: centsToNumber(row.price),
        minimumApplied: c.minimumApplied,
      },
      amount: centsToNumber(c.cents),
    });
  return { row, cents: c.cents };
}

export function priceStandard(input: QuoteInput): QuoteResult {
  const { request: req, carrier, endUser, sheets, date } = input;
  const sheetZone = req.zone === 'national' ? 'NAT' : 'INT';
  const goods = req.standard;
  if (!sheets.sell) return refuse(REFUSAL.noSellSheet, { rateType: 'STD', zone: sheetZone, date });
  if (!goods) return refuse(REFUSAL.nothingToPrice);
  const rated = ratedPlace(req.zone, req.origin, req.destination);
  if (!rated) return refuse(REFUSAL.bothEndsAbroad, { origin: req.origin.country, destination: req.destination.country });

  // the public view (types.ts QuoteInput.view): only the lines an end user or visitor may see
  const full = input.view !== 'public';
  const lines: BreakdownEntry[] = [];
  lines.push({ key: LINE.sellSheet, params: { sheetId: sheets.sell.id, code: sheets.sell.code ?? null, source: sheets.sellSource }, amount: null });

  // §7, §8: said once, before the numbers (month and percent; which postal surcharges apply)
  const fuel = chooseFuel(carrier, input.diesel, date);
  addLines(lines, fuel.lines, full);
  const postal = matchPostalSurcharges(input.postalSurcharges ?? [], req.origin, req.destination);
  addLines(lines, postalInfoLines(postal), full);

  const ratio = resolveRatio(req.caller, goods.volumeType, goods.ratio, endUser, carrier);
  lines.push({ key: LINE.ratio, params: { volumeType: goods.volumeType, ratio: Number(ratio.ratio), source: ratio.source }, amount: null });
  const w1 = ceilKg(goods.weight, 1);
  const w2 = ceilKg(goods.volume, ratio.ratio);
  const chargeable = Math.max(w1, w2);
  lines.push({ key: LINE.chargeableWeight, params: { lane_one_kg: w1, lane_two_kg: w2, chargeable_kg: chargeable }, amount: null });

  const sellRows = input.standardSellRows ?? [];
  const zc = resolveZoneCode(rated, sellRows, indexLocations(input.standardSpecialZones ?? []));
  const country = rated.country.trim().toUpperCase();
  lines.push({ key: LINE.zoneCode, params: { country, zone_code: zc.zone_code, source: zc.source }, amount: null });
  const zoneRows = indexStandardRows(sellRows).get(rowKey(country, zc.zone_code));

  const one = priceLane(zoneRows, 1, w1, country, zc.zone_code, full, lines);
  if (!one) return refuse(REFUSAL.noStandardRate, { country, zone_code: zc.zone_code, weight: w1, lane: 1 });
  // a volume of 0 makes lane two cost 0 (no row, no minimum)
  const two = w2 > 0 ? priceLane(zoneRows, 2, w2, country, zc.zone_code, full, lines) : { row: null, cents: 0 };
  if (!two) return refuse(REFUSAL.noStandardRate, { country, zone_code: zc.zone_code, weight: w2, lane: 2 });

  const dearer =
    two.row !== null && two.cents > one.cents ? { lane: 2 as const, cents: two.cents, row: two.row } : { lane: 1 as const, cents: one.cents, row: one.row };
  const freight = dearer.cents;
  if (full) lines.push({ key: LINE.freight, params: { lane: dearer.lane }, amount: centsToNumber(freight) });

  const s = surcharges(freight, { adr: req.adr, taillift: false }, carrier, { class: null, side: 'sell' });
  addLines(lines, s.lines, full);
  // without their lines in the public view, which drops them (issue 37: the fuel line was a fifth of the engine's time)
  const f = fuelAmount(freight, fuel.fuel, { class: null, side: 'sell' }, full);
  addLines(lines, f.lines, full);
  const np = noPassageCharges(input.noPassage ?? [], req.origin, req.destination, dearer.row.rate_code, chargeable);
  addLines(lines, np.lines, full);
  const pc = postalCharges(freight, postal, { class: null, side: 'sell' }, full);
  addLines(lines, pc.lines, full);
  const t = surcharges(freight, { adr: false, taillift: req.taillift }, carrier, { class: null, side: 'sell' });
  addLines(lines, t.lines, full);
  const list = freight + s.adr + f.cents + np.total + pc.cents + t.taillift;
  if (full) lines.push({ key: LINE.listTotal, params: { class: null }, amount: centsToNumber(list) });

  const adj = adjustSell(list, { caller: req.caller, carrier, endUser }, null);
  addLines(lines, adj.lines, full);
  lines.push({ key: LINE.shipmentCost, params: {}, amount: centsToNumber(adj.cents) });
  const fee = adminFee(req.zone, endUser, carrier);
  lines.push({ key: LINE.adminFee, params: { scope: req.zone, source: fee.source }, amount: centsToNumber(fee.cents) });
  lines.push({ key: LINE.total, params: { class: null }, amount: centsToNumber(adj.cents + fee.cents) });
  const leadTime = dearer.row.leadtime ?? null;
  lines.push({ key: LINE.leadTime, params: { class: null, days: leadTime }, amount: null });

  return {
    ok: true,
    data: {
      costo_complete: {
        final_cost_lane_one: centsToNumber(one.cents),
        final_cost_lane_two: centsToNumber(two.cents),
        shipment_cost: centsToNumber(adj.cents),
        admin_fee: centsToNumber(fee.cents),
        totla: centsToNumber(adj.cents + fee.cents),
        lead_time: leadTime,
      },
      units: {
        standardunits: goods.units,
        standardweight: goods.weight,
        standardvolume: goods.volume,
        standardvolumeType: goods.volumeType,
        ratio: Number(ratio.ratio),
        chargeable_weight: chargeable,
      },
      fuel: fuel.fuel,
      breakdown: lines,
    },
  };
}
