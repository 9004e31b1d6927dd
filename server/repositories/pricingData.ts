import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { COMPANY_ROLE } from '../../src/schema/roles.js';
import { selectSheets } from '../pricing/sheets.js';
import { indexLocations, isItalian, matchLocation, normalizePostalCode } from '../pricing/places.js';
import { ratedPlace } from '../pricing/standard.js';
import type {
  CarrierSettings, Category, EndUserSettings, ExpressRateRow, ExpressSpecialZone, HubCode, HubCost, IslandPlace,
  IslandZone, NoPassage, Place, QuoteInput, QuoteRequest, RateSheet, StandardRateRow, StandardSpecialZone, TypeId,
} from '../pricing/types.js';
import { islandKey, placeReference } from './placeReference.js';

/** The company columns pricing reads (pricing.md §1, §3.1, §4). */
const COMPANY_COLUMNS = [
  'id', 'legal_name', 'company_role_id', 'carrier_id', 'status_id', 'province',
  'exp_category_id', 'std_category_id', 'increase_percent', 'decrease_percent',
  'national_admin_fee', 'international_admin_fee', 'combo_cbm_ratio', 'combo_lm_ratio',
  'visitor_price_multiplier', 'adr_surcharge_percent', 'taillift_fee',
] as const;

export type PricingCompany = Awaited<ReturnType<ReturnType<typeof pricingDataRepo>['company']>> & object;

export const SELLER_ROLES: number[] = [COMPANY_ROLE.CARRIER, COMPANY_ROLE.RESELLER];

export function toCarrierSettings(c: PricingCompany): CarrierSettings {
  return {
    id: c.id,
    adr_surcharge_percent: c.adr_surcharge_percent,
    taillift_fee: c.taillift_fee,
    national_admin_fee: c.national_admin_fee,
    international_admin_fee: c.international_admin_fee,
    visitor_price_multiplier: c.visitor_price_multiplier,
    combo_cbm_ratio: c.combo_cbm_ratio,
    combo_lm_ratio: c.combo_lm_ratio,
  };
}

