import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { API_PASSWORD, describeEachDb, inOneWindow } from './helpers.js';
import { createWorld, handShipment, multipart, type World } from './requestsFixtures.js';
import { pdfText } from './pdfText.js';
import { trackingPath } from '../../model/tracking.js';

const STATUS_URL = '/company/transport_requests/updateTransportRequestStatus';
const NOT_FOUND = {
  it: 'Nessuna spedizione corrisponde a questo numero di richiesta e CAP di destinazione. Controlla entrambi e riprova.',
  en: 'No shipment matches this request number and destination postal code. Check both and try again.',
  fr: 'Aucun envoi ne correspond à ce numéro de demande et à ce code postal de destination. Vérifiez les deux et réessayez.',
};
/** Small limits, so the throttle is reached in a few calls. */
const TRACK = { ratePerMinute: 30, missLimit: 5, missWindowMinutes: 15 };

/**
 * Public tracking (issue 22 item 5, docs/tracking.md): GET /visitor/track answers the status and the
 * timeline's dates and events for a request number with its destination postal code, nothing else; a
 * wrong pair is one 404 whichever half was wrong, counted per address (429 past the limit, shared by
 * server processes), and every call is rate-limited per address.
 */
describeEachDb(
  'public tracking',
  (p) => {
    let w: World;
    let second: FastifyInstance;
    beforeAll(async () => {
      w = await createWorld(p());
      // A second server process on the same database.
      second = await buildApp({ config: p().config, db: p().db });
      await second.ready();
    });
    afterAll(async () => {
      await second?.close();
    });

    let addr = 0;
    /** A fresh client address (the test portal trusts 127.0.0.1 as its proxy). */
    const nextIp = () => `198.19.${Math.floor(++addr / 250)}.${(addr % 250) + 1}`;
    const track = async (code: string | number, postal: string, o: { ip?: string; lang?: string; app?: FastifyInstance; query?: string } = {}) => {
      const query = o.query ?? `code=${encodeURIComponent(String(code))}&postal_code=${encodeURIComponent(postal)}`;
      const res = await (o.app ?? p().app).inject({
        method: 'GET',
        url: `/api/v1/visitor/track?${query}`,
        headers: { 'x-api-password': API_PASSWORD, 'x-forwarded-for': o.ip ?? nextIp(), 'accept-language': o.lang ?? 'it' },
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers, text: res.body };
    };
    const misses = async (ip: string) =>
      Number(
        (
          await p()
            .db.db.selectFrom('throttle_events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('bucket', '=', `track:miss:${ip}`)
            .executeTakeFirstOrThrow()
        ).n,
      );

    /** A request of Rossi's to Rome (00183) with a document, re-priced and confirmed with a note. */
    const confirmed = async () => {
      const mp = await multipart({
        ...handShipment(0, { deliverylocationname: 'Cliente Segreto Roma', deliveryaddress: 'Via Nascosta 9' }),
        notes: 'Nota riservata del cliente',
        documents: [{ filename: 'fattura-riservata.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 x') }],
        doctypes: [String(w.docType)],
      });
      const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, payload: mp.payload, headers: mp.headers });
      expect(res.status).toBe(200);
      const id = res.body.data.id as number;
      const edit = await p().api('POST', '/company/transport_requests/updateRequest', {
        token: w.tokens.acme,
        body: { tr_id: id, price: '987.65', adminfee: '4.32' },
      });
      expect(edit.status).toBe(200);
      const ok = await p().api('POST', STATUS_URL, { token: w.tokens.acme, body: { id, transport_request_status_id: 3, note: 'Nota del vettore riservata' } });
      expect(ok.status).toBe(200);
      return id;
    };

    it('answers the status, the dates and events of the timeline, the route’s cities, the carrier and the expected delivery day, in the caller’s language, and nothing else', async () => {
      const id = await confirmed();
      // A lead time of 2 working days from a Friday pickup, over the 8 December holiday: Wednesday the 9th.
      await p().db.db.updateTable('transport_requests').set({ lead_time: 2 }).where('id', '=', id).execute();
      await p().db.db.updateTable('shipments').set({ pickup_date: '2026-12-04' }).where('transport_request_id', '=', id).execute();
      const res = await track(id, '00183');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const shown = await p().api('GET', `/enduser/transport_requests/show/${id}`, { token: w.tokens.rossi });
      const timeline = shown.body.data.timeline as Array<{ at: string; event: string; status_id: number }>;
      expect(timeline.map((e) => e.event)).toEqual(['created', 'document_added', 'repriced', 'status_changed']);
      expect(res.body).toEqual({
        status: true,
        data: {
          code: String(id),
          status_id: 3,
          status: 'Confermata',
          origin_city: 'Bologna',
          origin_country: 'IT',
          destination_city: 'Roma',
          destination_country: 'IT',
          carrier_name: 'Acme Trasporti S.r.l.',
          lead_time: 2,
          expected_delivery: '2026-12-09',
          delivered_at: null,
          events: timeline.map(({ at, event, status_id }) => ({ at, event, status_id })),
        },
      });
      // No key beyond these, in the answer or in any event: no prices, people's names, notes, streets.
      expect(Object.keys(res.body.data).sort()).toEqual([
        'carrier_name',
        'code',
        'delivered_at',
        'destination_city',
        'destination_country',
        'events',
        'expected_delivery',
        'lead_time',
        'origin_city',
        'origin_country',
        'status',
        'status_id',
      ]);
      for (const e of res.body.data.events) expect(Object.keys(e).sort()).toEqual(['at', 'event', 'status_id']);
      for (const key of ['price', 'cost', 'admin_fees', 'note', 'notes', 'by', 'name', 'user_name', 'address', 'email', 'timeline']) {
        expect(res.text).not.toMatch(new RegExp(`"${key}"`));
      }
      // The places' names and streets, the end user's company, the people's names (the requester's and the carrier's users').
      const people = await p()
        .db.db.selectFrom('users')
        .select(['first_name', 'last_name'])
        .where('email', 'in', ['enduser@portal.demo', 'carrier@portal.demo'])
        .execute();
      const names = people.flatMap((u) => [u.first_name, u.last_name]).filter((n): n is string => !!n && n.length > 2);
      expect(names.length).toBeGreaterThan(0);
      const addresses = await p()
        .db.db.selectFrom('shipment_addresses as sa')
        .innerJoin('shipments as s', 's.id', 'sa.shipment_id')
        .select(['sa.address', 'sa.location_name'])
        .where('s.transport_request_id', '=', id)
        .execute();
      expect(addresses.length).toBe(2);
      const streets = addresses.flatMap((a) => [a.address, a.location_name]);
      for (const secret of ['98765', '987.65', '4.32', 'Nota', 'riservat', 'Segreto', 'Nascosta', 'Magazzino', 'Rossi', 'fattura', '@', ...names, ...streets])
        expect(res.text, secret).not.toContain(secret);
      expect((await track(id, '00183', { lang: 'en' })).body.data.status).toBe('Confirmed');
      expect((await track(id, '00183', { lang: 'fr' })).body.data.status).toBe('Confirmée');
      // Without a pickup day the count starts on the day the request was made; no lead time, no expected day.
      await p().db.db.updateTable('shipments').set({ pickup_date: null }).where('transport_request_id', '=', id).execute();
      await p().db.db.updateTable('transport_requests').set({ created_on: '2026-11-27', lead_time: 1 }).where('id', '=', id).execute();
      expect((await track(id, '00183')).body.data.expected_delivery).toBe('2026-11-30');
      await p().db.db.updateTable('transport_requests').set({ lead_time: null }).where('id', '=', id).execute();
      expect((await track(id, '00183')).body.data).toMatchObject({ lead_time: null, expected_delivery: null, destination_city: 'Roma' });
      // Once cancelled, no delivery is expected.
      await p().db.db.updateTable('transport_requests').set({ lead_time: 1, transport_request_status_id: 7 }).where('id', '=', id).execute();
      expect((await track(id, '00183')).body.data).toMatchObject({ status_id: 7, lead_time: 1, expected_delivery: null });
      // The consignee's link carries exactly these two values.
      expect(trackingPath(String(id), '00183')).toBe(`/#/track?code=${id}&postal_code=00183`);
      expect(trackingPath('A/1 2', 'SW1A 1AA')).toBe('/#/track?code=A%2F1%202&postal_code=SW1A%201AA');
    });

    it('reads the number as the transport document prints it, and the postal code without spaces or case', async () => {
      const id = await confirmed();
      const pdf = await p().app.inject({
        method: 'GET',
        url: `/api/v1/enduser/transport_requests/waybill/${id}`,
        headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${w.tokens.rossi}` },
      });
      expect(pdf.statusCode).toBe(200);
      const printed = /Richiesta (n\. \d+)/.exec(pdfText(pdf.rawPayload))?.[1];
      expect(printed).toBe(`n. ${id}`);
      for (const code of [printed!, ` ${id} `, `#${id}`, `N° ${id}`, `0${id}`]) {
        const r = await track(code, '00183');
        expect(r.status, code).toBe(200);
        expect(r.body.data.code).toBe(String(id));
      }
      expect((await track(id, ' 00 183 ')).status).toBe(200);
      // A foreign postal code in any case and spacing: the delivery address's, and a quote's destination.
      const shipment = await p().db.db.selectFrom('shipments').select('id').where('transport_request_id', '=', id).executeTakeFirstOrThrow();
      await p()
        .db.db.updateTable('shipment_addresses')
        .set({ postal_code: 'SW1A 1AA' })
        .where('shipment_id', '=', shipment.id)
        .where('kind', '=', 'delivery')
        .execute();
      for (const pc of ['SW1A 1AA', 'sw1a1aa', '  sw1A 1aA ']) expect((await track(id, pc)).status, pc).toBe(200);
      expect((await track(id, '00183')).status).toBe(404);
      await p().db.db.updateTable('transport_requests').set({ destination_postal_code: '75001' }).where('id', '=', id).execute();
      expect((await track(id, '75 001')).status).toBe(200);
    });

    it('a wrong number or a wrong postal code is the same 404, in the caller’s language, and counted; a match is not counted', async () => {
      const id = await confirmed();
      const other = await confirmed();
      const ip = nextIp();
      const wrong = [
        [id + 100_000, '00183'],
        [id, '00184'],
        [id, '0018'],
        ['abc', '00183'],
        [`${id}x`, '00183'],
        ['99999999999', '00183'],
      ] as const;
      const bodies = [];
      for (const [code, pc] of wrong) {
        const r = await track(code, pc, { ip: nextIp() });
        expect(r.status, `${code} ${pc}`).toBe(404);
        bodies.push(r.body);
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect(bodies[0]).toEqual({ message: NOT_FOUND.it, errors: {} });
      for (const lang of ['en', 'fr'] as const) {
        expect((await track(id, '99999', { lang })).body.message).toBe(NOT_FOUND[lang]);
        expect((await track(id + 100_000, '00183', { lang })).body.message).toBe(NOT_FOUND[lang]);
      }
      // Counting: two misses from one address stay; matches (of this and another request) take nothing.
      await track(id, '11111', { ip });
      await track(other, '11111', { ip });
      await track(id, '00183', { ip });
      await track(other, '00183', { ip });
      expect(await misses(ip)).toBe(2);
      // Malformed queries are refused by the schema (422 per field, in the caller's language) and count no miss.
      const missing = await track('', '', { ip, query: `code=${id}` });
      expect(missing.status).toBe(422);
      expect(Object.keys(missing.body.errors)).toEqual(['postal_code']);
      const blank = await track('', '', { ip, lang: 'en', query: `code=%20%20&postal_code=00183` });
      expect(blank.status).toBe(422);
      expect(blank.body.errors.code[0]).toMatch(/code/i);
      expect((await track('', '', { ip, query: `code=${id}&postal_code=${'1'.repeat(17)}` })).status).toBe(422);
      expect((await track('', '', { ip, query: `code=${id}&postal_code=00183&price=1` })).status).toBe(200);
      expect(await misses(ip)).toBe(2);
    });

    it('past the misses an address may make, 429 with Retry-After even for a right pair, in every server process; other addresses go on', async () => {
      const id = await confirmed();
      const ip = nextIp();
      for (let i = 0; i < TRACK.missLimit; i++) expect((await track(id, `0${i}000`, { ip, app: i % 2 ? second : p().app })).status).toBe(404);
      for (const app of [p().app, second]) {
        const r = await track(id, '00183', { ip, app });
        expect(r.status).toBe(429);
        const wait = Number(r.headers['retry-after']);
        expect(wait).toBeGreaterThan(14 * 60);
        expect(wait).toBeLessThanOrEqual(15 * 60);
        expect(r.body.message).toBe('Troppi tentativi di tracciamento: riprova tra 15 minuti.');
      }
      expect((await track(id, '00183', { ip, lang: 'en' })).body.message).toBe('Too many tracking attempts: try again in 15 minutes.');
      expect((await track(id, '00183', { ip, lang: 'fr' })).body.message).toBe('Trop de tentatives de suivi : réessayez dans 15 minutes.');
      expect(await misses(ip)).toBe(TRACK.missLimit);
      expect((await track(id, '00183')).status).toBe(200);
      // The window slides: once the oldest miss is older than the window, one more try is allowed.
      await p()
        .db.db.updateTable('throttle_events')
        .set({ at: Date.now() - 16 * 60_000 })
        .where('bucket', '=', `track:miss:${ip}`)
        .where('id', '=', (eb) =>
          eb
            .selectFrom('throttle_events')
            .select((e) => e.fn.min('id').as('m'))
            .where('bucket', '=', `track:miss:${ip}`),
        )
        .execute();
      expect((await track(id, '00183', { ip })).status).toBe(200);
      expect((await track(id, '00184', { ip })).status).toBe(404);
      expect((await track(id, '00183', { ip })).status).toBe(429);
    });

    it('rate-limits every call of an address per minute, matches included (429 with Retry-After)', async () => {
      const id = await confirmed();
      await inOneWindow(async () => {
        const ip = nextIp();
        const statuses = [];
        for (let i = 0; i < TRACK.ratePerMinute; i++) statuses.push((await track(id, '00183', { ip, app: i % 2 ? second : p().app })).status);
        expect(statuses.every((s) => s === 200)).toBe(true);
        const over = await track(id, '00183', { ip, lang: 'en' });
        expect(over.status).toBe(429);
        expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(over.body.message).toBe('Too many tracking attempts: try again in 1 minute.');
        expect((await track(id, '00183')).status).toBe(200);
      });
    });

    it('is in the OpenAPI document without sign-in, with its query and answer', async () => {
      const doc = (await p().app.inject({ method: 'GET', url: '/api/docs' })).json();
      const op = doc.paths['/api/v1/visitor/track'].get;
      expect(op.parameters.map((x: { name: string; required: boolean }) => [x.name, x.required])).toEqual([
        ['code', true],
        ['postal_code', true],
      ]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404', '422', '429']));
      expect(op.responses['200'].content['application/json'].schema.properties.data.required).toEqual([
        'code',
        'status_id',
        'status',
        'origin_city',
        'origin_country',
        'destination_city',
        'destination_country',
        'carrier_name',
        'lead_time',
        'expected_delivery',
        'delivered_at',
        'events',
      ]);
    });
  },
  { track: TRACK },
);
