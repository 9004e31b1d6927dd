import { beforeAll, expect, it } from 'vitest';
import { seedDemoRequests } from '../../server/seed/requests.js';
import { describeEachDb } from './helpers.js';
import { createWorld, type World } from './requestsFixtures.js';

/** The demo's requests (server/seed/requests.ts) come with the history their status implies (issue 22). */
describeEachDb('the demo requests’ timelines', (p) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(p());
    expect(await seedDemoRequests(p().db.db)).toBe(true);
  });
  const timeline = async (id: number) => {
    const res = await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.acme });
    expect(res.status).toBe(200);
    return res.body.data.timeline as Array<{ at: string; event: string; status_id: number; by: { name: string | null; role: string }; note: string | null }>;
  };
  const names = async (email: string) => {
    const u = await p().db.db.selectFrom('users').select(['first_name', 'last_name']).where('email', '=', email).executeTakeFirstOrThrow();
    return `${u.first_name} ${u.last_name}`;
  };

  it('the demo requests past "open" carry their history: a delivered one was confirmed, loaded and delivered by the carrier', async () => {
    const row = await p()
      .db.db.selectFrom('transport_requests')
      .select('id')
      .where('transport_request_status_id', '=', 6)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const carrier = await names('carrier@portal.demo');
    const entries = await timeline(row.id);
    expect(entries.map((e) => [e.event, e.status_id, e.by.role])).toEqual([
      ['created', 1, 'enduser'],
      ['status_changed', 3, 'carrier'],
      ['status_changed', 5, 'carrier'],
      ['status_changed', 6, 'carrier'],
    ]);
    expect(entries[1].by.name).toBe(carrier);
    const at = entries.map((e) => Date.parse(e.at));
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('a refused demo request quotes its reason as the carrier’s note', async () => {
    const row = await p()
      .db.db.selectFrom('transport_requests')
      .select(['id', 'reason'])
      .where('transport_request_status_id', '=', 4)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const last = (await timeline(row.id)).at(-1)!;
    expect(last).toMatchObject({ event: 'status_changed', status_id: 4, by: { role: 'carrier' }, note: row.reason });
    expect(row.reason).toBeTruthy();
  });

  it('the demo’s history fills the bells already read: entries to browse, nothing unread', async () => {
    const rows = await p().db.db.selectFrom('notifications').select(['read_at']).execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.read_at === null)).toEqual([]);
  });
});
