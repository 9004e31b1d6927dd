import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import type { RequestEvent, TimelineEntry, TimelineRole } from '../../model/requestTimeline.js';

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

/** The role code of a stored user role (model/roles.ts USER_ROLES), as SQL, for events written from a user id. */
const roleOf = sql<TimelineRole>`case when u.role_id in (1, 2) then 'admin' when u.role_id in (3, 4, 5) then 'carrier' when u.role_id = 7 then 'support' else 'enduser' end`;

/** A timeline entry just written, as `add` answers it (the bell's fan-out, notificationsRepo.fanOut, takes it). */
export interface WrittenEvent {
  id: number;
  event: string;
  status_id: number;
  at: string;
}

/**
 * The events of transport requests (migration 0018), read back as the request's timeline. This repository
 * only reads and writes `transport_request_events`: an event is recorded, and fanned out to the bell, the
 * webhooks, the live streams and the mails, by lib/requestEvents/ (docs/request-events.md), never here.
 */
export function requestEventsRepo(db: Db) {
  return {
    /** Writes timeline entries of a request (in the caller's transaction: lib/requestEvents/record.ts); answers them with their ids. */
    async add(requestId: number, actor: EventActor, events: NewEvent[]): Promise<WrittenEvent[]> {
      if (!events.length) return [];
      const now = nowIso();
      return db
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
