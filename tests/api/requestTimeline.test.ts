import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, multipart, type World } from './requestsFixtures.js';

const doc = { filename: 'bolla è.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 bolla') };
const STATUS_URL = '/company/transport_requests/updateTransportRequestStatus';

describeEachDb('the timeline of a transport request', (p) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(p());
  });

  const create = async () => {
    const mp = await multipart({ ...handShipment(0), documents: [doc], doctypes: [String(w.docType)] });
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, payload: mp.payload, headers: mp.headers });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  };
  const timeline = async (id: number, ns = 'enduser', token = w.tokens.rossi) => {
    const res = await p().api('GET', `/${ns}/transport_requests/show/${id}`, { token });
    expect(res.status).toBe(200);
    return res.body.data.timeline as Array<{ at: string; event: string; status_id: number; by: { name: string | null; role: string }; note: string | null }>;
  };
  const names = async (email: string) => {
    const u = await p().db.db.selectFrom('users').select(['first_name', 'last_name']).where('email', '=', email).executeTakeFirstOrThrow();
    return `${u.first_name} ${u.last_name}`;
  };

  it('records creation, each document, an edit, a new price and the confirmation with its note, oldest first', async () => {
    const id = await create();
    const enduser = await names('enduser@portal.demo');
    const carrier = await names('carrier@portal.demo');
    expect(await timeline(id)).toEqual([
      { at: expect.any(String), event: 'created', status_id: 1, by: { name: enduser, role: 'enduser' }, note: null },
      { at: expect.any(String), event: 'document_added', status_id: 1, by: { name: enduser, role: 'enduser' }, note: 'bolla è.pdf' },
    ]);
    // One edit with new notes and a price: `edited` then `repriced`, in the same call.
    const edit = await p().api('POST', '/company/transport_requests/updateRequest', {
      token: w.tokens.acme,
      body: { tr_id: id, notes: 'Ritiro al mattino', price: '120.00', adminfee: '5.00' },
    });
    expect(edit.status).toBe(200);
    // An edit that changes nothing records nothing.
    expect((await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.acme, body: { tr_id: id, price: '120.00' } })).status).toBe(
      200,
    );
    const ok = await p().api('POST', STATUS_URL, {
      token: w.tokens.acme,
      body: { id, transport_request_status_id: 3, note: '  Ritiro confermato per giovedì  ' },
    });
    expect(ok.status).toBe(200);
    const t = await timeline(id);
    expect(t.map((e) => [e.event, e.status_id, e.by.role])).toEqual([
      ['created', 1, 'enduser'],
      ['document_added', 1, 'enduser'],
      ['edited', 1, 'carrier'],
      ['repriced', 1, 'carrier'],
      ['status_changed', 3, 'carrier'],
    ]);
    // The customer reads the carrier's note; the carrier and the admin see the same timeline.
    expect(t[4]).toEqual({
      at: expect.any(String),
      event: 'status_changed',
      status_id: 3,
      by: { name: carrier, role: 'carrier' },
      note: 'Ritiro confermato per giovedì',
    });
    expect(await timeline(id, 'company', w.tokens.acme)).toEqual(t);
    expect(await timeline(id, 'admin', w.tokens.admin)).toEqual(t);
    for (let i = 1; i < t.length; i++) expect(t[i].at >= t[i - 1].at).toBe(true);
    // An admin's status change through the edit form is recorded too.
    const admin = await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.admin, body: { tr_id: id, status_id: 5 } });
    expect(admin.status).toBe(200);
    expect((await timeline(id)).at(-1)).toMatchObject({ event: 'status_changed', status_id: 5, by: { role: 'admin' }, note: null });
  });

  it("a refusal needs a note (422 on note, in the caller's language, nothing changes); with one the customer reads it", async () => {
    const id = await create();
    const before = await timeline(id);
    for (const [lang, text] of [
      ['it', 'Scrivi il motivo del rifiuto: il cliente lo leggerà.'],
      ['en', 'Write why the request is refused: the customer will read it.'],
      ['fr', 'Indiquez pourquoi la demande est refusée : le client le lira.'],
    ]) {
      for (const body of [
        { id, transport_request_status_id: 4 },
        { id, transport_request_status_id: 4, note: '   ' },
      ]) {
        const res = await p().api('POST', STATUS_URL, { token: w.tokens.acme, lang, body });
        expect(res.status).toBe(422);
        expect(res.body.errors.note).toEqual([text]);
      }
    }
    const row = await p().db.db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.transport_request_status_id).toBe(1);
    expect(await timeline(id)).toEqual(before);
    const refused = await p().api('POST', STATUS_URL, {
      token: w.tokens.acme,
      body: { id, transport_request_status_id: 4, note: 'Zona non servita il sabato' },
    });
    expect(refused.status).toBe(200);
    expect((await timeline(id)).at(-1)).toMatchObject({ event: 'status_changed', status_id: 4, by: { role: 'carrier' }, note: 'Zona non servita il sabato' });
    // A note longer than the limit is refused by the schema.
    const long = await p().api('POST', STATUS_URL, { token: w.tokens.admin, body: { id, transport_request_status_id: 7, note: 'x'.repeat(1001) } });
    expect(long.status).toBe(422);
    expect(long.body.errors.note).toHaveLength(1);
  });

  it("another carrier's or an unknown request is 404, note or not, and records nothing", async () => {
    const id = await create();
    const before = await timeline(id);
    for (const body of [
      { id, transport_request_status_id: 4 },
      { id, transport_request_status_id: 4, note: 'no' },
      { id, transport_request_status_id: 3, note: 'sì' },
      { id: 999999, transport_request_status_id: 4 },
    ]) {
      expect((await p().api('POST', STATUS_URL, { token: w.tokens.beta, body })).status).toBe(404);
    }
    expect((await p().api('POST', STATUS_URL, { token: w.tokens.admin, body: { id: 999999, transport_request_status_id: 4 } })).status).toBe(404);
    expect((await p().api('GET', `/enduser/transport_requests/show/${id}`, { token: w.tokens.bianchi })).status).toBe(404);
    expect((await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.beta })).status).toBe(404);
    expect(await timeline(id)).toEqual(before);
  });

  it('each event belongs to a stored request (a foreign key)', async () => {
    const id = await create();
    const n = await p().db.db.selectFrom('transport_request_events').select('id').where('transport_request_id', '=', id).execute();
    expect(n).toHaveLength(2);
    await expect(
      p()
        .db.db.insertInto('transport_request_events')
        .values({ transport_request_id: 999999, at: 'x', event: 'created', status_id: 1, user_id: null, user_name: null, user_role: 'visitor', note: null })
        .execute(),
    ).rejects.toThrow();
  });
});
