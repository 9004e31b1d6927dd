import { dieselRowFor, monthOf, type DieselPrice } from '../../model/fuel.js';
import { selectSheets } from '../pricing/sheets.js';
import { indexLocations, isItalian, matchLocation, normalizePostalCode } from '../pricing/places.js';
import { ratedPlace } from '../pricing/standard.js';
import type {
  Category,
  EndUserSettings,
  ExpressRateRow,
  ExpressSpecialZone,
  HubCode,
  HubCost,
  IslandZone,
  NoPassage,
  Place,
  PostalSurcharge,
  QuoteInput,
  QuoteRequest,
  RateSheet,
  RateType,
  SheetZone,
  StandardRateRow,
  StandardSpecialZone,
  TypeId,
} from '../pricing/types.js';

type Row = Record<string, any> & { id: number };
export type Tariffs = Omit<QuoteInput, 'request' | 'date' | 'carrier' | 'endUser'>;
export type SheetVersion = RateSheet & { rate_type: RateType; zone: SheetZone };

/** The carrier's tariff tables, whole, as stored (rows in id order). */
export interface TableRows {
  express_hub_costs: Row[];
  express_hub_codes: Row[];
  express_island_zones: Row[];
  express_special_zones: Row[];
  standard_special_zones: Row[];
  standard_no_passage: Row[];
  postal_surcharges: Row[];
}
export const PRICED_TABLES = [
  'express_hub_costs',
  'express_hub_codes',
  'express_island_zones',
  'express_special_zones',
  'standard_special_zones',
  'standard_no_passage',
  'postal_surcharges',
] as const satisfies ReadonlyArray<keyof TableRows>;

const upper = (s: unknown) =>
  String(s ?? '')
    .trim()
    .toUpperCase();
const unique = <T>(xs: T[]) => [...new Set(xs)];

/** Rows indexed by postal code and by upper-case province, for the location tables' "same postal code or same province" pick. */
class LocationIndex {
  private byPc = new Map<string, Row[]>();
  private byProv = new Map<string, Row[]>();
  constructor(rows: readonly Row[]) {
    for (const r of rows) {
      if (r.postal_code) push(this.byPc, String(r.postal_code), r);
      const p = upper(r.province);
      if (p) push(this.byProv, p, r);
    }
  }
  /** The same rows, in the same order, as pricingData's `locationRows` query (postal_code in … or upper(province) in …, by id). */
  pick(places: Place[]): Row[] {
    const italian = places.filter(isItalian);
    const pcs = unique(italian.map((p) => normalizePostalCode(p.postal_code)).filter(Boolean));
    const provs = unique(italian.map((p) => upper(p.province)).filter(Boolean));
    const found = new Map<number, Row>();
    for (const pc of pcs) for (const r of this.byPc.get(pc) ?? []) found.set(r.id, r);
    for (const pv of provs) for (const r of this.byProv.get(pv) ?? []) found.set(r.id, r);
    return [...found.values()].sort((a, b) => a.id - b.id);
  }
}
function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

/**
 * A carrier's tariffs held in memory (issue 20, impact): the same rows, in the same order, that
 * `pricingDataRepo(db).tariffsFor` reads with one query per quote, picked here from whole tables and
 * preloaded rate rows, so hundreds of requests are priced with a handful of queries. Rate rows are
 * added with `addExpressRows` / `addStandardRows` once it is known which sheets and places are needed.
 */
export class MemoryTariffs {
  private loc: Record<'express_special_zones' | 'standard_special_zones' | 'standard_no_passage', LocationIndex>;
  private hubCodes = new Map<string, Row[]>();
  private hubCosts = new Map<string, Row[]>();
  private islands = new Map<string, Row[]>();
  private expressRows = new Map<string, Row[]>();
  private standardRows = new Map<string, Row[]>();
  private postal = new Map<string, Row[]>();

