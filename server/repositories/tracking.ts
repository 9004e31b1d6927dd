import type { Db } from '../db/index.js';
import { normalPostalCode } from '../../model/publicTracking.js';
import type { RequestEvent } from '../../model/requestTimeline.js';
import { addWorkingDays } from '../../model/workingDays.js';

export interface TrackedRequest {
  id: number;
  status_id: number;
  origin_city: string | null;
  origin_country: string | null;
  destination_city: string | null;
  destination_country: string | null;
  carrier_name: string | null;
  lead_time: number | null;
  expected_delivery: string | null;
  delivered_at: string | null;
  events: Array<{ at: string; event: RequestEvent; status_id: number }>;
}

/** Statuses after which no delivery is expected any more: refused, delivered, cancelled. */
const NO_EXPECTED_DELIVERY = new Set([4, 6, 7]);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * Public tracking's reads (GET /visitor/track, docs/tracking.md): a request named by its id and one of its
 * destination postal codes (each shipment's delivery address, and the quote's destination for a request
 * made from a quote), compared without spaces and case. Answers the status, the timeline's dates and events,
 * and (issue 35 item 14) the route's cities and countries, the carrier's company name and the expected
 * delivery day: never prices, notes, streets, place names or people's names.
 *
 * The route is the booked shipment's (the one whose delivery postal code matched, else the first): its
 * pickup and delivery cities; where a shipment has none, the quote's localities. The expected delivery day
 * is the pickup day (else the day the request was made) plus the request's lead time in working days
 * (model/workingDays.ts); none without a lead time, or once refused, delivered or cancelled.
 */
export function trackingRepo(db: Db) {
  return {
    async find(id: number, postalCode: string): Promise<TrackedRequest | null> {
      const wanted = normalPostalCode(postalCode);
      if (!wanted) return null;
      const request = await db
        .selectFrom('transport_requests')
        .leftJoin('companies as carrier', 'carrier.id', 'transport_requests.carrier_id')
        .select([
          'transport_requests.id',
          'transport_requests.transport_request_status_id',
          'transport_requests.destination_postal_code',
          'transport_requests.origin_locality',
          'transport_requests.origin_country',
          'transport_requests.destination_locality',
          'transport_requests.destination_country',
          'transport_requests.lead_time',
          'transport_requests.created_on',
          'carrier.legal_name as carrier_name',
        ])
        .where('transport_requests.id', '=', id)
        .executeTakeFirst();
      if (!request) return null;
      // Every shipment's pickup and delivery place: city, postal code and country code (never the street or the place's name).
      const places = await db
        .selectFrom('shipment_addresses as sa')
        .innerJoin('shipments as s', 's.id', 'sa.shipment_id')
        .leftJoin('countries as c', 'c.id', 'sa.country_id')
        .select(['s.id as shipment_id', 's.position', 's.pickup_date', 'sa.kind', 'sa.postal_code', 'sa.city', 'c.iso_alpha_2', 'c.code_alpha'])
        .where('s.transport_request_id', '=', id)
        .orderBy('s.position')
        .orderBy('s.id')
        .execute();
      const deliveries = places.filter((p) => p.kind === 'delivery');
      const codes = [request.destination_postal_code, ...deliveries.map((d) => d.postal_code)];
      if (!codes.some((c) => c && normalPostalCode(c) === wanted)) return null;
      const matched = deliveries.find((d) => d.postal_code && normalPostalCode(d.postal_code) === wanted) ?? deliveries[0];
      const shipmentId = matched?.shipment_id ?? places[0]?.shipment_id;
      const pickup = places.find((p) => p.shipment_id === shipmentId && p.kind === 'pickup');
      const delivery = places.find((p) => p.shipment_id === shipmentId && p.kind === 'delivery');
      const countryOf = (p: typeof pickup) => text(p?.iso_alpha_2 ?? p?.code_alpha)?.toUpperCase() ?? null;
      const statusId = Number(request.transport_request_status_id);
      const leadTime = request.lead_time === null || request.lead_time === undefined ? null : Number(request.lead_time);
      const start = text(pickup?.pickup_date) ?? text(request.created_on);
      const expected = leadTime !== null && start && !NO_EXPECTED_DELIVERY.has(statusId) ? addWorkingDays(start.slice(0, 10), leadTime) : null;
      const events = await db
        .selectFrom('transport_request_events')
        .select(['at', 'event', 'status_id'])
        .where('transport_request_id', '=', id)
        .orderBy('id')
        .execute();
      // Delivered: the time the carrier recorded (its proof of delivery), else the change's; only the time (issue 36)
      const pod =
        statusId === 6
          ? await db.selectFrom('transport_request_pods').select('delivered_at').where('transport_request_id', '=', id).executeTakeFirst()
          : undefined;
      const deliveredEvent = statusId === 6 ? [...events].reverse().find((e) => e.event === 'status_changed' && Number(e.status_id) === 6) : undefined;
      return {
        id: Number(request.id),
        status_id: statusId,
        origin_city: text(pickup?.city) ?? text(request.origin_locality),
        origin_country: countryOf(pickup) ?? text(request.origin_country)?.toUpperCase() ?? null,
        destination_city: text(delivery?.city) ?? text(request.destination_locality),
        destination_country: countryOf(delivery) ?? text(request.destination_country)?.toUpperCase() ?? null,
        carrier_name: text(request.carrier_name),
        lead_time: leadTime,
        expected_delivery: expected,
        delivered_at: statusId === 6 ? (pod?.delivered_at ?? deliveredEvent?.at ?? null) : null,
        events: events.map((e) => ({ at: e.at, event: e.event as RequestEvent, status_id: Number(e.status_id) })),
      };
    },
  };
}
