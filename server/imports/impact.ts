import type { Kysely } from 'kysely';
import type { Db } from '../db/index.js';
import { COMPANY_ROLE } from '../../model/roles.js';
import type { DieselPrice } from '../../model/fuel.js';
import type { TariffTableSpec } from '../../model/tariffs.js';
import { centsOf } from '../lib/amounts.js';
import type { CostRequestBody } from '../lib/quoteRequest.js';
import { toQuoteRequest } from '../lib/quoteRequest.js';
import { addDays, romeDate } from '../lib/romeTime.js';
import { priceQuote } from '../pricing/quote.js';
import type { CallerKind, Category, EndUserSettings, QuoteRequest, RateType, SheetZone } from '../pricing/types.js';
import { islandKey, placeReference } from '../repositories/placeReference.js';
import { COMPANY_COLUMNS, toCarrierSettings, toEndUserSettings } from '../repositories/pricingData.js';
import { impactFigures, type Impact, type PricedTwice } from './impactFigures.js';
import { MemoryTariffs, PRICED_TABLES, type SheetVersion, type TableRows } from './impactTariffs.js';
import type { ImportRow } from './validate.js';

/** The sample (issue 20, item 2): the carrier's newest quoted requests of the last 90 days, at most 500. */
export const IMPACT_SAMPLE = { requests: 500, days: 90 } as const;

/** The id given to a proposed rate sheet (and to a new category) in memory: above (below) any stored id. */
const PROPOSED_SHEET_ID = Number.MAX_SAFE_INTEGER;
const NEW_CATEGORY_ID = -1;

export type Proposal =
  | { kind: 'table'; spec: TariffTableSpec; rows: readonly ImportRow[] }
  | {
      kind: 'sheet';
      rateType: RateType;
      zone: SheetZone;
      area: 'Customer' | 'Supplier';
      isStandard: 0 | 1;
      categoryId: number | null;
      rows: readonly ImportRow[];
    };

const EXPRESS_TABLES = new Set(['express_hub_costs', 'express_hub_codes', 'express_island_zones', 'express_special_zones']);
const STANDARD_TABLES = new Set(['standard_special_zones', 'standard_no_passage']);

type StoredRequest = Awaited<ReturnType<typeof loadRequests>>[number];

