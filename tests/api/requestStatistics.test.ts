import { beforeAll, expect, it } from 'vitest';
import { romeDate, romeDayStart } from '../../server/lib/romeTime.js';
import { describeEachDb } from './helpers.js';
import { createWorld, insertRequest, type World } from './requestsFixtures.js';

type Row = {
  id: number;
  carrier_id: number;
  enduser_company_id: number | null;
  status: number;
  cost: number | null;
  admin_fees: number | null;
  created_at: string;
};

describeEachDb('transport request lists and statistics', (p) => {
  let w: World;
  const rows: Row[] = [];
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const DAY = 86_400_000;
  const todayStart = romeDayStart(romeDate(now));

  beforeAll(async () => {
    w = await createWorld(p());
    const add = async (r: Omit<Row, 'id'>) => rows.push({ ...r, id: await insertRequest(p(), r) });
    // Today, yesterday by one second either side of Rome's midnight, this month, last months, last year.
    await add({ carrier_id: w.acme, enduser_company_id: w.rossi, status: 1, cost: 13090, admin_fees: 450, created_at: ago(60_000) });
    await add({
      carrier_id: w.acme,
      enduser_company_id: w.rossi,
      status: 3,
      cost: 9350,
      admin_fees: 450,
      created_at: new Date(Date.parse(todayStart) + 1000).toISOString(),
    });
    await add({
      carrier_id: w.acme,
      enduser_company_id: w.rossi,
      status: 4,
      cost: 20000,
      admin_fees: 0,
      created_at: new Date(Date.parse(todayStart) - 1000).toISOString(),
    });
    await add({ carrier_id: w.acme, enduser_company_id: w.rossi, status: 1, cost: null, admin_fees: null, created_at: ago(3 * DAY) });
    await add({ carrier_id: w.acme, enduser_company_id: null, status: 1, cost: 5000, admin_fees: 350, created_at: ago(20 * DAY) });
    await add({ carrier_id: w.acme, enduser_company_id: w.rossi, status: 3, cost: 77777, admin_fees: 450, created_at: ago(45 * DAY) });
    await add({ carrier_id: w.acme, enduser_company_id: w.rossi, status: 6, cost: 12345, admin_fees: 450, created_at: ago(100 * DAY) });
    await add({ carrier_id: w.acme, enduser_company_id: w.rossi, status: 1, cost: 99999, admin_fees: 100, created_at: ago(400 * DAY) });
    await add({ carrier_id: w.beta, enduser_company_id: w.bianchi, status: 1, cost: 40000, admin_fees: 1000, created_at: ago(2 * 60_000) });
    await add({ carrier_id: w.beta, enduser_company_id: w.bianchi, status: 3, cost: 1500, admin_fees: 0, created_at: ago(10 * DAY) });
    for (let i = 0; i < 12; i++) {
      await add({ carrier_id: w.beta, enduser_company_id: w.bianchi, status: 4, cost: 1000 + i, admin_fees: 0, created_at: ago((30 + i * 25) * DAY) });
    }
  });

  /** The figures computed here from the rows with the Rome calendar, independently of the server's SQL. */
  function expected(inScope: (r: Row) => boolean) {
    const today = romeDate(now);
    const mine = rows.filter(inScope);
    const amount = (r: Row) => (r.cost ?? 0) + (r.admin_fees ?? 0);
    const sum = (list: Row[]) => list.reduce((s, r) => s + amount(r), 0) / 100;
    const on = (r: Row) => romeDate(r.created_at);
    const year = mine.filter((r) => on(r).slice(0, 4) === today.slice(0, 4));
    const month = year.filter((r) => on(r).slice(0, 7) === today.slice(0, 7));
    const byNewest = [...mine].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
    const byAmount = [...year].sort((a, b) => amount(b) - amount(a) || b.id - a.id);
    return {
      daily_total: sum(mine.filter((r) => on(r) === today)),
      open_total: sum(mine.filter((r) => r.status === 1)),
      mtd_requests: month.length,
      mtd_total: sum(month),
      ytd_requests: year.length,
      ytd_total: sum(year),
      top: byAmount.slice(0, 10).map((r) => r.id),
      recent: byNewest.slice(0, 5).map((r) => r.id),
      months: Array.from({ length: Number(today.slice(5, 7)) }, (_, i) => {
        const m = `${today.slice(0, 4)}-${String(i + 1).padStart(2, '0')}`;
        const list = year.filter((r) => on(r).startsWith(m));
        return { month: m, requests: list.length, total: sum(list) };
      }),
    };
  }

  const scopes = () => [
    { ns: 'admin', token: w.tokens.admin, inScope: (_: Row) => true },
    { ns: 'company', token: w.tokens.acme, inScope: (r: Row) => r.carrier_id === w.acme },
    { ns: 'company', token: w.tokens.beta, inScope: (r: Row) => r.carrier_id === w.beta },
    { ns: 'enduser', token: w.tokens.rossi, inScope: (r: Row) => r.enduser_company_id === w.rossi },
  ];

  it('answers the six figures, the lists and the months of each scope as the rows give them (Europe/Rome days)', async () => {
    for (const s of scopes()) {
      const res = await p().api('GET', `/${s.ns}/statistics`, { token: s.token });
      expect(res.status).toBe(200);
      const d = res.body.data;
      const e = expected(s.inScope);
      expect({
        daily_total: d.daily_total,
        open_total: d.open_total,
        mtd_requests: d.mtd_requests,
        mtd_total: d.mtd_total,
        ytd_requests: d.ytd_requests,
        ytd_total: d.ytd_total,
      }).toEqual({
        daily_total: e.daily_total,
        open_total: e.open_total,
        mtd_requests: e.mtd_requests,
        mtd_total: e.mtd_total,
        ytd_requests: e.ytd_requests,
        ytd_total: e.ytd_total,
      });
      if (s.ns === 'admin') expect(d.get10TopRequests.map((r: any) => r.id)).toEqual(e.top);
      else expect(d.get10TopRequests).toBeUndefined();
      expect(d.fiveMostRecentRequests.map((r: any) => r.id)).toEqual(e.recent);
      expect(d.getYTDRequests).toEqual(e.months);
      expect(d.getMTDRequests.reduce((n: number, x: any) => n + x.requests, 0)).toBe(e.mtd_requests);
      expect(d.fiveMostRecentRequests[0]).toHaveProperty('transport_request_status.label');
    }
  });

  it('caches the figures 20 s per scope in the database, and a status change refreshes them', async () => {
    const first = (await p().api('GET', '/enduser/statistics', { token: w.tokens.rossi })).body.data;
    const cached = await p().db.db.selectFrom('statistics_cache').select('scope').execute();
    expect(cached.map((c) => c.scope).sort()).toEqual(['admin', `carrier:${w.acme}`, `carrier:${w.beta}`, `enduser:${w.rossi}`].sort());
    // A row written behind the server's back is not seen while the cache is fresh...
    const extra = await insertRequest(p(), { carrier_id: w.acme, enduser_company_id: w.rossi, status: 1, cost: 100, admin_fees: 0, created_at: ago(1000) });
    rows.push({ id: extra, carrier_id: w.acme, enduser_company_id: w.rossi, status: 1, cost: 100, admin_fees: 0, created_at: ago(1000) });
    expect((await p().api('GET', '/enduser/statistics', { token: w.tokens.rossi })).body.data.ytd_requests).toBe(first.ytd_requests);
    // ...nor by another scope's... but a change made through the API drops the cache of its scopes.
    const res = await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.acme,
      body: { id: rows[0].id, transport_request_status_id: 3 },
    });
    expect(res.status).toBe(200);
    rows[0].status = 3;
    const after = (await p().api('GET', '/enduser/statistics', { token: w.tokens.rossi })).body.data;
    expect(after.ytd_requests).toBe(first.ytd_requests + 1);
    expect(after.open_total).toBe(expected((r) => r.enduser_company_id === w.rossi).open_total);
    // An expired entry is recomputed.
    await p()
      .db.db.updateTable('statistics_cache')
      .set({ computed_at: Date.now() - 21_000 })
      .execute();
    const beta = (await p().api('GET', '/company/statistics', { token: w.tokens.beta })).body.data;
    expect(beta.ytd_total).toBe(expected((r) => r.carrier_id === w.beta).ytd_total);
  });

  it("lists each role's requests with the date, status, carrier and end-user filters and paging", async () => {
    const list = async (ns: string, token: string, query = '') => p().api('GET', `/${ns}/transport_requests${query}`, { token });
    for (const s of scopes()) {
      const res = await list(s.ns, s.token, '?per_page=100');
      expect(res.status).toBe(200);
      const mine = rows.filter(s.inScope).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
      expect(res.body.transportRequests.data.map((r: any) => r.id)).toEqual(mine.map((r) => r.id));
      expect(res.body.transportRequests).toMatchObject({ current_page: 1, per_page: 100, last_page: 1, total: mine.length });
    }
    const today = romeDate(now);
    const todays = await list('company', w.tokens.acme, `?date=${today}`);
    expect(todays.body.transportRequests.data.map((r: any) => r.id).sort()).toEqual(
      rows
        .filter((r) => r.carrier_id === w.acme && romeDate(r.created_at) === today)
        .map((r) => r.id)
        .sort(),
    );
    const refused = await list('enduser', w.tokens.rossi, '?transport_request_status_id=4');
    expect(refused.body.transportRequests.data.map((r: any) => r.id)).toEqual(
      rows.filter((r) => r.enduser_company_id === w.rossi && r.status === 4).map((r) => r.id),
    );
    for (const q of [`?company_id=${w.beta}`, `?carrier_id=${w.beta}`]) {
      const res = await list('admin', w.tokens.admin, `${q}&per_page=5&page=2`);
      const betas = rows.filter((r) => r.carrier_id === w.beta);
      expect(res.body.transportRequests).toMatchObject({ current_page: 2, per_page: 5, total: betas.length, last_page: Math.ceil(betas.length / 5) });
      expect(res.body.transportRequests.data).toHaveLength(5);
      expect(res.body.transportRequests.data.every((r: any) => r.carrier_id === w.beta)).toBe(true);
    }
    const byEnduser = await list('admin', w.tokens.admin, `?enduser_id=${w.bianchi}&transport_request_status_id=3`);
    expect(byEnduser.body.transportRequests.total).toBe(rows.filter((r) => r.enduser_company_id === w.bianchi && r.status === 3).length);
    // A carrier filtering on another carrier's end user: 404. An end user's carrier filter is ignored.
    expect((await list('company', w.tokens.acme, `?enduser_id=${w.bianchi}`)).status).toBe(404);
    expect((await list('company', w.tokens.acme, `?enduser_id=${w.rossi}`)).body.transportRequests.total).toBe(
      rows.filter((r) => r.carrier_id === w.acme && r.enduser_company_id === w.rossi).length,
    );
    expect((await list('enduser', w.tokens.rossi, `?enduser_id=${w.bianchi}`)).body.transportRequests.total).toBe(
      rows.filter((r) => r.enduser_company_id === w.rossi).length,
    );
    const bad = await list('enduser', w.tokens.rossi, '?date=2024-02-30');
    expect(bad.status).toBe(422);
    expect((await list('admin', w.tokens.acme)).status).toBe(403);
    expect((await list('company', w.tokens.rossi)).status).toBe(403);
  });
});
