import type { Kind } from '../../model/roles';
import { apiAddress, apiRequest } from '../api/http';

/** The namespace of a kind's live stream (server/routes/shared/events.ts). */
export const liveNamespace = (kind: Kind): 'admin' | 'company' | 'enduser' => (kind === 'admin' ? 'admin' : kind === 'enduser' ? 'enduser' : 'company');

/**
 * The live events stream (docs/live-events.md): a one-time ticket asked with the usual headers, then the
 * stream's address with it (EventSource sends no headers; the session token never goes in a URL).
 */
export const liveMethods = () => ({
  liveTicket: (kind: Kind) =>
    apiRequest<{ data: { ticket: string; expires_in: number } }>(`/${liveNamespace(kind)}/events/ticket`, { method: 'POST' }).then((r) => r.data),
});

/** The stream's address with a ticket (a plain function: react-admin's provider proxy wants promises). */
export const liveStreamUrl = (kind: Kind, ticket: string, lastEventId: string | null) =>
  apiAddress(`/${liveNamespace(kind)}/events`, { ticket, last_event_id: lastEventId });
