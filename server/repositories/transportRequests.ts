import { sql, type Expression, type Insertable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/index.js';
import type { DB, ShipmentDetailTable, TransportRequestTable } from '../db/types.js';
import { romeDate, romeDayRange } from '../lib/romeTime.js';

/** Whose requests a caller sees (server.md §2): all (admins), a carrier's, or one end-user company's. */
export type RequestScope = { all: true } | { carrierId: number } | { enduserCompanyId: number };

export const STATUS = { OP: 1, CF: 3, RF: 4, IT: 5, DL: 6, CN: 7 } as const;

/**
 * A shipment as the create and edit payloads give it (routes/requests/payload.ts parses them into these) and
 * this repository stores it: its fields, its two places, the goods typed by hand.
 */
export interface AddressInput {
  location_name: string;
  address: string;
  postal_code: string;
  city: string | null;
  province: string | null;
  country_id: number;
}
export interface GoodsInput {
  units: number;
  weight: string;
  volume: string;
  volumeType: 'CBM' | 'LM' | 'FTL';
}
export interface ShipmentInput {
  shipper_reference: string;
  consignee_reference: string | null;
  /** the consignee's address for its status mails (docs/notifications.md) */
  consignee_email: string | null;
  adr: 0 | 1;
  tail_lift: 0 | 1;
  pickup_date: string;
  pickup_time_from: string;
  pickup_time_to: string;
  pickup_notes: string | null;
  delivery_date: string | null;
  delivery_time_from: string | null;
  delivery_time_to: string | null;
  delivery_notes: string | null;
  pickup: AddressInput;
  delivery: AddressInput;
  /** the goods typed by hand; null when they come from the quote */
  goods: GoodsInput | null;
}
export interface NewShipment extends ShipmentInput {
  transport_request_type_id: number;
  transport_class: string | null;
  details: Array<Omit<Insertable<ShipmentDetailTable>, 'shipment_id' | 'position'>>;
}
export type NewRequest = Omit<Insertable<TransportRequestTable>, 'id' | 'created_on' | 'created_at' | 'updated_at' | 'transport_request_status_id'> & {
  shipments: NewShipment[];
  documents: Array<{ document_type_id: number; filename: string; stored_name: string; size: number }>;
};

export interface ListFilters {
  carrier_id?: number;
  enduser_id?: number;
  date?: string;
  transport_request_status_id?: number;
  /** a search in the request number, places, postal codes and the customer's references (searchedRequests) */
  q?: string;
  page: number;
  per_page: number;
  sort?: string;
  order?: string;
}

export const SORTABLE = ['id', 'created_at', 'cost', 'transport_request_status_id'] as const;

/** Restricts a query on `transport_requests as tr` to a scope. */
export function inScope<O>(qb: SelectQueryBuilder<DB & { tr: TransportRequestTable }, 'tr', O>, scope: RequestScope) {
  if ('carrierId' in scope) return qb.where('tr.carrier_id', '=', scope.carrierId);
  if ('enduserCompanyId' in scope) return qb.where('tr.enduser_company_id', '=', scope.enduserCompanyId);
  return qb;
}

/** The requests of a list: the scope, then the list's filters (carrier, end user, status, a Rome day). The list and its export share it. */
export function listedRequests(db: Db, scope: RequestScope, f: Omit<ListFilters, 'page' | 'per_page'>) {
  let qb = inScope(db.selectFrom('transport_requests as tr'), scope);
  if (f.carrier_id) qb = qb.where('tr.carrier_id', '=', f.carrier_id);
  if (f.enduser_id) qb = qb.where('tr.enduser_company_id', '=', f.enduser_id);
  if (f.transport_request_status_id) qb = qb.where('tr.transport_request_status_id', '=', f.transport_request_status_id);
  if (f.date) {
    const { from, to } = romeDayRange(f.date);
    qb = qb.where('tr.created_at', '>=', from).where('tr.created_at', '<', to);
  }
  const text = f.q?.trim();
  if (text) {
    // The newest SEARCH_WINDOW requests of the same scope and filters (an index walk): the text is looked for
    // among them only, so a search costs the same at a thousand requests and at a million.
    const floor = listedRequests(db, scope, { ...f, q: undefined })
      .select('tr.id')
      .orderBy('tr.id', 'desc')
      .limit(1)
      .offset(SEARCH_WINDOW - 1);
    qb = searchedRequests(qb, text, floor);
  }
  return qb;
}

/**
 * How many of the newest requests a text search reads (issue 35 item 3). A `LIKE '%…%'` cannot use an index:
 * measured with `BENCH_ROWS=100000 BENCH_CALLS=20 npm run bench:requests` (SQLite, one run each), an admin's
 * search over all of them took 171–438 ms at the median (p95 up to 595 ms), a carrier's 97–196 ms, and it grows
 * with the rows while a SQLite portal answers nobody else. With this window the same run gives 18–42 ms
 * (admin, p95 ≤ 54 ms), 21–33 ms (carrier), 16–17 ms (end user), whatever the total. A request number is found
 * at any age, and the list's other filters (date, status, customer) move the window to older requests; the
 * screen's search box says so while a search is on.
 */
export const SEARCH_WINDOW = 5_000;

/** `%text%` for LIKE, lower-cased, its wildcards (and the escape character) taken literally. */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The list's search (issue 35 item 3): a request matches when its number is the text (digits, an optional
 * leading `#` or `n.`), or when the text is part of, case aside, a pickup or delivery place of one of its
 * shipments (company name, address, city, province, postal code) or a customer's reference (shipper's or
 * consignee's). LIKE with an escape character, so `%` and `_` are literal on SQLite and PostgreSQL alike.
 */
