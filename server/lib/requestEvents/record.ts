import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DB } from '../../db/types.js';
import { nowIso } from '../tokens.js';
import { enqueueWebhooks } from '../webhooks/enqueue.js';
import { notificationsRepo } from '../../repositories/notifications.js';
import { requestEventsRepo, type EventActor, type NewEvent } from '../../repositories/requestEvents.js';
import { STATUS, transportRequestsRepo, type NewRequest } from '../../repositories/transportRequests.js';

/**
 * A request event's one way (docs/request-events.md), its first steps: what every event writes in the
 * change's transaction. change.ts adds the statistics' drop and the live event, and the mails after the commit.
 */

/** The signed-in caller of a route as an actor. */
export function actorOf(req: FastifyRequest): EventActor {
  const u = req.user!;
  return { user_id: u.id, name: `${u.first_name} ${u.last_name}`.trim() || null, role: u.kind };
}

/** Records events of a request, and what they write elsewhere (see recordEvents). */
export type Recorder = (request: { id: number; carrier_id: number; enduser_company_id: number | null }, actor: EventActor, events: NewEvent[]) => Promise<void>;

/**
 * Records events of a request in the change's transaction (`db` is it), in this order:
 * 1. the timeline's rows (`transport_request_events`, requestEventsRepo.add);
 * 2. the webhook deliveries (lib/webhooks/enqueue.ts): their payload is the request as it now stands in this
 *    transaction, with its timeline, these entries included;
 * 3. the bell's rows (notificationsRepo.fanOut): one per person who may see the request, but the actor.
 * A step that fails throws, and the transaction rolls back: the change, its entries, deliveries and
 * bell rows commit together or not at all.
 */
export async function recordEvents(db: Db, requestId: number, actor: EventActor, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  const written = await requestEventsRepo(db).add(requestId, actor, events);
  await enqueueWebhooks(
    db,
    requestId,
    events.map((e) => e.event),
  );
  await notificationsRepo(db).fanOut(requestId, actor.user_id, written);
}

/**
 * A new request's rows and its first events (created, then one `document_added` per document, all at the
 * request's time), in the caller's transaction. `record` is recordEvents by default (the demo seed: past
 * events, no live event); createRequest (change.ts) passes its own, which adds the statistics and the live event.
 */
export async function insertRequest(
  trx: Transaction<DB>,
  input: NewRequest,
  at = nowIso(),
  record: Recorder = (r, actor, events) => recordEvents(trx, r.id, actor, events),
): Promise<number> {
  const id = await transportRequestsRepo(trx).insert(input, at);
  await record({ id, carrier_id: input.carrier_id, enduser_company_id: input.enduser_company_id ?? null }, await requestEventsRepo(trx).actorOfRequest(id), [
    { event: 'created', status_id: STATUS.OP, at },
    ...input.documents.map((d) => ({ event: 'document_added' as const, status_id: STATUS.OP, at, note: d.filename })),
  ]);
  return id;
}