  constructor(
    readonly categories: readonly Category[],
    readonly sheets: readonly SheetVersion[],
    tables: TableRows,
    /** `city|PROVINCE` → island (placeReference) */
    private readonly islandOf: (city: string, province: string) => string | undefined,
    /** every diesel reference row (pricing.md §7), any order */
    private readonly diesel: readonly DieselPrice[] = [],
  ) {
    for (const r of tables.postal_surcharges) push(this.postal, String(r.postal_code), r);
    this.loc = {
      express_special_zones: new LocationIndex(tables.express_special_zones),
      standard_special_zones: new LocationIndex(tables.standard_special_zones),
      standard_no_passage: new LocationIndex(tables.standard_no_passage),
    };
    for (const r of tables.express_hub_codes) push(this.hubCodes, String(r.code), r);
    for (const r of tables.express_hub_costs) push(this.hubCosts, upper(r.code), r);
    for (const r of tables.express_island_zones) push(this.islands, upper(r.island), r);
  }

  addExpressRows(rows: readonly Row[]) {
    for (const r of rows) push(this.expressRows, `${r.rate_sheet_id}|${r.province}`, r);
  }
  addStandardRows(rows: readonly Row[]) {
    for (const r of rows) push(this.standardRows, `${r.rate_sheet_id}|${r.country}|${r.zone_code}`, r);
  }

  /** The sheets chosen for a request on a date (pricing.md §1), from the versions not expired on that date. */
  choose(request: QuoteRequest, endUser: EndUserSettings | null, date: string) {
    const rateType: RateType = request.service === 'palletExpress' ? 'EXP' : 'STD';
    const zone: SheetZone = request.zone === 'national' ? 'NAT' : 'INT';
    const versions = this.sheets.filter((s) => s.rate_type === rateType && s.zone === zone && s.validate_to >= date);
    return selectSheets({ categories: this.categories, sheets: versions, endUser, rateType, zone, date });
  }

  /** What the rate-row preload must hold for this request: the express province or the standard country and zone codes. */
  rateKeys(request: QuoteRequest): { province: string } | { country: string; zoneCodes: string[] } | null {
    if (request.service === 'palletExpress') return { province: upper(request.flow === 'IN' ? request.origin.province : request.destination.province) };
    const rated = ratedPlace(request.zone, request.origin, request.destination);
    if (!rated) return null;
    let zoneCodes: string[];
    if (isItalian(rated)) {
      const specials = this.loc.standard_special_zones.pick([rated]) as unknown as StandardSpecialZone[];
      const special = matchLocation(indexLocations(specials), rated)[0];
      zoneCodes = [special ? upper(special.code) : upper(rated.province)];
    } else {
      const pc = normalizePostalCode(rated.postal_code);
      zoneCodes = ['*', ...Array.from({ length: pc.length }, (_, i) => pc.slice(0, i + 1))];
    }
    return { country: upper(rated.country), zoneCodes };
  }

  /** Everything `priceQuote` needs beyond the request, the date and the companies, as `tariffsFor` answers it. */
  tariffsFor(request: QuoteRequest, endUser: EndUserSettings | null, date: string): Tariffs {
    const sheets = this.choose(request, endUser, date);
    // §7 and §8 as pricingData answers them: the month's diesel row (else the latest earlier one) and the
    // postal rows whose code is one of the ends' codes or a prefix `…*` of one, in id order.
    const row = dieselRowFor(this.diesel, monthOf(date));
    const codes = unique(
      [request.origin, request.destination].flatMap((p) => {
        const pc = normalizePostalCode(p.postal_code);
        return pc ? [pc, ...Array.from({ length: pc.length }, (_, i) => `${pc.slice(0, i + 1)}*`)] : [];
      }),
    );
    const postalSurcharges = codes
      .flatMap((c) => this.postal.get(c) ?? [])
      .sort((a, b) => a.id - b.id)
      .map((r): PostalSurcharge => ({ country: r.country, postal_code: r.postal_code, kind: r.kind, flow: r.flow, fixed: r.fixed, percent: r.percent }));
    const out: Tariffs = { sheets, diesel: row ? { month: row.month, price: String(row.price) } : null, postalSurcharges };
    if (!sheets.sell) return out;
    return request.service === 'palletExpress' ? this.express(out, request) : this.standard(out, request);
  }

