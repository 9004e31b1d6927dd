import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { liveTransaction, requestAudience, type LiveEvent } from '../liveEvents.js';
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
 * follows). Per `record`, in that transaction:
 * 1–3. recordEvents: the timeline's rows, the webhook deliveries, the bell's rows;
 * 4. the statistics' cache of the request's scopes is dropped (the dashboard refetches on the live event, so
 *    it must find no figures older than the change);
 * 5. the live event's row (created, else the new status, else changed); on PostgreSQL its NOTIFY, which
 *    PostgreSQL delivers at commit, never for a rollback.
 * After the commit: on SQLite the live events go to this process's streams (liveTransaction); then each new
 * status's mails are started in the background (mail.ts: never awaited, a failure is logged, never the
 * caller's answer).
 */
export async function changeRequest<T>(app: FastifyInstance, change: (trx: Transaction<DB>, record: Recorder) => Promise<T>): Promise<T> {
  const mails: Array<{ id: number; status: number }> = [];
  const result = await liveTransaction(app.db, (trx, emit) =>
    change(trx, async (request, actor, events) => {
      await recordEvents(trx, request.id, actor, events);
      await statisticsRepo(trx).invalidate(request);
      const live = liveEventOf(request, events);
      if (live) await emit(live);
      for (const e of events) if (e.event === 'status_changed') mails.push({ id: request.id, status: e.status_id });
    }),
  );
  for (const m of mails) void notifyLater(app, m.id, m.status);
  return result;
}

/** A new request, its rows and first events (insertRequest), through changeRequest: answers its id once committed. */
export function createRequest(app: FastifyInstance, input: NewRequest): Promise<number> {
  return changeRequest(app, (trx, record) => insertRequest(trx, input, undefined, record));
}
