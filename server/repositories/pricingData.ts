import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { COMPANY_ROLE } from '../../model/roles.js';
import { cacheKey } from '../pricing/cacheKey.js';
import { selectSheets } from '../pricing/sheets.js';
import { indexLocations, isItalian, matchLocation, normalizePostalCode } from '../pricing/places.js';
import { ratedPlace } from '../pricing/standard.js';
import type {
  CarrierSettings,
  Category,
  DieselRow,
  EndUserSettings,
  ExpressRateRow,
  ExpressSpecialZone,
  HubCode,
  HubCost,
  IslandPlace,
  IslandZone,
  NoPassage,
  Place,
  PostalSurcharge,
  QuoteInput,
  QuoteRequest,
  RateSheet,
  StandardRateRow,
  StandardSpecialZone,
  TypeId,
} from '../pricing/types.js';
import { TtlCache } from '../lib/ttlCache.js';
import { hasFuelPlan, monthOf } from '../../model/fuel.js';
import { islandKey, placeReference } from './placeReference.js';

/** The company columns pricing reads (pricing.md §1, §3.1, §4). */
export const COMPANY_COLUMNS = [
  'id',
  'legal_name',
  'company_role_id',
  'carrier_id',
  'status_id',
  'province',
  'exp_category_id',
  'std_category_id',
  'increase_percent',
  'decrease_percent',
  'national_admin_fee',
  'international_admin_fee',
  'combo_cbm_ratio',
  'combo_lm_ratio',
  'visitor_price_multiplier',
  'adr_surcharge_percent',
  'taillift_fee',
  'fuel_base_price',
  'fuel_step',
  'fuel_step_percent',
  'fuel_max_percent',
] as const;

export type PricingCompany = Awaited<ReturnType<ReturnType<typeof pricingDataRepo>['company']>> & object;

export const SELLER_ROLES: number[] = [COMPANY_ROLE.CARRIER, COMPANY_ROLE.RESELLER];

/**
 * The settings of a company row, made once per row object (issue 37): the rows come from the tariff cache,
 * so the quotes of a burst share them. Shared: read-only, as the engine treats them.
 */
const carrierSettings = new WeakMap<PricingCompany, CarrierSettings>();
const endUserSettings = new WeakMap<PricingCompany, EndUserSettings>();

export function toCarrierSettings(c: PricingCompany): CarrierSettings {
  let known = carrierSettings.get(c);
  if (!known) carrierSettings.set(c, (known = carrierSettingsOf(c)));
  return known;
}

export function toEndUserSettings(c: PricingCompany): EndUserSettings {
  let known = endUserSettings.get(c);
  if (!known) endUserSettings.set(c, (known = endUserSettingsOf(c)));
  return known;
}

function carrierSettingsOf(c: PricingCompany): CarrierSettings {
  return {
    id: c.id,
    adr_surcharge_percent: c.adr_surcharge_percent,
    taillift_fee: c.taillift_fee,
    national_admin_fee: c.national_admin_fee,
    international_admin_fee: c.international_admin_fee,
    visitor_price_multiplier: c.visitor_price_multiplier,
    combo_cbm_ratio: c.combo_cbm_ratio,
    combo_lm_ratio: c.combo_lm_ratio,
    fuel_base_price: c.fuel_base_price,
    fuel_step: c.fuel_step,
    fuel_step_percent: c.fuel_step_percent,
    fuel_max_percent: c.fuel_max_percent,
  };
}

function endUserSettingsOf(c: PricingCompany): EndUserSettings {
  return {
    id: c.id,
    exp_category_id: c.exp_category_id,
    std_category_id: c.std_category_id,
    increase_percent: c.increase_percent,
    decrease_percent: c.decrease_percent,
    national_admin_fee: c.national_admin_fee,
    international_admin_fee: c.international_admin_fee,
    combo_cbm_ratio: c.combo_cbm_ratio,
    combo_lm_ratio: c.combo_lm_ratio,
  };
}

