import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import { isPostgres } from '../migrations/helpers.js';
import { WEBHOOK_SECRET_PREFIX, type DeliveryState, type WebhookEvent, type WebhookStatus } from '../../model/webhooks.js';

/** An endpoint as lists show it: never the secret. */
export interface EndpointRow {
  id: number;
  url: string;
  events: WebhookEvent[];
  status: WebhookStatus;
  created_by_name: string;
  created_at: string;
  failing_since: string | null;
}

/** A delivery as the deliveries list shows it: never the payload. */
export interface DeliveryRow {
  id: number;
  event_id: string;
  event_type: string;
  transport_request_id: number;
  state: DeliveryState;
  created_at: string;
  attempts: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  delivered_at: string | null;
  gave_up_at: string | null;
}

/** 192 random bits, base64 after `whsec_`: the form the standardwebhooks package reads. */
export const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + crypto.randomBytes(24).toString('base64');
/** A message id, the same for every attempt of one delivery (the receiver's deduplication key). */
export const newEventId = () => `msg_${crypto.randomBytes(16).toString('base64url')}`;

const eventsOf = (text: string) => text.split(',').filter(Boolean) as WebhookEvent[];
const stateOf = (r: { delivered_at: string | null; gave_up_at: string | null }): DeliveryState =>
  r.delivered_at ? 'delivered' : r.gave_up_at ? 'failed' : 'pending';

const DELIVERY_COLUMNS = [
  'id',
  'event_id',
  'event_type',
  'transport_request_id',
  'created_at',
  'attempts',
  'last_attempt_at',
  'next_attempt_at',
  'last_status_code',
  'last_duration_ms',
  'last_error',
  'delivered_at',
  'gave_up_at',
] as const;

/** A claimed delivery, with what sending it needs. */
export interface DueDelivery {
  id: number;
  endpoint_id: number;
  event_id: string;
  payload: string;
  attempts: number;
  first_attempt_at: string | null;
  url: string;
  secret: string;
}

