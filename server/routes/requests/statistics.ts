import type { App } from '../../lib/typed.js';
import { euros } from '../../lib/amounts.js';
import { statisticsRepo } from '../../repositories/statistics.js';
import { transportRequestsRepo } from '../../repositories/transportRequests.js';
import { scopeOf, NAMESPACES } from './list.js';
import { present } from '../../lib/presentRequest.js';
import { requestAnswer } from '../../lib/requestAnswer.js';
import { dataAnswer, int, obj, type JsonSchema } from '../../lib/answers.js';

const list = (item: JsonSchema, description: string): JsonSchema => ({ type: 'array', items: item, description });

// Every figure is a sum or a count (repositories/statistics.ts `Figures`: numbers, 0 when nothing), so none is
// null; money in euros. The per-period keys are Rome dates as text (YYYY-MM, YYYY-MM-DD).
const money = (what: string): JsonSchema => ({ type: 'number', description: `${what}, in euros` });
const perPeriod = (key: 'month' | 'day', format: string, what: string) =>
  list(obj({ [key]: { type: 'string', description: format }, requests: int, total: money('Their value') }), what);
const figures = obj(
  {
    date: { type: 'string', description: 'Today in Europe/Rome, YYYY-MM-DD' },
    daily_total: money("Today's requests' value"),
    open_total: money('The value of the open (OP) requests'),
    open_requests: { type: 'integer', description: 'Open (OP) requests' },
    mtd_requests: { type: 'integer', description: 'Requests this month' },
    mtd_total: money("This month's requests' value"),
    ytd_requests: { type: 'integer', description: 'Requests this year' },
    ytd_total: money("This year's requests' value"),
    get10TopRequests: { type: 'array', items: requestAnswer, description: "Administrators only: this year's ten dearest requests" },
    fiveMostRecentRequests: { type: 'array', items: requestAnswer, description: 'The five newest requests' },
    getYTDRequests: perPeriod('month', 'YYYY-MM', 'Every month of this year up to this one'),
    getMTDRequests: perPeriod('day', 'YYYY-MM-DD', 'Every day of this month up to today'),
  },
  // only the admin namespace answers it (the handler below)
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
