import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import { MAX_PAGE, type Page } from '../lib/paging.js';
import { NOTIFIED_EVENTS, type NotificationItem } from '../../model/notifications.js';
import type { RequestEvent } from '../../model/requestTimeline.js';
import type { WrittenEvent } from './requestEvents.js';

/**
 * Who may see a request (server.md §2) and so is told of its events: the admins (roles 1, 2), the users of
 * the carrier's company (Carrier, Reseller, Carrier Users: roles 3, 4, 5) and the end users of the request's
 * end-user company (role 6). Active accounts only; never the user who made the change.
 */
function recipients(db: Db, requestId: number, actorId: number | null) {
  return db
    .selectFrom('users as u')
    .innerJoin('transport_requests as tr', (j) => j.on('tr.id', '=', requestId))
    .select('u.id')
    .where('u.status_id', '=', 1)
    .$if(actorId !== null, (q) => q.where('u.id', '<>', actorId!))
    .where((eb) =>
      eb.or([
        eb('u.role_id', 'in', [1, 2]),
        eb.and([eb('u.company_id', '=', eb.ref('tr.carrier_id')), eb('u.role_id', 'in', [3, 4, 5])]),
        eb.and([eb('u.company_id', '=', eb.ref('tr.enduser_company_id')), eb('u.role_id', '=', 6)]),
      ]),
    );
}

/** Who caused an event, as the bell names them (model/notifications.ts NotificationItem.actor). */
const actorSql = sql<string | null>`case
  when e.user_role = 'carrier' then car.legal_name
  when e.user_role = 'enduser' then coalesce(eu.legal_name, e.user_name)
  when e.user_role = 'visitor' then coalesce(nullif(tr.visitor_company, ''), e.user_name)
  else e.user_name end`;

/** The in-app bell's rows (migration 0020): written with the change, read and marked by their own user only. */
export function notificationsRepo(db: Db) {
  return {
    /**
     * One row per recipient of each notified event (NOTIFIED_EVENTS), in the caller's transaction (`db` is the
     * change's transaction: lib/requestEvents/record.ts): an insert … select, whatever the number of recipients.
     */
    async fanOut(requestId: number, actorId: number | null, events: WrittenEvent[]): Promise<void> {
      for (const e of events) {
        if (!NOTIFIED_EVENTS.includes(e.event as RequestEvent)) continue;
        await db
          .insertInto('notifications')
          .columns(['user_id', 'transport_request_id', 'event_id', 'event', 'status_id', 'created_at'])
          .expression(
            recipients(db, requestId, actorId).select([
              sql<number>`${requestId}`.as('transport_request_id'),
              sql<number>`${e.id}`.as('event_id'),
              sql<string>`${e.event}`.as('event'),
              sql<number>`${e.status_id}`.as('status_id'),
              sql<string>`${e.at}`.as('created_at'),
            ]),
          )
          .execute();
      }
    },

    /** A user's page, newest first (by the event's time, then id); `unread` keeps the unread ones only. */
    async page(userId: number, q: { page: number; per_page: number; unread?: boolean }): Promise<Page<NotificationItem>> {
      const base = db
        .selectFrom('notifications as n')
        .where('n.user_id', '=', userId)
        .$if(!!q.unread, (b) => b.where('n.read_at', 'is', null));
      const total = Number((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
      const page = Math.min(q.page, MAX_PAGE);
      const rows = await base
        .innerJoin('transport_request_events as e', 'e.id', 'n.event_id')
        .innerJoin('transport_requests as tr', 'tr.id', 'n.transport_request_id')
        .innerJoin('companies as car', 'car.id', 'tr.carrier_id')
        .leftJoin('companies as eu', 'eu.id', 'tr.enduser_company_id')
        .select(['n.id', 'n.transport_request_id', 'n.event', 'n.status_id', 'n.created_at', 'n.read_at', actorSql.as('actor')])
        .orderBy('n.created_at', 'desc')
        .orderBy('n.id', 'desc')
        .limit(q.per_page)
        .offset((page - 1) * q.per_page)
        .execute();
      return {
        data: rows.map((r) => ({ ...r, event: r.event as RequestEvent, read: r.read_at !== null })),
        current_page: page,
        per_page: q.per_page,
        last_page: Math.max(1, Math.ceil(total / q.per_page)),
        total,
      };
    },

    /** How many of a user's rows are unread (index notifications_unread). */
    async unread(userId: number): Promise<number> {
      const row = await db
        .selectFrom('notifications')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Marks a user's own unread rows read (all, or those of `ids`); another user's ids change nothing. Answers how many. */
    async markRead(userId: number, ids: number[] | 'all'): Promise<number> {
      if (ids !== 'all' && !ids.length) return 0;
      const r = await db
        .updateTable('notifications')
        .set({ read_at: nowIso() })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .$if(ids !== 'all', (q) => q.where('id', 'in', ids as number[]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}

/** The statuses for which a carrier switched its consignees' mail off (migration 0020): no row means on. */
export function consigneeMailRepo(db: Db) {
  return {
    async offFor(companyId: number): Promise<number[]> {
      const rows = await db.selectFrom('consignee_mail_off').select('status_id').where('company_id', '=', companyId).orderBy('status_id').execute();
      return rows.map((r) => r.status_id);
    },
    async isOn(companyId: number, statusId: number): Promise<boolean> {
      const row = await db
        .selectFrom('consignee_mail_off')
        .select('id')
        .where('company_id', '=', companyId)
        .where('status_id', '=', statusId)
        .executeTakeFirst();
      return !row;
    },
    /** Sets the switches given (status → on), leaves the others; in one transaction. */
    async set(companyId: number, switches: Array<{ status_id: number; enabled: boolean }>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const s of switches) {
          await trx.deleteFrom('consignee_mail_off').where('company_id', '=', companyId).where('status_id', '=', s.status_id).execute();
          if (!s.enabled) await trx.insertInto('consignee_mail_off').values({ company_id: companyId, status_id: s.status_id }).execute();
        }
      });
    },
  };
}
