import type { App } from '../../lib/typed.js';
import type { Kind } from '../../../model/roles.js';
import { int, obj, str } from '../../lib/answers.js';
import { ApiError, unauthenticated } from '../../lib/errors.js';
import { openStream } from '../../lib/liveStream.js';

const NAMESPACES: Array<{ ns: string; policy: Kind[] }> = [
  { ns: 'admin', policy: ['admin'] },
  { ns: 'company', policy: ['carrier', 'support'] },
  { ns: 'enduser', policy: ['enduser'] },
];

/** `Last-Event-ID` (a browser's own reconnect) or `last_event_id` (the portal's, which opens a new EventSource). */
function lastIdOf(header: unknown, query: number | undefined): number | null {
  const h = typeof header === 'string' && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : null;
  return h ?? query ?? null;
}

/**
 * The live events stream of every signed-in namespace (issue 24, docs/live-events.md):
 * `POST /{ns}/events/ticket` hands the session a one-time ticket (30 s), `GET /{ns}/events?ticket=…` is the
 * `text/event-stream`: chat messages, ticket changes, requests created and changed, notification counts —
 * only what the caller may see — with `id:` on every event, a heartbeat comment every 20 s, `Last-Event-ID`
 * replay, and an `ended` event when the session ends or expires.
 */
export default async function liveEventRoutes(app: App) {
  for (const { ns, policy } of NAMESPACES) {
    const tags = ['live events'];
    app.post(
      `/${ns}/events/ticket`,
      {
        config: { policy, notAudited: 'hands out a 30-second stream ticket; nothing is stored' },
        schema: {
          tags,
          summary: 'A one-time ticket (30 s) that opens the live events stream.',
          description: 'For a signed-in session (a ticket names it). An API key gets 403: no scope names this route or the stream.',
          response: { 200: obj({ status: { type: 'boolean' }, data: obj({ ticket: str, expires_in: int }) }) },
        },
      },
      async (req) => {
        const u = req.user!;
        // API keys read and write through their routes; the stream is a signed-in tab's (a ticket names a
        // session, which a key has not). No scope names this route, so a key is refused before it comes here
        // (403 apiKeys.outOfScope, lib/apiKeyAuth.ts); this says the same should a scope ever name it.
        if (u.apiKey) throw new ApiError(403, 'apiKeys.outOfScope');
        const t = app.liveTickets.issue(u.token_id, u.id);
        return { status: true, data: { ticket: t.ticket, expires_in: t.expiresIn } };
      },
    );

    app.get(
      `/${ns}/events`,
      {
        config: { policy, liveTicket: true },
        schema: {
          tags,
          summary: 'The live events stream (text/event-stream), opened with a ticket.',
          description:
            'Events: chat.message {chat_id, message_id}, chat.read {chat_id}, ticket.changed {chat_id, status}, request.created {id}, request.status {id, status_id}, request.changed {id}, ' +
            'notifications.count {}; also reset (reload everything) and ended (the session is over). Every event has an id; send it back as ' +
            'Last-Event-ID (or last_event_id) to get what was missed in the last minutes. A comment line every 20 s keeps the connection open.',
          security: [],
          querystring: {
            type: 'object',
            required: ['ticket'],
            additionalProperties: false,
            properties: {
              ticket: { type: 'string', minLength: 1, maxLength: 512, description: 'From POST …/events/ticket: once, within 30 s.' },
              last_event_id: { type: 'integer', minimum: 0, description: 'The id of the last event the tab holds (as the Last-Event-ID header).' },
            },
          },
          response: {
            200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          },
        },
      },
      async (req, reply) => {
        // The session plugin redeemed the ticket; a caller that came with headers only has none.
        if (!req.liveSession) throw unauthenticated();
        const u = req.user!;
        const lastId = lastIdOf(req.headers['last-event-id'], req.query.last_event_id);
        await openStream(
          app.live,
          app.db,
          req,
          reply,
          { id: u.id, company_id: u.company_id, kind: u.kind, token_id: u.token_id, expires_at: req.liveSession.expires_at },
          lastId,
        );
        return reply;
      },
    );
  }
}