/** The requests a proposal can reprice, newest first (docs/tariff-checks.md "Impact"). */
async function loadRequests(db: Db, companyId: number, p: Proposal, endUsers: number[] | null, today: string) {
  let q = db
    .selectFrom('transport_requests')
    .select([
      'id',
      'enduser_company_id',
      'created_on',
      'zone',
      'service',
      'flow',
      'island',
      'service_class',
      'origin_country',
      'origin_postal_code',
      'origin_locality',
      'origin_province',
      'destination_country',
      'destination_postal_code',
      'destination_locality',
      'destination_province',
    ])
    .where('carrier_id', '=', companyId)
    .where('service', 'is not', null)
    .where('created_on', '>=', addDays(today, -(IMPACT_SAMPLE.days - 1)));
  if (p.kind === 'table') {
    if (EXPRESS_TABLES.has(p.spec.table)) q = q.where('service', '=', 'palletExpress');
    if (STANDARD_TABLES.has(p.spec.table)) q = q.where('service', '=', 'standard');
  } else {
    q = q.where('service', '=', p.rateType === 'EXP' ? 'palletExpress' : 'standard').where('zone', '=', p.zone === 'NAT' ? 'national' : 'international');
    if (endUsers) q = q.where('enduser_company_id', 'in', endUsers.length ? endUsers : [0]);
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(IMPACT_SAMPLE.requests).execute();
}

/** The goods of each request: its first shipment's flags and details (a quoted request repeats the quote's goods in every shipment). */
async function loadGoods(db: Db, ids: number[]) {
  const out = new Map<number, { adr: number; tail_lift: number; details: Array<Record<string, any>> }>();
  if (!ids.length) return out;
  const shipments = await db
    .selectFrom('shipments')
    .select(['id', 'transport_request_id', 'adr', 'tail_lift'])
    .where('transport_request_id', 'in', ids)
    .where('position', '=', 0)
    .execute();
  const byShipment = new Map<number, number>();
  for (const s of shipments) {
    byShipment.set(s.id, s.transport_request_id);
    out.set(s.transport_request_id, { adr: Number(s.adr), tail_lift: Number(s.tail_lift), details: [] });
  }
  if (!shipments.length) return out;
  const details = await db
    .selectFrom('shipment_details')
    .selectAll()
    .where(
      'shipment_id',
      'in',
      shipments.map((s) => s.id),
    )
    .orderBy('shipment_id')
    .orderBy('position')
    .execute();
  for (const d of details) out.get(byShipment.get(d.shipment_id)!)!.details.push(d);
  return out;
}

/** The cost request a stored request was priced from (as routes/requests/reprice.ts builds it). */
function bodyOf(r: StoredRequest, goods: { adr: number; tail_lift: number; details: Array<Record<string, any>> } | undefined): CostRequestBody {
  const express = r.service === 'palletExpress';
  const d = goods?.details ?? [];
  const pallets = d.filter((x) => Number(x.shipment_type_id) === 1);
  const unit = d.find((x) => Number(x.shipment_type_id) === 2);
  return {
    zone: r.zone as CostRequestBody['zone'],
    service: r.service as CostRequestBody['service'],
    flow: (r.flow ?? 'OUT') as CostRequestBody['flow'],
    island: r.island ?? null,
    adr: goods?.adr ? 1 : 0,
    taillift: goods?.tail_lift ? 1 : 0,
    originCountry: r.origin_country ?? '',
    originPostalCode: r.origin_postal_code ?? '',
    originLocality: r.origin_locality ?? undefined,
    originProvince: r.origin_province ?? undefined,
    destinationCountry: r.destination_country ?? '',
    destinationPostalCode: r.destination_postal_code ?? '',
    destinationLocality: r.destination_locality ?? undefined,
    destinationProvince: r.destination_province ?? undefined,
    ...(express
      ? {
          palletWeight: pallets.map((x) => Number(x.pallet_weight)),
          palletWidth: pallets.map((x) => Number(x.pallet_width)),
          palletLength: pallets.map((x) => Number(x.pallet_length)),
          palletHeight: pallets.map((x) => Number(x.pallet_height)),
        }
      : {
          standardunits: Number(unit?.total_units ?? 0),
          standardweight: Number(unit?.gross_weight),
          standardvolume: Number(unit?.volume ?? 0),
          standardvolumeType: (unit?.volume_type ?? 'CBM') as 'CBM' | 'LM',
        }),
  } as CostRequestBody;
}

/** The end users whose category is the proposed sheet's, for a Customer sheet that is not the carrier's standard; else null (all requests). */
async function endUsersOf(db: Db, companyId: number, p: Proposal): Promise<number[] | null> {
  if (p.kind !== 'sheet' || p.area !== 'Customer' || p.isStandard === 1) return null;
  if (p.categoryId === null) return [];
  const col = p.rateType === 'EXP' ? 'exp_category_id' : 'std_category_id';
  const rows = await db
    .selectFrom('companies')
    .select('id')
    .where('carrier_id', '=', companyId)
    .where('company_role_id', '=', COMPANY_ROLE.ENDUSER)
    .where(col, '=', p.categoryId)
    .execute();
  return rows.map((r) => r.id);
}

/** The carrier's categories, rate sheet versions, the seven priced tables (location/hub tables and postal surcharges) and the diesel prices, whole. */
async function loadTariffs(db: Db, companyId: number) {
  const kdb = db as unknown as Kysely<any>;
  const [categories, sheets, diesel, ...tables] = await Promise.all([
    db.selectFrom('categories').select(['id', 'code', 'rate_type', 'zone', 'company_id']).where('company_id', '=', companyId).execute(),
    db
      .selectFrom('rate_sheets as rs')
      .innerJoin('categories as c', 'c.id', 'rs.category_id')
      .select(['rs.id', 'rs.category_id', 'rs.area', 'rs.validate_from', 'rs.validate_to', 'rs.is_standard', 'rs.code', 'rs.rate_type', 'rs.zone'])
      .where('rs.company_id', '=', companyId)
      .where('c.company_id', '=', companyId)
      .execute(),
    db.selectFrom('diesel_prices').select(['month', 'price']).execute(),
    ...PRICED_TABLES.map((t) => kdb.selectFrom(t).selectAll().where('company_id', '=', companyId).orderBy('id').execute()),
  ]);
  const versions: SheetVersion[] = sheets.map((s) => ({
    id: s.id,
    category_id: s.category_id,
    area: s.area as SheetVersion['area'],
    validate_from: s.validate_from,
    validate_to: s.validate_to,
    is_standard: Number(s.is_standard) === 1 ? 1 : 0,
    code: s.code,
    rate_type: s.rate_type as RateType,
    zone: s.zone as SheetZone,
  }));
  return {
    categories: categories as Category[],
    versions,
    tables: Object.fromEntries(PRICED_TABLES.map((t, i) => [t, tables[i]])) as unknown as TableRows,
    diesel: diesel as DieselPrice[],
  };
}

/**
 * The impact of a proposed tariff set (issue 20, item 2; docs/tariff-checks.md "Impact"): the carrier's
 * newest quoted requests of the last 90 days priced twice on their own quote date and for their own
 * caller, with the stored tariffs and with the proposal in their place, compared on what the customer
 * pays (sell offer + admin fee; the buy total for a Supplier sheet). Everything is read once and priced
 * in memory: nothing is written. Null when no request is in the sample, or the proposal prices no quote.
 */
export async function tariffImpact(db: Db, companyId: number, proposal: Proposal, today = romeDate()): Promise<Impact | null> {
  // A Supplier sheet prices only the buy side of national express quotes (pricing.md §1).
  if (proposal.kind === 'sheet' && proposal.area === 'Supplier' && !(proposal.rateType === 'EXP' && proposal.zone === 'NAT')) return null;
  const endUsers = await endUsersOf(db, companyId, proposal);
  const requests = await loadRequests(db, companyId, proposal, endUsers, today);
  if (!requests.length) return null;
  const euIds = [...new Set(requests.map((r) => r.enduser_company_id).filter((id): id is number => id !== null))];
  const [goods, ref, companies, stored] = await Promise.all([
    loadGoods(
      db,
      requests.map((r) => r.id),
    ),
    placeReference(db),
    db
      .selectFrom('companies')
      .select(COMPANY_COLUMNS)
      .where('id', 'in', [companyId, ...euIds])
      .execute(),
    loadTariffs(db, companyId),
  ]);
  const carrierRow = companies.find((c) => c.id === companyId);
  if (!carrierRow) return null;
  const carrier = toCarrierSettings(carrierRow);
  const endUserOf = new Map(companies.filter((c) => c.id !== companyId).map((c) => [c.id, toEndUserSettings(c)]));
  const islandOf = (city: string, province: string) => ref.islands.get(islandKey(city, province));

  // The stored tariffs, and the proposal in place of its set.
  const current = new MemoryTariffs(stored.categories, stored.versions, stored.tables, islandOf, stored.diesel);
  let proposed = current;
  if (proposal.kind === 'table') {
    const proposedRows = proposal.rows.map((r, i) => ({ ...r, id: i + 1 }));
    proposed = new MemoryTariffs(stored.categories, stored.versions, { ...stored.tables, [proposal.spec.table]: proposedRows }, islandOf, stored.diesel);
  }

  type Item = { r: StoredRequest; request: QuoteRequest | null; endUser: EndUserSettings | null; kind: CallerKind };
  const items: Item[] = requests.map((r) => {
    const kind: CallerKind = r.enduser_company_id ? 'enduser' : 'visitor';
    let request: QuoteRequest | null = null;
    try {
      request = toQuoteRequest(bodyOf(r, goods.get(r.id)), kind, ref);
    } catch {
      request = null; // a stored request the reference data no longer accepts: priced neither way
    }
    return { r, request, endUser: r.enduser_company_id ? (endUserOf.get(r.enduser_company_id) ?? null) : null, kind };
  });

  // A proposed sheet: in memory, as the version in force on each request's date (its own validity aside).
  const sheetOn = (date: string) =>
    proposal.kind === 'sheet'
      ? {
          id: PROPOSED_SHEET_ID,
          category_id: proposal.categoryId ?? NEW_CATEGORY_ID,
          area: proposal.area,
          validate_from: date,
          validate_to: date,
          is_standard: proposal.isStandard,
          code: null,
          rate_type: proposal.rateType,
          zone: proposal.zone,
        }
      : null;
  const proposedOn = new Map<string, MemoryTariffs>();
  const proposedFor = (date: string) => {
    if (proposal.kind !== 'sheet') return proposed;
    let t = proposedOn.get(date);
    if (!t) {
      const categories =
        proposal.categoryId === null
          ? [...stored.categories, { id: NEW_CATEGORY_ID, code: '', rate_type: proposal.rateType, zone: proposal.zone, company_id: companyId }]
          : stored.categories;
      t = new MemoryTariffs(categories, [...stored.versions, sheetOn(date)!], stored.tables, islandOf, stored.diesel);
      proposedOn.set(date, t);
    }
    return t;
  };

  // Which stored rate rows are needed: the sheets chosen either way, the provinces, countries and zone codes of the requests.
  const expressNeed = { sheets: new Set<number>(), provinces: new Set<string>() };
  const standardNeed = { sheets: new Set<number>(), countries: new Set<string>(), codes: new Set<string>() };
  for (const it of items) {
    if (!it.request) continue;
    for (const t of [current, proposedFor(it.r.created_on)]) {
      const chosen = t.choose(it.request, it.endUser, it.r.created_on);
      const keys = t.rateKeys(it.request);
      if (!keys) continue;
      const ids = [chosen.sell?.id, chosen.buy?.id].filter((id): id is number => id !== undefined && id !== PROPOSED_SHEET_ID);
      if ('province' in keys) {
        ids.forEach((id) => expressNeed.sheets.add(id));
        expressNeed.provinces.add(keys.province);
      } else {
        ids.forEach((id) => standardNeed.sheets.add(id));
        standardNeed.countries.add(keys.country);
        keys.zoneCodes.forEach((c) => standardNeed.codes.add(c));
      }
    }
  }
  const [expressRows, standardRows] = await Promise.all([
    expressNeed.sheets.size && expressNeed.provinces.size
      ? db
          .selectFrom('express_rate_rows')
          .selectAll()
          .where('rate_sheet_id', 'in', [...expressNeed.sheets])
          .where('province', 'in', [...expressNeed.provinces])
          .execute()
      : Promise.resolve([]),
    standardNeed.sheets.size && standardNeed.countries.size
      ? db
          .selectFrom('standard_rate_rows')
          .selectAll()
          .where('rate_sheet_id', 'in', [...standardNeed.sheets])
          .where('country', 'in', [...standardNeed.countries])
          .where('zone_code', 'in', [...standardNeed.codes])
          .execute()
      : Promise.resolve([]),
  ]);
  // The proposed sheet's rows the requests can use, as the stored ones are read: the same keys (a rate
  // row is looked up by sheet, province or country and zone code only), so a 100 000-row sheet is not copied whole.
  const proposedSheetRows: Array<Record<string, unknown> & { id: number }> = [];
  if (proposal.kind === 'sheet') {
    proposal.rows.forEach((r, i) => {
      const used =
        proposal.rateType === 'EXP'
          ? expressNeed.provinces.has(r.province as string)
          : standardNeed.countries.has(r.country as string) && standardNeed.codes.has(r.zone_code as string);
      if (used) proposedSheetRows.push({ ...r, id: i + 1, rate_sheet_id: PROPOSED_SHEET_ID });
    });
  }
  for (const t of new Set([current, proposed, ...proposedOn.values()])) {
    t.addExpressRows(expressRows);
    t.addStandardRows(standardRows);
    if (t !== current && proposal.kind === 'sheet') {
      if (proposal.rateType === 'EXP') t.addExpressRows(proposedSheetRows);
      else t.addStandardRows(proposedSheetRows);
    }
  }

  const buySide = proposal.kind === 'sheet' && proposal.area === 'Supplier';
  const price = (it: Item, t: MemoryTariffs): number | null => {
    if (!it.request) return null;
    const date = it.r.created_on;
    const res = priceQuote({ request: it.request, date, carrier, endUser: it.endUser, ...t.tariffsFor(it.request, it.endUser, date) });
    if (!res.ok) return null;
    if (res.data.prices_list) {
      const p = res.data.prices_list;
      const k = it.r.service_class === 'GOLD' ? 'gold' : 'silver';
      if (buySide) return p[`total_${k}_buy`] === null ? null : centsOf(p[`total_${k}_buy`]!);
      return centsOf(p[`x_total_${k}_sell`]) + centsOf(p.admin_fee);
    }
    const c = res.data.costo_complete!;
    return centsOf(c.shipment_cost) + centsOf(c.admin_fee);
  };
  const priced: PricedTwice[] = items.map((it) => ({
    id: it.r.id,
    code: String(it.r.id),
    created_on: it.r.created_on,
    before: price(it, current),
    after: price(it, proposedFor(it.r.created_on)),
  }));
  return impactFigures(priced);
}
