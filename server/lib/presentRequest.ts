import type { FastifyRequest } from 'fastify';
import { euros } from './amounts.js';
import type { LoadedRequest } from '../repositories/transportRequests.js';
import { podPath } from '../../model/proofOfDelivery.js';

export type Namespace = 'admin' | 'company' | 'enduser';

/** Where a caller of a namespace downloads a document (fetched with the bearer header, server.md §5). */
export const documentPath = (ns: Namespace, id: number) => `/${ns}/transport_requests/documents/${id}`;

const num = (v: string | null) => (v === null ? null : Number(v));

/**
 * A request as the documents name its fields (calculator document §3 "Transport request",
 * "Shipment", "Shipment detail"), with the quote it was made from and the total beside them.
 * Money in euros rounded to the cent; `cost` null means "to be quoted". The one shape of a request for
 * its readers: the routes' answers (routes/requests/: list, show, create, edit, statistics) and the
 * webhooks' payloads (lib/webhooks/enqueue.ts), hence here rather than under routes/. `req` gives only the
 * language and its messages, so a payload is presented the same way without an HTTP request.
 */
export function present(req: Pick<FastifyRequest, 'lang' | 't'>, ns: Namespace, r: LoadedRequest) {
  const countryName = (a: NonNullable<LoadedRequest['shipments'][number]['pickup']>) =>
    (req.lang === 'it' ? a.country_it : req.lang === 'fr' ? a.country_fr : a.country_en) ?? a.country_en;
  const address = (a: LoadedRequest['shipments'][number]['pickup']) =>
    a
      ? {
          id: a.id,
          location_name: a.location_name,
          address: a.address,
          postal_code: a.postal_code,
          city: a.city,
          province: a.province,
          country_id: a.country_id,
          country: { id: a.country_id, en: a.country_en, name: countryName(a), iso_alpha_2: a.country_iso },
        }
      : null;
  const total = r.cost === null && r.admin_fees === null ? null : (r.cost ?? 0) + (r.admin_fees ?? 0);
  return {
    id: r.id,
    created: r.created_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    cost: euros(r.cost),
    admin_fees: euros(r.admin_fees),
    total: euros(total),
    to_be_quoted: r.cost === null,
    // stored when the request was priced: a later change of the diesel table never changes it
    fuel: r.fuel_month && r.fuel_percent !== null ? { month: r.fuel_month, price: r.fuel_price ?? '', percent: r.fuel_percent } : null,
    firstname: r.firstname,
    lastname: r.lastname,
    email: r.email,
    phone: r.phone,
    visitor_company: r.visitor_company,
    notes: r.notes,
    reason: r.reason,
    contact: r.contact,
    transport_request_status_id: r.transport_request_status_id,
    transport_request_status: { id: r.transport_request_status_id, name: r.status_name, label: req.t(`status.${r.transport_request_status_id}`) },
    transport_class: r.service_class ? { name: r.service_class } : null,
    carrier_id: r.carrier_id,
    carrier: { id: r.carrier_id, legal_name: r.carrier_legal_name },
    enduser_id: r.enduser_company_id,
    enduser: r.enduser_company_id ? { id: r.enduser_company_id, legal_name: r.enduser_legal_name } : null,
    // who booked it (issue 35: only that end user may cancel it, and its screen offers the button to it alone)
    user_id: r.user_id,
    quote: r.service
      ? {
          zone: r.zone,
          service: r.service,
          flow: r.flow,
          island: r.island,
          class: r.service_class,
          calculation_ratio: r.calculation_ratio,
          lead_time: r.lead_time,
          priced_on: r.priced_on,
          origin: { country: r.origin_country, postal_code: r.origin_postal_code, locality: r.origin_locality, province: r.origin_province },
          destination: {
            country: r.destination_country,
            postal_code: r.destination_postal_code,
            locality: r.destination_locality,
            province: r.destination_province,
          },
        }
      : null,
    lead_time: r.lead_time,
    picked_up_at: r.picked_up_at,
    // the proof of delivery's metadata (issue 36); the file through its route, with the caller's credentials
    pod: r.pod
      ? {
          name: r.pod.name,
          notes: r.pod.notes,
          kind: r.pod.kind,
          content_type: r.pod.content_type,
          bytes: r.pod.bytes,
          width: r.pod.width,
          height: r.pod.height,
          delivered_at: r.pod.delivered_at,
          created_at: r.pod.created_at,
          file_path: podPath(ns, r.id),
        }
      : null,
    documents: r.documents.map((d) => ({
      id: d.id,
      filename: d.filename,
      file_path: documentPath(ns, d.id),
      size: d.size,
      document_type_id: d.document_type_id,
      document_type: (req.lang === 'it' ? d.document_type_it : req.lang === 'fr' ? d.document_type_fr : d.document_type_en) || d.document_type,
    })),
    shipment: r.shipments.map((s) => ({
      id: s.id,
      transport_request_type_id: s.transport_request_type_id,
      shipper_reference: s.shipper_reference,
      consignee_reference: s.consignee_reference,
      consignee_email: s.consignee_email,
      transport_class: s.transport_class ? { name: s.transport_class } : null,
      adr: s.adr,
      tail_lift: s.tail_lift,
      pickup_date: s.pickup_date,
      pickup_time_from: s.pickup_time_from,
      pickup_time_to: s.pickup_time_to,
      pickup_notes: s.pickup_notes,
      delivery_date: s.delivery_date,
      delivery_time_from: s.delivery_time_from,
      delivery_time_to: s.delivery_time_to,
      delivery_notes: s.delivery_notes,
      // The documents' spelling, kept for the client.
      shipment_addess_pick_up: address(s.pickup),
      shipment_address_delivery: address(s.delivery),
      shipment_detail: s.details.map((d) =>
        d.shipment_type_id === 1
          ? {
              id: d.id,
              shipment_type_id: 1,
              pallet_weight: num(d.pallet_weight),
              pallet_width: num(d.pallet_width),
              pallet_length: num(d.pallet_length),
              pallet_height: num(d.pallet_height),
              pallet_type: d.pallet_type,
            }
          : { id: d.id, shipment_type_id: 2, total_units: d.total_units, gross_weight: num(d.gross_weight), volume: num(d.volume), volume_type: d.volume_type },
      ),
    })),
  };
}
