import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { liveTransaction, publishLive, requestAudience, type LiveEvent } from '../liveEvents.js';
import { statisticsRepo } from '../../repositories/statistics.js';
import type { NewEvent } from '../../repositories/requestEvents.js';
import type { NewRequest } from '../../repositories/transportRequests.js';
import { notifyLater } from './mail.js';
import { insertRequest, recordEvents, type Recorder } from './record.js';

type Owned = Parameters<Recorder>[0];

/** The live event of a request's events (docs/live-events.md): created, else its new status, else changed; none for no event. */
function liveEventOf(r: Owned, events: NewEvent[]): LiveEvent | null {
  if (!events.length) return null;
  const audience = requestAudience(r);
  if (events.some((e) => e.event === 'created')) return { type: 'request.created', data: { id: r.id }, audience };
  const status = events.findLast((e) => e.event === 'status_changed');
  return status
    ? { type: 'request.status', data: { id: r.id, status_id: status.status_id }, audience }
    : { type: 'request.changed', data: { id: r.id }, audience };
}

/**
 * A change of a transport request with its events: the one way (docs/request-events.md). `change` makes the
 * change in a transaction and calls `record` for the request it changed (no call: nothing changed, nothing
 * follows). In the transaction, per `record`: recordEvents (timeline rows, webhook deliveries, bell rows),
 * then the live event's row (on PostgreSQL its NOTIFY, delivered at commit). After the commit, in order:
 * 1. the live events reach this process's streams (SQLite: liveTransaction hands them to the bus);
 * 2. the statistics' cache of the request's scopes is dropped;
 * 3. a new request's `request.created` is published (a row, then the streams): after the statistics, as the
 *    dashboard refetches on it;
 * 4. each new status's mails are started in the background (mail.ts: never awaited, a failure logged).
 * A step of 1–3 that throws fails the caller's answer with the change committed, and skips what follows.
 */
export async function changeRequest<T>(app: FastifyInstance, change: (trx: Transaction<DB>, record: Recorder) => Promise<T>): Promise<T> {
  const recorded: Array<{ request: Owned; events: NewEvent[] }> = [];
  const result = await liveTransaction(app.db, (trx, emit) =>
    change(trx, async (request, actor, events) => {
      await recordEvents(trx, request.id, actor, events);
      const live = liveEventOf(request, events);
      if (live && live.type !== 'request.created') await emit(live);
      recorded.push({ request, events });
    }),
  );
  for (const { request, events } of recorded) {
    await statisticsRepo(app.db).invalidate(request);
    const live = liveEventOf(request, events);
    if (live?.type === 'request.created') await publishLive(app.db, live);
    for (const e of events) if (e.event === 'status_changed') void notifyLater(app, request.id, e.status_id);
  }
  return result;
}

/** A new request, its rows and first events (insertRequest), through changeRequest: answers its id once committed and announced. */
export function createRequest(app: FastifyInstance, input: NewRequest): Promise<number> {
  return changeRequest(app, (trx, record) => insertRequest(trx, input, undefined, record));
}
