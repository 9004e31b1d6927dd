import fs from 'node:fs';
import path from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordEvents } from '../../server/lib/requestEvents/record.js';
import { isBlockedAddress } from '../../server/lib/webhooks/addresses.js';
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_EVENTS } from '../../model/webhooks.js';
import { describeEachDb, type TestPortal } from './helpers.js';
import { createWorld, handShipment, insertRequest, shipmentLists, type World } from './requestsFixtures.js';
import { startReceiver } from './webhookReceiver.js';

// CommonJS seen through ESM: the class may sit on `.default`.
const Ajv2020 = (Ajv2020Module as unknown as { default?: typeof Ajv2020Module }).default ?? Ajv2020Module;

/** Issue 23 items 2-4: signed webhooks, retries, order, give-up, SSRF (docs/webhooks.md). */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const EVENTS = ['transport_request.created', 'transport_request.status_changed'];

async function addEndpoint(p: TestPortal, token: string, ns: string, url: string, events = EVENTS, lang = 'it') {
  const r = await p.api('POST', `/${ns}/webhooks/store`, { token, lang, body: { url, events } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.data.id as number, secret: r.body.data.secret as string };
}
const deliveriesOf = (p: TestPortal, endpointId: number) =>
  p.db.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id').execute();
const setStatus = (p: TestPortal, token: string, id: number, to: number, note?: string) =>
  p.api('POST', '/company/transport_requests/updateTransportRequestStatus', {
    token,
    body: { id, transport_request_status_id: to, ...(note ? { note } : {}) },
  });

describeEachDb(
  'webhooks',
  (p) => {
    let w: World;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    /** What the receiver answers next, by event id: a queue of statuses, 204 once empty. */
    const plan = new Map<string, number[]>();
    const acme: { id: number; secret: string }[] = [];
    const rossi: { id: number; secret: string }[] = [];

    beforeAll(async () => {
      w = await createWorld(p());
      receiver = await startReceiver((_n, r) => plan.get(r.json.id)?.shift() ?? 204);
      acme.push(await addEndpoint(p(), w.tokens.acme, 'company', receiver.url));
      rossi.push(await addEndpoint(p(), w.tokens.rossi, 'enduser', `${receiver.url}?who=rossi`, ['transport_request.created'], 'en'));
    });
    afterAll(async () => receiver?.close());

    it('answers the secret once (whsec_), lists endpoints without it, refuses bad input in the caller’s language', async () => {
      expect(acme[0].secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      const list = await p().api('GET', '/company/webhooks', { token: w.tokens.acme });
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toContain(acme[0].secret.slice(6));
      expect(list.body.data).toEqual([expect.objectContaining({ id: acme[0].id, url: receiver.url, events: EVENTS, status: 'active', failing_since: null })]);
      const before = await p().db.db.selectFrom('webhook_endpoints').select('id').execute();
      const bad = await p().api('POST', '/company/webhooks/store', { token: w.tokens.acme, body: { url: 'ftp://example.com/x', events: EVENTS } });
      expect([bad.status, bad.body.errors.url]).toEqual([422, ['L’indirizzo deve essere un URL http(s) completo, senza nome utente né password.']]);
      const fr = await p().api('POST', '/company/webhooks/store', {
        token: w.tokens.acme,
        lang: 'fr',
        body: { url: 'https://user:pw@example.com/', events: EVENTS },
      });
      expect(fr.body.errors.url).toEqual(['L’adresse doit être une URL http(s) complète, sans nom d’utilisateur ni mot de passe.']);
      const noEvents = await p().api('POST', '/company/webhooks/store', { token: w.tokens.acme, body: { url: receiver.url, events: [] } });
      expect(noEvents.status).toBe(422);
      const unknown = await p().api('POST', '/company/webhooks/store', {
        token: w.tokens.acme,
        body: { url: receiver.url, events: ['transport_request.deleted'] },
      });
      expect(unknown.status).toBe(422);
      expect(await p().db.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual(before);
      // the audit entry names the URL, never the secret
      const audit = await p().db.db.selectFrom('audit_log').selectAll().where('resource', '=', 'webhook_endpoints').execute();
      expect(audit.map((a) => a.action)).toEqual(['create', 'create']);
      expect(JSON.stringify(audit)).not.toContain(acme[0].secret.slice(6));
    });

    it('a booking: each company gets the request as its own show route answers it, signed (verified with the package)', async () => {
      const r = await p().api('POST', '/enduser/transport_requests/newRequest', {
        token: w.tokens.rossi,
        body: { ...shipmentLists([handShipment(0)]), notes: 'Webhook' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const id = r.body.data.id as number;
      // written with the change: pending before any worker ran
      expect((await deliveriesOf(p(), acme[0].id)).map((d) => [d.event_type, d.transport_request_id, d.delivered_at])).toEqual([
        ['transport_request.created', id, null],
      ]);
      expect(await p().app.webhooks.drain()).toBe(2);
      expect(receiver.received).toHaveLength(2);
      for (const [ns, ep, token, lang] of [
        ['company', acme[0], w.tokens.acme, 'it'],
        ['enduser', rossi[0], w.tokens.rossi, 'en'],
      ] as const) {
        const msgs = receiver.received.filter((m) => {
          try {
            new Webhook(ep.secret).verify(m.body, m.headers as Record<string, string>);
            return true;
          } catch {
            return false;
          }
        });
        expect(msgs, ns).toHaveLength(1); // each message verifies with its own endpoint's secret only
        const m = msgs[0];
        expect(m.headers['webhook-id']).toBe(m.json.id);
        expect(m.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
        expect(m.json.type).toBe('transport_request.created');
        const show = await p().api('GET', `/${ns}/transport_requests/show/${id}`, { token, lang });
        expect(m.json.data).toEqual(show.body.data);
      }
      // a tampered body does not verify
      expect(() =>
        new Webhook(acme[0].secret).verify(receiver.received[0].body.replace('Webhook', 'Altered'), receiver.received[0].headers as Record<string, string>),
      ).toThrow();
      const list = await p().api('GET', `/company/webhooks/${acme[0].id}/deliveries`, { token: w.tokens.acme });
      expect(list.body).toMatchObject({ current_page: 1, per_page: 20, last_page: 1, total: 1 });
      expect(list.body.data[0]).toMatchObject({
        event_type: 'transport_request.created',
        transport_request_id: id,
        state: 'delivered',
        attempts: 1,
        last_status_code: 204,
      });
      expect(list.body.data[0].last_duration_ms).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(list.body)).not.toContain('"payload"');
    });

    it('delivers messages the document describes: each body valid against its `webhooks` entry (closed), its headers declared (issue 33)', async () => {
      receiver.received.length = 0;
      const doc = (await p().api('GET', '/api/docs')).body;
      expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
      // The document is OpenAPI 3.1: its schemas are JSON Schema 2020-12.
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      const validators = Object.fromEntries(
        WEBHOOK_EVENTS.map((type) => [type, ajv.compile(doc.webhooks[type].post.requestBody.content['application/json'].schema)]),
      );
      const r = await p().api('POST', '/enduser/transport_requests/newRequest', {
        token: w.tokens.rossi,
        body: { ...shipmentLists([handShipment(0)]), notes: 'Described' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(
        (
          await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
            token: w.tokens.admin,
            body: { id: r.body.data.id, transport_request_status_id: 7, note: 'Annullata' },
          })
        ).status,
      ).toBe(200);
      await p().app.webhooks.drain();
      // created: acme and rossi; status_changed: acme only
      expect(receiver.received.map((m) => m.json.type).sort()).toEqual([
        'transport_request.created',
        'transport_request.created',
        'transport_request.status_changed',
      ]);
      for (const m of receiver.received) {
        const validate = validators[m.json.type];
        expect(validate(m.json), `${m.json.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
        const declared = (doc.webhooks[m.json.type].post.parameters as Array<{ name: string; in: string; required: boolean }>).filter((x) => x.in === 'header');
        for (const h of declared) expect(m.headers[h.name], h.name).toBeTruthy();
        expect(declared.map((h) => h.name).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
      }
      // closed at every level: an undeclared property fails, in the message, the request and a nested object
      const m = receiver.received.find((x) => x.json.type === 'transport_request.status_changed')!;
      const validate = validators[m.json.type];
      const body = JSON.parse(m.body);
      expect(validate({ ...body, extra: 1 })).toBe(false);
      expect(validate({ ...body, data: { ...body.data, extra: 1 } })).toBe(false);
      const nested = structuredClone(body);
      nested.data.shipment[0].shipment_addess_pick_up.country.extra = 1;
      expect(validate(nested)).toBe(false);
      // and the event's type is fixed per entry
      expect(validators['transport_request.created'](body)).toBe(false);
    });

    it('retries a receiver that fails twice, then succeeds; in order per request: a later event waits', async () => {
      receiver.received.length = 0;
      const id = await insertRequest(p(), {
        carrier_id: w.acme,
        enduser_company_id: w.rossi,
        cost: 10000,
        admin_fees: 0,
        created_at: new Date().toISOString(),
      });
      expect((await setStatus(p(), w.tokens.admin, id, 3)).status).toBe(200);
      expect((await setStatus(p(), w.tokens.admin, id, 5)).status).toBe(200);
      expect((await setStatus(p(), w.tokens.admin, id, 6)).status).toBe(200);
      const rows = await deliveriesOf(p(), acme[0].id);
      const mine = rows.filter((d) => d.transport_request_id === id);
      expect(mine).toHaveLength(3); // rossi's endpoint does not listen to status changes
      plan.set(mine[0].event_id, [500, 503]);
      await p().app.webhooks.runOnce();
      expect(receiver.received.map((m) => m.json.id)).toEqual([mine[0].event_id]); // the second waits for the first
      for (let i = 0; i < 50 && receiver.received.length < 5; i++) {
        await sleep(30);
        await p().app.webhooks.drain();
      }
      const order = receiver.received.map((m) => [m.json.id, m.json.data.transport_request_status_id]);
      expect(order).toEqual([
        [mine[0].event_id, 3],
        [mine[0].event_id, 3],
        [mine[0].event_id, 3],
        [mine[1].event_id, 5],
        [mine[2].event_id, 6],
      ]);
      const first = (await deliveriesOf(p(), acme[0].id)).find((d) => d.id === mine[0].id)!;
      expect([first.attempts, first.last_status_code, first.last_error, !!first.delivered_at]).toEqual([3, 204, null, true]);
      // the same message id and signature scheme on every attempt
      for (const m of receiver.received.slice(0, 3))
        expect(() => new Webhook(acme[0].secret).verify(m.body, m.headers as Record<string, string>)).not.toThrow();
    });

    it('gives up after the window: the endpoint is failing and its company mailed; Resend sends it again', async () => {
      const cfg = p().app.config;
      const window = cfg.webhookWindowMs;
      cfg.webhookWindowMs = 150;
      try {
        receiver.received.length = 0;
        const id = await insertRequest(p(), {
          carrier_id: w.acme,
          enduser_company_id: w.rossi,
          cost: 10000,
          admin_fees: 0,
          created_at: new Date().toISOString(),
        });
        expect((await setStatus(p(), w.tokens.acme, id, 3)).status).toBe(200);
        const [d] = (await deliveriesOf(p(), acme[0].id)).filter((x) => x.transport_request_id === id);
        plan.set(d.event_id, Array(100).fill(500));
        for (let i = 0; i < 40; i++) {
          await p().app.webhooks.drain();
          const now = (await deliveriesOf(p(), acme[0].id)).find((x) => x.id === d.id)!;
          if (now.gave_up_at) break;
          await sleep(30);
        }
        const after = (await deliveriesOf(p(), acme[0].id)).find((x) => x.id === d.id)!;
        expect(after.gave_up_at).not.toBeNull();
        expect(after.last_status_code).toBe(500);
        expect(after.attempts).toBeGreaterThan(1);
        const ep = await p().db.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', acme[0].id).executeTakeFirstOrThrow();
        expect(ep.status).toBe('failing');
        const outbox = path.join(p().config.dataDir, 'outbox');
        const mails = fs.readdirSync(outbox).map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), 'utf8')));
        const told = mails.filter((m) => m.subject.includes(receiver.url));
        expect(told.map((m) => m.to)).toContain('carrier@portal.demo');
        expect(told[0].subject).toBe(`Webhook in errore: le consegne a ${receiver.url} sono sospese`);
        // the text names the configured window (150 ms here, read as a minute), not the default's 24 hours
        expect(told[0].text).toContain(`al vostro webhook ${receiver.url} per 1 minuto e ha smesso di riprovare`);
        expect(told[0].text).not.toContain('24 ore');

        // Resend: 409 while pending elsewhere, another company's endpoint is 404, then a new delivery with the same message
        const other = await p().api('POST', `/company/webhooks/${acme[0].id}/deliveries/${d.id}/resend`, { token: w.tokens.beta });
        expect(other.status).toBe(404);
        plan.delete(d.event_id);
        const again = await p().api('POST', `/company/webhooks/${acme[0].id}/deliveries/${d.id}/resend`, { token: w.tokens.acme });
        expect(again.status, JSON.stringify(again.body)).toBe(200);
        expect(again.body.data).toMatchObject({ event_id: d.event_id, state: 'pending', attempts: 0 });
        const pending = await p().api('POST', `/company/webhooks/${acme[0].id}/deliveries/${again.body.data.id}/resend`, { token: w.tokens.acme, lang: 'en' });
        expect([pending.status, pending.body.message]).toEqual([409, 'This delivery is still waiting to be sent: it cannot be resent yet.']);
        await p().app.webhooks.drain();
        expect(receiver.received.at(-1)!.json.id).toBe(d.event_id);
        const back = await p().db.db.selectFrom('webhook_endpoints').select('status').where('id', '=', acme[0].id).executeTakeFirstOrThrow();
        expect(back.status).toBe('active'); // a success sets the endpoint active again
      } finally {
        cfg.webhookWindowMs = window;
      }
    });

    it('keeps finished deliveries WEBHOOK_KEEP_DAYS days, pending ones always', async () => {
      const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
      const row = (over: Record<string, string | null>) => ({
        endpoint_id: acme[0].id,
        event_id: `msg_old${Object.keys(over).join('')}`,
        event_type: 'transport_request.status_changed',
        transport_request_id: 1,
        ordering_key: 'tr:999999',
        payload: '{}',
        created_at: old,
        ...over,
      });
      await p()
        .db.db.insertInto('webhook_deliveries')
        .values([row({ delivered_at: old }), row({ gave_up_at: old }), row({ next_attempt_at: '9999-01-01T00:00:00.000Z' })])
        .execute();
      expect(await p().app.webhooks.purge()).toBe(2);
      const left = await p().db.db.selectFrom('webhook_deliveries').select('event_id').where('created_at', '=', old).execute();
      expect(left.map((r) => r.event_id)).toEqual(['msg_oldnext_attempt_at']);
      await p().db.db.deleteFrom('webhook_deliveries').where('created_at', '=', old).execute();
    });

    it('is described in /api/docs: every route, the message and its signature; no API key scope opens them', async () => {
      const doc = (await p().api('GET', '/api/docs')).body;
      for (const ns of ['company', 'enduser']) {
        for (const [path, method] of [
          ['webhooks', 'get'],
          ['webhooks/store', 'post'],
          ['webhooks/destroy/{id}', 'get'],
          ['webhooks/{id}/deliveries', 'get'],
          ['webhooks/{id}/deliveries/{deliveryId}/resend', 'post'],
        ]) {
          const op = doc.paths[`/api/v1/${ns}/${path}`]?.[method];
          expect(op?.summary, `${ns}/${path}`).toBeTruthy();
          expect(op['x-api-key-scopes'], `${ns}/${path}`).toBeUndefined();
        }
      }
      expect(doc.paths['/api/v1/company/webhooks/store'].post.description).toContain('`webhook-signature`');
    });

    it('writes nothing for a rolled-back change', async () => {
      const id = await insertRequest(p(), {
        carrier_id: w.acme,
        enduser_company_id: w.rossi,
        cost: 10000,
        admin_fees: 0,
        created_at: new Date().toISOString(),
      });
      await expect(
        p()
          .db.db.transaction()
          .execute(async (trx) => {
            await recordEvents(trx, id, { user_id: null, name: 'x', role: 'admin' }, [{ event: 'status_changed', status_id: 3 }]);
            expect((await trx.selectFrom('webhook_deliveries').select('id').where('transport_request_id', '=', id).execute()).length).toBe(1);
            throw new Error('rolled back');
          }),
      ).rejects.toThrow('rolled back');
      expect(await p().db.db.selectFrom('webhook_deliveries').select('id').where('transport_request_id', '=', id).execute()).toEqual([]);
    });

    it('connects to the address it checked (the host name is resolved once, by the check)', async () => {
      receiver.received.length = 0;
      const ep = await addEndpoint(p(), w.tokens.beta, 'company', `http://127.0.0.1:${receiver.port}/beta`, ['transport_request.status_changed']);
      await p()
        .db.db.updateTable('webhook_endpoints')
        .set({ url: `http://receiver.invalid:${receiver.port}/beta` })
        .where('id', '=', ep.id)
        .execute();
      const asked: string[] = [];
      p().app.webhooks.setLookup(async (host) => (asked.push(host), [{ address: '127.0.0.1', family: 4 }]));
      try {
        const id = await insertRequest(p(), {
          carrier_id: w.beta,
          enduser_company_id: w.bianchi,
          cost: 100,
          admin_fees: 0,
          created_at: new Date().toISOString(),
        });
        expect((await setStatus(p(), w.tokens.beta, id, 3)).status).toBe(200);
        await p().app.webhooks.drain();
        expect(asked).toEqual(['receiver.invalid']);
        expect(receiver.received.map((m) => m.headers.host)).toEqual([`receiver.invalid:${receiver.port}`]);
      } finally {
        p().app.webhooks.setLookup(undefined);
      }
      // tenancy: another company's endpoint is 404 for list, deliveries and delete
      for (const url of [`/company/webhooks/${ep.id}/deliveries`, `/company/webhooks/destroy/${ep.id}`]) {
        expect((await p().api('GET', url, { token: w.tokens.acme })).status, url).toBe(404);
      }
      const del = await p().api('GET', `/company/webhooks/destroy/${ep.id}`, { token: w.tokens.beta });
      expect(del.status).toBe(200);
      expect(await deliveriesOf(p(), ep.id)).toEqual([]);
    });
  },
  { webhookBackoffMs: 20, webhookTimeoutMs: 2000 },
);

describeEachDb(
  'webhooks in production: SSRF refusals',
  (p) => {
    let w: World;
    beforeAll(async () => {
      w = await createWorld(p());
    });

    it('refuses http, private, loopback, link-local, CGNAT and metadata addresses when storing', async () => {
      const cases: Array<[string, string]> = [
        ['http://hooks.example.com/x', 'L’indirizzo deve iniziare con https://.'],
        ['https://127.0.0.1/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://localhost/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://10.1.2.3/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://172.20.0.1/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://192.168.1.1/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://169.254.169.254/latest/meta-data', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://100.64.0.1/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://0.0.0.0/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://[::1]/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://[fd00:ec2::254]/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://[fe80::1]/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
        ['https://[::ffff:10.0.0.1]/x', 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.'],
      ];
      for (const [url, message] of cases) {
        const r = await p().api('POST', '/enduser/webhooks/store', { token: w.tokens.rossi, body: { url, events: EVENTS } });
        expect([r.status, r.body.errors?.url], url).toEqual([422, [message]]);
      }
      const en = await p().api('POST', '/enduser/webhooks/store', { token: w.tokens.rossi, lang: 'en', body: { url: 'https://10.0.0.1/', events: EVENTS } });
      expect(en.body.errors.url).toEqual(['The address points to a private, local or reserved network: use a public address.']);
      expect(await p().db.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual([]);
      for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111']) expect(isBlockedAddress(a), a).toBe(false);
      for (const a of ['::ffff:7f00:1', '64:ff9b::a00:1', 'fc00::1', '224.0.0.1']) expect(isBlockedAddress(a), a).toBe(true);
    });

    it('refuses IPv6 forms carrying an IPv4 address, site-local and the documentation and benchmarking ranges (issue 31)', async () => {
      // the whole table is server/lib/webhooks/addresses.test.ts; here each kind through the route, as literal hosts
      for (const host of [
        '[::ffff:8.8.8.8]',
        '[::ffff:a00:1]',
        '[::8.8.8.8]',
        '[64:ff9b::808:808]',
        '[64:ff9b:1::a00:1]',
        '[2002:808:808::1]',
        '[fec0::1]',
        '[2001:db8::1]',
        '192.0.2.10',
        '198.51.100.10',
        '203.0.113.10',
        '198.18.0.10',
      ]) {
        const r = await p().api('POST', '/company/webhooks/store', { token: w.tokens.beta, lang: 'fr', body: { url: `https://${host}/hook`, events: EVENTS } });
        expect([r.status, r.body.errors?.url], host).toEqual([422, ['L’adresse mène à un réseau privé, local ou réservé : utilisez une adresse publique.']]);
      }
      expect(await p().db.db.selectFrom('webhook_endpoints').select('id').where('company_id', '=', w.beta).execute()).toEqual([]);
    });

    it('checks again at delivery time: a host that now resolves to a private address is not contacted', async () => {
      const receiver = await startReceiver();
      try {
        // stored while it resolved publicly; now it resolves to the receiver on loopback (DNS rebinding)
        const { id: ep } = await p()
          .db.db.insertInto('webhook_endpoints')
          .values({
            company_id: w.rossi,
            url: `https://rebind.example.com:${receiver.port}/x`,
            events: EVENTS.join(','),
            secret: 'whsec_' + Buffer.alloc(24, 1).toString('base64'),
            lang: 'it',
            status: 'active',
            created_by: null,
            created_by_name: 'test',
            created_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        p().app.webhooks.setLookup(async () => [{ address: '127.0.0.1', family: 4 }]);
        const r = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, body: { ...shipmentLists([handShipment(0)]) } });
        expect(r.status).toBe(200);
        await p().app.webhooks.runOnce();
        expect(receiver.received).toEqual([]);
        const [d] = await deliveriesOf(p(), Number(ep));
        expect([d.attempts, d.last_status_code, d.last_error, d.delivered_at]).toEqual([1, null, 'refused: privateAddress', null]);
      } finally {
        p().app.webhooks.setLookup(undefined);
        await receiver.close();
      }
    });
  },
  { production: true },
);

describeEachDb('webhooks: at most WEBHOOK_ENDPOINTS_MAX endpoints per company (issue 31)', (p) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(p());
  });

  it('answers 409 with the limit past 10 endpoints, stores nothing more, and takes one again after a delete', async () => {
    expect(WEBHOOK_ENDPOINTS_MAX).toBe(10);
    // loopback addresses where nothing listens: no event of this company is created, nothing is sent
    const ids: number[] = [];
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) ids.push((await addEndpoint(p(), w.tokens.bianchi, 'enduser', `http://127.0.0.1:9/hook-${i}`)).id);
    const count = async () => (await p().db.db.selectFrom('webhook_endpoints').select('id').where('company_id', '=', w.bianchi).execute()).length;
    const messages = {
      it: 'La tua azienda ha già 10 webhook, il massimo consentito: eliminane uno prima di aggiungerne un altro.',
      en: 'Your company already has 10 webhooks, the most allowed: delete one before adding another.',
      fr: 'Votre entreprise a déjà 10 webhooks, le maximum autorisé : supprimez-en un avant d’en ajouter un autre.',
    };
    for (const [lang, message] of Object.entries(messages)) {
      const r = await p().api('POST', '/enduser/webhooks/store', {
        token: w.tokens.bianchi,
        lang,
        body: { url: 'http://127.0.0.1:9/one-more', events: EVENTS },
      });
      expect([r.status, r.body.message]).toEqual([409, message]);
    }
    expect(await count()).toBe(WEBHOOK_ENDPOINTS_MAX);
    // another company is not counted against this one
    await addEndpoint(p(), w.tokens.beta, 'company', 'http://127.0.0.1:9/beta');
    // stores at once: never more than the limit
    await p().api('GET', `/enduser/webhooks/destroy/${ids[0]}`, { token: w.tokens.bianchi });
    const racing = await Promise.all(
      [1, 2, 3].map((i) =>
        p().api('POST', '/enduser/webhooks/store', { token: w.tokens.bianchi, body: { url: `http://127.0.0.1:9/race-${i}`, events: EVENTS } }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await count()).toBe(WEBHOOK_ENDPOINTS_MAX);
  });
});
