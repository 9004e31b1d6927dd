import { MIME } from './fileParts';

/**
 * Proof of delivery (issue 36 item 2, docs/proof-of-delivery.md), shared by the server (the status route's
 * checks, the answers) and the browser (the delivery dialog's limits and the POD's display).
 *
 * A carrier marks a request delivered (6) with the receiver's name and exactly one of:
 * - `pod_file`: a photo or scan of the signed document (JPEG, PNG, WebP) or a PDF, at most 5 MB (the upload
 *   limit of every form); an image's declared pixel size within the portal's limits (server/lib/imageHeader.ts);
 * - `pod_signature`: the signature drawn on the phone's screen, a PNG (a canvas' export), at most 512 kB and
 *   POD_SIGNATURE_SIDE pixels per side: a drawn signature is a few tens of kB; the tighter limits keep it
 *   small enough to be drawn into the request's PDF.
 * and optional notes of reservations ("merce danneggiata", missing pallets).
 */
export const POD_KINDS = ['file', 'signature'] as const;
export type PodKind = (typeof POD_KINDS)[number];

export const POD_FILE_TYPES = [MIME.jpeg, MIME.png, MIME.webp, MIME.pdf] as const;
export const POD_SIGNATURE_TYPES = [MIME.png] as const;
export const POD_FILE_MAX = 5 * 1024 * 1024;
export const POD_SIGNATURE_MAX = 512 * 1024;
export const POD_SIGNATURE_SIDE = 4096;
export const POD_NAME_MAX = 120;
export const POD_NOTES_MAX = 1000;

/** The multipart field names of the delivery (updateTransportRequestStatus with transport_request_status_id 6). */
export const POD_FIELDS = { name: 'pod_name', file: 'pod_file', signature: 'pod_signature', notes: 'pod_notes', deliveredAt: 'delivered_at' } as const;

/** Where a caller of a namespace reads the POD's file (relative to /api/v1; with the bearer header). */
export const podPath = (ns: 'admin' | 'company' | 'enduser', requestId: number) => `/${ns}/transport_requests/pod/${requestId}`;

/** The POD as a request's answer carries it (`pod`, null before delivery). */
export interface PodAnswer {
  name: string;
  notes: string | null;
  kind: PodKind;
  content_type: string;
  bytes: number;
  width: number | null;
  height: number | null;
  delivered_at: string;
  created_at: string;
  file_path: string;
}
