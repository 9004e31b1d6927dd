import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { portalMigrator } from '../../server/db/migrate.js';
import { romeDate } from '../../server/lib/romeTime.js';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, insertRequest, multipart, type World } from './requestsFixtures.js';

/**
 * The request list at scale (issue 11, migration 0009): the totals come from counters kept by
 * triggers, and pages in the second half are read backwards. Both must answer exactly what
 * `count(*)` and a forward read answer, under concurrent writes too.
 */
describeEachDb('transport request list: counters and pages', (p) => {
  let w: World;
  const db = () => p().db.db;

  /** The counters that are not zero, and the same figures counted from the rows. */
  async function countersAndRows() {
    const counters = await db()
      .selectFrom('transport_request_counts')
      .select(['carrier_id', 'enduser_company_id', 'transport_request_status_id', 'n'])
      .where('n', '<>', 0)
      .execute();
    const rows = await db()
      .selectFrom('transport_requests')
      .select([
        'carrier_id',
        sql<number>`coalesce(enduser_company_id, 0)`.as('enduser_company_id'),
        'transport_request_status_id',
        sql<number>`count(*)`.as('n'),
      ])
      .groupBy(['carrier_id', sql`coalesce(enduser_company_id, 0)`, 'transport_request_status_id'])
      .execute();
    const key = (r: { carrier_id: number; enduser_company_id: number; transport_request_status_id: number; n: unknown }) =>
      `${r.carrier_id}/${r.enduser_company_id}/${r.transport_request_status_id}=${Number(r.n)}`;
    return { counters: counters.map(key).sort(), rows: rows.map(key).sort() };
  }
  const expectExact = async () => {
    const { counters, rows } = await countersAndRows();
    expect(counters).toEqual(rows);
    return rows;
  };

  beforeAll(async () => {
    w = await createWorld(p());
  });

  it('keeps the counters equal to count(*) through concurrent creates, status changes, edits and deletes', async () => {
    await expectExact();
    // Concurrent creates by two end users of two carriers (each a transaction of several statements).
    const create = async (token: string, i: number) => {
      const mp = await multipart(handShipment(i));
      const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token, payload: mp.payload, headers: mp.headers });
      expect(res.status).toBe(200);
      return Number(res.body.data.id);
    };
    const created = await Promise.all(Array.from({ length: 16 }, (_, i) => create(i % 2 ? w.tokens.bianchi : w.tokens.rossi, i)));
    const rows = await expectExact();
    expect(rows.reduce((s, r) => s + Number(r.split('=')[1]), 0)).toBe(16);

    // Priced requests to move around; then concurrent status changes: carriers confirming and refusing
    // (several on the same request, of which one wins), and an admin setting other statuses.
    const priced: number[] = [];
    for (let i = 0; i < 12; i++) {
      priced.push(
        await insertRequest(p(), {
          carrier_id: i % 2 ? w.beta : w.acme,
          enduser_company_id: i % 3 ? (i % 2 ? w.bianchi : w.rossi) : null,
          cost: 1000 + i,
          admin_fees: 100,
          created_at: new Date(Date.now() - i * 60_000).toISOString(),
        }),
      );
    }
    const status = (token: string, id: number, to: number) =>
      p().api('POST', '/company/transport_requests/updateTransportRequestStatus', { token, body: { id, transport_request_status_id: to, note: 'Nota' } });
    const calls = [];
    for (const [i, id] of priced.entries()) {
      const carrier = i % 2 ? w.tokens.beta : w.tokens.acme;
      if (i < 6) for (let k = 0; k < 4; k++) calls.push(status(carrier, id, k % 2 ? 4 : 3));
      else calls.push(status(w.tokens.admin, id, [3, 5, 6, 7][i % 4]), status(w.tokens.admin, id, 7));
    }
    for (const id of created.slice(0, 6)) calls.push(status(w.tokens.admin, id, 7), status(w.tokens.admin, id, 4));
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(6 + 6 + 6);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    await expectExact();

    // An admin's edit with a status, one statement changing many rows, a row moved to another carrier.
    const edit = await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.admin, body: { tr_id: priced[7], status_id: 1 } });
    expect(edit.status).toBe(200);
    await db().updateTable('transport_requests').set({ transport_request_status_id: 5 }).where('carrier_id', '=', w.beta).execute();
    await db().updateTable('transport_requests').set({ carrier_id: w.beta, enduser_company_id: w.bianchi }).where('id', '=', priced[0]).execute();
    await db().updateTable('transport_requests').set({ enduser_company_id: null }).where('id', '=', priced[2]).execute();
    await db().updateTable('transport_requests').set({ notes: 'no key change' }).execute();
    await expectExact();

    // A rolled-back transaction leaves the counters as they were.
    const before = await countersAndRows();
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('transport_requests').set({ transport_request_status_id: 6 }).execute();
          await trx.deleteFrom('transport_requests').where('id', '=', priced[1]).execute();
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await countersAndRows()).toEqual(before);

    // Deletes (shipments and documents go with their request).
    await db().deleteFrom('transport_requests').where('id', 'in', [priced[3], created[0], created[1]]).execute();
    await expectExact();
  });

  it('an upgrade fills the counters from the requests already stored', async () => {
    const migrator = await portalMigrator(db());
    const down = await migrator.migrateTo('0008_requests');
    expect(down.error).toBeUndefined();
    // PostgreSQL: introspection lists every schema of the database (other suites run in parallel); only ours counts
    const schema = p().dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db())).rows[0].s : undefined;
    expect(
      await db()
        .introspection.getTables()
        .then((t) => t.some((x) => x.name === 'transport_request_counts' && (!schema || x.schema === schema))),
    ).toBe(false);
    // Written while no trigger keeps count.
    await insertRequest(p(), { carrier_id: w.acme, enduser_company_id: w.rossi, status: 4, cost: 500, admin_fees: 0, created_at: new Date().toISOString() });
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const rows = await expectExact();
    expect(rows.length).toBeGreaterThan(3);
  });

  it('answers every sort, filter and page as one forward read does, totals included', async () => {
    await db().deleteFrom('transport_requests').execute();
    await expectExact();
    // 31 requests with equal dates and equal costs among them, and some "to be quoted" (cost null).
    const t0 = Date.now() - 3 * 86_400_000;
    for (let i = 0; i < 31; i++) {
      await insertRequest(p(), {
        carrier_id: i % 4 === 3 ? w.beta : w.acme,
        enduser_company_id: i % 4 === 3 ? w.bianchi : i % 5 === 0 ? null : w.rossi,
        status: [1, 3, 4, 5][i % 4 === 3 ? 1 : i % 3],
        cost: i % 7 === 0 ? null : 1000 * (i % 5),
        admin_fees: 100,
        created_at: new Date(t0 + Math.floor(i / 3) * 3_600_000).toISOString(),
      });
    }
    const all = await db().selectFrom('transport_requests').selectAll().execute();
    const nullsFirst = p().dialect === 'sqlite'; // each database's own place for NULL in ascending order
    const views = [
      { ns: 'admin', token: w.tokens.admin, filter: '', keep: (_: (typeof all)[number]) => true },
      {
        ns: 'admin',
        token: w.tokens.admin,
        filter: `&company_id=${w.acme}&transport_request_status_id=1`,
        keep: (r: (typeof all)[number]) => r.carrier_id === w.acme && r.transport_request_status_id === 1,
      },
      { ns: 'company', token: w.tokens.acme, filter: '', keep: (r: (typeof all)[number]) => r.carrier_id === w.acme },
      {
        ns: 'company',
        token: w.tokens.acme,
        filter: `&enduser_id=${w.rossi}`,
        keep: (r: (typeof all)[number]) => r.carrier_id === w.acme && r.enduser_company_id === w.rossi,
      },
      {
        ns: 'company',
        token: w.tokens.acme,
        filter: `&date=${romeDate(new Date(t0 + 3_600_000).toISOString())}`,
        keep: (r: (typeof all)[number]) => r.carrier_id === w.acme && r.created_on === romeDate(new Date(t0 + 3_600_000).toISOString()),
      },
      {
        ns: 'enduser',
        token: w.tokens.rossi,
        filter: '&transport_request_status_id=3',
        keep: (r: (typeof all)[number]) => r.enduser_company_id === w.rossi && r.transport_request_status_id === 3,
      },
    ];
    const sorts: Array<[string, 'asc' | 'desc' | undefined]> = [
      ['', undefined],
      ['id', 'asc'],
      ['id', 'desc'],
      ['created_at', 'asc'],
      ['created_at', 'desc'],
      ['cost', 'asc'],
      ['cost', 'desc'],
      ['transport_request_status_id', 'asc'],
      ['transport_request_status_id', 'desc'],
    ];
    for (const v of views) {
      const mine = all.filter(v.keep);
      expect(mine.length).toBeGreaterThan(2);
      for (const [sort, order] of sorts) {
        const col = (sort || 'created_at') as 'id' | 'created_at' | 'cost' | 'transport_request_status_id';
        const sign = (order ?? (sort ? 'asc' : 'desc')) === 'desc' ? -1 : 1;
        const cmp = (a: unknown, b: unknown) => (a === b ? 0 : a === null ? (nullsFirst ? -1 : 1) : b === null ? (nullsFirst ? 1 : -1) : a! < b! ? -1 : 1);
        const expected = [...mine].sort((a, b) => sign * (cmp(a[col], b[col]) || a.id - b.id)).map((r) => r.id);
        const query = `${sort ? `&sort=${sort}&order=${order}` : ''}${v.filter}`;
        const pages: number[] = [];
        const per = 4;
        for (let page = 1; page <= Math.ceil(mine.length / per) + 1; page++) {
          const res = await p().api('GET', `/${v.ns}/transport_requests?per_page=${per}&page=${page}${query}`, { token: v.token });
          expect(res.status).toBe(200);
          expect(res.body.transportRequests).toMatchObject({ total: mine.length, last_page: Math.ceil(mine.length / per), current_page: page });
          pages.push(...res.body.transportRequests.data.map((r: { id: number }) => r.id));
        }
        expect({ view: `${v.ns}${query}`, ids: pages }).toEqual({ view: `${v.ns}${query}`, ids: expected });
      }
    }
  });
});