export function toEndUserSettings(c: PricingCompany): EndUserSettings {
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
const upper = (s: string | null | undefined) => (s ?? '').trim().toUpperCase();
type LocationTable = 'express_special_zones' | 'standard_special_zones' | 'standard_no_passage';

/**
 * Loads exactly the tariff rows one quote needs, for one carrier, with indexed queries (see
 * migrations/0003_pricing_indexes.ts), and maps them to the engine's types. Tariff cells are stored
 * as the importer writes them: money in integer cents, postal codes normalised, province sigle,
 * countries and zone codes in upper case.
 */
export function pricingDataRepo(db: Db) {
  /** Location rows (special zones, no-passage) that can match one of the Italian places: same postal code, or same province (the engine then matches city and province exactly). */
  async function locationRows(table: LocationTable, companyId: number, places: Place[]): Promise<any[]> {
    const italian = places.filter(isItalian);
    const pcs = unique(italian.map((p) => normalizePostalCode(p.postal_code)).filter(Boolean));
    const provs = unique(italian.map((p) => upper(p.province)).filter(Boolean));
    if (!pcs.length && !provs.length) return [];
    return (db as any).selectFrom(table).selectAll().where('company_id', '=', companyId)
      .where((eb: any) => eb.or([
        ...(pcs.length ? [eb('postal_code', 'in', pcs)] : []),
        ...(provs.length ? [eb(sql`upper(province)`, 'in', provs)] : []),
      ]))
      .orderBy('id')
      .execute();
  }

  return {
    async company(id: number) {
      return db.selectFrom('companies').select(COMPANY_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** The carrier's rate sheet versions of one rate type and zone that have not expired on `date`, with their categories. */
    async sheetsOf(carrierId: number, rateType: 'EXP' | 'STD', zone: 'NAT' | 'INT', date: string) {
      const rows = await db.selectFrom('rate_sheets as rs')
        .innerJoin('categories as c', 'c.id', 'rs.category_id')
        .select([
          'rs.id', 'rs.category_id', 'rs.area', 'rs.validate_from', 'rs.validate_to', 'rs.is_standard', 'rs.code',
          'c.code as category_code', 'c.rate_type', 'c.zone', 'c.company_id',
        ])
        .where('rs.company_id', '=', carrierId).where('rs.rate_type', '=', rateType).where('rs.zone', '=', zone)
        .where('c.company_id', '=', carrierId)
        // expired versions can never apply; validate_from is checked by the engine (its text may carry a time)
        .where('rs.validate_to', '>=', date)
        .execute();
      const categories = new Map<number, Category>();
      const sheets: RateSheet[] = [];
      for (const r of rows) {
        categories.set(r.category_id, { id: r.category_id, code: r.category_code, rate_type: r.rate_type as Category['rate_type'], zone: r.zone as Category['zone'], company_id: r.company_id });
        sheets.push({
          id: r.id, category_id: r.category_id, area: r.area as RateSheet['area'], validate_from: r.validate_from,
          validate_to: r.validate_to, is_standard: Number(r.is_standard) === 1 ? 1 : 0, code: r.code,
        });
      }
      return { categories: [...categories.values()], sheets };
    },

    /**
     * Everything `priceQuote` needs beyond the request, the date and the two companies: the chosen
     * sheets and the rows of the rated province or zone, hub, island and location rows.
     */
    async tariffsFor(request: QuoteRequest, carrier: CarrierSettings, endUser: EndUserSettings | null, date: string): Promise<Omit<QuoteInput, 'request' | 'date' | 'carrier' | 'endUser'>> {
      const express = request.service === 'palletExpress';
      const rateType = express ? 'EXP' : 'STD';
      const zone = request.zone === 'national' ? 'NAT' : 'INT';
      const { categories, sheets: versions } = await this.sheetsOf(carrier.id, rateType, zone, date);
      const sheets = selectSheets({ categories, sheets: versions, endUser, rateType, zone, date });
      const out: Omit<QuoteInput, 'request' | 'date' | 'carrier' | 'endUser'> = { sheets };
      if (!sheets.sell) return out;
      return express ? this.expressRows(out, request, carrier.id) : this.standardRows(out, request, carrier.id);
    },

    async expressRows(out: Omit<QuoteInput, 'request' | 'date' | 'carrier' | 'endUser'>, request: QuoteRequest, companyId: number) {
      const { sell, buy } = out.sheets;
      const rated = request.flow === 'IN' ? request.origin : request.destination;
      const hubPlace = request.flow === 'IN' ? request.destination : request.origin;
      const province = upper(rated.province);
      const ref = await placeReference(db);
      const listIsland = ref.islands.get(islandKey(rated.city, rated.province));
      const island = request.island?.trim() || listIsland;
      const hubCodes = unique([normalizePostalCode(hubPlace.postal_code), upper(hubPlace.province)].filter(Boolean));

      const [rateRows, hubRows, zoneRows, specialZones] = await Promise.all([
        db.selectFrom('express_rate_rows')
          .select(['rate_sheet_id', 'province', 'type_id', 'p150', 'p300', 'p550', 'ps550', 'p1000', 'leadtime'])
          .where('rate_sheet_id', 'in', buy ? [sell!.id, buy.id] : [sell!.id])
          .where('province', '=', province)
          .execute(),
        hubCodes.length
          ? db.selectFrom('express_hub_codes as hc')
            .leftJoin('express_hub_costs as k', (j) => j.onRef('k.company_id', '=', 'hc.company_id').on(sql`upper(k.code)`, '=', sql`upper(hc.hub)`))
            .select(['hc.code', 'hc.hub', 'k.code as cost_code', 'k.silver', 'k.gold'])
            .where('hc.company_id', '=', companyId).where('hc.code', 'in', hubCodes)
            .orderBy('hc.id').orderBy('k.id')
            .execute()
          : Promise.resolve([]),
        island
          ? db.selectFrom('express_island_zones')
            .select(['island', 'special_zone', 'quintal_cost', 'multiplier', 'p150', 'p300', 'p550', 'ps550', 'p1000', 'type_id'])
            .where('company_id', '=', companyId).where(sql`upper(island)`, '=', island.toUpperCase())
            .orderBy('id')
            .execute()
          : Promise.resolve([]),
        locationRows('express_special_zones', companyId, [rated]),
      ]);

      const toRow = (r: (typeof rateRows)[number]): ExpressRateRow => ({
        province: r.province, type_id: Number(r.type_id) as TypeId, p150: r.p150, p300: r.p300, p550: r.p550, ps550: r.ps550, p1000: r.p1000, leadtime: r.leadtime,
      });
      out.expressSellRows = rateRows.filter((r) => r.rate_sheet_id === sell!.id).map(toRow);
      out.expressBuyRows = buy ? rateRows.filter((r) => r.rate_sheet_id === buy.id).map(toRow) : [];
      out.hubCodes = hubRows.map((h): HubCode => ({ code: h.code, hub: h.hub }));
      out.hubCosts = hubRows.filter((h) => h.cost_code !== null).map((h): HubCost => ({ code: h.cost_code!, silver: h.silver, gold: h.gold }));
      out.islandZones = zoneRows.map((z): IslandZone => ({ ...z, type_id: Number(z.type_id) as TypeId }));
      out.islandList = listIsland ? [{ island: listIsland, city: rated.city, province: rated.province } satisfies IslandPlace] : [];
      out.expressSpecialZones = specialZones.map((z): ExpressSpecialZone => ({ province: z.province, city: z.city, postal_code: z.postal_code }));
      return out;
    },

    async standardRows(out: Omit<QuoteInput, 'request' | 'date' | 'carrier' | 'endUser'>, request: QuoteRequest, companyId: number) {
      const rated = ratedPlace(request.zone, request.origin, request.destination);
      const [specialZones, noPassage] = await Promise.all([
        rated ? locationRows('standard_special_zones', companyId, [rated]) : Promise.resolve([]),
        locationRows('standard_no_passage', companyId, [request.origin, request.destination]),
      ]);
      out.standardSpecialZones = specialZones.map((z): StandardSpecialZone => ({ province: z.province, code: z.code, city: z.city, postal_code: z.postal_code }));
      out.noPassage = noPassage.map((r): NoPassage => ({
        postal_code: r.postal_code, city: r.city, cost: r.cost, cost2: r.cost2, province: r.province, flow: r.flow ?? '',
        special_zone: r.special_zone, code: r.code, rate_code: r.rate_code,
      }));
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
      const rows = await db.selectFrom('standard_rate_rows')
        .select(['rate_code', 'country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime'])
        .where('rate_sheet_id', '=', out.sheets.sell!.id)
        .where('country', '=', upper(rated.country))
        .where('zone_code', 'in', zoneCodes)
        .orderBy('id')
        .execute();
      out.standardSellRows = rows.map((r): StandardRateRow => ({ ...r, unit: r.unit === 'S' ? 'S' : 'Q' }));
      return out;
    },
  };
}

export const isSeller = (c: { company_role_id: number } | undefined) => !!c && SELLER_ROLES.includes(c.company_role_id);