const unique = <T>(xs: T[]) => [...new Set(xs)];
const flowed = new WeakMap<NoPassage[], NoPassage[]>();
/** No-passage rows with an empty flow as '' — one array per cached array, so the engine's index of it is reused (places.ts). */
function withFlow(rows: NoPassage[]): NoPassage[] {
  let out = flowed.get(rows);
  if (!out) flowed.set(rows, (out = rows.map((r) => ({ ...r, flow: r.flow ?? '' }))));
  return out;
}
const caches = new WeakMap<Db, TtlCache>();

/**
 * Forgets every cached tariff row of this database. The tariff imports, company edits and settings
 * changes of this process call it, so they price at once; other processes see the change within
 * PRICING_CACHE_MS.
 */
export function invalidatePricingData(db: Db) {
  caches.get(db)?.clear();
}

/** The tariff cache's lookups in this process (`GET /metrics`, bench:quote): answered from it, and loaded. */
export function pricingCacheStats(db: Db): { hits: number; misses: number } {
  const c = caches.get(db);
  return { hits: c?.hits ?? 0, misses: c?.misses ?? 0 };
}
/** What `tariffsFor` loads depends on: its cache key (see tariffsFor; pricing/cacheKey.ts, not JSON: issue 37). */
function tariffsKey(request: QuoteRequest, carrier: CarrierSettings, endUser: EndUserSettings | null, date: string): string {
  const o = request.origin;
  const d = request.destination;
  return cacheKey(
    'tariffs',
    carrier.id,
    carrier.fuel_base_price,
    carrier.fuel_step,
    endUser?.exp_category_id ?? null,
    endUser?.std_category_id ?? null,
    date,
    request.service,
    request.zone,
    request.flow,
    request.island,
    o.country,
    o.postal_code,
    o.city,
    o.province,
    d.country,
    d.postal_code,
    d.city,
    d.province,
  );
}