/** A company's webhook endpoints and their deliveries (migration 0021, docs/webhooks.md). */
export function webhooksRepo(db: Db) {
  return {
    /**
     * Adds an endpoint unless the company already has `max`: 'full' then. On PostgreSQL the company's row is
     * locked first, so two stores at once cannot both pass the count; SQLite runs one write at a time.
     */
    async create(v: { companyId: number; url: string; events: WebhookEvent[]; lang: string; userId: number; userName: string }, max: number) {
      return db.transaction().execute(async (trx) => {
        if (isPostgres(db)) await trx.selectFrom('companies').select('id').where('id', '=', v.companyId).forUpdate().execute();
        const { n } = await trx
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', v.companyId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= max) return 'full' as const;
        const secret = newWebhookSecret();
        const row = await trx
          .insertInto('webhook_endpoints')
          .values({
            company_id: v.companyId,
            url: v.url,
            events: v.events.join(','),
            secret,
            lang: v.lang,
            status: 'active',
            created_by: v.userId,
            created_by_name: v.userName,
            created_at: nowIso(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: Number(row.id), secret };
      });
    },

    async listOf(companyId: number): Promise<EndpointRow[]> {
      const rows = await db
        .selectFrom('webhook_endpoints')
        .select(['id', 'url', 'events', 'status', 'created_by_name', 'created_at', 'failing_since'])
        .where('company_id', '=', companyId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), events: eventsOf(r.events), status: r.status as WebhookStatus }));
    },

    /** The company's endpoint, or undefined (another company's, unknown). */
    async findOf(companyId: number, id: number) {
      return db.selectFrom('webhook_endpoints').select(['id', 'url', 'events']).where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    },

    /** Deletes one endpoint of the company with its deliveries; undefined when there is none such. */
    async remove(companyId: number, id: number): Promise<{ url: string; events: string } | undefined> {
      return db.deleteFrom('webhook_endpoints').where('id', '=', id).where('company_id', '=', companyId).returning(['url', 'events']).executeTakeFirst();
    },

    /** A page of an endpoint's deliveries, newest first. */
    async deliveries(endpointId: number, page: number, perPage: number): Promise<{ rows: DeliveryRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('webhook_deliveries')
          .select(DELIVERY_COLUMNS)
          .where('endpoint_id', '=', endpointId)
          .orderBy('id', 'desc')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        db
          .selectFrom('webhook_deliveries')
          .select(sql<number>`count(*)`.as('n'))
          .where('endpoint_id', '=', endpointId)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        rows: rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts), state: stateOf(r) })),
        total: Number(count.n),
      };
    },

    /**
     * Sends a finished delivery again: a new pending row with the same message (event id and body), after
     * every other row of its request, so the order per request holds. 'pending' when the delivery is still
     * waiting to be sent, undefined when the endpoint has no such delivery.
     */
    async resend(endpointId: number, deliveryId: number): Promise<DeliveryRow | 'pending' | undefined> {
      const d = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).where('endpoint_id', '=', endpointId).executeTakeFirst();
      if (!d) return undefined;
      if (!d.delivered_at && !d.gave_up_at) return 'pending';
      const now = nowIso();
      const row = await db
        .insertInto('webhook_deliveries')
        .values({
          endpoint_id: endpointId,
          event_id: d.event_id,
          event_type: d.event_type,
          transport_request_id: d.transport_request_id,
          ordering_key: d.ordering_key,
          payload: d.payload,
          created_at: now,
          next_attempt_at: now,
        })
        .returning(DELIVERY_COLUMNS)
        .executeTakeFirstOrThrow();
      return { ...row, id: Number(row.id), attempts: Number(row.attempts), state: 'pending' };
    },

    /**
     * Claims up to `limit` due deliveries for `leaseMs`: pending, due, not leased by a live claim, and the
     * earliest pending one of their request for their endpoint (the order per request). On PostgreSQL the
     * candidate rows are locked FOR UPDATE SKIP LOCKED, so concurrent processes claim different rows; the
     * lease then keeps them while this process sends, and expires if it dies.
     */
    async claim(limit: number, leaseMs: number): Promise<DueDelivery[]> {
      const now = nowIso();
      const until = new Date(Date.now() + leaseMs).toISOString();
      const pg = isPostgres(db);
      const ids = await db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('webhook_deliveries as d')
          .select('d.id')
          .where('d.delivered_at', 'is', null)
          .where('d.gave_up_at', 'is', null)
          .where('d.next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<', now)]))
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_deliveries as e')
                  .select('e.id')
                  .whereRef('e.endpoint_id', '=', 'd.endpoint_id')
                  .whereRef('e.ordering_key', '=', 'd.ordering_key')
                  .whereRef('e.id', '<', 'd.id')
                  .where('e.delivered_at', 'is', null)
                  .where('e.gave_up_at', 'is', null),
              ),
            ),
          )
          .orderBy('d.next_attempt_at')
          .orderBy('d.id')
          .limit(limit)
          .$if(pg, (q) => q.forUpdate().skipLocked())
          .execute();
        if (!due.length) return [];
        const list = due.map((r) => Number(r.id));
        await trx.updateTable('webhook_deliveries').set({ locked_until: until }).where('id', 'in', list).execute();
        return list;
      });
      if (!ids.length) return [];
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
        .select(['d.id', 'd.endpoint_id', 'd.event_id', 'd.payload', 'd.attempts', 'd.first_attempt_at', 'w.url', 'w.secret'])
        .where('d.id', 'in', ids)
        .orderBy('d.id')
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), endpoint_id: Number(r.endpoint_id), attempts: Number(r.attempts) }));
    },

    /**
     * Hands claimed deliveries back without counting an attempt (the process is stopping, issue 32): their
     * lease is cleared, so another process claims them at its next poll instead of after the lease.
     */
    async handBack(ids: number[]): Promise<void> {
      if (!ids.length) return;
      await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: null })
        .where('id', 'in', ids)
        .where('delivered_at', 'is', null)
        .where('gave_up_at', 'is', null)
        .execute();
    },

    /**
     * Counts for `/metrics` (issue 32): deliveries neither delivered nor given up, the due time of the
     * earliest of them, and the endpoints marked failing. `next_attempt_at` is set exactly on the pending
     * rows, so the first two are read from the `webhook_deliveries_due` index alone (SQLite: a covering
     * index scan of the pending entries, 0.5 ms for 50 000 of them in a 200 000-row table; the earliest is its
     * first entry). Which of them already failed is not counted here: that needs each row (18 ms for 5 000
     * pending, 110 ms for 50 000, measured), so the worker counts its attempts' outcomes instead.
     */
    async stats(): Promise<{ pending: number; earliestDue: string | null; endpointsFailing: number }> {
      const [d, e] = await Promise.all([
        db
          .selectFrom('webhook_deliveries')
          .select([sql<number>`count(*)`.as('pending'), sql<string | null>`min(next_attempt_at)`.as('earliest')])
          .where('next_attempt_at', 'is not', null)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('webhook_endpoints')
          .select(sql<number>`count(*)`.as('n'))
          .where('status', '=', 'failing')
          .executeTakeFirstOrThrow(),
      ]);
      return { pending: Number(d.pending), earliestDue: d.earliest, endpointsFailing: Number(e.n) };
    },

    /** Removes the finished deliveries (delivered or given up) older than `before`; answers how many. */
    async purge(before: string): Promise<number> {
      const r = await db
        .deleteFrom('webhook_deliveries')
        .where((eb) => eb.or([eb('delivered_at', '<', before), eb('gave_up_at', '<', before)]))
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** A successful attempt: the delivery is done and its endpoint active again. */
    async delivered(d: DueDelivery, at: string, status: number, durationMs: number) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhook_deliveries')
          .set({
            attempts: d.attempts + 1,
            first_attempt_at: d.first_attempt_at ?? at,
            last_attempt_at: at,
            last_status_code: status,
            last_duration_ms: durationMs,
            last_error: null,
            delivered_at: at,
            next_attempt_at: null,
            locked_until: null,
          })
          .where('id', '=', d.id)
          .execute();
        await trx
          .updateTable('webhook_endpoints')
          .set({ status: 'active', failing_since: null })
          .where('id', '=', d.endpoint_id)
          .where('status', '<>', 'active')
          .execute();
      });
    },

    /**
     * A failed attempt: retried at `next`, or given up (`next` null). Giving up marks the endpoint failing;
     * answers true when that changed it (so its company is told once).
     */
    async failed(d: DueDelivery, at: string, r: { status: number | null; durationMs: number; error: string | null }, next: string | null): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhook_deliveries')
          .set({
            attempts: d.attempts + 1,
            first_attempt_at: d.first_attempt_at ?? at,
            last_attempt_at: at,
            last_status_code: r.status,
            last_duration_ms: r.durationMs,
            last_error: r.error?.slice(0, 500) ?? null,
            next_attempt_at: next,
            gave_up_at: next ? null : at,
            locked_until: null,
          })
          .where('id', '=', d.id)
          .execute();
        if (next) return false;
        const changed = await trx
          .updateTable('webhook_endpoints')
          .set({ status: 'failing', failing_since: at })
          .where('id', '=', d.endpoint_id)
          .where('status', '=', 'active')
          .executeTakeFirst();
        return Number(changed.numUpdatedRows) > 0;
      });
    },
  };
}