  private express(out: Tariffs, request: QuoteRequest): Tariffs {
    const { sell, buy } = out.sheets;
    const rated = request.flow === 'IN' ? request.origin : request.destination;
    const hubPlace = request.flow === 'IN' ? request.destination : request.origin;
    const province = upper(rated.province);
    const listIsland = this.islandOf(rated.city, rated.province);
    const island = (request.island?.trim() || listIsland)?.toUpperCase();
    const hubCodes = unique([normalizePostalCode(hubPlace.postal_code), upper(hubPlace.province)].filter(Boolean));
    const rate = (id: number) =>
      (this.expressRows.get(`${id}|${province}`) ?? []).map((r): ExpressRateRow => ({
        province: r.province,
        type_id: Number(r.type_id) as TypeId,
        p150: r.p150,
        p300: r.p300,
        p550: r.p550,
        ps550: r.ps550,
        p1000: r.p1000,
        leadtime: r.leadtime,
      }));
    // the left join of hub codes with their costs, by hub code id then cost id
    const joined = hubCodes
      .flatMap((c) => this.hubCodes.get(c) ?? [])
      .sort((a, b) => a.id - b.id)
      .flatMap((hc) => {
        const costs = this.hubCosts.get(upper(hc.hub)) ?? [];
        return costs.length ? costs.map((k) => ({ hc, k })) : [{ hc, k: null as Row | null }];
      });
    out.expressSellRows = rate(sell!.id);
    out.expressBuyRows = buy ? rate(buy.id) : [];
    out.hubCodes = joined.map(({ hc }): HubCode => ({ code: hc.code, hub: hc.hub }));
    out.hubCosts = joined.filter((j) => j.k !== null).map(({ k }): HubCost => ({ code: k!.code, silver: k!.silver, gold: k!.gold }));
    out.islandZones = island
      ? (this.islands.get(island) ?? []).map((z): IslandZone => ({
          island: z.island,
          special_zone: z.special_zone,
          quintal_cost: z.quintal_cost,
          multiplier: z.multiplier,
          p150: z.p150,
          p300: z.p300,
          p550: z.p550,
          ps550: z.ps550,
          p1000: z.p1000,
          type_id: Number(z.type_id) as TypeId,
        }))
      : [];
    out.islandList = listIsland ? [{ island: listIsland, city: rated.city, province: rated.province }] : [];
    out.expressSpecialZones = this.loc.express_special_zones.pick([rated]) as unknown as ExpressSpecialZone[];
    return out;
  }

  private standard(out: Tariffs, request: QuoteRequest): Tariffs {
    const rated = ratedPlace(request.zone, request.origin, request.destination);
    out.standardSpecialZones = (rated ? this.loc.standard_special_zones.pick([rated]) : []) as unknown as StandardSpecialZone[];
    out.noPassage = (this.loc.standard_no_passage.pick([request.origin, request.destination]) as unknown as NoPassage[]).map((r) => ({
      ...r,
      flow: r.flow ?? '',
    }));
    const keys = this.rateKeys(request);
    if (!keys || !('country' in keys)) return out;
    const id = out.sheets.sell!.id;
    out.standardSellRows = keys.zoneCodes
      .flatMap((z) => this.standardRows.get(`${id}|${keys.country}|${z}`) ?? [])
      .sort((a, b) => a.id - b.id)
      .map((r): StandardRateRow => ({
        rate_code: r.rate_code,
        country: r.country,
        zone_code: r.zone_code,
        weight_from: r.weight_from,
        weight_to: r.weight_to,
        price: r.price,
        unit: r.unit === 'S' ? 'S' : 'Q',
        minimum: r.minimum,
        leadtime: r.leadtime,
      }));
    return out;
  }
}
