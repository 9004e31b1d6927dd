import type { Db } from '../db/index.js';

/** One end of a shipment: where the pickup or the delivery is. */
export interface CalendarAddress {
  location_name: string;
  address: string;
  postal_code: string;
  city: string | null;
  province: string | null;
  country: string | null;
}

/** A shipment of a request, with what its two calendar events say (lib/calendarFeed.ts). */
export interface CalendarShipment {
  shipment_id: number;
  request_id: number;
  status_id: number;
  updated_at: string;
  shipper_reference: string;
  consignee_reference: string | null;
  pickup_date: string | null;
  pickup_time_from: string | null;
  pickup_time_to: string | null;
  pickup_notes: string | null;
  delivery_date: string | null;
  delivery_time_from: string | null;
  delivery_time_to: string | null;
  delivery_notes: string | null;
  carrier_name: string;
  customer_name: string | null;
  pickup: CalendarAddress | null;
  delivery: CalendarAddress | null;
}

/**
 * The shipments a company's calendar feed shows (docs/calendar-feed.md), read-only over transport_requests,
 * shipments and shipment_addresses: a carrier's requests (`carrier_id`), an end-user company's own
 * (`enduser_company_id`); statuses `statuses` only; a pickup or a delivery date within [from, to]; at most
 * `cap` shipments, the latest pickups first (what a cap drops is the oldest past).
 */
export function requestCalendarRepo(db: Db) {
  return {
    async shipmentsOf(
      owner: { company_id: number; side: 'carrier' | 'enduser' },
      window: { from: string; to: string; statuses: readonly number[]; cap: number },
    ): Promise<CalendarShipment[]> {
      const rows = await db
        .selectFrom('shipments as s')
        .innerJoin('transport_requests as r', 'r.id', 's.transport_request_id')
        .innerJoin('companies as carrier', 'carrier.id', 'r.carrier_id')
        .leftJoin('companies as customer', 'customer.id', 'r.enduser_company_id')
        .select([
          's.id as shipment_id',
          'r.id as request_id',
          'r.transport_request_status_id as status_id',
          'r.updated_at',
          's.shipper_reference',
          's.consignee_reference',
          's.pickup_date',
          's.pickup_time_from',
          's.pickup_time_to',
          's.pickup_notes',
          's.delivery_date',
          's.delivery_time_from',
          's.delivery_time_to',
          's.delivery_notes',
          'carrier.legal_name as carrier_name',
          'customer.legal_name as customer_company',
          'r.visitor_company',
          'r.firstname',
          'r.lastname',
        ])
        .where(owner.side === 'carrier' ? 'r.carrier_id' : 'r.enduser_company_id', '=', owner.company_id)
        .where('r.transport_request_status_id', 'in', [...window.statuses])
        .where((eb) =>
          eb.or([
            eb.and([eb('s.pickup_date', '>=', window.from), eb('s.pickup_date', '<=', window.to)]),
            eb.and([eb('s.delivery_date', '>=', window.from), eb('s.delivery_date', '<=', window.to)]),
          ]),
        )
        .orderBy('s.pickup_date', 'desc')
        .orderBy('s.id', 'desc')
        .limit(window.cap)
        .execute();
      if (!rows.length) return [];
      const addresses = await db
        .selectFrom('shipment_addresses as a')
        .leftJoin('countries as co', 'co.id', 'a.country_id')
        .select(['a.shipment_id', 'a.kind', 'a.location_name', 'a.address', 'a.postal_code', 'a.city', 'a.province', 'co.code_alpha as country'])
        .where(
          'a.shipment_id',
          'in',
          rows.map((r) => r.shipment_id),
        )
        .execute();
      const at = new Map(addresses.map((a) => [`${a.kind}:${a.shipment_id}`, a]));
      const place = (kind: 'pickup' | 'delivery', id: number): CalendarAddress | null => {
        const a = at.get(`${kind}:${id}`);
        return a
          ? { location_name: a.location_name, address: a.address, postal_code: a.postal_code, city: a.city, province: a.province, country: a.country ?? null }
          : null;
      };
      return rows.map(({ customer_company, visitor_company, firstname, lastname, ...r }) => ({
        ...r,
        status_id: Number(r.status_id),
        // the customer as the carrier knows it: its company, or a visitor's company or name
        customer_name: customer_company ?? visitor_company ?? ([firstname, lastname].filter(Boolean).join(' ') || null),
        pickup: place('pickup', r.shipment_id),
        delivery: place('delivery', r.shipment_id),
      }));
    },
  };
}
