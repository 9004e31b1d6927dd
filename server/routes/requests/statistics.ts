import type { App } from '../../lib/typed.js';
import { euros } from '../../lib/amounts.js';
import { statisticsRepo } from '../../repositories/statistics.js';
import { transportRequestsRepo } from '../../repositories/transportRequests.js';
import { scopeOf, NAMESPACES } from './list.js';
import { present } from '../../lib/presentRequest.js';
import { requestAnswer } from './list.js';
import { dataAnswer, int, list, num, numN, obj, str } from '../../lib/answers.js';

const perPeriod = (key: string) => list(obj({ [key]: { type: ['integer', 'string'] }, requests: int, total: numN }));
const figures = obj(
  {
    date: str,
    daily_total: numN,
    open_total: numN,
    open_requests: num,
    mtd_requests: num,
    mtd_total: numN,
    ytd_requests: num,
    ytd_total: numN,
    get10TopRequests: list(requestAnswer),
    fiveMostRecentRequests: list(requestAnswer),
    getYTDRequests: perPeriod('month'),
    getMTDRequests: perPeriod('day'),
  },
  ['get10TopRequests'],
);

/**
 * GET /admin/statistics, /company/statistics, /enduser/statistics (server.md §6): the dashboard's six
 * figures in the caller's scope, the ten dearest requests of this year, the five newest, and the
 * requests and their value per month this year and per day this month. Money in euros.
 * The figures are cached 20 s per scope (in the database); the listed rows are read fresh.
 */
export default async function statisticsRoutes(app: App) {
  const stats = statisticsRepo(app.db);
  const repo = transportRequestsRepo(app.db);

  for (const { ns, policy } of NAMESPACES) {
    app.get(
      `/${ns}/statistics`,
      {
        config: { policy },
        schema: { tags: ['statistics'], summary: "The dashboard figures of the caller's scope.", response: { 200: dataAnswer(figures) } },
      },
      async (req) => {
        const f = await stats.get(scopeOf(req, ns));
        const rows = await repo.load([...new Set([...f.top10, ...f.recent5])]);
        const byId = new Map(rows.map((r) => [r.id, present(req, ns, r)]));
        const listOf = (ids: number[]) => ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
        const data = {
          date: f.date,
          daily_total: euros(f.daily_total),
          open_total: euros(f.open_total),
          open_requests: f.open_requests,
          mtd_requests: f.mtd_requests,
          mtd_total: euros(f.mtd_total),
          ytd_requests: f.ytd_requests,
          ytd_total: euros(f.ytd_total),
          ...(ns === 'admin' ? { get10TopRequests: listOf(f.top10) } : {}),
          fiveMostRecentRequests: listOf(f.recent5),
          getYTDRequests: f.ytd.map((m) => ({ month: m.month, requests: m.requests, total: euros(m.total) })),
          getMTDRequests: f.mtd.map((d) => ({ day: d.day, requests: d.requests, total: euros(d.total) })),
        };
        return { status: true, data };
      },
    );
  }
}