/** The company row pricing reads. */
function companyRow(db: Db, id: number) {
  return db.selectFrom('companies').select(COMPANY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

const upper = (s: string | null | undefined) => (s ?? '').trim().toUpperCase();
type Tariffs = Omit<QuoteInput, 'request' | 'date' | 'carrier' | 'endUser'>;
type LocationTable = 'express_special_zones' | 'standard_special_zones' | 'standard_no_passage';

/**
 * Loads exactly the tariff rows one quote needs, for one carrier, with indexed queries (see
 * migrations/0003_pricing_indexes.ts), and maps them to the engine's types. Tariff cells are stored
 * as the importer writes them: money in integer cents, postal codes normalised, province sigle,
 * countries and zone codes in upper case.
 *
 * Choice (performance budget of issue 8): every query's result is kept for `cacheMs` (PRICING_CACHE_MS,
 * default 5 s) in this process, keyed by what it asked for, so a burst of quotes reads each row once.
 * A tariff change is seen at once by the process that made it (invalidatePricingData) and within
 * that time by the others; a quote priced in between is priced again when a request is made from it.
 */
export function pricingDataRepo(db: Db, cacheMs = 0) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new TtlCache(cacheMs)));
  cache.ttlMs = cacheMs;
  const memo = cache;
  /** Location rows (special zones, no-passage) that can match one of the Italian places: same postal code, or same province (the engine then matches city and province exactly). */
  async function locationRows(table: LocationTable, companyId: number, places: Place[]): Promise<Array<ExpressSpecialZone | StandardSpecialZone | NoPassage>> {
    const italian = places.filter(isItalian);
    const pcs = unique(italian.map((p) => normalizePostalCode(p.postal_code)).filter(Boolean));
    const provs = unique(italian.map((p) => upper(p.province)).filter(Boolean));
    if (!pcs.length && !provs.length) return [];
    return memo.get(`loc|${table}|${companyId}|${pcs.join(',')}|${provs.join(',')}`, () =>
      (db as any)
        .selectFrom(table)
        .selectAll()
        .where('company_id', '=', companyId)
        .where((eb: any) => eb.or([...(pcs.length ? [eb('postal_code', 'in', pcs)] : []), ...(provs.length ? [eb(sql`upper(province)`, 'in', provs)] : [])]))
        .orderBy('id')
        .execute(),
    );
  }

  return {
    async company(id: number) {
      return memo.get(`company|${id}`, () => companyRow(db, id));
    },

    /** A setting's value (the visitor carrier). */
    async setting(key: string): Promise<string | null> {
      return memo.get(`setting|${key}`, async () => (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value ?? null);
    },

    /**
     * `company`, `setting` and `tariffsFor` answered at once when already cached and fresh (`{v}`), else
     * undefined: the caller then takes the async way (lib/quoteService.ts, issue 37).
     */
    now: {
      company: (id: number) => memo.peek<Awaited<ReturnType<typeof companyRow>>>(`company|${id}`),
      setting: (key: string) => memo.peek<string | null>(`setting|${key}`),
      tariffsFor: (request: QuoteRequest, carrier: CarrierSettings, endUser: EndUserSettings | null, date: string) =>
        memo.peek<Tariffs>(tariffsKey(request, carrier, endUser, date)),
    },

    /** The carrier's rate sheet versions of one rate type and zone that have not expired on `date`, with their categories. */
    sheetsOf(carrierId: number, rateType: 'EXP' | 'STD', zone: 'NAT' | 'INT', date: string) {
      return memo.get(`sheets|${carrierId}|${rateType}|${zone}|${date}`, () => this.loadSheets(carrierId, rateType, zone, date));
    },

    async loadSheets(carrierId: number, rateType: 'EXP' | 'STD', zone: 'NAT' | 'INT', date: string) {
      const rows = await db
        .selectFrom('rate_sheets as rs')
        .innerJoin('categories as c', 'c.id', 'rs.category_id')
        .select([
          'rs.id',
          'rs.category_id',
          'rs.area',
          'rs.validate_from',
          'rs.validate_to',
          'rs.is_standard',
          'rs.code',
          'c.code as category_code',
          'c.rate_type',
          'c.zone',
          'c.company_id',
        ])
        .where('rs.company_id', '=', carrierId)
        .where('rs.rate_type', '=', rateType)
        .where('rs.zone', '=', zone)
        .where('c.company_id', '=', carrierId)
        // expired versions can never apply; validate_from is checked by the engine (its text may carry a time)
        .where('rs.validate_to', '>=', date)
        .execute();
      const categories = new Map<number, Category>();
      const sheets: RateSheet[] = [];
      for (const r of rows) {
        categories.set(r.category_id, {
          id: r.category_id,
          code: r.category_code,
          rate_type: r.rate_type as Category['rate_type'],
          zone: r.zone as Category['zone'],
          company_id: r.company_id,
        });
        sheets.push({
          id: r.id,
          category_id: r.category_id,
          area: r.area as RateSheet['area'],
          validate_from: r.validate_from,
          validate_to: r.validate_to,
          is_standard: Number(r.is_standard) === 1 ? 1 : 0,
          code: r.code,
        });
      }
      return { categories: [...categories.values()], sheets };
    },

    /**
     * Everything `priceQuote` needs beyond the request, the date and the two companies: the chosen
     * sheets and the rows of the rated province or zone, hub, island and location rows.
     */
    tariffsFor(request: QuoteRequest, carrier: CarrierSettings, endUser: EndUserSettings | null, date: string): Promise<Tariffs> {
      // Issue 37: one lookup per quote instead of six (the sheets, diesel, postal, rate, hub, island and
      // location rows each kept below as well), keyed by everything the loading reads: the carrier and its fuel
      // plan's two cells, the end user's categories, the date and the request's places (JSON: a city's text
      // cannot make two requests share a key). The answer is shared by the quotes of that key: read-only.
      return memo.get(tariffsKey(request, carrier, endUser, date), () => this.loadTariffs(request, carrier, endUser, date));
    },

    async loadTariffs(request: QuoteRequest, carrier: CarrierSettings, endUser: EndUserSettings | null, date: string): Promise<Tariffs> {
      const express = request.service === 'palletExpress';
      const rateType = express ? 'EXP' : 'STD';
      const zone = request.zone === 'national' ? 'NAT' : 'INT';
      // the sheets, the diesel row and the postal surcharges in one round (each cached like the others)
      const [{ categories, sheets: versions }, diesel, postalSurcharges] = await Promise.all([
        this.sheetsOf(carrier.id, rateType, zone, date),
        hasFuelPlan({ fuel_base_price: carrier.fuel_base_price, fuel_step: carrier.fuel_step, fuel_step_percent: null, fuel_max_percent: null })
          ? this.dieselFor(monthOf(date))
          : Promise.resolve(null),
        this.postalSurchargesFor(carrier.id, [request.origin, request.destination]),
      ]);
      const sheets = selectSheets({ categories, sheets: versions, endUser, rateType, zone, date });
      const out: Tariffs = { sheets, diesel, postalSurcharges };
      if (!sheets.sell) return out;
      return express ? this.expressRows(out, request, carrier.id) : this.standardRows(out, request, carrier.id);
    },

    /**
     * The diesel reference row of pricing.md §7 for a month (`YYYY-MM`, the quote date's in Europe/Rome):
     * that month's, else the latest earlier one; none: null. One indexed query (month is unique).
     */
    dieselFor(month: string): Promise<DieselRow | null> {
      return memo.get(`diesel|${month}`, async () => {
        const row = await db
          .selectFrom('diesel_prices')
          .select(['month', 'price'])
          .where('month', '<=', month)
          .orderBy('month', 'desc')
          .limit(1)
          .executeTakeFirst();
        return row ? { month: row.month, price: String(row.price) } : null;
      });
    },

    /**
     * The carrier's postal-code surcharge rows (pricing.md §8) that can match one of the places: an exact
     * code, or a prefix `…*` of one of them (the engine then picks per end and kind, and checks countries).
     */
    postalSurchargesFor(companyId: number, places: Place[]): Promise<PostalSurcharge[]> {
      const codes = unique(
        places.flatMap((p) => {
          const pc = normalizePostalCode(p.postal_code);
          return pc ? [pc, ...Array.from({ length: pc.length }, (_, i) => `${pc.slice(0, i + 1)}*`)] : [];
        }),
      );
      if (!codes.length) return Promise.resolve([]);
      return memo.get(`postal|${companyId}|${codes.join(',')}`, () =>
        db
          .selectFrom('postal_surcharges')
          .select(['country', 'postal_code', 'kind', 'flow', 'fixed', 'percent'])
          .where('company_id', '=', companyId)
          .where('postal_code', 'in', codes)
          .orderBy('id')
          .execute(),
      );
    },

    async expressRows(out: Tariffs, request: QuoteRequest, companyId: number): Promise<Tariffs> {
      const { sell, buy } = out.sheets;
      const rated = request.flow === 'IN' ? request.origin : request.destination;
      const hubPlace = request.flow === 'IN' ? request.destination : request.origin;
      const province = upper(rated.province);
      const ref = await placeReference(db);
      const listIsland = ref.islands.get(islandKey(rated.city, rated.province));
      const island = (request.island?.trim() || listIsland)?.toUpperCase();
      const hubCodes = unique([normalizePostalCode(hubPlace.postal_code), upper(hubPlace.province)].filter(Boolean));
      const sheetIds = buy ? [sell!.id, buy.id] : [sell!.id];

      const [rateRows, hub, islandZones, specialZones] = await Promise.all([
        memo.get(`exp|${sheetIds.join(',')}|${province}`, async () =>
          (
            await db
              .selectFrom('express_rate_rows')
              .select(['rate_sheet_id', 'province', 'type_id', 'p150', 'p300', 'p550', 'ps550', 'p1000', 'leadtime'])
              .where('rate_sheet_id', 'in', sheetIds)
              .where('province', '=', province)
              .execute()
          ).map((r) => ({
            sheetId: r.rate_sheet_id,
            row: {
              province: r.province,
              type_id: Number(r.type_id) as TypeId,
              p150: r.p150,
              p300: r.p300,
              p550: r.p550,
              ps550: r.ps550,
              p1000: r.p1000,
              leadtime: r.leadtime,
            } satisfies ExpressRateRow,
          })),
        ),
        hubCodes.length
          ? memo.get(`hub|${companyId}|${hubCodes.join(',')}`, async () => {
              const rows = await db
                .selectFrom('express_hub_codes as hc')
                .leftJoin('express_hub_costs as k', (j) => j.onRef('k.company_id', '=', 'hc.company_id').on(sql`upper(k.code)`, '=', sql`upper(hc.hub)`))
                .select(['hc.code', 'hc.hub', 'k.code as cost_code', 'k.silver', 'k.gold'])
                .where('hc.company_id', '=', companyId)
                .where('hc.code', 'in', hubCodes)
                .orderBy('hc.id')
                .orderBy('k.id')
                .execute();
              return {
                codes: rows.map((h): HubCode => ({ code: h.code, hub: h.hub })),
                costs: rows.filter((h) => h.cost_code !== null).map((h): HubCost => ({ code: h.cost_code!, silver: h.silver, gold: h.gold })),
              };
            })
          : Promise.resolve({ codes: [], costs: [] }),
        island
          ? memo.get(`isl|${companyId}|${island}`, async () =>
              (
                await db
                  .selectFrom('express_island_zones')
                  .select(['island', 'special_zone', 'quintal_cost', 'multiplier', 'p150', 'p300', 'p550', 'ps550', 'p1000', 'type_id'])
                  .where('company_id', '=', companyId)
                  .where(sql`upper(island)`, '=', island)
                  .orderBy('id')
                  .execute()
              ).map((z): IslandZone => ({ ...z, type_id: Number(z.type_id) as TypeId })),
            )
          : Promise.resolve([]),
        locationRows('express_special_zones', companyId, [rated]),
      ]);

      out.expressSellRows = rateRows.filter((r) => r.sheetId === sell!.id).map((r) => r.row);
      out.expressBuyRows = buy ? rateRows.filter((r) => r.sheetId === buy.id).map((r) => r.row) : [];
      out.hubCodes = hub.codes;
      out.hubCosts = hub.costs;
      out.islandZones = islandZones;
      out.islandList = listIsland ? [{ island: listIsland, city: rated.city, province: rated.province } satisfies IslandPlace] : [];
      out.expressSpecialZones = specialZones as ExpressSpecialZone[];
      return out;
    },

    async standardRows(out: Tariffs, request: QuoteRequest, companyId: number): Promise<Tariffs> {
      const rated = ratedPlace(request.zone, request.origin, request.destination);
      const [specialZones, noPassage] = await Promise.all([
        rated ? locationRows('standard_special_zones', companyId, [rated]) : Promise.resolve([]),
        locationRows('standard_no_passage', companyId, [request.origin, request.destination]),
      ]);
      out.standardSpecialZones = specialZones as StandardSpecialZone[];
      out.noPassage = withFlow(noPassage as NoPassage[]);
      if (!rated) return out;
      // The zone codes the rated place can have (pricing.md §3.2): a matching special zone's code or the
      // province sigla in Italy; abroad every prefix of the postal code, and '*'. The engine picks among them.
      let zoneCodes: string[];
      if (isItalian(rated)) {
        const special = matchLocation(indexLocations(out.standardSpecialZones), rated)[0];
        zoneCodes = [special ? upper(special.code) : upper(rated.province)];
      } else {
        const pc = normalizePostalCode(rated.postal_code);
        zoneCodes = ['*', ...Array.from({ length: pc.length }, (_, i) => pc.slice(0, i + 1))];
      }
      const sheetId = out.sheets.sell!.id;
      const country = upper(rated.country);
      out.standardSellRows = await memo.get(`std|${sheetId}|${country}|${zoneCodes.join(',')}`, async () =>
        (
          await db
            .selectFrom('standard_rate_rows')
            .select(['rate_code', 'country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime'])
            .where('rate_sheet_id', '=', sheetId)
            .where('country', '=', country)
            .where('zone_code', 'in', zoneCodes)
            .orderBy('id')
            .execute()
        ).map((r): StandardRateRow => ({ ...r, unit: r.unit === 'S' ? 'S' : 'Q' })),
      );
      return out;
    },
  };
}

export const isSeller = (c: { company_role_id: number } | undefined) => !!c && SELLER_ROLES.includes(c.company_role_id);
