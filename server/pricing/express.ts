/**
 * Pallet express pricing (pricing.md §2 with the surcharges of §4), both classes, sell and buy.
 */
import { adjustSell, adminFee, surcharges } from './adjust.js';
import { chooseFuel, fuelAmount } from './fuel.js';
import { LINE, PUBLIC_LINES, REFUSAL, refuse } from './keys.js';
import { centsToNumber, centsToNumberOrNull, ceilQuintals, isBlank, parseDecimal, pow10, roundHalfUp, type Cents } from './money.js';
import { indexLocations, matchLocation, normalizeName, normalizePostalCode, palletMeasure, selectBand } from './places.js';
import { matchPostalSurcharges, postalCharges, postalInfoLines, type PostalMatch } from './postal.js';
import type {
  Band,
  BreakdownEntry,
  CarrierSettings,
  ExpressRateRow,
  FuelApplied,
  HubCode,
  HubCost,
  IslandPlace,
  IslandZone,
  Pallet,
  PalletData,
  Place,
  QuoteInput,
  QuoteResult,
  ServiceClass,
  TypeId,
} from './types.js';

export const CLASSES: ReadonlyArray<{ cls: ServiceClass; typeId: TypeId; hubKey: 'silver' | 'gold' }> = [
  { cls: 'SILVER', typeId: 1, hubKey: 'silver' },
  { cls: 'GOLD', typeId: 2, hubKey: 'gold' },
];

const rowIndexes = new WeakMap<readonly ExpressRateRow[], Map<string, ExpressRateRow>>();

/**
 * Express rate rows keyed by `PROVINCE|type_id` (a sheet holds at most one row per province and type).
 * Kept per array while it lives, as places.ts's indexLocations: the loader's cached rows are indexed once.
 */
export function indexExpressRows(rows: readonly ExpressRateRow[]): Map<string, ExpressRateRow> {
  let known = rowIndexes.get(rows);
  if (!known) rowIndexes.set(rows, (known = buildRowIndex(rows)));
  return known;
}

function buildRowIndex(rows: readonly ExpressRateRow[]): Map<string, ExpressRateRow> {
  const m = new Map<string, ExpressRateRow>();
  for (const r of rows) m.set(`${r.province.trim().toUpperCase()}|${Number(r.type_id)}`, r);
  return m;
}

export interface HubResult {
  hub: string | null;
  code: string | null;
  matchedBy: 'postal_code' | 'province' | null;
  silver: Cents;
  gold: Cents;
}

/**
 * The hub of the hub place: the hub codes row whose code equals its postal code, else its province sigla.
 * Its per-pallet cost is the hub costs row whose code equals the hub's name. No hub or no cost row: 0.
 */
export function findHub(place: Place, hubCodes: readonly HubCode[], hubCosts: readonly HubCost[]): HubResult {
  const pc = normalizePostalCode(place.postal_code);
  const prov = normalizePostalCode(place.province);
  const codes = hubCodeIndex(hubCodes);
  const byPc = pc === '' ? undefined : codes.get(pc);
  const found = byPc ?? (prov === '' ? undefined : codes.get(prov));
  if (!found) return { hub: null, code: null, matchedBy: null, silver: 0, gold: 0 };
  const cost = hubCostIndex(hubCosts).get(normalizeName(found.hub));
  return {
    hub: found.hub,
    code: found.code,
    matchedBy: byPc ? 'postal_code' : 'province',
    silver: cost?.silver ?? 0,
    gold: cost?.gold ?? 0,
  };
}

/**
 * The hub codes by normalised code, the first row of each code (as the scan it replaces found it), and the hub
 * costs by normalised name, the first of each: kept per array while it lives, as indexExpressRows (issue 37:
 * every quote normalised every row's code with a regex).
 */
const hubCodeIndexes = new WeakMap<readonly HubCode[], Map<string, HubCode>>();
const hubCostIndexes = new WeakMap<readonly HubCost[], Map<string, HubCost>>();
// the keys as functions of the module: no closure made per quote (see priceClass)
const hubCodeKey = (h: HubCode) => normalizePostalCode(h.code);
const hubCostKey = (c: HubCost) => normalizeName(c.code);
const hubCodeIndex = (rows: readonly HubCode[]) => firstByKey(hubCodeIndexes, rows, hubCodeKey, true);
const hubCostIndex = (rows: readonly HubCost[]) => firstByKey(hubCostIndexes, rows, hubCostKey, false);

