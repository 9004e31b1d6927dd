import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../server/lib/passwords.js';
import { SEARCH_WINDOW } from '../../server/repositories/transportRequests.js';
import { nowIso } from '../../server/lib/tokens.js';
import { describeEachDb } from './helpers.js';
import { pdfText } from './pdfText.js';
import { PASSWORD, createWorld, handShipment, multipart, type World } from './requestsFixtures.js';

/**
 * Issue 35 items 3 and 4: the request list's search (`q` on every namespace's list), and what the end user
 * does with its open request: cancel it with a reason (one conditional update, the timeline, the carrier's
 * bell, the webhooks), download its quote, open a support ticket about it.
 */
describeEachDb('the request list search and the end user’s open request', (p) => {
  let w: World;
  let colleague: string;
  let category: number;
  const db = () => p().db.db;

  /** A request booked by hand by an end user (`token`), with the given shipment fields. */
  const book = async (token: string, over: Record<string, string> = {}) => {
    const mp = await multipart(handShipment(0, over));
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token, payload: mp.payload, headers: mp.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };
  const priced = (id: number) => db().updateTable('transport_requests').set({ cost: 12345, admin_fees: 450, lead_time: 2 }).where('id', '=', id).execute();
  const search = async (ns: 'enduser' | 'company' | 'admin', token: string, q: string, extra = '') => {
    const res = await p().api('GET', `/${ns}/transport_requests?per_page=100&q=${encodeURIComponent(q)}${extra}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.transportRequests.data as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);
  };
  const cancel = (token: string, id: number, note?: string, lang = 'it') =>
    p().api('POST', '/enduser/transport_requests/updateTransportRequestStatus', {
      token,
      lang,
      body: { id, transport_request_status_id: 7, ...(note === undefined ? {} : { note }) },
    });
  const confirm = (id: number) =>
    p().api('POST', '/company/transport_requests/updateTransportRequestStatus', { token: w.tokens.acme, body: { id, transport_request_status_id: 3 } });
  const statusOf = async (id: number) =>
    (await db().selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow())
      .transport_request_status_id;
  const raw = async (url: string, token: string, lang = 'it') => {
    const res = await p().app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { 'x-api-password': p().config.apiPassword, 'accept-language': lang, authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, body: () => res.json() };
  };

  beforeAll(async () => {
    w = await createWorld(p());
    // A second end user of Rossi: sees the company's requests, did not book them.
    const now = nowIso();
    await db()
      .insertInto('users')
      .values({
        role_id: 6,
        company_id: w.rossi,
        first_name: 'Anna',
        last_name: 'Collega',
        email: 'anna@rossi.test',
        password_hash: await hashPassword(PASSWORD),
        status_id: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    colleague = await p().login('anna@rossi.test', PASSWORD);
    category = Number((await db().selectFrom('ticket_categories').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
    // Acme listens to status changes (the worker does not run in tests: deliveries stay rows).
    const ep = await p().api('POST', '/company/webhooks/store', {
      token: w.tokens.acme,
      body: { url: 'http://127.0.0.1:9/hook', events: ['transport_request.status_changed'] },
    });
    expect(ep.status, JSON.stringify(ep.body)).toBe(200);
  });

  it('searches by number, place, postal code and reference, case aside, in the caller’s scope only', async () => {
    const torino = await book(w.tokens.rossi, {
      deliverycity: 'Torino',
      deliverypostalcode: '10121',
      deliverylocationname: 'Fiat Ricambi',
      shipperref: 'ORD-7781',
      consigneeref: 'BOLLA-42',
    });
    const napoli = await book(w.tokens.rossi, { pickupcity: 'Napoli', pickuppostalcode: '80133', pickupaddress: 'Via Marina 9', shipperref: 'ORD-9000' });
    // Another carrier's customer with the same city and reference: never in Rossi's or Acme's answers.
    const other = await book(w.tokens.bianchi, { deliverycity: 'Torino', deliverypostalcode: '10121', shipperref: 'ORD-7781' });

    expect(await search('enduser', w.tokens.rossi, 'torino')).toEqual([torino]);
    expect(await search('enduser', w.tokens.rossi, 'TORINO')).toEqual([torino]);
    expect(await search('enduser', w.tokens.rossi, '10121')).toEqual([torino]);
    expect(await search('enduser', w.tokens.rossi, '80133')).toEqual([napoli]);
    expect(await search('enduser', w.tokens.rossi, 'via marina')).toEqual([napoli]);
    expect(await search('enduser', w.tokens.rossi, 'fiat ric')).toEqual([torino]);
    expect(await search('enduser', w.tokens.rossi, 'ord-7781')).toEqual([torino]);
    expect(await search('enduser', w.tokens.rossi, 'bolla-42')).toEqual([torino]);
    expect(await search('enduser', w.tokens.rossi, 'ORD-')).toEqual([torino, napoli].sort((a, b) => a - b));
    // The number: `#n` is that request only; the bare digits find it too.
    expect(await search('enduser', w.tokens.rossi, `#${napoli}`)).toEqual([napoli]);
    expect(await search('enduser', w.tokens.rossi, String(napoli))).toContain(napoli);
    expect(await search('enduser', w.tokens.rossi, `#${other}`)).toEqual([]);
    expect(await search('enduser', w.tokens.bianchi, 'torino')).toEqual([other]);
    // The carrier's list and the admin's: the same search, each in its scope.
    expect(await search('company', w.tokens.acme, 'torino')).toEqual([torino]);
    expect(await search('company', w.tokens.acme, `#${other}`)).toEqual([]);
    expect(await search('company', w.tokens.beta, 'ord-7781')).toEqual([other]);
    expect(await search('admin', w.tokens.admin, 'ord-7781')).toEqual([torino, other].sort((a, b) => a - b));
    expect(await search('admin', w.tokens.admin, 'ord-7781', `&carrier_id=${w.acme}`)).toEqual([torino]);
    // The total counts the matches, not the whole scope.
    const page = await p().api('GET', `/enduser/transport_requests?q=napoli`, { token: w.tokens.rossi });
    expect(page.body.transportRequests.total).toBe(1);
    expect(await search('enduser', w.tokens.rossi, 'nessuna-corrispondenza')).toEqual([]);
    // The export takes the same search.
    const csv = await p().api('GET', `/enduser/transport_requests/export?format=csv&q=napoli`, { token: w.tokens.rossi });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('Napoli');
    expect(String(csv.body)).not.toContain('Torino');
  });

  it('takes % and _ literally, and bounds the search’s length', async () => {
    const odd = await book(w.tokens.rossi, { shipperref: 'A_B%C' });
    const plain = await book(w.tokens.rossi, { shipperref: 'AXBYC' });
    expect(await search('enduser', w.tokens.rossi, 'A_B')).toEqual([odd]);
    expect(await search('enduser', w.tokens.rossi, 'B%C')).toEqual([odd]);
    expect(await search('enduser', w.tokens.rossi, '%')).toEqual([odd]);
    expect(await search('enduser', w.tokens.rossi, 'axbyc')).toEqual([plain]);
    expect(await search('enduser', w.tokens.rossi, '\\')).toEqual([]);
    const long = await p().api('GET', `/enduser/transport_requests?q=${'x'.repeat(101)}`, { token: w.tokens.rossi });
    expect(long.status).toBeGreaterThanOrEqual(400);
    expect(long.status).toBeLessThan(500);
    expect(long.body.transportRequests).toBeUndefined();
    // The search is in the documented query.
    const spec = (await p().app.inject({ method: 'GET', url: '/api/docs' })).json();
    const path = Object.keys(spec.paths).find((k) => k.endsWith('/enduser/transport_requests'))!;
    const q = (spec.paths[path].get.parameters as Array<{ name: string; schema: { maxLength: number } }>).find((x) => x.name === 'q');
    expect(q?.schema.maxLength).toBe(100);
  });

  it('lets the end user who booked cancel its open request with a reason, through the timeline, the bell, the webhooks and the mail', async () => {
    const id = await book(w.tokens.rossi);
    // The detail names who booked it (the screen offers the cancel to that end user alone).
    const booker = (await db().selectFrom('users').select('id').where('email', '=', 'enduser@portal.demo').executeTakeFirstOrThrow()).id;
    for (const [ns, token] of [
      ['enduser', w.tokens.rossi],
      ['enduser', colleague],
      ['company', w.tokens.acme],
    ]) {
      expect((await p().api('GET', `/${ns}/transport_requests/show/${id}`, { token })).body.data.user_id).toBe(booker);
    }
    // No reason: 422 on the note, nothing changes.
    const none = await cancel(w.tokens.rossi, id);
    expect(none.status).toBe(422);
    const blank = await cancel(w.tokens.rossi, id, '   ');
    expect(blank.status).toBe(422);
    expect(blank.body.errors.note[0]).toMatch(/Scrivi perché annulli/);
    expect(await statusOf(id)).toBe(1);

    const ok = await cancel(w.tokens.rossi, id, '  Merce non pronta  ');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.message).toBe(`Richiesta n. ${id} annullata`);
    expect(ok.body.data).toEqual({ id, transport_request_status_id: 7, previous_status_id: 1 });
    expect(await statusOf(id)).toBe(7);

    // The timeline's entry carries the reason and the end user as its author.
    const show = await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.acme });
    const last = show.body.data.timeline.at(-1);
    expect(last).toMatchObject({ event: 'status_changed', status_id: 7, note: 'Merce non pronta', by: { role: 'enduser' } });
    // The carrier's bell.
    const bell = await p().api('GET', '/company/notifications', { token: w.tokens.acme });
    expect(bell.status).toBe(200);
    expect(bell.body.data.find((n: { transport_request_id: number; status_id: number }) => n.transport_request_id === id && n.status_id === 7)).toBeTruthy();
    // The carrier's webhook: the new status, the last timeline entry with the reason.
    const deliveries = await db()
      .selectFrom('webhook_deliveries')
      .select(['event_type', 'payload'])
      .where('transport_request_id', '=', id)
      .where('event_type', '=', 'transport_request.status_changed')
      .execute();
    expect(deliveries).toHaveLength(1);
    const payload = JSON.parse(deliveries[0].payload);
    expect(payload.data.transport_request_status_id).toBe(7);
    expect(payload.data.timeline.at(-1)).toMatchObject({ status_id: 7, note: 'Merce non pronta' });
    // The customer's status mail (after the commit, in the background): the cancellation with the reason quoted.
    const outbox = path.join(p().config.dataDir, 'outbox');
    const mail = async () => {
      if (!fs.existsSync(outbox)) return undefined;
      return fs
        .readdirSync(outbox)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), 'utf8')) as { to: string; subject: string; text: string })
        .find((m) => m.to === 'enduser@portal.demo' && m.subject === `Richiesta di trasporto n. ${id} annullata`);
    };
    const until = Date.now() + 5000;
    while (!(await mail()) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect((await mail())?.text).toContain('> Merce non pronta');
    // The audit log names the change.
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'resource'])
      .where('resource', '=', 'transport_requests')
      .where('resource_id', '=', id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('status');

    // Cancelled: no second cancel (409, named), no confirm.
    const again = await cancel(w.tokens.rossi, id, 'ancora');
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/non è più aperta/);
    expect((await confirm(id)).status).toBe(409);
  });

  it('refuses another company’s request (404), a colleague’s (403), a request no longer open (409), any other status', async () => {
    const mine = await book(w.tokens.rossi);
    const theirs = await book(w.tokens.bianchi);
    const r404 = await cancel(w.tokens.rossi, theirs, 'non mia');
    expect(r404.status).toBe(404);
    // Even without a reason, another tenant's id is 404 (nothing says it exists).
    expect((await cancel(w.tokens.rossi, theirs, ' ')).status).toBe(404);
    expect((await cancel(w.tokens.rossi, 999999, 'x')).status).toBe(404);
    const r403 = await cancel(colleague, mine, 'non l’ho prenotata io', 'en');
    expect(r403.status).toBe(403);
    expect(r403.body.message).toBe('Only the person who booked this request may cancel it.');
    // The end user never confirms, and the carrier's route is not the end user's.
    const asConfirm = await p().api('POST', '/enduser/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.rossi,
      body: { id: mine, transport_request_status_id: 3, note: 'x' },
    });
    expect(asConfirm.status).toBeGreaterThanOrEqual(400);
    expect(asConfirm.status).toBeLessThan(500);
    const onCarrierRoute = await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.rossi,
      body: { id: mine, transport_request_status_id: 7, note: 'x' },
    });
    expect(onCarrierRoute.status).toBe(403);
    // A carrier cannot cancel through the end user's route.
    const carrier = await p().api('POST', '/enduser/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.acme,
      body: { id: mine, transport_request_status_id: 7, note: 'x' },
    });
    expect(carrier.status).toBe(403);
    expect(await statusOf(mine)).toBe(1);
    expect(await statusOf(theirs)).toBe(1);
    // Confirmed: no longer open.
    await priced(mine);
    expect((await confirm(mine)).status).toBe(200);
    const late = await cancel(w.tokens.rossi, mine, 'troppo tardi');
    expect(late.status).toBe(409);
    expect(await statusOf(mine)).toBe(3);
  });

  it('of a cancel and a confirm at once, exactly one wins and the other gets 409', async () => {
    for (let i = 0; i < 6; i++) {
      const id = await book(w.tokens.rossi);
      await priced(id);
      const [c, k] = await Promise.all([cancel(w.tokens.rossi, id, 'gara'), confirm(id)]);
      expect([c.status, k.status].sort()).toEqual([200, 409]);
      expect(await statusOf(id)).toBe(c.status === 200 ? 7 : 3);
      const changes = await db()
        .selectFrom('transport_request_events')
        .select('status_id')
        .where('transport_request_id', '=', id)
        .where('event', '=', 'status_changed')
        .execute();
      expect(changes).toHaveLength(1);
    }
  });

  it('downloads the quote of a priced request in the caller’s scope only', async () => {
    const id = await book(w.tokens.rossi, { deliverycity: 'Genova', deliverypostalcode: '16121' });
    // To be quoted: nothing to print yet.
    const early = await raw(`/enduser/transport_requests/quote/${id}`, w.tokens.rossi);
    expect(early.status).toBe(409);
    expect(early.body().message).toMatch(/non ha ancora un prezzo/);
    await priced(id);
    const pdf = await raw(`/enduser/transport_requests/quote/${id}`, w.tokens.rossi);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(String(pdf.headers['content-disposition'])).toMatch(new RegExp(`^attachment; filename="preventivo-richiesta-${id}\\.pdf"`));
    const text = pdfText(pdf.bytes);
    expect(text).toContain(`richiesta di trasporto n. ${id}`);
    expect(text).toContain('16121');
    expect(text).toMatch(/123,45\s€/);
    expect(text).toMatch(/127,95\s€/);
    // The carrier of the request may print it too; another tenant gets 404, as for an unknown id.
    expect((await raw(`/company/transport_requests/quote/${id}`, w.tokens.acme)).status).toBe(200);
    expect((await raw(`/enduser/transport_requests/quote/${id}`, w.tokens.bianchi)).status).toBe(404);
    expect((await raw(`/company/transport_requests/quote/${id}`, w.tokens.beta)).status).toBe(404);
    expect((await raw(`/enduser/transport_requests/quote/999999`, w.tokens.rossi)).status).toBe(404);
    const english = pdfText((await raw(`/enduser/transport_requests/quote/${id}`, w.tokens.rossi, 'en')).bytes);
    expect(english).toContain(`transport request no. ${id}`);
  });

  it('opens a ticket about a request of its own, lists the request’s tickets, refuses another tenant’s request', async () => {
    const id = await book(w.tokens.rossi);
    const theirs = await book(w.tokens.bianchi);
    const open = await p().api('POST', '/enduser/chats/newTicket', {
      token: w.tokens.rossi,
      body: { ticket_category_id: category, subject: 'Ritiro', message: 'Possiamo anticipare?', transport_request_id: id },
    });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    expect(open.body.data.transport_request_id).toBe(id);
    const ticket = open.body.data.id as number;
    // A general ticket stays without a request.
    const general = await p().api('POST', '/enduser/chats/newTicket', {
      token: w.tokens.rossi,
      body: { ticket_category_id: category, subject: 'Fatture', message: 'Domanda generale' },
    });
    expect(general.body.data.transport_request_id).toBeNull();
    // The request's tickets, for the end user (any user of its company) and for the carrier.
    const listed = await p().api('GET', `/enduser/chats/getTickets?transport_request_id=${id}`, { token: colleague });
    expect(listed.body.data.map((t: { id: number }) => t.id)).toEqual([ticket]);
    const carrierGet = await p().api('GET', `/company/chats/getChatUsers?transport_request_id=${id}`, { token: w.tokens.acme });
    expect(carrierGet.status).toBe(200);
    expect(carrierGet.body.data.map((t: { id: number; transport_request_id: number }) => [t.id, t.transport_request_id])).toEqual([[ticket, id]]);
    // Another tenant's request: 422 on the field, nothing stored.
    const before = (await db().selectFrom('tickets').select('id').execute()).length;
    for (const bad of [theirs, 999999]) {
      const refused = await p().api('POST', '/enduser/chats/newTicket', {
        token: w.tokens.rossi,
        body: { ticket_category_id: category, subject: 'x', message: 'y', transport_request_id: bad },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.transport_request_id[0]).toMatch(/richieste di trasporto della tua azienda/);
    }
    expect((await db().selectFrom('tickets').select('id').execute()).length).toBe(before);
    // Bianchi does not see Rossi's ticket through the request filter.
    const leak = await p().api('GET', `/enduser/chats/getTickets?transport_request_id=${id}`, { token: w.tokens.bianchi });
    expect(leak.body.data).toEqual([]);
  });

  it('looks for a text among the newest SEARCH_WINDOW requests of the scope and filters, and for a number at any age', async () => {
    const old = await book(w.tokens.rossi, { deliverycity: 'Vercelli', shipperref: 'ORD-VECCHIO' });
    expect(await search('enduser', w.tokens.rossi, 'vercelli')).toEqual([old]);
    const { id: _id, ...copy } = await db().selectFrom('transport_requests').selectAll().where('id', '=', old).executeTakeFirstOrThrow();
    // SEARCH_WINDOW newer requests of the same customer (no shipments: they only move the window)
    for (let i = 0; i < SEARCH_WINDOW; i += 500)
      await db()
        .insertInto('transport_requests')
        .values(Array.from({ length: 500 }, () => copy))
        .execute();
    expect(await search('enduser', w.tokens.rossi, 'vercelli')).toEqual([]);
    expect(await search('company', w.tokens.acme, 'ord-vecchio')).toEqual([]);
    // its number still finds it
    expect(await search('enduser', w.tokens.rossi, `#${old}`)).toEqual([old]);
    // a filter that keeps it among the newest of what it leaves brings it back
    await db().updateTable('transport_requests').set({ transport_request_status_id: 4 }).where('id', '=', old).execute();
    expect(await search('enduser', w.tokens.rossi, 'vercelli', '&transport_request_status_id=4')).toEqual([old]);
    expect(await search('admin', w.tokens.admin, 'ord-vecchio', '&transport_request_status_id=4')).toEqual([old]);
  });
});
