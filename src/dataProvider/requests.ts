import type { Kind } from '../../model/roles';
import { apiRequest } from '../api/http';
import { namedFile } from './tariffs';
import type { TimelineEntry } from '../../model/requestTimeline';
import { POD_FIELDS, type PodAnswer } from '../../model/proofOfDelivery';

/**
 * Transport requests beyond the paged list (calculator document §3, §7): one request, its status and edits,
 * creation (signed-in end users and visitors), the dashboard statistics and document downloads.
 * Screens call these through `useDataProvider()`; after a write they invalidate `transport-requests`,
 * `transport_request` and `statistics` (see `invalidateRequests` in custom/transportRequests/api.ts).
 */

/** A transport request as the server answers it (server/lib/presentRequest.ts). */
export interface Address {
  id: number;
  location_name: string;
  address: string;
  postal_code: string;
  city: string | null;
  province: string | null;
  country_id: number;
  country: { id: number; en: string | null; name: string | null; iso_alpha_2: string | null };
}
export interface Detail {
  id: number;
  shipment_type_id: 1 | 2;
  pallet_weight?: number | null;
  pallet_width?: number | null;
  pallet_length?: number | null;
  pallet_height?: number | null;
  pallet_type?: string | null;
  total_units?: number | null;
  gross_weight?: number | null;
  volume?: number | null;
  volume_type?: string | null;
}
export interface Shipment {
  id: number;
  transport_request_type_id: number;
  shipper_reference: string;
  consignee_reference: string | null;
  consignee_email?: string | null;
  transport_class: { name: string } | null;
  adr: number;
  tail_lift: number;
  pickup_date: string | null;
  pickup_time_from: string | null;
  pickup_time_to: string | null;
  pickup_notes: string | null;
  delivery_date: string | null;
  delivery_time_from: string | null;
  delivery_time_to: string | null;
  delivery_notes: string | null;
  shipment_addess_pick_up: Address | null;
  shipment_address_delivery: Address | null;
  shipment_detail: Detail[];
}
export interface TransportRequest {
  id: number;
  created: string;
  created_at: string;
  cost: number | null;
  admin_fees: number | null;
  total: number | null;
  to_be_quoted: boolean;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  phone: string | null;
  visitor_company: string | null;
  notes: string | null;
  reason: string | null;
  contact: string | null;
  transport_request_status_id: number;
  transport_request_status: { id: number; name: string; label: string };
  transport_class: { name: string } | null;
  carrier_id: number;
  carrier: { id: number; legal_name: string };
  enduser_id: number | null;
  enduser: { id: number; legal_name: string } | null;
  /** the end user who booked it (null: a visitor's request) */
  user_id?: number | null;
  lead_time: number | null;
  /** the fuel surcharge it was priced with (pricing.md §7), kept as it was */
  fuel?: { month: string; price: string; percent: string } | null;
  quote: null | { zone: string; service: string; flow: string | null; class: string | null; lead_time: number | null };
  documents: Array<{ id: number; filename: string; file_path: string; size: number; document_type_id: number; document_type: string | null }>;
  shipment: Shipment[];
  /** when the carrier picked the goods up (issue 36: set on "in transit"), ISO */
  picked_up_at?: string | null;
  /** the proof of delivery (issue 36 item 2), null before delivery; its file is read with `download(pod.file_path)` */
  pod?: PodAnswer | null;
  /** the detail only (show): every change, oldest first (model/requestTimeline.ts) */
  timeline?: TimelineEntry[];
}
export type { TimelineEntry, PodAnswer };

/** What the delivery dialog sends (issue 36 item 2): the receiver's name and exactly one of a drawn signature (PNG) or a file. */
export interface DeliveryInput {
  name: string;
  notes?: string;
  signature?: Blob;
  file?: File;
}

export interface Statistics {
  daily_total: number;
  open_total: number;
  open_requests: number;
  mtd_requests: number;
  mtd_total: number;
  ytd_requests: number;
  ytd_total: number;
  get10TopRequests?: TransportRequest[];
  fiveMostRecentRequests: TransportRequest[];
  getYTDRequests: Array<{ month: string; requests: number; total: number }>;
  getMTDRequests: Array<{ day: string; requests: number; total: number }>;
  date: string;
}

/** The namespace of a kind's calls (calculator document §7). */
export const namespaceOf = (kind: Kind | null | undefined) => (kind === 'admin' ? 'admin' : kind === 'carrier' ? 'company' : 'enduser');