/** The first row of each key (a blank key skipped when `skipBlank`), kept in `indexes` while the rows live. */
function firstByKey<T>(indexes: WeakMap<readonly T[], Map<string, T>>, rows: readonly T[], keyOf: (row: T) => string, skipBlank: boolean): Map<string, T> {
  let index = indexes.get(rows);
  if (!index) {
    index = new Map();
    for (const row of rows) {
      const key = keyOf(row);
      if ((!skipBlank || key !== '') && !index.has(key)) index.set(key, row);
    }
    indexes.set(rows, index);
  }
  return index;
}

/** The island of the rated place: the request's island when given, else the reference list's, if any. */
export function resolveIsland(
  requested: string | null | undefined,
  place: Place,
  islandList: readonly IslandPlace[],
): { island: string; source: 'request' | 'list' } | null {
  if (!isBlank(requested)) return { island: requested.trim(), source: 'request' };
  const city = normalizeName(place.city);
  const prov = normalizeName(place.province);
  const hit = islandList.find((i) => normalizeName(i.city) === city && normalizeName(i.province) === prov);
  return hit ? { island: hit.island.trim(), source: 'list' } : null;
}

/**
 * §2.3 one pallet of one class: (band cell + hub cost), and on an island
 * × multiplier + zone[band] + quintal_cost × ceil(weight/100); rounded half-up once at the end.
 */
export function palletPrice(
  cell: Cents,
  hubCost: Cents,
  zone: IslandZone | null,
  band: Band,
  weight: number | string,
): { cents: Cents; islandPart: Cents; quintals: number } {
  const base = cell + hubCost;
  if (!zone) return { cents: base, islandPart: 0, quintals: 0 };
  const m = parseDecimal(isBlank(zone.multiplier) ? '1' : zone.multiplier);
  const quintals = ceilQuintals(weight);
  const add = (zone[band] ?? 0) + (zone.quintal_cost ?? 0) * quintals;
  const cents = Number(roundHalfUp(BigInt(base) * m.n + BigInt(add) * pow10(m.scale), pow10(m.scale)));
  return { cents, islandPart: cents - base, quintals };
}

interface ClassTotal {
  total: Cents | null;
  leadtime: number | null;
  lines: BreakdownEntry[];
}

/** What `priceClass` needs of the quote: made once per quote. */
interface ClassQuote {
  province: string;
  bands: Band[];
  pallets: Pallet[];
  hub: HubResult;
  /** not the public view (QuoteInput.view): write the lines */
  full: boolean;
  adr: boolean;
  taillift: boolean;
  carrier: CarrierSettings;
  fuel: FuelApplied | null;
  postal: readonly PostalMatch[];
  special: boolean;
}

/**
 * One class on one side: every pallet's cell (+ hub cost, island), then ADR, fuel, postal surcharges and
 * the tail lift on the freight. A function of the module (issue 37: as a closure it was made again on every
 * quote, and tsx's keepNames gives each new closure its name with a defineProperty).
 */
function priceClass(
  q: ClassQuote,
  rows: Map<string, ExpressRateRow>,
  cls: ServiceClass,
  typeId: TypeId,
  hubCost: Cents,
  zone: IslandZone | null,
  side: 'sell' | 'buy',
): ClassTotal | { missing: Band } {
  const { province, bands, hub, full, carrier, fuel, postal, special } = q;
  const row = rows.get(`${province}|${typeId}`);
  const out: BreakdownEntry[] = [];
  let freight = 0;
  for (let i = 0; i < bands.length; i++) {
    const band = bands[i]!;
    const cell = row?.[band];
    if (cell === null || cell === undefined) return { missing: band };
    const p = palletPrice(cell, hubCost, zone, band, q.pallets[i]!.weight);
    freight += p.cents;
    if (!full) continue;
    const r = i + 1;
    out.push({ key: LINE.palletBase, params: { row: r, class: cls, band, province, side }, amount: centsToNumber(cell) });
    out.push({ key: LINE.hubCost, params: { row: r, class: cls, hub: hub.hub, side }, amount: centsToNumber(hubCost) });
    if (zone) {
      out.push({
        key: LINE.islandSurcharge,
        params: { row: r, class: cls, island: zone.island, multiplier: isBlank(zone.multiplier) ? '1' : String(zone.multiplier), quintals: p.quintals, side },
        amount: centsToNumber(p.islandPart),
      });
    }
    out.push({ key: LINE.palletPrice, params: { row: r, class: cls, side }, amount: centsToNumber(p.cents) });
  }
  // §4 ADR, §7 fuel, §8 postal surcharges (each on the freight), then the tail lift
  const at = { class: cls, side };
  const adr = surcharges(freight, { adr: q.adr, taillift: false }, carrier, at);
  const f = fuelAmount(freight, fuel, at, full);
  const pc = postalCharges(freight, postal, at, full);
  const tl = surcharges(freight, { adr: false, taillift: q.taillift }, carrier, at);
  if (full) out.push(...adr.lines, ...f.lines, ...pc.lines, ...tl.lines);
  const lt = row?.leadtime;
  const leadtime = lt === null || lt === undefined ? null : lt + (special ? 1 : 0);
  return { total: freight + adr.adr + f.cents + pc.cents + tl.taillift, leadtime, lines: out };
}

