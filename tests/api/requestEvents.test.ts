import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredEvent } from '../../server/lib/liveEvents.js';
import { changeRequest } from '../../server/lib/requestEvents/change.js';
import type { EventActor } from '../../server/repositories/requestEvents.js';
import { requestStatusRepo } from '../../server/repositories/requestStatus.js';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, multipart, type World } from './requestsFixtures.js';

/**
 * The one way of a request event (docs/request-events.md, lib/requestEvents): what commits with the change
 * (timeline, webhook deliveries, bell, the statistics' drop, the live event's row), what follows the commit
 * (the streams, the mails), and a rollback that leaves none of it.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 3000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

describeEachDb('request events: one way', (p) => {
  let w: World;
  let carrierUser: EventActor;
  const live: StoredEvent[] = [];
  let unsubscribe: () => void;
  const CUSTOMER = 'enduser@portal.demo';

  beforeAll(async () => {
    w = await createWorld(p());
    const u = await p()
      .db.db.selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('email', '=', 'carrier@portal.demo')
      .executeTakeFirstOrThrow();
    carrierUser = { user_id: u.id, name: `${u.first_name} ${u.last_name}`, role: 'carrier' };
    // Acme listens to both events (the worker does not run in tests: deliveries stay rows).
    const ep = await p().api('POST', '/company/webhooks/store', {
      token: w.tokens.acme,
      body: { url: 'http://127.0.0.1:9/hook', events: ['transport_request.created', 'transport_request.status_changed'] },
    });
    expect(ep.status, JSON.stringify(ep.body)).toBe(200);
    unsubscribe = p().app.live.subscribe({ event: (e) => live.push(e), sessions() {}, heartbeat() {}, reset() {}, end() {} });
  });
  afterAll(() => unsubscribe?.());

  const create = async () => {
    const mp = await multipart(handShipment(0));
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, payload: mp.payload, headers: mp.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };
  const liveOf = (id: number, type: string) => live.filter((e) => e.type === type && e.data.id === id);
  const cacheCarrier = () =>
    p()
      .db.db.insertInto('statistics_cache')
      .values({ scope: `carrier:${w.acme}`, payload: '{}', computed_at: Date.now() })
      .onConflict((oc) => oc.column('scope').doUpdateSet({ payload: '{}', computed_at: Date.now() }))
      .execute();
  const cached = async () => (await p().db.db.selectFrom('statistics_cache').select('scope').where('scope', '=', `carrier:${w.acme}`).execute()).length;
  const mailsFor = (to: string, id: number) => {
    const dir = path.join(p().config.dataDir, 'outbox');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string; subject: string })
      .filter((m) => m.to === to && new RegExp(`\\b(no?\\.|n°) ${id}\\b`).test(m.subject));
  };
  const refuse = (id: number, fail = false) =>
    changeRequest(p().app, async (trx, record) => {
      expect((await requestStatusRepo(trx).byCarrier(id, w.acme, 4)).ok).toBe(true);
      await record({ id, carrier_id: w.acme, enduser_company_id: w.rossi }, carrierUser, [{ event: 'status_changed', status_id: 4, note: 'Nessun mezzo' }]);
      // Everything that commits with the change is there, in its transaction; nothing has left it yet.
      const count = async (table: 'transport_request_events' | 'webhook_deliveries' | 'notifications') =>
        (await trx.selectFrom(table).select('id').where('transport_request_id', '=', id).execute()).length;
      const delivery = await trx
        .selectFrom('webhook_deliveries')
        .select('payload')
        .where('transport_request_id', '=', id)
        .where('event_type', '=', 'transport_request.status_changed')
        .executeTakeFirstOrThrow();
      const liveRows = await trx.selectFrom('live_events').select('data').where('type', '=', 'request.status').execute();
      const seen = {
        timeline: await count('transport_request_events'),
        deliveries: await count('webhook_deliveries'),
        bell: (await count('notifications')) > 0,
        // the deliveries are written after the timeline's row: their payload's timeline ends with it
        payloadLast: JSON.parse(delivery.payload).data.timeline.at(-1),
        cached: (await trx.selectFrom('statistics_cache').select('scope').where('scope', '=', `carrier:${w.acme}`).execute()).length,
        liveRow: liveRows.filter((r) => JSON.parse(r.data).id === id).length,
        streamed: liveOf(id, 'request.status').length,
        mails: mailsFor(CUSTOMER, id).length,
      };
      if (fail) throw new Error('rolled back');
      return seen;
    });

  it('writes the timeline, then the webhook deliveries, then the bell, drops the statistics and writes the live row in the change’s transaction; the stream and the mail follow the commit', async () => {
    const id = await create();
    await cacheCarrier();
    expect(await cached()).toBe(1);
    const seen = await refuse(id);
    expect(seen).toEqual({
      timeline: 2, // created, status_changed
      deliveries: 2, // transport_request.created, transport_request.status_changed
      bell: true,
      cached: 0,
      payloadLast: { at: expect.any(String), event: 'status_changed', status_id: 4, by: { name: carrierUser.name, role: 'carrier' }, note: 'Nessun mezzo' },
      liveRow: 1,
      streamed: 0,
      mails: 0,
    });
    // after the commit: the streams hear it once, the customer is mailed
    await until('the stream hears request.status', () => liveOf(id, 'request.status').length === 1);
    expect(liveOf(id, 'request.status')[0].data).toEqual({ id, status_id: 4 });
    expect(await cached()).toBe(0);
    await until('the customer’s mail', () => mailsFor(CUSTOMER, id).length === 1);
  });

  it('leaves nothing of a rolled-back change: no timeline entry, delivery, bell row, live event, mail; the statistics stay', async () => {
    const id = await create();
    const before = await p().db.db.selectFrom('webhook_deliveries').select('id').where('transport_request_id', '=', id).execute();
    await cacheCarrier();
    await expect(refuse(id, true)).rejects.toThrow('rolled back');
    const db = p().db.db;
    expect(
      (await db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow())
        .transport_request_status_id,
    ).toBe(1);
    expect((await db.selectFrom('transport_request_events').select('event').where('transport_request_id', '=', id).execute()).map((e) => e.event)).toEqual([
      'created',
    ]);
    expect(await db.selectFrom('webhook_deliveries').select('id').where('transport_request_id', '=', id).execute()).toEqual(before);
    expect(await db.selectFrom('notifications').select('id').where('transport_request_id', '=', id).where('event', '=', 'status_changed').execute()).toEqual(
      [],
    );
    const rows = await db.selectFrom('live_events').select('data').where('type', '=', 'request.status').execute();
    expect(rows.filter((r) => JSON.parse(r.data).id === id)).toEqual([]);
    expect(await cached()).toBe(1);
    await sleep(300);
    expect(liveOf(id, 'request.status')).toEqual([]);
    expect(mailsFor(CUSTOMER, id)).toEqual([]);
  });

  it('announces a new request and a new status only once the statistics are dropped (the dashboard refetches on them)', async () => {
    await cacheCarrier();
    const cacheWhenHeard: Array<Promise<number>> = [];
    const off = p().app.live.subscribe({
      event: (e) => {
        if (e.type === 'request.created' || e.type === 'request.status') cacheWhenHeard.push(cached());
      },
      sessions() {},
      heartbeat() {},
      reset() {},
      end() {},
    });
    try {
      const id = await create();
      await until('the stream hears request.created', () => liveOf(id, 'request.created').length === 1);
      // the look taken when the event was heard must finish before the cache is filled again: on PostgreSQL
      // it runs on another pooled connection and could otherwise read the refill
      expect(await Promise.all(cacheWhenHeard)).toEqual([0]);
      await cacheCarrier();
      await refuse(id);
      await until('the stream hears request.status', () => liveOf(id, 'request.status').length === 1);
      expect(await Promise.all(cacheWhenHeard)).toEqual([0, 0]);
      const db = p().db.db;
      expect(
        (await db.selectFrom('webhook_deliveries').select('event_type').where('transport_request_id', '=', id).orderBy('id').execute()).map(
          (d) => d.event_type,
        ),
      ).toEqual(['transport_request.created', 'transport_request.status_changed']);
    } finally {
      off();
    }
  });
});
