import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import { STATUS } from './transportRequests.js';

/** Statuses that mean the transport goes ahead: a request needs its price before reaching them. */
export const NEEDS_PRICE: number[] = [STATUS.CF, STATUS.IT, STATUS.DL];

export type StatusChange =
  | { ok: true; from: number }
  | { ok: false; reason: 'notFound' | 'notOpen' | 'needsPrice' | 'same' | 'conflict' | 'notBooker' | 'wrongOrder'; status?: number; needs?: number };

/**
 * The carrier's progress (issue 36): each target and the one status it is reached from. A carrier moves its
 * confirmed request to in transit (picked up), and that one to delivered; never back, never a step skipped.
 */
export const PROGRESS_FROM = { [STATUS.IT]: STATUS.CF, [STATUS.DL]: STATUS.IT } as const;
export type ProgressTarget = typeof STATUS.IT | typeof STATUS.DL;

/**
 * Status changes (server.md §5), each ONE conditional UPDATE, so of concurrent changes exactly one
 * wins: the database applies them one after the other and only the first still finds the condition
 * true. A carrier moves only its own OP requests to CF or RF; an admin moves any request from the
 * status it read to another. Confirming (or moving on) a request without a price is refused.
 */
export function requestStatusRepo(db: Db) {
  async function explain(id: number, carrierId: number | null, to: number): Promise<StatusChange> {
    let qb = db.selectFrom('transport_requests').select(['transport_request_status_id as status', 'cost']).where('id', '=', id);
    if (carrierId !== null) qb = qb.where('carrier_id', '=', carrierId);
    const row = await qb.executeTakeFirst();
    if (!row) return { ok: false, reason: 'notFound' };
    if (carrierId !== null && row.status !== STATUS.OP) return { ok: false, reason: 'notOpen', status: row.status };
    if (NEEDS_PRICE.includes(to) && row.cost === null) return { ok: false, reason: 'needsPrice' };
    return { ok: false, reason: 'conflict', status: row.status };
  }

  return {
    async byCarrier(id: number, carrierId: number, to: typeof STATUS.CF | typeof STATUS.RF): Promise<StatusChange> {
      let q = db
        .updateTable('transport_requests')
        .set({ transport_request_status_id: to, updated_at: nowIso() })
        .where('id', '=', id)
        .where('carrier_id', '=', carrierId)
        .where('transport_request_status_id', '=', STATUS.OP);
      if (NEEDS_PRICE.includes(to)) q = q.where('cost', 'is not', null);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1 ? { ok: true, from: STATUS.OP } : explain(id, carrierId, to);
    },

    /**
     * A carrier moves its own request one step on (issue 36): CF → IT with the pickup time, IT → DL. One
     * conditional update on the carrier and the one status the target is reached from, so of two concurrent
     * changes exactly one wins (the other finds the status moved: `same` or `wrongOrder`, 409). Another
     * carrier's request is notFound; a request in any other status wrongOrder, naming the status it needs.
     */
    async progress(id: number, carrierId: number, to: ProgressTarget, pickedUpAt?: string): Promise<StatusChange> {
      const from = PROGRESS_FROM[to];
      const r = await db
        .updateTable('transport_requests')
        .set({ transport_request_status_id: to, updated_at: nowIso(), ...(pickedUpAt ? { picked_up_at: pickedUpAt } : {}) })
        .where('id', '=', id)
        .where('carrier_id', '=', carrierId)
        .where('transport_request_status_id', '=', from)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) return { ok: true, from };
      const row = await db
        .selectFrom('transport_requests')
        .select('transport_request_status_id as status')
        .where('id', '=', id)
        .where('carrier_id', '=', carrierId)
        .executeTakeFirst();
      if (!row) return { ok: false, reason: 'notFound' };
      if (row.status === to) return { ok: false, reason: 'same', status: row.status };
      return { ok: false, reason: 'wrongOrder', status: row.status, needs: from };
    },

    /** The pickup time an admin's move to in transit records (its conditional update is byAdmin's). */
    async setPickedUp(id: number, pickedUpAt: string): Promise<void> {
      await db.updateTable('transport_requests').set({ picked_up_at: pickedUpAt }).where('id', '=', id).execute();
    },

    /**
     * The end user who booked cancels (CN) its own OP request (server.md §5): one conditional update on its
     * company, its user and the OP status, so against a concurrent confirm or refuse exactly one wins. A
     * request of another company is notFound; one a colleague booked is notBooker; one no longer open notOpen.
     */
    async byEndUser(id: number, companyId: number, userId: number): Promise<StatusChange> {
      const r = await db
        .updateTable('transport_requests')
        .set({ transport_request_status_id: STATUS.CN, updated_at: nowIso() })
        .where('id', '=', id)
        .where('enduser_company_id', '=', companyId)
        .where('user_id', '=', userId)
        .where('transport_request_status_id', '=', STATUS.OP)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) return { ok: true, from: STATUS.OP };
      const row = await db
        .selectFrom('transport_requests')
        .select(['transport_request_status_id as status', 'user_id'])
        .where('id', '=', id)
        .where('enduser_company_id', '=', companyId)
        .executeTakeFirst();
      if (!row) return { ok: false, reason: 'notFound' };
      if (row.user_id !== userId) return { ok: false, reason: 'notBooker' };
      return { ok: false, reason: 'notOpen', status: row.status };
    },

    async byAdmin(id: number, to: number): Promise<StatusChange> {
      const row = await db.selectFrom('transport_requests').select(['transport_request_status_id as status', 'cost']).where('id', '=', id).executeTakeFirst();
      if (!row) return { ok: false, reason: 'notFound' };
      if (row.status === to) return { ok: false, reason: 'same', status: row.status };
      if (NEEDS_PRICE.includes(to) && row.cost === null) return { ok: false, reason: 'needsPrice' };
      let q = db
        .updateTable('transport_requests')
        .set({ transport_request_status_id: to, updated_at: nowIso() })
        .where('id', '=', id)
        .where('transport_request_status_id', '=', row.status);
      if (NEEDS_PRICE.includes(to)) q = q.where('cost', 'is not', null);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1 ? { ok: true, from: row.status } : explain(id, null, to);
    },
  };
}
