import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { COMPANY_ROLE, USER_ROLE } from '../../model/roles.js';
import { buildApp } from '../../server/app.js';
import { openDb } from '../../server/db/index.js';
import { liveTransaction } from '../../server/lib/liveEvents.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import { API_PASSWORD, DEMO, describeEachDb, type TestPortal } from './helpers.js';

const PASSWORD = 'live-pass-1';

interface Received {
  id: string | null;
  event: string;
  data: unknown;
}

/** An open stream: the events it got so far, waits for one, and whether the server ended it. */
interface Stream {
  status: number;
  contentType: string;
  events: Received[];
  ended: Promise<void>;
  next(pred: (e: Received) => boolean, ms?: number): Promise<Received>;
  close(): void;
}

function openStream(base: string, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      const events: Received[] = [];
      const waiters: Array<{ pred: (e: Received) => boolean; done: (e: Received) => void }> = [];
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const e: Received = { id: null, event: 'message', data: null };
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (!data) continue; // comments (heartbeats), retry
          e.data = JSON.parse(data);
          events.push(e);
          for (const w of [...waiters]) {
            if (!w.pred(e)) continue;
            waiters.splice(waiters.indexOf(w), 1);
            w.done(e);
          }
        }
      });
      const ended = new Promise<void>((r) => res.on('close', () => r()));
      resolve({
        status: res.statusCode ?? 0,
        contentType: String(res.headers['content-type']),
        events,
        ended,
        next(pred, ms = 5000) {
          const have = events.find(pred);
          if (have) return Promise.resolve(have);
          return new Promise((done, fail) => {
            const t = setTimeout(() => fail(new Error(`no such event within ${ms} ms; got ${JSON.stringify(events)}`)), ms);
            waiters.push({ pred, done: (e) => (clearTimeout(t), done(e)) });
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function addCompany(p: TestPortal, legal_name: string, company_role_id: number, carrier_id: number | null) {
  const now = nowIso();
  const values = { legal_name, company_role_id, carrier_id, status_id: 1, is_inbound: 1, type: 'Customer', created_at: now, updated_at: now };
  return (await p.db.db.insertInto('companies').values(values).returning('id').executeTakeFirstOrThrow()).id;
}
async function addUser(p: TestPortal, email: string, role_id: number, company_id: number) {
  const now = nowIso();
  const password_hash = await hashPassword(PASSWORD);
  const values = { role_id, company_id, first_name: 'Live', last_name: email, email, password_hash, status_id: 1, created_at: now, updated_at: now };
  await p.db.db.insertInto('users').values(values).execute();
  return p.login(email, PASSWORD);
}

describeEachDb('live events stream', (p) => {
  const t: Record<string, string> = {};
  let base = '';
  let chatA = 0;
  let chatB = 0;

  const ticketFor = async (ns: string, token: string) => {
    const r = await p().api('POST', `/${ns}/events/ticket`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.ticket as string;
  };
  const stream = async (ns: string, token: string, extra = '', headers: Record<string, string> = {}) =>
    openStream(base, `/api/v1/${ns}/events?ticket=${encodeURIComponent(await ticketFor(ns, token))}${extra}`, headers);
  const say = async (ns: 'company' | 'enduser', token: string, chat_id: number, message: string) => {
    const r = await p().api('POST', `/${ns}/chats/sendChatMessage`, { token, body: { chat_id, message } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return Number(r.body.data.id);
  };

  beforeAll(async () => {
    base = await p()
      .app.listen({ port: 0, host: '127.0.0.1' })
      .then(() => `http://127.0.0.1:${(p().app.server.address() as AddressInfo).port}`);
    t.admin = await p().login(DEMO.admin);
    t.carrierA = await p().login(DEMO.carrier);
    t.enduserA = await p().login(DEMO.enduser);
    const carrierB = await addCompany(p(), 'Beta Live S.p.A.', COMPANY_ROLE.CARRIER, null);
    const enduserB = await addCompany(p(), 'Verdi Live S.r.l.', COMPANY_ROLE.ENDUSER, carrierB);
    t.carrierB = await addUser(p(), 'carrier@beta-live.test', USER_ROLE.CARRIER, carrierB);
    t.enduserB = await addUser(p(), 'enduser@verdi-live.test', USER_ROLE.ENDUSER, enduserB);
    const category = (await p().api('GET', '/visitor/ticket_categories')).body.data[0].id;
    const open = async (token: string) =>
      (await p().api('POST', '/enduser/chats/newTicket', { token, body: { ticket_category_id: category, subject: 'Live', message: 'Ciao' } })).body.data
        .id as number;
    chatA = await open(t.enduserA);
    chatB = await open(t.enduserB);
  });

  it("delivers a carrier's message to its customer's stream, and nothing of it to another tenant's", async () => {
    const mine = await stream('enduser', t.enduserA);
    const other = await stream('enduser', t.enduserB);
    const otherCarrier = await stream('company', t.carrierB);
    const admin = await stream('admin', t.admin);
    expect(mine.status).toBe(200);
    expect(mine.contentType).toMatch(/^text\/event-stream/);
    try {
      const id = await say('company', t.carrierA, chatA, 'Il camion parte domani');
      const got = await mine.next((e) => e.event === 'chat.message');
      expect(got.data).toEqual({ chat_id: chatA, message_id: id });
      expect(Number(got.id)).toBeGreaterThan(0);
      // B's own message reaches B: its streams work, so silence about A's is the scope, not a dead stream.
      await say('company', t.carrierB, chatB, 'Per Verdi');
      const bGot = await other.next((e) => e.event === 'chat.message');
      expect(bGot.data).toMatchObject({ chat_id: chatB });
      await otherCarrier.next((e) => e.event === 'chat.message');
      await pause(200);
      expect(other.events.filter((e) => (e.data as { chat_id?: number }).chat_id === chatA)).toEqual([]);
      expect(otherCarrier.events.filter((e) => (e.data as { chat_id?: number }).chat_id === chatA)).toEqual([]);
      expect(mine.events.filter((e) => (e.data as { chat_id?: number }).chat_id === chatB)).toEqual([]);
      // Admins have no chat: no chat events.
      expect(admin.events.filter((e) => e.event === 'chat.message')).toEqual([]);
      // A ticket closed by the carrier: the customer's list refreshes.
      const closed = await p().api('POST', '/company/chats/closeChat', { token: t.carrierB, body: { chat_id: chatB } });
      expect(closed.status).toBe(200);
      expect((await other.next((e) => e.event === 'ticket.changed')).data).toEqual({ chat_id: chatB, status: 'closed' });
      await pause(100);
      expect(mine.events.filter((e) => e.event === 'ticket.changed')).toEqual([]);
    } finally {
      for (const s of [mine, other, otherCarrier, admin]) s.close();
    }
  });

  it('sends request status changes to the request’s customer, carrier and admins only', async () => {
    const req = await p()
      .db.db.selectFrom('transport_requests as tr')
      .innerJoin('users as u', 'u.company_id', 'tr.enduser_company_id')
      .where('u.email', '=', DEMO.enduser)
      .where('tr.transport_request_status_id', '=', 1)
      // priced: a request entered by hand without a price cannot be confirmed (422 "needs a price", issue 35)
      .where('tr.cost', 'is not', null)
      .orderBy('tr.id')
      .select(['tr.id'])
      .executeTakeFirst();
    expect(req, 'the demo has an open, priced request of the demo customer').toBeTruthy();
    const customer = await stream('enduser', t.enduserA);
    const admin = await stream('admin', t.admin);
    const otherCarrier = await stream('company', t.carrierB);
    try {
      const r = await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
        token: t.carrierA,
        body: { id: req!.id, transport_request_status_id: 3 },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      for (const s of [customer, admin]) expect((await s.next((e) => e.event === 'request.status')).data).toEqual({ id: req!.id, status_id: 3 });
      await pause(200);
      expect(otherCarrier.events.filter((e) => e.event.startsWith('request.'))).toEqual([]);
    } finally {
      for (const s of [customer, admin, otherCarrier]) s.close();
    }
  });

  it('replays what a tab missed after its Last-Event-ID, and answers reset for an id it no longer has', async () => {
    const first = await stream('enduser', t.enduserA);
    await say('company', t.carrierA, chatA, 'uno');
    const seen = await first.next((e) => e.event === 'chat.message');
    first.close();
    await first.ended;
    const two = await say('company', t.carrierA, chatA, 'due');
    const three = await say('enduser', t.enduserA, chatA, 'tre');
    // A rolled-back write emits nothing, in the stream or the replay.
    await expect(
      liveTransaction(p().db.db, async (_trx, emit) => {
        await emit({
          type: 'chat.message',
          data: { chat_id: chatA, message_id: 999_999 },
          audience: { admins: true, companies: [{ id: -1, kinds: ['enduser'] }] },
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const again = await stream('enduser', t.enduserA, '', { 'last-event-id': String(seen.id) });
    const byQuery = await stream('enduser', t.enduserA, `&last_event_id=${seen.id}`);
    const lost = await stream('enduser', t.enduserA, '&last_event_id=2000000000');
    try {
      for (const s of [again, byQuery]) {
        await s.next((e) => (e.data as { message_id?: number }).message_id === three);
        const replayed = s.events.filter((e) => e.event === 'chat.message').map((e) => (e.data as { message_id: number }).message_id);
        expect(replayed).toEqual([two, three]);
        const ids = s.events.map((e) => Number(e.id));
        expect(ids.every((id, i) => i === 0 || id > ids[i - 1])).toBe(true);
      }
      expect((await lost.next((e) => e.event === 'reset')).data).toEqual({});
      const stored = await p().db.db.selectFrom('live_events').select('data').where('data', 'like', '%999999%').execute();
      expect(stored).toEqual([]);
    } finally {
      for (const s of [again, byQuery, lost]) s.close();
    }
  });

  it('refuses spent, forged and header-less tickets, and another namespace', async () => {
    const ticket = await ticketFor('enduser', t.enduserA);
    const s = await openStream(base, `/api/v1/enduser/events?ticket=${encodeURIComponent(ticket)}`);
    expect(s.status).toBe(200);
    s.close();
    const spent = await openStream(base, `/api/v1/enduser/events?ticket=${encodeURIComponent(ticket)}`);
    expect(spent.status).toBe(401);
    const [body, mac] = (await ticketFor('enduser', t.enduserA)).split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), u: 1 })).toString('base64url');
    expect((await openStream(base, `/api/v1/enduser/events?ticket=${forged}.${mac}`)).status).toBe(401);
    // The headers alone do not open a stream (the ticket is required), and an end user's ticket is no carrier's.
    const headerOnly = await p().api('GET', '/enduser/events', { token: t.enduserA, lang: 'en' });
    expect(headerOnly.status).toBe(422);
    expect(headerOnly.body.errors.ticket).toBeTruthy();
    expect((await openStream(base, `/api/v1/company/events?ticket=${encodeURIComponent(await ticketFor('enduser', t.enduserA))}`)).status).toBe(403);
    expect((await p().api('POST', '/company/events/ticket', { token: t.enduserA })).status).toBe(403);
    expect((await p().api('POST', '/enduser/events/ticket')).status).toBe(401);
  });

  it('closes the stream at once when its session is ended elsewhere, and keeps the other sessions’ streams', async () => {
    const doomed = await p().login(DEMO.enduser);
    const s = await stream('enduser', doomed);
    const keeper = await stream('enduser', t.enduserA);
    try {
      const sessions = (await p().api('GET', '/visitor/sessions', { token: doomed })).body.data as Array<{ id: number; current: boolean }>;
      const current = sessions.find((x) => x.current)!;
      const started = Date.now();
      const r = await p().api('GET', `/visitor/sessions/destroy/${current.id}`, { token: t.enduserA });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      await s.next((e) => e.event === 'ended', 3000);
      await s.ended;
      expect(Date.now() - started).toBeLessThan(2000);
      await pause(100);
      expect(keeper.events.filter((e) => e.event === 'ended')).toEqual([]);
      // Signing out ends that session's stream the same way.
      const other = await p().login(DEMO.enduser);
      const s2 = await stream('enduser', other);
      expect((await p().api('GET', '/visitor/logout', { token: other })).status).toBe(200);
      await s2.next((e) => e.event === 'ended', 3000);
      await s2.ended;
    } finally {
      s.close();
      keeper.close();
    }
  });

  it('crosses processes: a second app on the same database publishes, the first one’s stream receives (PostgreSQL)', async () => {
    if (p().dialect !== 'postgres') return;
    const db2 = await openDb({ databaseUrl: p().config.databaseUrl, dataDir: p().config.dataDir, poolSize: 2 });
    const app2: FastifyInstance = await buildApp({ config: p().config, db: db2 });
    const s = await stream('enduser', t.enduserA);
    try {
      const r = await app2.inject({
        method: 'POST',
        url: '/api/v1/company/chats/sendChatMessage',
        headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${t.carrierA}` },
        payload: { chat_id: chatA, message: 'da un altro processo' },
      });
      expect(r.statusCode, r.body).toBe(200);
      const got = await s.next((e) => (e.data as { message_id?: number }).message_id === Number(r.json().data.id));
      expect(got.data).toMatchObject({ chat_id: chatA });
      // A session ended through the second process closes the first one's stream.
      const doomed = await p().login(DEMO.enduser);
      const s2 = await stream('enduser', doomed);
      const out = await app2.inject({
        method: 'GET',
        url: '/api/v1/visitor/logout',
        headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${doomed}` },
      });
      expect(out.statusCode).toBe(200);
      await s2.next((e) => e.event === 'ended', 3000);
    } finally {
      s.close();
      await app2.close();
      await db2.destroy();
    }
  });
});
