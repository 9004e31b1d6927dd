import { TRANSPORT_REQUEST_STATUSES } from './transportStatuses';
import type { RequestEvent } from './requestTimeline';

/**
 * Notifications of transport requests (issue 22 item 4, docs/notifications.md): the timeline events that
 * reach the in-app bell. Edits and re-pricing stay in the timeline only (see the docs for why).
 */
export const NOTIFIED_EVENTS: readonly RequestEvent[] = ['created', 'status_changed'];

/** The namespaces that answer a caller's notifications, per kind (the kinds that see requests). */
export const NOTIFICATION_NAMESPACES = { admin: 'admin', carrier: 'company', enduser: 'enduser' } as const;

/** Every status a request may move to: each has its mail, and a carrier may switch its consignee mail off. */
export const MAIL_STATUS_IDS: readonly number[] = TRANSPORT_REQUEST_STATUSES.map((s) => s.id);

/** One item of `GET /{ns}/notifications`, newest first. */
export interface NotificationItem {
  id: number;
  transport_request_id: number;
  event: RequestEvent;
  /** the request's status after the event */
  status_id: number;
  /** ISO-8601 UTC */
  created_at: string;
  read: boolean;
  read_at: string | null;
  /** who caused it, as the bell names them: the carrier's company, the customer's company, a visitor or an admin by name */
  actor: string | null;
}

/** How often the bell asks for its count when no stream feeds it (milliseconds). */
export const NOTIFICATION_POLL_MS = 30_000;

/** The request's detail screen in the signed-in app (the customer's mail and the bell link to it). */
export function requestScreenPath(id: number): string {
  return `/#/transport-requests-visuals/${id}/1`;
}