export function searchedRequests<O>(
  qb: SelectQueryBuilder<DB & { tr: TransportRequestTable }, 'tr', O>,
  text: string,
  /** the id of the oldest request the text is looked for in (SEARCH_WINDOW); a number is matched at any age */
  floor?: Expression<unknown>,
) {
  const pattern = likePattern(text);
  const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  const number = /^(?:#|n\.?\s*)?(\d{1,9})$/i.exec(text);
  return qb.where((eb) =>
    eb.or([
      ...(number ? [eb('tr.id', '=', Number(number[1]))] : []),
      eb.and([
        ...(floor ? [eb('tr.id', '>=', sql<number>`coalesce((${floor}), 0)`)] : []),
        eb.or([
          eb.exists(
            eb
              .selectFrom('shipments as ss')
              .innerJoin('shipment_addresses as sa', 'sa.shipment_id', 'ss.id')
              .select('ss.id')
              .whereRef('ss.transport_request_id', '=', 'tr.id')
              .where((w) => w.or(['sa.location_name', 'sa.address', 'sa.city', 'sa.province', 'sa.postal_code'].map(like))),
          ),
          eb.exists(
            eb
              .selectFrom('shipments as sr')
              .select('sr.id')
              .whereRef('sr.transport_request_id', '=', 'tr.id')
              .where((w) => w.or(['sr.shipper_reference', 'sr.consignee_reference'].map(like))),
          ),
        ]),
      ]),
    ]),
  );
}

/** The count of a list (the counters unless a date narrows it), for the export's cap. */
export async function countListed(db: Db, scope: RequestScope, f: Omit<ListFilters, 'page' | 'per_page'>) {
  return (await transportRequestsRepo(db).page(scope, { ...f, page: 1, per_page: 1 })).total;
}

const addressRow = (shipmentId: number, kind: 'pickup' | 'delivery', a: AddressInput) => ({
  shipment_id: shipmentId,
  kind,
  location_name: a.location_name,
  address: a.address,
  postal_code: a.postal_code,
  city: a.city,
  province: a.province,
  country_id: a.country_id,
});

export function transportRequestsRepo(db: Db) {
  /** The number of requests in a scope under the list's filters but the date, from the counters (migration 0009). */
  async function counted(scope: RequestScope, f: ListFilters): Promise<number> {
    let q = db.selectFrom('transport_request_counts').select(sql<number>`coalesce(sum(n), 0)`.as('n'));
    if ('carrierId' in scope) q = q.where('carrier_id', '=', scope.carrierId);
    if ('enduserCompanyId' in scope) q = q.where('enduser_company_id', '=', scope.enduserCompanyId);
    if (f.carrier_id) q = q.where('carrier_id', '=', f.carrier_id);
    if (f.enduser_id) q = q.where('enduser_company_id', '=', f.enduser_id);
    if (f.transport_request_status_id) q = q.where('transport_request_status_id', '=', f.transport_request_status_id);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  return {
    /**
     * Stores a request with its shipments, addresses, goods and documents, created at `now`, in the caller's
     * transaction (`db` is it): lib/requestEvents records its first events in the same one (insertRequest).
     */
    async insert(input: NewRequest, now: string): Promise<number> {
      const { shipments, documents, ...request } = input;
      const { id } = await db
        .insertInto('transport_requests')
        .values({
          ...request,
          transport_request_status_id: STATUS.OP,
          created_on: romeDate(now),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [position, s] of shipments.entries()) {
        const { pickup, delivery, goods: _goods, details, ...fields } = s;
        const shipment = await db
          .insertInto('shipments')
          .values({
            transport_request_id: id,
            position,
            transport_request_type_id: fields.transport_request_type_id,
            transport_class: fields.transport_class,
            shipper_reference: fields.shipper_reference,
            consignee_reference: fields.consignee_reference,
            consignee_email: fields.consignee_email,
            adr: fields.adr,
            tail_lift: fields.tail_lift,
            pickup_date: fields.pickup_date,
            pickup_time_from: fields.pickup_time_from,
            pickup_time_to: fields.pickup_time_to,
            pickup_notes: fields.pickup_notes,
            delivery_date: fields.delivery_date,
            delivery_time_from: fields.delivery_time_from,
            delivery_time_to: fields.delivery_time_to,
            delivery_notes: fields.delivery_notes,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('shipment_addresses')
          .values([addressRow(shipment.id, 'pickup', pickup), addressRow(shipment.id, 'delivery', delivery)])
          .execute();
        if (details.length) {
          await db
            .insertInto('shipment_details')
            .values(details.map((d, i) => ({ ...d, shipment_id: shipment.id, position: i })))
            .execute();
        }
      }
      if (documents.length) {
        await db
          .insertInto('transport_request_documents')
          .values(documents.map((d) => ({ ...d, transport_request_id: id, created_at: now })))
          .execute();
      }
      return id;
    },

    /**
     * One page of the scope's requests (newest first unless sorted), as ids with the total.
     * At a million rows (issue 11, `npm run bench:requests`): the total comes from the counters the
     * triggers of migration 0009 keep (a sum over a few rows) unless a date filter narrows the rows to
     * one day, whose index range is counted; the page is read through an index in the list's order
     * (migrations 0008, 0009), from the nearer end: a page in the second half is the same rows read in
     * the opposite order with the offset counted from the end, then turned round. Each order is total
     * (ties broken by id) and each database's DESC is exactly its ASC reversed (NULL costs included),
     * so both ways give the same rows in the same order.
     */
    async page(scope: RequestScope, f: ListFilters): Promise<{ ids: number[]; total: number }> {
      const qb = listedRequests(db, scope, f);
      let total: number;
      if (f.date || f.q?.trim()) {
        total = Number((await qb.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
      } else {
        total = await counted(scope, f);
      }
      const offset = (f.page - 1) * f.per_page;
      const end = Math.min(total, offset + f.per_page);
      if (offset >= end) return { ids: [], total };
      const desc = (f.order ?? (f.sort ? 'asc' : 'desc')).toLowerCase() === 'desc';
      const column = f.sort && (SORTABLE as readonly string[]).includes(f.sort) ? `tr.${f.sort}` : 'tr.created_at';
      const fromEnd = total - end < offset;
      const way = desc !== fromEnd ? 'desc' : 'asc';
      const rows = await qb
        .select('tr.id')
        .orderBy(column as 'tr.created_at', way)
        .orderBy('tr.id', way)
        .limit(end - offset)
        .offset(fromEnd ? total - end : offset)
        .execute();
      const ids = rows.map((r) => r.id);
      return { ids: fromEnd ? ids.reverse() : ids, total };
    },

    /** The request when the scope may see it. */
    async findScoped(id: number, scope: RequestScope) {
      return inScope(db.selectFrom('transport_requests as tr'), scope).selectAll('tr').where('tr.id', '=', id).executeTakeFirst();
    },

    /** Requests with their status, companies, shipments (addresses, goods) and documents, in the order of `ids`. */
    async load(ids: number[]) {
      if (!ids.length) return [];
      const [base, shipments, docs, pods] = await Promise.all([
        db
          .selectFrom('transport_requests as tr')
          .innerJoin('transport_request_statuses as st', 'st.id', 'tr.transport_request_status_id')
          .innerJoin('companies as car', 'car.id', 'tr.carrier_id')
          .leftJoin('companies as eu', 'eu.id', 'tr.enduser_company_id')
          .selectAll('tr')
          .select(['st.name as status_name', 'car.legal_name as carrier_legal_name', 'eu.legal_name as enduser_legal_name'])
          .where('tr.id', 'in', ids)
          .execute(),
        db.selectFrom('shipments').selectAll().where('transport_request_id', 'in', ids).orderBy('transport_request_id').orderBy('position').execute(),
        db
          .selectFrom('transport_request_documents as d')
          .leftJoin('document_types as dt', 'dt.id', 'd.document_type_id')
          .select(['d.id', 'd.transport_request_id', 'd.document_type_id', 'd.filename', 'd.size', 'd.created_at', 'dt.name as document_type'])
          // the type's name per language (issue 35): present() picks the caller's
          .select(['dt.it as document_type_it', 'dt.en as document_type_en', 'dt.fr as document_type_fr'])
          .where('d.transport_request_id', 'in', ids)
          .orderBy('d.id')
          .execute(),
        // the proof of delivery's metadata (issue 36; the file itself only through its route)
        db
          .selectFrom('transport_request_pods')
          .select(['transport_request_id', 'name', 'notes', 'kind', 'content_type', 'bytes', 'width', 'height', 'delivered_at', 'created_at'])
          .where('transport_request_id', 'in', ids)
          .execute(),
      ]);
      const shipmentIds = shipments.map((s) => s.id);
      const [addresses, details] = shipmentIds.length
        ? await Promise.all([
            db
              .selectFrom('shipment_addresses as a')
              .leftJoin('countries as c', 'c.id', 'a.country_id')
              .selectAll('a')
              .select(['c.en as country_en', 'c.iso_alpha_2 as country_iso', 'c.it as country_it', 'c.fr as country_fr'])
              .where('a.shipment_id', 'in', shipmentIds)
              .execute(),
            db.selectFrom('shipment_details').selectAll().where('shipment_id', 'in', shipmentIds).orderBy('shipment_id').orderBy('position').execute(),
          ])
        : [[], []];
      const byId = new Map(base.map((r) => [r.id, r]));
      return ids.flatMap((id) => {
        const r = byId.get(id);
        if (!r) return [];
        const own = shipments
          .filter((s) => s.transport_request_id === id)
          .map((s) => ({
            ...s,
            pickup: addresses.find((a) => a.shipment_id === s.id && a.kind === 'pickup') ?? null,
            delivery: addresses.find((a) => a.shipment_id === s.id && a.kind === 'delivery') ?? null,
            details: details.filter((d) => d.shipment_id === s.id),
          }));
        return [
          { ...r, shipments: own, documents: docs.filter((d) => d.transport_request_id === id), pod: pods.find((p) => p.transport_request_id === id) ?? null },
        ];
      });
    },

    /** A document with the request it belongs to, when the scope may see that request. */
    async documentScoped(documentId: number, scope: RequestScope) {
      return inScope(db.selectFrom('transport_requests as tr'), scope)
        .innerJoin('transport_request_documents as d', 'd.transport_request_id', 'tr.id')
        .select(['d.id', 'd.filename', 'd.stored_name', 'd.size', 'tr.id as transport_request_id'])
        .where('d.id', '=', documentId)
        .executeTakeFirst();
    },
  };
}

export type LoadedRequest = Awaited<ReturnType<ReturnType<typeof transportRequestsRepo>['load']>>[number];
