import type { Db } from '../db/index.js';
import { normalPostalCode } from '../../model/publicTracking.js';
import type { RequestEvent } from '../../model/requestTimeline.js';

export interface TrackedRequest {
  id: number;
  status_id: number;
  events: Array<{ at: string; event: RequestEvent; status_id: number }>;
}

/**
 * Public tracking's reads (GET /visitor/track, docs/tracking.md): a request named by its id and one of its
 * destination postal codes (each shipment's delivery address, and the quote's destination for a request
 * made from a quote), compared without spaces and case. Answers only the status and the timeline's dates
 * and events: nothing else of the request leaves this function.
 */
export function trackingRepo(db: Db) {
  return {
    async find(id: number, postalCode: string): Promise<TrackedRequest | null> {
      const wanted = normalPostalCode(postalCode);
      if (!wanted) return null;
      const request = await db
        .selectFrom('transport_requests')
        .select(['id', 'transport_request_status_id', 'destination_postal_code'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!request) return null;
      const deliveries = await db
        .selectFrom('shipment_addresses as sa')
        .innerJoin('shipments as s', 's.id', 'sa.shipment_id')
        .select('sa.postal_code')
        .where('s.transport_request_id', '=', id)
        .where('sa.kind', '=', 'delivery')
        .execute();
      const codes = [request.destination_postal_code, ...deliveries.map((d) => d.postal_code)];
      if (!codes.some((c) => c && normalPostalCode(c) === wanted)) return null;
      const events = await db
        .selectFrom('transport_request_events')
        .select(['at', 'event', 'status_id'])
        .where('transport_request_id', '=', id)
        .orderBy('id')
        .execute();
      return {
        id: Number(request.id),
        status_id: Number(request.transport_request_status_id),
        events: events.map((e) => ({ at: e.at, event: e.event as RequestEvent, status_id: Number(e.status_id) })),
      };
    },
  };
}
