import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { romeDate, romeDayStart } from '../lib/romeTime.js';
import { inScope, STATUS, type RequestScope } from './transportRequests.js';

export const STATISTICS_TTL_MS = 20_000;

/** The figures of server.md §6 in cents, and the ids of the requests the lists show. */
export interface Figures {
  date: string;
  daily_total: number;
  open_total: number;
  open_requests: number;
  mtd_requests: number;
  mtd_total: number;
  ytd_requests: number;
  ytd_total: number;
  /** every month of this year up to this one */
  ytd: Array<{ month: string; requests: number; total: number }>;
  /** every day of this month up to today */
  mtd: Array<{ day: string; requests: number; total: number }>;
  /** admins only */
  top10: number[];
  recent5: number[];
}

export const scopeKey = (s: RequestScope) =>
  'carrierId' in s ? `carrier:${s.carrierId}` : 'enduserCompanyId' in s ? `enduser:${s.enduserCompanyId}` : 'admin';

const amount = sql<number>`coalesce(tr.cost, 0) + coalesce(tr.admin_fees, 0)`;
const n = (v: unknown) => Number(v ?? 0);

/**
 * Statistics per scope, days and months counted in Europe/Rome (server.md §6), computed with a few
 * aggregate queries on the indexed columns and cached 20 s per scope in the database, so every server
 * process shares the cache (server.md §10). Writes to a request drop the cache of the scopes it is in.
 */
export function statisticsRepo(db: Db) {
  async function compute(scope: RequestScope, now: Date): Promise<Figures> {
    const today = romeDate(now);
    const month = today.slice(0, 7);
    const year = today.slice(0, 4);
    const yearStart = romeDayStart(`${year}-01-01`);
    const base = () => inScope(db.selectFrom('transport_requests as tr'), scope);

    // One pass over this year's rows grouped by Rome day gives every figure but the open total and the lists.
    const [days, open, top, recent] = await Promise.all([
      base()
        .where('tr.created_at', '>=', yearStart)
        .select(['tr.created_on as day', sql<number>`count(*)`.as('requests'), sql<number>`sum(${amount})`.as('total')])
        .groupBy('tr.created_on')
        .execute(),
      base()
        .where('tr.transport_request_status_id', '=', STATUS.OP)
        .select([sql<number>`count(*)`.as('requests'), sql<number>`sum(${amount})`.as('total')])
        .executeTakeFirstOrThrow(),
      // The ten dearest of the year: the admin's table only (accounts document §2).
      'all' in scope
        ? base().where('tr.created_at', '>=', yearStart).select('tr.id').orderBy(amount, 'desc').orderBy('tr.id', 'desc').limit(10).execute()
        : Promise.resolve([]),
      base().select('tr.id').orderBy('tr.created_at', 'desc').orderBy('tr.id', 'desc').limit(5).execute(),
    ]);

    const sum = (list: typeof days, pick: 'requests' | 'total') => list.reduce((acc, d) => acc + n(d[pick]), 0);
    const thisMonth = days.filter((d) => d.day.startsWith(month));
    const ytd = Array.from({ length: Number(today.slice(5, 7)) }, (_, i) => {
      const key = `${year}-${String(i + 1).padStart(2, '0')}`;
      const list = days.filter((d) => d.day.startsWith(key));
      return { month: key, requests: sum(list, 'requests'), total: sum(list, 'total') };
    });
    const byDay = new Map(thisMonth.map((d) => [d.day, d]));
    const mtd = Array.from({ length: Number(today.slice(8, 10)) }, (_, i) => {
      const key = `${month}-${String(i + 1).padStart(2, '0')}`;
      return { day: key, requests: n(byDay.get(key)?.requests), total: n(byDay.get(key)?.total) };
    });
    return {
      date: today,
      daily_total: n(byDay.get(today)?.total),
      open_total: n(open.total),
      open_requests: n(open.requests),
      mtd_requests: sum(thisMonth, 'requests'),
      mtd_total: sum(thisMonth, 'total'),
      ytd_requests: sum(days, 'requests'),
      ytd_total: sum(days, 'total'),
      ytd,
      mtd,
      top10: top.map((r) => r.id),
      recent5: recent.map((r) => r.id),
    };
  }

  return {
    compute,

    /** The scope's figures from the cache when computed less than 20 s ago (and on the same Rome day). */
    async get(scope: RequestScope, now = new Date()): Promise<Figures> {
      const key = scopeKey(scope);
      const cached = await db.selectFrom('statistics_cache').select(['payload', 'computed_at']).where('scope', '=', key).executeTakeFirst();
      if (cached && now.getTime() - Number(cached.computed_at) < STATISTICS_TTL_MS && now.getTime() >= Number(cached.computed_at)) {
        const figures = JSON.parse(cached.payload) as Figures;
        if (figures.date === romeDate(now)) return figures;
      }
      const figures = await compute(scope, now);
      const row = { scope: key, payload: JSON.stringify(figures), computed_at: now.getTime() };
      await db
        .insertInto('statistics_cache')
        .values(row)
        .onConflict((oc) => oc.column('scope').doUpdateSet({ payload: row.payload, computed_at: row.computed_at }))
        .execute();
      return figures;
    },

    /** Drops the cached figures of every scope a request is in. */
    async invalidate(r: { carrier_id: number; enduser_company_id: number | null }) {
      const keys = ['admin', `carrier:${r.carrier_id}`];
      if (r.enduser_company_id) keys.push(`enduser:${r.enduser_company_id}`);
      await db.deleteFrom('statistics_cache').where('scope', 'in', keys).execute();
    },
  };
}