export function priceExpress(input: QuoteInput): QuoteResult {
  const { request: req, carrier, endUser, sheets, date } = input;
  if (req.zone !== 'national') return refuse(REFUSAL.expressNationalOnly);
  if (!sheets.sell) return refuse(REFUSAL.noSellSheet, { rateType: 'EXP', zone: 'NAT', date });
  if (req.pallets.length === 0) return refuse(REFUSAL.nothingToPrice);

  // the public view (types.ts QuoteInput.view): no buy side, only the lines an end user or visitor may see
  const full = input.view !== 'public';
  const lines: BreakdownEntry[] = [];
  lines.push({ key: LINE.sellSheet, params: { sheetId: sheets.sell.id, code: sheets.sell.code ?? null, source: sheets.sellSource }, amount: null });
  if (full) {
    lines.push(
      sheets.buy
        ? { key: LINE.buySheet, params: { sheetId: sheets.buy.id, code: sheets.buy.code ?? null }, amount: null }
        : { key: LINE.noBuySheet, params: {}, amount: null },
    );
  }

  const palletData: PalletData[] = [];
  const bands: Band[] = [];
  for (let i = 0; i < req.pallets.length; i++) {
    const p: Pallet = req.pallets[i]!;
    const b = selectBand(p, i + 1);
    if (!b.ok) {
      if (b.limit === 'weight') return refuse(REFUSAL.palletOverWeight, { row: b.row, max: b.max, value: String(p.weight) });
      if (b.limit === 'height') return refuse(REFUSAL.palletOverHeight, { row: b.row, max: b.max, value: String(p.height) });
      return refuse(REFUSAL.palletOverFootprint, { row: b.row, max: b.max, width: String(p.width), length: String(p.length) });
    }
    bands.push(b.band);
    const measure = palletMeasure(p);
    palletData.push({ row: i + 1, weight: p.weight, width: p.width, length: p.length, height: p.height, measure, type: b.band });
    lines.push({ key: LINE.palletBand, params: { row: i + 1, band: b.band, measure, weight: String(p.weight) }, amount: null });
  }

  // flow OUT (default): rated place = destination, hub place = origin; IN: the reverse
  const rated = req.flow === 'IN' ? req.origin : req.destination;
  const hubPlace = req.flow === 'IN' ? req.destination : req.origin;
  const province = rated.province.trim().toUpperCase();
  const hub = findHub(hubPlace, input.hubCodes ?? [], input.hubCosts ?? []);
  if (full) lines.push({ key: LINE.hub, params: { hub: hub.hub, code: hub.code, matchedBy: hub.matchedBy }, amount: null });

  const island = resolveIsland(req.island, rated, input.islandList ?? []);
  if (island) lines.push({ key: LINE.island, params: { island: island.island, source: island.source }, amount: null });
  const special = matchLocation(indexLocations(input.expressSpecialZones ?? []), rated).length > 0;
  if (special) lines.push({ key: LINE.specialZone, params: { days: 1 }, amount: null });

  // §7, §8: said once (month and percent, which postal surcharges apply); the amounts come per class and side
  const fuel = chooseFuel(carrier, input.diesel, date);
  for (const l of fuel.lines) if (full || PUBLIC_LINES.has(l.key)) lines.push(l);
  const postal = matchPostalSurcharges(input.postalSurcharges ?? [], req.origin, req.destination);
  if (postal.length) lines.push(...postalInfoLines(postal));

  const sellRows = indexExpressRows(input.expressSellRows ?? []);
  const buyRows = sheets.buy && full ? indexExpressRows(input.expressBuyRows ?? []) : null;
  const ctx = { caller: req.caller, carrier, endUser };

  // what every class and side is priced with (priceClass: a function of the module, not a closure per quote)
  const q: ClassQuote = { province, bands, pallets: req.pallets, hub, full, adr: req.adr, taillift: req.taillift, carrier, fuel: fuel.fuel, postal, special };

  const zoneRows = input.islandZones ?? [];
  // per class, in CLASSES' order (SILVER, GOLD): plain arrays, not a record per class filled with spreads
  // (issue 37: `sell[cls] = { ...s, offer }` was a fifth of the engine's time in a CPU profile)
  const sell: ClassTotal[] = [];
  const offers: Cents[] = [];
  const buy: Array<ClassTotal | null> = [];
  for (let c = 0; c < CLASSES.length; c++) {
    const { cls, typeId, hubKey } = CLASSES[c]!;
    let zone: IslandZone | null = null;
    if (island) {
      const name = normalizeName(island.island);
      zone = zoneRows.find((z) => normalizeName(z.island) === name && Number(z.type_id) === typeId) ?? null;
      if (!zone) return refuse(REFUSAL.noIslandZone, { island: island.island, class: cls });
    }
    const s = priceClass(q, sellRows, cls, typeId, hub[hubKey], zone, 'sell');
    if ('missing' in s) return refuse(REFUSAL.noExpressRate, { province, band: s.missing, class: cls });
    const list = s.total as Cents;
    const adj = adjustSell(list, ctx, cls, full);
    sell.push(s);
    offers.push(adj.cents);
    if (full) {
      lines.push(...s.lines);
      lines.push({ key: LINE.listTotal, params: { class: cls }, amount: centsToNumber(list) });
      lines.push(...adj.lines);
    }
    lines.push({ key: LINE.offer, params: { class: cls }, amount: centsToNumber(adj.cents) });
    lines.push({ key: LINE.leadTime, params: { class: cls, days: s.leadtime }, amount: null });

    // the buy side is not priced in the public view (buyRows null): its totals are nobody's business there
    const b = buyRows ? priceClass(q, buyRows, cls, typeId, hub[hubKey], zone, 'buy') : null;
    const bought = b === null || 'missing' in b ? null : b;
    buy.push(bought);
    if (full) {
      if (bought) lines.push(...bought.lines);
      lines.push({ key: LINE.buyTotal, params: { class: cls }, amount: bought ? centsToNumberOrNull(bought.total) : null });
    }
  }

  const fee = adminFee('national', endUser, carrier);
  lines.push({ key: LINE.adminFee, params: { scope: 'national', source: fee.source }, amount: centsToNumber(fee.cents) });
  for (let c = 0; c < CLASSES.length; c++) {
    lines.push({ key: LINE.total, params: { class: CLASSES[c]!.cls }, amount: centsToNumber(offers[c]! + fee.cents) });
  }
  const [silver, gold] = sell as [ClassTotal, ClassTotal];
  const [silverBuy, goldBuy] = buy as [ClassTotal | null, ClassTotal | null];

  return {
    ok: true,
    data: {
      palletData,
      prices_list: {
        total_silver_buy: silverBuy ? centsToNumberOrNull(silverBuy.total) : null,
        total_gold_buy: goldBuy ? centsToNumberOrNull(goldBuy.total) : null,
        max_leadtime_buy_silver: silverBuy ? silverBuy.leadtime : null,
        max_leadtime_buy_gold: goldBuy ? goldBuy.leadtime : null,
        total_silver_sell: centsToNumberOrNull(silver.total),
        total_gold_sell: centsToNumberOrNull(gold.total),
        admin_fee: centsToNumber(fee.cents),
        x_total_silver_sell: centsToNumber(offers[0]!),
        x_total_gold_sell: centsToNumber(offers[1]!),
        max_leadtime_sell_silver: silver.leadtime,
        max_leadtime_sell_gold: gold.leadtime,
      },
      fuel: fuel.fuel,
      breakdown: lines,
    },
  };
}