/** A write answer: `status: false` (create from a changed quote) is thrown as an error carrying its message. */
async function write<T = any>(path: string, body: unknown): Promise<{ message: string; data: T }> {
  const answer = await apiRequest<{ status: boolean; message: string; data: T }>(path, { method: 'POST', body });
  if (answer?.status === false) throw Object.assign(new Error(answer.message), { body: answer });
  return answer;
}

export const requestMethods = () => ({
  showRequest: (kind: Kind, id: string | number) =>
    apiRequest<{ data: TransportRequest }>(`/${namespaceOf(kind)}/transport_requests/show/${id}`).then((a) => a.data),
  /** A carrier accepts (3) or refuses (4) a request, with a note for the customer (a refusal needs one). */
  changeRequestStatus: (id: number, status: 3 | 4 | number, note?: string) =>
    write('/company/transport_requests/updateTransportRequestStatus', { id, transport_request_status_id: status, ...(note ? { note } : {}) }),
  /**
   * The carrier (or an admin) marks a confirmed request picked up: in transit (5, issue 36 item 1). `pickedUpAt`
   * (ISO) only when the user set another time than now: the server's clock says "now", not a phone's.
   */
  markPickedUp: (id: number, pickedUpAt?: string) =>
    write<{ id: number; transport_request_status_id: number; previous_status_id: number }>('/company/transport_requests/updateTransportRequestStatus', {
      id,
      transport_request_status_id: 5,
      ...(pickedUpAt ? { picked_up_at: pickedUpAt } : {}),
    }),
  /**
   * The carrier marks a request in transit delivered (6) with its proof (issue 36 item 2): multipart, the
   * receiver's name, the notes of reservations and the drawn signature (`pod_signature`, a PNG) or the photo/PDF
   * of the signed document (`pod_file`). The server answers 422 per field when one is missing or wrong.
   */
  markDelivered: (id: number, pod: DeliveryInput) => {
    const form = new FormData();
    form.append('id', String(id));
    form.append('transport_request_status_id', '6');
    form.append(POD_FIELDS.name, pod.name);
    if (pod.notes) form.append(POD_FIELDS.notes, pod.notes);
    if (pod.signature) form.append(POD_FIELDS.signature, pod.signature, 'signature.png');
    if (pod.file) form.append(POD_FIELDS.file, pod.file, pod.file.name);
    return write<{ id: number; transport_request_status_id: number; previous_status_id: number }>(
      '/company/transport_requests/updateTransportRequestStatus',
      form,
    );
  },
  /** The end user who booked cancels its open request (7, CN), with the reason the carrier reads. */
  cancelRequest: (id: number, note: string) =>
    write<{ id: number; transport_request_status_id: number }>('/enduser/transport_requests/updateTransportRequestStatus', {
      id,
      transport_request_status_id: 7,
      note,
    }),
  /** The quote of a priced request (its stored price), as a PDF named by the server (`preventivo-richiesta-42.pdf`). */
  downloadQuote: async (kind: Kind, id: number): Promise<Blob> =>
    namedFile(await apiRequest<Response>(`/${namespaceOf(kind)}/transport_requests/quote/${id}`, { raw: true })),
  /** The transport document (consignment note) of a confirmed request, as a PDF named by the server (`lettera-di-vettura-42.pdf`). */
  downloadWaybill: async (kind: Kind, id: number): Promise<Blob> =>
    namedFile(await apiRequest<Response>(`/${namespaceOf(kind)}/transport_requests/waybill/${id}`, { raw: true })),
  updateRequest: (body: Record<string, unknown>) => write<TransportRequest>('/company/transport_requests/updateRequest', body),
  createRequest: (form: FormData) => write<TransportRequest>('/enduser/transport_requests/newRequest', form),
  saveVisitorRequest: (service: 'palletExpress' | 'standard', form: FormData) =>
    write(service === 'palletExpress' ? '/visitor/saveExpressRequest' : '/visitor/saveStandardRequest', form),
  statistics: (kind: Kind) => apiRequest<{ data: Statistics }>(`/${namespaceOf(kind)}/statistics`).then((a) => a.data),
  /** A file the API serves (a request's document, a template), as a Blob: the bearer travels as a header, never in a URL (server.md §5). */
  download: async (path: string): Promise<Blob> => (await apiRequest<Response>(path, { raw: true })).blob(),
});
