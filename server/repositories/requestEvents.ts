import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import { notificationsRepo } from './notifications.js';
import type { RequestEvent, TimelineEntry, TimelineRole } from '../../model/requestTimeline.js';
import { enqueueWebhooks } from '../lib/webhooks/enqueue.js';

/** Who made a change, copied into the event as it is at the time. */
export interface EventActor {
  user_id: number | null;
  name: string | null;
  role: TimelineRole;
}

export interface NewEvent {
  event: RequestEvent;
  status_id: number;
  note?: string | null;
  at?: string;
}

/** The signed-in caller of a route as an actor. */
export function actorOf(req: FastifyRequest): EventActor {
  const u = req.user!;
  return { user_id: u.id, name: `${u.first_name} ${u.last_name}`.trim() || null, role: u.kind };
}

/** The role code of a stored user role (model/roles.ts USER_ROLES), as SQL, for events written from a user id. */
const roleOf = sql<TimelineRole>`case when u.role_id in (1, 2) then 'admin' when u.role_id in (3, 4, 5) then 'carrier' when u.role_id = 7 then 'support' else 'enduser' end`;

/**
 * The events of transport requests (migration 0018): written by the routes that change a request, inside
 * their transaction (`db` is then the transaction), and read back as the request's timeline. The webhook
 * deliveries of the change (issue 23, docs/webhooks.md) are written here too, in the same transaction.
 * their transaction (`db` is then the transaction), and read back as the request's timeline. Writing an
 * event is also the one place the in-app notifications are written (migration 0020, docs/notifications.md).
 */
export function requestEventsRepo(db: Db) {
  return {
    /** Records events of a request and, in the same transaction, notifies who may see it (but the actor). */
    async add(requestId: number, actor: EventActor, events: NewEvent[]): Promise<void> {
      if (!events.length) return;
      const now = nowIso();
      const written = await db
        .insertInto('transport_request_events')
        .values(
          events.map((e) => ({
            transport_request_id: requestId,
            at: e.at ?? now,
            event: e.event,
            status_id: e.status_id,
            user_id: actor.user_id,
            user_name: actor.name,
            user_role: actor.role,
            note: e.note?.trim() || null,
          })),
        )
        .returning(['id', 'event', 'status_id', 'at'])
        .execute();
      await enqueueWebhooks(
        db,
        requestId,
        events.map((e) => e.event),
      );
      await notificationsRepo(db).fanOut(requestId, actor.user_id, written);
    },

    /** The actor a stored request names: its user as the users table has them now, else the visitor's own name. */
    async actorOfRequest(requestId: number): Promise<EventActor> {
      const row = await db
        .selectFrom('transport_requests as tr')
        .leftJoin('users as u', 'u.id', 'tr.user_id')
        .select(['tr.user_id', 'u.id as uid', 'u.first_name', 'u.last_name', 'tr.firstname', 'tr.lastname', roleOf.as('role')])
        .where('tr.id', '=', requestId)
        .executeTakeFirstOrThrow();
      if (row.uid === null) {
        return { user_id: null, name: [row.firstname, row.lastname].filter(Boolean).join(' ').trim() || null, role: 'visitor' };
      }
      return { user_id: row.uid, name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() || null, role: row.role };
    },

    /** A request's timeline, oldest first. */
    async timeline(requestId: number): Promise<TimelineEntry[]> {
      const rows = await db
        .selectFrom('transport_request_events')
        .select(['at', 'event', 'status_id', 'user_name', 'user_role', 'note'])
        .where('transport_request_id', '=', requestId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        at: r.at,
        event: r.event as TimelineEntry['event'],
        status_id: r.status_id,
        by: { name: r.user_name, role: r.user_role as TimelineRole },
        note: r.note,
      }));
    },
  };
}
