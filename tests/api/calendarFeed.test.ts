import { beforeAll, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { hashToken } from '../../server/lib/tokens.js';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { romeInstant } from '../../server/lib/romeTime.js';
import { describeEachDb } from './helpers.js';
import { createWorld, insertRequest, PASSWORD, type World } from './requestsFixtures.js';

/** Issue 36 item 4: a company's private iCalendar feed (docs/calendar-feed.md). */
describeEachDb('Calendar feed', (p) => {
  let w: World;
  let acmeUserToken: string;
  const ids: Record<string, number> = {};
  const shipments: Record<string, number> = {};
  const today = romeDate();
  const pickupDay = addDays(today, 3);
  const deliveryDay = addDays(today, 5);

  /** A shipment with its two addresses, straight into the tables (the feed only reads them). */
  async function shipment(requestId: number, over: Record<string, string | null> = {}) {
    const db = p().db.db;
    const { id } = await db
      .insertInto('shipments')
      .values({
        transport_request_id: requestId,
        position: 1,
        transport_request_type_id: 2,
        transport_class: 'STANDARD',
        shipper_reference: `SR-${requestId}`,
        consignee_reference: `CR-${requestId}`,
        consignee_email: null,
        adr: 0,
        tail_lift: 0,
        pickup_date: pickupDay,
        pickup_time_from: '08:30',
        pickup_time_to: '12:30',
        pickup_notes: 'Citofonare al magazzino',
        delivery_date: deliveryDay,
        delivery_time_from: null,
        delivery_time_to: null,
        delivery_notes: null,
        ...over,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const address = (kind: 'pickup' | 'delivery', city: string, postal_code: string) => ({
      shipment_id: Number(id),
      kind,
      location_name: kind === 'pickup' ? 'Magazzino Nord' : 'Negozio Centro',
      address: kind === 'pickup' ? 'Via Emilia 10' : 'Via Roma 1',
      postal_code,
      city,
      province: kind === 'pickup' ? 'BO' : 'MI',
      country_id: w.it,
    });
    await db
      .insertInto('shipment_addresses')
      .values([address('pickup', 'Bologna', '40121'), address('delivery', 'Milano', '20121')])
      .execute();
    return Number(id);
  }

  const feedPath = (url: string) => new URL(url).pathname;
  /** The feed as a calendar app fetches it: no API password, no token, nothing but the URL. */
  const fetchFeed = (url: string, headers: Record<string, string> = {}) => p().app.inject({ method: 'GET', url: feedPath(url), headers });
  const events = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
  const byUid = (text: string, uid: string) => events(text).find((e) => e.getFirstPropertyValue('uid') === uid);

  beforeAll(async () => {
    w = await createWorld(p());
    const at = new Date().toISOString();
    ids.rossi = await insertRequest(p(), { carrier_id: w.acme, enduser_company_id: w.rossi, status: 3, cost: 10000, admin_fees: 500, created_at: at });
    ids.bianchi = await insertRequest(p(), { carrier_id: w.beta, enduser_company_id: w.bianchi, status: 1, cost: 10000, admin_fees: 500, created_at: at });
    ids.cancelled = await insertRequest(p(), { carrier_id: w.acme, enduser_company_id: w.rossi, status: 7, cost: 10000, admin_fees: 500, created_at: at });
    ids.old = await insertRequest(p(), { carrier_id: w.acme, enduser_company_id: w.rossi, status: 6, cost: 10000, admin_fees: 500, created_at: at });
    shipments.rossi = await shipment(ids.rossi);
    shipments.bianchi = await shipment(ids.bianchi);
    shipments.cancelled = await shipment(ids.cancelled);
    shipments.old = await shipment(ids.old, { pickup_date: addDays(today, -200), delivery_date: addDays(today, -199) });
    // a Carrier Users account of Acme: sees the state, manages nothing
    const db = p().db.db;
    const { password_hash } = await db.selectFrom('users').select('password_hash').where('email', '=', 'owner@beta.test').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db
      .insertInto('users')
      .values({
        role_id: 5,
        company_id: w.acme,
        first_name: 'Luca',
        last_name: 'Operatore',
        email: 'luca@acme.test',
        password_hash,
        status_id: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    acmeUserToken = await p().login('luca@acme.test', PASSWORD);
  });

  it('is off until the main account turns it on; the address is answered once, only its hash is stored', async () => {
    const before = await p().api('GET', '/company/calendar_feed', { token: w.tokens.acme });
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ enabled: false, created_at: null, can_manage: true, days_back: 60, days_ahead: 180 });
    const on = await p().api('POST', '/company/calendar_feed/enable', { token: w.tokens.acme, lang: 'it' });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.message).toBe('Calendario attivato: copia ora l’indirizzo, non verrà più mostrato.');
    const url: string = on.body.data.url;
    expect(url).toMatch(/^http:\/\/localhost:\d+\/ical\/[A-Za-z0-9_-]{43}\.ics$/);
    const token = /\/ical\/(.+)\.ics$/.exec(url)![1];
    const row = await p().db.db.selectFrom('calendar_feeds').selectAll().where('company_id', '=', w.acme).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const after = await p().api('GET', '/company/calendar_feed', { token: w.tokens.acme });
    expect(after.body.data).toMatchObject({ enabled: true, created_by_name: expect.any(String), last_fetched_at: null });
    expect(JSON.stringify(after.body)).not.toContain(token);
    // a second enable makes nothing: 409 in the caller's language
    const again = await p().api('POST', '/company/calendar_feed/enable', { token: w.tokens.acme, lang: 'en' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The calendar feed is already on: make a new address to see one.');
    const audit = await p().db.db.selectFrom('audit_log').selectAll().where('resource', '=', 'calendar_feeds').where('resource_id', '=', w.acme).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
    expect(JSON.stringify(audit)).not.toContain(token);
    await p().api('POST', '/company/calendar_feed/disable', { token: w.tokens.acme });
  });

  it('serves the carrier’s pickups and deliveries without any header, as RFC 5545 a parser reads', async () => {
    const on = await p().api('POST', '/company/calendar_feed/enable', { token: w.tokens.acme });
    const url: string = on.body.data.url;
    const r = await fetchFeed(url);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(r.headers['cache-control']).toBe('private, max-age=300');
    expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const cal = new ICAL.Component(ICAL.parse(r.body));
    expect(cal.name).toBe('vcalendar');
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
    expect(cal.getFirstPropertyValue('prodid')).toBeTruthy();
    expect(r.body.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    const host = new URL(url).hostname;
    const pickup = byUid(r.body, `pickup-${shipments.rossi}@${host}`)!;
    expect(pickup, r.body).toBeTruthy();
    // 08:30–12:30 Rome time, written as UTC instants
    expect(pickup.getFirstPropertyValue('dtstart')!.toString()).toBe(romeInstant(pickupDay, '08:30').toISOString().replace('.000Z', 'Z'));
    expect(pickup.getFirstPropertyValue('dtend')!.toString()).toBe(romeInstant(pickupDay, '12:30').toISOString().replace('.000Z', 'Z'));
    expect(pickup.getFirstPropertyValue('location')).toBe('Magazzino Nord, Via Emilia 10, 40121 Bologna (BO), IT');
    expect(pickup.getFirstPropertyValue('summary')).toBe(`Ritiro #${ids.rossi} · Bologna → Milano · Rossi Logistica S.r.l.`);
    const description = String(pickup.getFirstPropertyValue('description'));
    expect(description).toContain(`Richiesta #${ids.rossi} (Confermata)`);
    expect(description).toContain('Cliente: Rossi Logistica S.r.l.');
    expect(description).toContain('Note: Citofonare al magazzino');
    expect(pickup.getFirstPropertyValue('url')).toBe(`${p().config.publicUrl}/#/transport-requests-visuals/${ids.rossi}/1`);
    expect(pickup.getFirstPropertyValue('status')).toBe('CONFIRMED');

    // the delivery has a date and no time: an all-day event
    const delivery = byUid(r.body, `delivery-${shipments.rossi}@${host}`)!;
    const start = delivery.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.isDate).toBe(true);
    expect(start.toString()).toBe(deliveryDay);
    expect((delivery.getFirstPropertyValue('dtend') as ICAL.Time).toString()).toBe(addDays(deliveryDay, 1));
    expect(delivery.getFirstPropertyValue('location')).toBe('Negozio Centro, Via Roma 1, 20121 Milano (MI), IT');

    // another carrier's request, a cancelled one and one outside the window are not there
    const uids = events(r.body).map((e) => String(e.getFirstPropertyValue('uid')));
    expect(uids.sort()).toEqual([`delivery-${shipments.rossi}@${host}`, `pickup-${shipments.rossi}@${host}`].sort());

    // unchanged: 304 on the ETag
    const cached = await fetchFeed(url, { 'if-none-match': r.headers.etag as string });
    expect(cached.statusCode).toBe(304);
    // the read is noted for the card
    const state = await p().api('GET', '/company/calendar_feed', { token: w.tokens.acme });
    expect(state.body.data.last_fetched_at).toEqual(expect.any(String));
  });

  it('shows an end-user company its own requests only, with its carrier as the other party', async () => {
    const on = await p().api('POST', '/enduser/calendar_feed/enable', { token: w.tokens.bianchi, lang: 'en' });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const r = await fetchFeed(on.body.data.url);
    expect(r.statusCode).toBe(200);
    const host = new URL(on.body.data.url).hostname;
    const uids = events(r.body).map((e) => String(e.getFirstPropertyValue('uid')));
    expect(uids.sort()).toEqual([`delivery-${shipments.bianchi}@${host}`, `pickup-${shipments.bianchi}@${host}`].sort());
    const pickup = byUid(r.body, `pickup-${shipments.bianchi}@${host}`)!;
    expect(String(pickup.getFirstPropertyValue('description'))).toContain('Beta Spedizioni S.p.A.');
    // an open request is not yet agreed
    expect(pickup.getFirstPropertyValue('status')).toBe('TENTATIVE');
    // Rossi's feed (another end-user company, another carrier's customer) never shows Bianchi's
    const rossi = await p().api('POST', '/enduser/calendar_feed/enable', { token: w.tokens.rossi });
    const theirs = await fetchFeed(rossi.body.data.url);
    expect(theirs.body).not.toContain(`-${shipments.bianchi}@`);
    expect(theirs.body).toContain(`pickup-${shipments.rossi}@`);
  });

  it('regenerate kills the old address at once; disable kills the new one', async () => {
    const state = await p().api('GET', '/company/calendar_feed', { token: w.tokens.beta });
    if (!state.body.data.enabled) await p().api('POST', '/company/calendar_feed/enable', { token: w.tokens.beta });
    const first = await p().api('POST', '/company/calendar_feed/regenerate', { token: w.tokens.beta });
    const old = first.body.data.url as string;
    expect((await fetchFeed(old)).statusCode).toBe(200);
    const next = await p().api('POST', '/company/calendar_feed/regenerate', { token: w.tokens.beta, lang: 'it' });
    expect(next.status).toBe(200);
    expect(next.body.message).toBe('Nuovo indirizzo del calendario creato: il precedente non funziona più. Copia ora il nuovo.');
    expect(next.body.data.url).not.toBe(old);
    const gone = await fetchFeed(old);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toBe('Not found');
    expect((await fetchFeed(next.body.data.url)).statusCode).toBe(200);
    const off = await p().api('POST', '/company/calendar_feed/disable', { token: w.tokens.beta });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ enabled: false });
    expect((await fetchFeed(next.body.data.url)).statusCode).toBe(404);
    // off twice, or a new address while off: 409, nothing changes
    expect((await p().api('POST', '/company/calendar_feed/disable', { token: w.tokens.beta })).status).toBe(409);
    expect((await p().api('POST', '/company/calendar_feed/regenerate', { token: w.tokens.beta })).status).toBe(409);
    const actions = await p()
      .db.db.selectFrom('audit_log')
      .select('action')
      .where('resource', '=', 'calendar_feeds')
      .where('resource_id', '=', w.beta)
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['create', 'update', 'update', 'delete']);
  });

  it('answers a wrong, unknown or off address with the same plain 404', async () => {
    const unknown = await p().app.inject({ method: 'GET', url: `/ical/${'A'.repeat(43)}.ics` });
    for (const url of ['/ical/abc.ics', '/ical/' + 'A'.repeat(43), `/ical/${'A'.repeat(42)}!.ics`, '/ical/..%2Fetc.ics', `/ical/${'A'.repeat(43)}.ics`]) {
      const r = await p().app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
      expect(r.body, url).toBe(unknown.body);
      expect(r.headers['content-type'], url).toBe(unknown.headers['content-type']);
    }
    // the feed never asks for the API password; the API still does
    expect((await p().app.inject({ method: 'GET', url: '/api/v1/company/calendar_feed' })).statusCode).toBe(401);
  });

  it('lets Carrier Users see the state but not manage it, in their language', async () => {
    const state = await p().api('GET', '/company/calendar_feed', { token: acmeUserToken });
    expect(state.status).toBe(200);
    expect(state.body.data.can_manage).toBe(false);
    for (const action of ['enable', 'regenerate', 'disable']) {
      const r = await p().api('POST', `/company/calendar_feed/${action}`, { token: acmeUserToken, lang: 'fr' });
      expect(r.status, action).toBe(403);
      expect(r.body.message).toBe('Seul le compte principal de l’entreprise peut gérer le calendrier.');
    }
    // the other kind's routes are refused outright
    expect((await p().api('GET', '/enduser/calendar_feed', { token: w.tokens.acme })).status).toBe(403);
    expect((await p().api('GET', '/company/calendar_feed', { token: w.tokens.admin })).status).toBe(403);
  });

  it('reads the windows as Rome wall-clock times, daylight saving included', () => {
    expect(romeInstant('2026-01-15', '08:30').toISOString()).toBe('2026-01-15T07:30:00.000Z');
    expect(romeInstant('2026-07-01', '08:30').toISOString()).toBe('2026-07-01T06:30:00.000Z');
    // the day summer time starts (02:00 → 03:00) and the day it ends (03:00 → 02:00)
    expect(romeInstant('2026-03-29', '08:30').toISOString()).toBe('2026-03-29T06:30:00.000Z');
    expect(romeInstant('2026-10-25', '08:30').toISOString()).toBe('2026-10-25T07:30:00.000Z');
    expect(romeInstant('2026-03-28', '23:00').toISOString()).toBe('2026-03-28T22:00:00.000Z');
  });

  it('keeps the token out of the log lines', async () => {
    const { redactUrl } = await import('../../server/app.js');
    expect(redactUrl(`/ical/${'A'.repeat(43)}.ics`)).toBe('/ical/[REDACTED].ics');
    expect(redactUrl(`/ical/${'A'.repeat(43)}.ics?x=1`)).toBe('/ical/[REDACTED].ics?x=1');
  });
});
