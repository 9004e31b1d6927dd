/**
 * The timeline of a transport request (issue 22, docs/request-documents.md): every change recorded with
 * when, who and a note. The codes are stable: the detail screen, notifications and public tracking read them.
 */
export const REQUEST_EVENTS = ['created', 'repriced', 'edited', 'status_changed', 'document_added'] as const;
export type RequestEvent = (typeof REQUEST_EVENTS)[number];

/** Who acted: a kind of signed-in user, or the visitor who booked from the public quote page. */
export const TIMELINE_ROLES = ['admin', 'carrier', 'enduser', 'support', 'visitor'] as const;
export type TimelineRole = (typeof TIMELINE_ROLES)[number];

/** One entry of `data.timeline` (GET /{ns}/transport_requests/show/{id}), oldest first. */
export interface TimelineEntry {
  /** ISO-8601 UTC */
  at: string;
  event: RequestEvent;
  /** the request's status after the change (model/transportStatuses.ts) */
  status_id: number;
  by: { name: string | null; role: TimelineRole };
  note: string | null;
}

/** The longest note a carrier may write when confirming or refusing. */
export const TIMELINE_NOTE_MAX = 1000;
