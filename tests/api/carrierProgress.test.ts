import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { listStore, pendingNames } from './fileHelpers.js';
import { createWorld, handShipment, multipart, shipmentLists, PASSWORD, type World } from './requestsFixtures.js';
import { pdfText } from './pdfText.js';
import { crc32 } from '../../server/lib/imageHeader.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';

const STATUS_URL = '/company/transport_requests/updateTransportRequestStatus';

/** A real PNG of w × h pixels (grey), or only its header declaring that size (`headerOnly`: never decoded). */
function png(w: number, h: number, headerOnly = false): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // depth
  ihdr[9] = 0; // greyscale
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (headerOnly) return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IEND', Buffer.alloc(0))]);
  const raw = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) raw[y * (w + 1)] = 0;
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
const pdfBytes = (size = 3000) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size, 65), Buffer.from('\n%%EOF\n')]);
const file = (data: Buffer, type: string, filename: string) => ({ filename, type, data });

describeEachDb('carrier progress and proof of delivery (issue 36)', (p) => {
  let w: World;
  let staff: string;
  const db = () => p().db.db;

  beforeAll(async () => {
    w = await createWorld(p());
    // Acme's Carrier Users
    await db()
      .insertInto('users')
      .values({
        role_id: 5,
        company_id: w.acme,
        first_name: 'Luca',
        last_name: 'Autista',
        email: 'autista@acme.test',
        password_hash: await hashPassword(PASSWORD),
        status_id: 1,
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    staff = await p().login('autista@acme.test', PASSWORD);
  });

  /** A request of Rossi (Acme's end user) with a price and a consignee's e-mail, confirmed by Acme unless `status` says otherwise. */
  const request = async (status: 1 | 3 = 3) => {
    const mp = await multipart(shipmentLists([handShipment(0, { consigneeemail: 'dest@example.test' })]));
    const created = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, payload: mp.payload, headers: mp.headers });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as number;
    await db().updateTable('transport_requests').set({ cost: 12000, admin_fees: 500 }).where('id', '=', id).execute();
    if (status === 3) expect((await p().api('POST', STATUS_URL, { token: w.tokens.acme, body: { id, transport_request_status_id: 3 } })).status).toBe(200);
    return id;
  };
  const statusOf = async (id: number) =>
    Number(
      (await db().selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow())
        .transport_request_status_id,
    );
  const pickUp = (token: string, id: number, extra: Record<string, unknown> = {}, lang = 'it') =>
    p().api('POST', STATUS_URL, { token, lang, body: { id, transport_request_status_id: 5, ...extra } });
  const deliver = async (token: string, id: number, fields: Record<string, any>, lang = 'it') => {
    const mp = await multipart({ id: String(id), transport_request_status_id: '6', ...fields });
    return p().api('POST', STATUS_URL, { token, lang, payload: mp.payload, headers: mp.headers });
  };
  const podFiles = async () => (await listStore(p().app.files)).filter((f) => f.area === 'pods').map((f) => f.name);
  const outbox = () => path.join(p().config.dataDir, 'outbox');
  const mails = () =>
    fs.existsSync(outbox())
      ? fs
          .readdirSync(outbox())
          .filter((f) => f.endsWith('.json'))
          .map((f) => JSON.parse(fs.readFileSync(path.join(outbox(), f), 'utf8')) as { to: string; subject: string; text: string; html: string })
      : [];
  const waitMail = async (pred: (m: ReturnType<typeof mails>[number]) => boolean) => {
    const until = Date.now() + 5000;
    while (!mails().some(pred) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    return mails().find(pred);
  };

  it('lets the carrier move its confirmed request to in transit with the pickup time, then delivered with a drawn signature', async () => {
    const id = await request();
    const at = new Date(Date.now() - 3600_000).toISOString();
    const picked = await pickUp(w.tokens.acme, id, { picked_up_at: at });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body).toMatchObject({
      message: 'Ritiro registrato: la richiesta è in transito',
      data: { id, transport_request_status_id: 5, previous_status_id: 3 },
    });
    const shown = await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.acme });
    expect(shown.body.data).toMatchObject({ transport_request_status_id: 5, picked_up_at: at, pod: null });
    expect(shown.body.data.timeline.at(-1)).toMatchObject({ event: 'status_changed', status_id: 5, by: { role: 'carrier' } });

    const sig = png(300, 120);
    const done = await deliver(w.tokens.acme, id, {
      pod_name: 'Mario Bianchi',
      pod_notes: 'merce danneggiata: 1 pallet mancante',
      pod_signature: file(sig, 'image/png', 'firma.png'),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ message: 'Consegna registrata', data: { transport_request_status_id: 6, previous_status_id: 5 } });
    const after = await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.acme });
    expect(after.body.data.pod).toMatchObject({
      name: 'Mario Bianchi',
      notes: 'merce danneggiata: 1 pallet mancante',
      kind: 'signature',
      content_type: 'image/png',
      bytes: sig.length,
      width: 300,
      height: 120,
      file_path: `/company/transport_requests/pod/${id}`,
    });
    expect(after.body.data.pod.delivered_at >= at).toBe(true);
    expect(after.body.data.timeline.at(-1)).toMatchObject({ event: 'status_changed', status_id: 6 });
    // The file, served to the carrier as it was sent, nothing pending
    const served = await p().app.inject({
      method: 'GET',
      url: `/api/v1/company/transport_requests/pod/${id}`,
      headers: { authorization: `Bearer ${w.tokens.acme}`, 'x-api-password': p().config.apiPassword },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.equals(sig)).toBe(true);
    expect(await pendingNames(p().app.files)).toEqual([]);

    // The bell of the end user: both steps
    const bell = await p().api('GET', '/enduser/notifications', { token: w.tokens.rossi });
    const mine = bell.body.data.filter((n: { transport_request_id: number }) => n.transport_request_id === id).map((n: { status_id: number }) => n.status_id);
    expect(mine).toEqual(expect.arrayContaining([5, 6]));
    // The customer's mail: delivered and signed by whom, with the reservations; the consignee's too
    const customer = await waitMail((m) => m.to === 'enduser@portal.demo' && m.subject === `Richiesta di trasporto n. ${id} consegnata`);
    expect(customer?.text).toContain('firmata da Mario Bianchi');
    expect(customer?.text).toContain('Riserve annotate alla consegna: merce danneggiata: 1 pallet mancante');
    expect(customer?.html).toContain('firmata da Mario Bianchi');
    const consignee = await waitMail((m) => m.to === 'dest@example.test' && m.subject === `Spedizione n. ${id} per voi: consegnata`);
    expect(consignee?.text).toContain('firmata da Mario Bianchi');
    const inTransit = await waitMail((m) => m.to === 'enduser@portal.demo' && m.subject.includes(`n. ${id}`) && /transito/i.test(m.subject));
    expect(inTransit).toBeTruthy();
  });

  it('lets a carrier user and an API key with requests:write do the same; refuses a key with only requests:read and the end user', async () => {
    const id = await request();
    // the end user's route only cancels; the carrier's route is not its own
    expect((await pickUp(w.tokens.rossi, id)).status).toBe(403);
    expect(
      (
        await p().api('POST', '/enduser/transport_requests/updateTransportRequestStatus', {
          token: w.tokens.rossi,
          body: { id, transport_request_status_id: 5, note: 'x' },
        })
      ).status,
    ).toBe(422);
    const read = await p().api('POST', '/company/api_keys/store', { token: w.tokens.acme, body: { name: 'Sola lettura', scopes: ['requests:read'] } });
    const write = await p().api('POST', '/company/api_keys/store', {
      token: w.tokens.acme,
      body: { name: 'TMS', scopes: ['requests:read', 'requests:write'] },
    });
    expect((await pickUp(read.body.data.key, id)).status).toBe(403);
    expect(await statusOf(id)).toBe(3);
    // a carrier user picks up, the API key delivers with a PDF of the signed document
    expect((await pickUp(staff, id)).status).toBe(200);
    const pdf = pdfBytes();
    const done = await deliver(write.body.data.key, id, { pod_name: 'Anna Verdi', pod_file: file(pdf, 'application/pdf', 'cmr firmato.pdf') });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const row = await db().selectFrom('transport_request_pods').selectAll().where('transport_request_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Anna Verdi', kind: 'file', content_type: 'application/pdf', bytes: pdf.length, width: null, height: null });
    // the key with requests:read reads the POD; the end user of the request too, through its namespace
    const viaKey = await p().api('GET', `/company/transport_requests/pod/${id}`, { token: read.body.data.key });
    expect([viaKey.status, viaKey.headers['content-type']]).toEqual([200, 'application/pdf']);
    const enduser = await p().api('GET', `/enduser/transport_requests/show/${id}`, { token: w.tokens.rossi });
    expect(enduser.body.data.pod).toMatchObject({ name: 'Anna Verdi', kind: 'file', file_path: `/enduser/transport_requests/pod/${id}` });
    expect((await p().api('GET', `/enduser/transport_requests/pod/${id}`, { token: w.tokens.rossi })).status).toBe(200);
    expect((await p().api('GET', `/admin/transport_requests/pod/${id}`, { token: w.tokens.admin })).status).toBe(200);
    // another carrier and another end user: 404, on the POD and on the status
    expect((await p().api('GET', `/company/transport_requests/pod/${id}`, { token: w.tokens.beta })).status).toBe(404);
    expect((await p().api('GET', `/enduser/transport_requests/pod/${id}`, { token: w.tokens.bianchi })).status).toBe(404);
    expect((await pickUp(w.tokens.beta, id)).status).toBe(404);
  });

  it('refuses steps out of order with 409 naming the status, and a repeated step', async () => {
    const open = await request(1);
    const early = await pickUp(w.tokens.acme, open);
    expect([early.status, early.body.message]).toEqual([409, 'La richiesta è Aperta: può passare a questo stato solo quando è Confermata.']);
    const id = await request();
    const skip = await deliver(w.tokens.acme, id, { pod_name: 'X', pod_signature: file(png(10, 10), 'image/png', 's.png') });
    expect([skip.status, skip.body.message]).toEqual([409, 'La richiesta è Confermata: può passare a questo stato solo quando è In transito.']);
    const en = await deliver(w.tokens.acme, id, { pod_name: 'X', pod_signature: file(png(10, 10), 'image/png', 's.png') }, 'en');
    expect(en.body.message).toMatch(/^The request is Confirmed: it can take this status only when it is In transit\.$/);
    expect(await statusOf(id)).toBe(3);
    expect(await podFiles()).not.toContain(undefined);
    expect((await pickUp(w.tokens.acme, id)).status).toBe(200);
    const again = await pickUp(w.tokens.acme, id);
    expect([again.status, again.body.message]).toEqual([409, 'La richiesta è già in questo stato.']);
    // never back, never cancel or reopen
    const back = await p().api('POST', STATUS_URL, { token: w.tokens.acme, body: { id, transport_request_status_id: 3 } });
    expect(back.status).toBe(409);
    const cancel = await p().api('POST', STATUS_URL, { token: w.tokens.acme, body: { id, transport_request_status_id: 7 } });
    expect(cancel.status).toBe(422);
    // a pickup time in the future or without a zone
    const other = await request();
    const future = await pickUp(w.tokens.acme, other, { picked_up_at: new Date(Date.now() + 3600_000).toISOString() });
    expect([future.status, future.body.errors?.picked_up_at]).toEqual([422, ["L'ora non può essere nel futuro."]]);
    const noZone = await pickUp(w.tokens.acme, other, { picked_up_at: '2026-01-01T10:00:00' });
    expect(noZone.status).toBe(422);
    expect(await statusOf(other)).toBe(3);
  });

  it('of two concurrent deliveries exactly one wins, with one POD and one file', async () => {
    const id = await request();
    expect((await pickUp(w.tokens.acme, id)).status).toBe(200);
    const before = await podFiles();
    const results = await Promise.all(
      ['Primo', 'Secondo', 'Terzo'].map((name, i) =>
        deliver(i === 1 ? staff : w.tokens.acme, id, { pod_name: name, pod_signature: file(png(40 + i, 20), 'image/png', 's.png') }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const pods = await db().selectFrom('transport_request_pods').selectAll().where('transport_request_id', '=', id).execute();
    expect(pods).toHaveLength(1);
    const after = await podFiles();
    expect(after.filter((f) => !before.includes(f))).toEqual([pods[0].stored_name]);
    expect(await pendingNames(p().app.files)).toEqual([]);
    const events = await db()
      .selectFrom('transport_request_events')
      .select('status_id')
      .where('transport_request_id', '=', id)
      .where('status_id', '=', 6)
      .execute();
    expect(events).toHaveLength(1);
  });

  it('refuses a delivery without its proof (422 per field, in the caller’s language) and changes nothing', async () => {
    const id = await request();
    expect((await pickUp(w.tokens.acme, id)).status).toBe(200);
    const before = await podFiles();
    const sig = file(png(50, 20), 'image/png', 's.png');
    const cases: Array<[Record<string, any>, string, string]> = [
      [{ pod_signature: sig }, 'pod_name', 'Scrivi il nome di chi ha ricevuto la merce.'],
      [{ pod_name: '  ', pod_signature: sig }, 'pod_name', 'Scrivi il nome di chi ha ricevuto la merce.'],
      [{ pod_name: 'Mario' }, 'pod_file', 'Aggiungi il documento di consegna firmato (foto o PDF) oppure la firma tracciata sullo schermo.'],
      [
        { pod_name: 'Mario', pod_signature: sig, pod_file: file(pdfBytes(), 'application/pdf', 'a.pdf') },
        'pod_signature',
        'Invia il documento firmato oppure la firma tracciata, non entrambi.',
      ],
      [
        { pod_name: 'Mario', pod_file: file(Buffer.from('<html>ciao</html>'), 'application/pdf', 'a.pdf') },
        'pod_file',
        'Il documento di consegna deve essere una foto JPEG, PNG o WebP oppure un PDF.',
      ],
      [{ pod_name: 'Mario', pod_signature: file(pdfBytes(), 'image/png', 's.png') }, 'pod_signature', "La firma deve essere un'immagine PNG."],
      [{ pod_name: 'Mario', pod_signature: file(png(5000, 100, true), 'image/png', 's.png') }, 'pod_signature', 'x'],
      [{ pod_name: 'Mario', pod_file: file(png(9000, 100, true), 'image/png', 'foto.png') }, 'pod_file', 'x'],
      [
        { pod_name: 'Mario', pod_signature: file(Buffer.concat([png(10, 10), Buffer.alloc(600 * 1024)]), 'image/png', 's.png') },
        'pod_signature',
        'Il file è troppo grande: al massimo 512 kB.',
      ],
      [
        { pod_name: 'Mario', pod_file: file(Buffer.concat([pdfBytes(), Buffer.alloc(5 * 1024 * 1024)]), 'application/pdf', 'big.pdf') },
        'pod_file',
        'Il file è troppo grande: al massimo 5 MB.',
      ],
    ];
    for (const [fields, field, message] of cases) {
      const r = await deliver(w.tokens.acme, id, fields);
      expect(r.status, `${field}: ${JSON.stringify(r.body)}`).toBe(422);
      if (message === 'x') expect(r.body.errors[field]?.[0], JSON.stringify(r.body)).toMatch(/pixel|dimension/i);
      else expect(r.body.errors[field], JSON.stringify(r.body)).toEqual([message]);
    }
    // JSON without the files: the same 422, in English when asked
    const json = await p().api('POST', STATUS_URL, { token: w.tokens.acme, lang: 'en', body: { id, transport_request_status_id: 6, pod_name: 'Mario' } });
    expect([json.status, json.body.errors.pod_file]).toEqual([422, ['Add the signed delivery document (photo or PDF) or the signature drawn on the screen.']]);
    expect(await statusOf(id)).toBe(5);
    expect(await podFiles()).toEqual(before);
    expect(await pendingNames(p().app.files)).toEqual([]);
    expect(await db().selectFrom('transport_request_pods').select('id').where('transport_request_id', '=', id).execute()).toEqual([]);
  });

  it('lets an admin make any transition, with or without a POD', async () => {
    const id = await request(1);
    const admin = (to: number) => p().api('POST', STATUS_URL, { token: w.tokens.admin, body: { id, transport_request_status_id: to } });
    expect((await admin(6)).status).toBe(200);
    expect((await p().api('GET', `/admin/transport_requests/show/${id}`, { token: w.tokens.admin })).body.data.pod).toBeNull();
    expect((await admin(5)).status).toBe(200);
    const withPod = await deliver(w.tokens.admin, id, { pod_name: 'Ufficio', pod_file: file(png(64, 48), 'image/png', 'foto.png') });
    expect(withPod.status, JSON.stringify(withPod.body)).toBe(200);
    expect((await p().api('GET', `/admin/transport_requests/show/${id}`, { token: w.tokens.admin })).body.data.pod).toMatchObject({
      name: 'Ufficio',
      kind: 'file',
      width: 64,
    });
    // the admin's POD is checked the same way when sent
    expect((await admin(5)).status).toBe(200);
    const bad = await deliver(w.tokens.admin, id, { pod_name: 'Ufficio' });
    expect(bad.status).toBe(422);
    // a second POD replaces the first, its file removed
    const first = await db().selectFrom('transport_request_pods').select('stored_name').where('transport_request_id', '=', id).executeTakeFirstOrThrow();
    expect((await deliver(w.tokens.admin, id, { pod_name: 'Seconda', pod_signature: file(png(20, 20), 'image/png', 's.png') })).status).toBe(200);
    expect(await podFiles()).not.toContain(first.stored_name);
    expect(await db().selectFrom('transport_request_pods').select('name').where('transport_request_id', '=', id).execute()).toEqual([{ name: 'Seconda' }]);
  });

  it('public tracking says delivered with its date, never the receiver’s name or the proof', async () => {
    const id = await request();
    expect((await pickUp(w.tokens.acme, id, { picked_up_at: new Date(Date.now() - 3600_000).toISOString() })).status).toBe(200);
    // not before the pickup
    const tooEarly = await deliver(w.tokens.acme, id, {
      pod_name: 'X',
      delivered_at: new Date(Date.now() - 7200_000).toISOString(),
      pod_signature: file(png(30, 30), 'image/png', 's.png'),
    });
    expect([tooEarly.status, tooEarly.body.errors?.delivered_at]).toEqual([422, ['La consegna non può essere precedente al ritiro.']]);
    const deliveredAt = new Date(Date.now() - 600_000).toISOString();
    expect(
      (
        await deliver(w.tokens.acme, id, {
          pod_name: 'Giuseppe Segreto',
          pod_notes: 'nota riservata',
          delivered_at: deliveredAt,
          pod_signature: file(png(30, 30), 'image/png', 's.png'),
        })
      ).status,
    ).toBe(200);
    const track = await p().api('GET', `/visitor/track?code=${id}&postal_code=00183`);
    expect(track.status).toBe(200);
    expect(track.body.data).toMatchObject({ status_id: 6, status: 'Consegnata', delivered_at: deliveredAt });
    const text = JSON.stringify(track.body);
    expect(text).not.toContain('Giuseppe');
    expect(text).not.toContain('riservata');
    expect(text).not.toContain('/pod/');
    expect(text).not.toContain('signature');
  });

  it('carries the POD and its link in the webhook payload of the delivery', async () => {
    const now = nowIso();
    await db()
      .insertInto('webhook_endpoints')
      .values({
        company_id: w.acme,
        url: 'https://example.test/hook',
        events: 'transport_request.status_changed',
        secret: 'whsec_test',
        lang: 'it',
        status: 'active',
        created_by: null,
        created_by_name: 'test',
        created_at: now,
        failing_since: null,
      })
      .execute();
    const id = await request();
    expect((await pickUp(w.tokens.acme, id)).status).toBe(200);
    expect((await deliver(w.tokens.acme, id, { pod_name: 'Carla Neri', pod_signature: file(png(30, 30), 'image/png', 's.png') })).status).toBe(200);
    const rows = await db()
      .selectFrom('webhook_deliveries')
      .select('payload')
      .where('transport_request_id', '=', id)
      .where('event_type', '=', 'transport_request.status_changed')
      .orderBy('id')
      .execute();
    const last = JSON.parse(rows.at(-1)!.payload);
    expect(last.data.transport_request_status_id).toBe(6);
    expect(last.data.pod).toMatchObject({
      name: 'Carla Neri',
      kind: 'signature',
      content_type: 'image/png',
      file_path: `/company/transport_requests/pod/${id}`,
    });
    expect(JSON.parse(rows[rows.length - 2].payload).data).toMatchObject({ transport_request_status_id: 5, pod: null });
    await db().deleteFrom('webhook_endpoints').where('company_id', '=', w.acme).execute();
  });

  it('shows the POD on the request’s PDF, with the drawn signature', async () => {
    const id = await request();
    expect((await pickUp(w.tokens.acme, id)).status).toBe(200);
    expect(
      (await deliver(w.tokens.acme, id, { pod_name: 'Paolo Rosa', pod_notes: 'imballo rotto', pod_signature: file(png(200, 80), 'image/png', 's.png') }))
        .status,
    ).toBe(200);
    const res = await p().app.inject({
      method: 'GET',
      url: `/api/v1/company/transport_requests/waybill/${id}`,
      headers: { authorization: `Bearer ${w.tokens.acme}`, 'x-api-password': p().config.apiPassword },
    });
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    expect(text).toContain('PROVA DI CONSEGNA');
    expect(text).toContain('Paolo Rosa');
    expect(text).toContain('imballo rotto');
    // the signature is drawn: one image more than the barcode
    expect((res.rawPayload.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });
  it('refuses a POD body longer than the route takes before reading it: the answer comes while the client is still sending', async () => {
    const id = await request();
    expect((await pickUp(w.tokens.acme, id)).status).toBe(200);
    // The app's own routing behind a real socket (inject cannot show what was read when the answer left).
    const server = http.createServer((req, res) => p().app.routing(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const declared = 6 * 1024 * 1024;
    let sent = 0;
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `/api/v1${STATUS_URL}`,
            headers: {
              authorization: `Bearer ${w.tokens.acme}`,
              'x-api-password': p().config.apiPassword,
              'accept-language': 'it',
              'content-type': 'multipart/form-data; boundary=xyz',
              'content-length': declared,
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        // 64 kB of the declared 6 MB, then nothing more: the server must answer without waiting for the rest.
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        req.write(chunk, () => (sent += chunk.length));
      });
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.body).errors.pod_file[0]).toContain('5 MB');
      expect(sent).toBeLessThan(declared);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    expect(await statusOf(id)).toBe(5);
  });
});
