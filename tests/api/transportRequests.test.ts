import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { listStore } from './fileHelpers.js';
import { counts, createWorld, handShipment, multipart, shipmentLists, type World } from './requestsFixtures.js';

const pdf = (size = 2048, name = 'bolla.pdf') => ({
  filename: name,
  type: 'application/pdf',
  data: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size, 65)]),
});

describeEachDb('transport requests entered by hand', (p) => {
  let w: World;
  let handId: number;
  let docId: number;
  beforeAll(async () => {
    w = await createWorld(p());
  });

  const newRequest = async (fields: Record<string, any>, token = w.tokens.rossi, lang = 'it') => {
    const mp = await multipart(fields);
    return p().api('POST', '/enduser/transport_requests/newRequest', { token, lang, payload: mp.payload, headers: mp.headers });
  };

  it('stores a request with two shipments and two documents, "to be quoted", for the end user\'s carrier', async () => {
    const before = await counts(p());
    const res = await newRequest({
      ...shipmentLists([handShipment(0), handShipment(1, { volumeType: 'FTL', volume: '0', units: '33', weight: '12000' })]),
      notes: 'Merce fragile',
      documents: [pdf(2048), pdf(10, 'packing list è.pdf')],
      doctypes: [String(w.docType), String(w.docType)],
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Richiesta di trasporto creata con successo');
    const r = res.body.data;
    handId = r.id;
    expect(r).toMatchObject({
      cost: null,
      admin_fees: null,
      total: null,
      to_be_quoted: true,
      carrier_id: w.acme,
      enduser: { id: w.rossi, legal_name: 'Rossi Logistica S.r.l.' },
      transport_request_status_id: 1,
      transport_request_status: { name: 'OP', label: 'Aperta' },
      notes: 'Merce fragile',
      quote: null,
    });
    expect(r.shipment).toHaveLength(2);
    expect(r.shipment[0]).toMatchObject({
      transport_request_type_id: 2,
      shipper_reference: 'RIF-1',
      consignee_reference: 'DEST-1',
      pickup_time_from: '08:00',
      pickup_time_to: '12:00',
      delivery_date: null,
      shipment_addess_pick_up: {
        location_name: 'Magazzino Rossi',
        postal_code: '40133',
        city: 'Bologna',
        province: 'BO',
        country_id: w.it,
        country: { iso_alpha_2: 'IT' },
      },
      shipment_address_delivery: { city: 'Roma', postal_code: '00183' },
      shipment_detail: [{ shipment_type_id: 2, total_units: 3, gross_weight: 450.5, volume: 2.4, volume_type: 'CBM' }],
    });
    expect(r.shipment[1].shipment_detail[0]).toMatchObject({ total_units: 33, volume_type: 'FTL', volume: 0 });
    expect(r.documents.map((d: any) => d.filename)).toEqual(['bolla.pdf', 'packing list è.pdf']);
    docId = r.documents[0].id;
    expect(r.documents[0].file_path).toBe(`/enduser/transport_requests/documents/${docId}`);
    // Stored under server-made names, nothing of the original name in the file store.
    const files = (await listStore(p().app.files)).filter((f) => f.area === 'documents').map((f) => f.name);
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^[a-f0-9]{32}\.pdf$/);
    const after = await counts(p());
    expect(after).toEqual({ requests: before.requests + 1, shipments: before.shipments + 2, documents: before.documents + 2 });
  });

  it("refuses bad input field by field, in the caller's language, and stores nothing", async () => {
    const before = await counts(p());
    const res = await newRequest({
      ...shipmentLists([
        handShipment(0, { shipperref: '', pickupdate: '2020-01-01', pickuptimeto: '07:00', deliverycountry: 'XX' }),
        handShipment(1, { weight: '-3', volumeType: 'M3' }),
      ]),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors['shipperref.0']).toEqual(['Il campo riferimento mittente (spedizione 1) è obbligatorio.']);
    expect(res.body.errors['pickupdate.0']).toEqual(['La data di ritiro non può essere nel passato.']);
    expect(res.body.errors['pickuptimeto.0']).toEqual(['La fine della fascia oraria deve essere successiva all’inizio.']);
    expect(res.body.errors['deliverycountry.0']).toEqual(['Paese sconosciuto: XX.']);
    expect(res.body.errors['weight.1']).toEqual(['Inserisci un numero maggiore di zero.']);
    expect(res.body.errors['volumeType.1']).toHaveLength(1);
    const en = await newRequest({ ...handShipment(0, { pickupaddress: '' }) }, w.tokens.rossi, 'en');
    expect(en.status).toBe(422);
    expect(en.body.errors.pickupaddress).toEqual(['The pickup address field is required.']);
    // One list shorter than the others.
    const lists = shipmentLists([handShipment(0), handShipment(1)]);
    lists.pickupcity = ['Bologna'];
    const short = await newRequest(lists);
    expect(short.status).toBe(422);
    expect(short.body.errors['pickupcity']).toEqual(['Indica un valore per ogni spedizione (2).']);
    // A document without its type, an unknown type.
    const noType = await newRequest({ ...handShipment(0), documents: [pdf()] });
    expect(noType.status).toBe(422);
    expect(noType.body.errors.doctypes).toEqual(['Scegli un tipo di documento per ogni documento.']);
    const badType = await newRequest({ ...handShipment(0), documents: [pdf()], doctypes: ['99999'] });
    expect(badType.status).toBe(422);
    expect(await counts(p())).toEqual(before);
    expect((await listStore(p().app.files)).filter((f) => f.area === 'documents')).toHaveLength(2);
  });

  it('refuses a document over 5 MB with 413 and stores nothing', async () => {
    const before = await counts(p());
    const res = await newRequest({ ...handShipment(0), documents: [pdf(5 * 1024 * 1024 + 10)], doctypes: [String(w.docType)] });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Il file caricato è troppo grande (limite 5 MB).');
    expect(await counts(p())).toEqual(before);
  });

  it('only end users create requests', async () => {
    const mp = await multipart(handShipment(0));
    for (const token of [w.tokens.acme, w.tokens.admin]) {
      const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token, payload: mp.payload, headers: mp.headers });
      expect(res.status).toBe(403);
    }
  });

  it('shows the request to its end user, its carrier and admins only', async () => {
    for (const [ns, token] of [
      ['enduser', w.tokens.rossi],
      ['company', w.tokens.acme],
      ['admin', w.tokens.admin],
    ] as const) {
      const res = await p().api('GET', `/${ns}/transport_requests/show/${handId}`, { token });
      expect(res.status, ns).toBe(200);
      expect(res.body.data.id).toBe(handId);
      expect(res.body.data.documents[0].file_path).toBe(`/${ns}/transport_requests/documents/${docId}`);
    }
    expect((await p().api('GET', `/company/transport_requests/show/${handId}`, { token: w.tokens.beta })).status).toBe(404);
    expect((await p().api('GET', `/enduser/transport_requests/show/${handId}`, { token: w.tokens.bianchi })).status).toBe(404);
    expect((await p().api('GET', `/admin/transport_requests/show/${handId}`, { token: w.tokens.acme })).status).toBe(403);
  });

  it('downloads a document as an attachment only for those who may see the request', async () => {
    for (const [ns, token] of [
      ['enduser', w.tokens.rossi],
      ['company', w.tokens.acme],
      ['admin', w.tokens.admin],
    ] as const) {
      const res = await p().app.inject({
        method: 'GET',
        url: `/api/v1/${ns}/transport_requests/documents/${docId}`,
        headers: { 'x-api-password': p().config.apiPassword, authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, ns).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toBe('attachment; filename="bolla.pdf"; filename*=UTF-8\'\'bolla.pdf');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(pdf(2048).data)).toBe(true);
    }
    expect((await p().api('GET', `/company/transport_requests/documents/${docId}`, { token: w.tokens.beta })).status).toBe(404);
    expect((await p().api('GET', `/enduser/transport_requests/documents/${docId}`, { token: w.tokens.bianchi })).status).toBe(404);
    expect((await p().api('GET', `/enduser/transport_requests/documents/${docId}`)).status).toBe(401);
  });

  it('refuses to confirm a request still to be quoted, until its carrier sets the price', async () => {
    const confirm = await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.acme,
      body: { id: handId, transport_request_status_id: 3 },
    });
    expect(confirm.status).toBe(422);
    expect(confirm.body.message).toBe(
      'Questa richiesta è stata inserita a mano e non ha ancora un prezzo: indica il prezzo nel modulo di modifica prima di confermarla.',
    );
    // Another carrier cannot price it (404), the end user cannot call the company namespace (403).
    expect((await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.beta, body: { tr_id: handId, price: '100' } })).status).toBe(
      404,
    );
    expect((await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.rossi, body: { tr_id: handId, price: '100' } })).status).toBe(
      403,
    );
    const bad = await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.acme, body: { tr_id: handId, price: '12,345' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.price).toEqual(['Inserisci un importo in euro, ad esempio 120,50.']);
    const priced = await p().api('POST', '/company/transport_requests/updateRequest', {
      token: w.tokens.acme,
      body: { tr_id: handId, price: '1.250,00'.replace('.', ''), adminfee: '4.5', status_id: 4, notes: 'Ritiro con sponda' },
    });
    expect(priced.status).toBe(200);
    expect(priced.body.data).toMatchObject({
      cost: 1250,
      admin_fees: 4.5,
      total: 1254.5,
      to_be_quoted: false,
      notes: 'Ritiro con sponda',
      transport_request_status_id: 1,
    });
  });

  it('lets a carrier edit the shipments of its own open request, and only those', async () => {
    const show = await p().api('GET', `/company/transport_requests/show/${handId}`, { token: w.tokens.acme });
    const s = show.body.data.shipment;
    const body = {
      tr_id: handId,
      sid: s.map((x: any) => x.id),
      pid: s.map((x: any) => x.shipment_addess_pick_up.id),
      did: s.map((x: any) => x.shipment_address_delivery.id),
      ...shipmentLists([handShipment(0, { shipperref: 'RIF-NUOVO', deliverydate: '2099-01-02' }), handShipment(1)]),
    };
    const res = await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.acme, body });
    expect(res.status).toBe(200);
    expect(res.body.data.shipment[0]).toMatchObject({ shipper_reference: 'RIF-NUOVO', delivery_date: '2099-01-02' });
    // The carrier's goods edits are ignored.
    expect(res.body.data.shipment[1].shipment_detail[0].total_units).toBe(33);
    // A shipment of another request is refused.
    const other = await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.acme, body: { ...body, sid: [s[0].id, 999999] } });
    expect(other.status).toBe(422);
    expect(other.body.errors['sid.1']).toBeDefined();
  });

  it('confirms once: 50 concurrent confirm and refuse calls make exactly one transition', async () => {
    const calls = Array.from({ length: 50 }, (_, i) =>
      p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
        token: w.tokens.acme,
        body: { id: handId, transport_request_status_id: i % 2 ? 4 : 3, note: 'Nota' },
      }),
    );
    const results = await Promise.all(calls);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    const winner = ok[0].body.data.transport_request_status_id;
    expect(ok[0].body.message).toBe(winner === 3 ? 'Richiesta confermata con successo' : 'Richiesta rifiutata con successo');
    const row = await p().db.db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', handId).executeTakeFirstOrThrow();
    expect(row.transport_request_status_id).toBe(winner);
    const conflict = results.find((r) => r.status === 409)!;
    expect(conflict.body.message).toMatch(/^Questa richiesta non è più aperta \(è (Confermata|Rifiutata)\)/);
    // The end user is told by mail.
    await expect
      .poll(() => {
        const dir = path.join(p().config.dataDir, 'outbox');
        return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))) : [];
      })
      .toEqual([
        expect.objectContaining({ to: 'enduser@portal.demo', subject: `Richiesta di trasporto n. ${handId} ${winner === 3 ? 'confermata' : 'rifiutata'}` }),
      ]);
    // No more edits or changes by the carrier once it is no longer open; an admin still may.
    expect((await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.acme, body: { tr_id: handId, notes: 'x' } })).status).toBe(
      409,
    );
    const admin = await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.admin,
      body: { id: handId, transport_request_status_id: 5 },
    });
    expect(admin.status).toBe(winner === 3 ? 200 : 200);
    expect(admin.body.message).toBe('Stato modificato con successo');
    expect(
      (
        await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
          token: w.tokens.admin,
          body: { id: handId, transport_request_status_id: 5 },
        })
      ).status,
    ).toBe(409);
  });

  it("carriers only confirm or refuse, and never another carrier's request", async () => {
    const mp = await multipart(handShipment(0));
    const created = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, payload: mp.payload, headers: mp.headers });
    const id = created.body.data.id;
    expect(
      (
        await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
          token: w.tokens.beta,
          body: { id, transport_request_status_id: 4, note: 'No' },
        })
      ).status,
    ).toBe(404);
    const bad = await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.acme,
      body: { id, transport_request_status_id: 7 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.transport_request_status_id).toEqual([
      'Un vettore può confermare o rifiutare una richiesta, poi segnarla ritirata e consegnata; non può riaprirla né annullarla.',
    ]);
    // Refusing needs no price; the status never changes through updateRequest for a carrier.
    await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.acme, body: { tr_id: id, status_id: 3, reason: 'Zona non servita' } });
    const refuse = await p().api('POST', '/company/transport_requests/updateTransportRequestStatus', {
      token: w.tokens.acme,
      body: { id, transport_request_status_id: 4, note: 'Zona non servita' },
    });
    expect(refuse.status).toBe(200);
    const row = await p().api('GET', `/enduser/transport_requests/show/${id}`, { token: w.tokens.rossi });
    expect(row.body.data).toMatchObject({ transport_request_status_id: 4, reason: 'Zona non servita', transport_request_status: { label: 'Rifiutata' } });
  });

  it('lets an admin edit any request, status included, but not confirm one without a price', async () => {
    const mp = await multipart(handShipment(0));
    const id = (await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.bianchi, payload: mp.payload, headers: mp.headers })).body
      .data.id;
    const noPrice = await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.admin, body: { tr_id: id, status_id: 3 } });
    expect(noPrice.status).toBe(422);
    expect(noPrice.body.errors.status_id).toHaveLength(1);
    const res = await p().api('POST', '/company/transport_requests/updateRequest', {
      token: w.tokens.admin,
      lang: 'en',
      body: { tr_id: id, status_id: 3, price: '80', adminfee: '', contact: 'Ufficio traffico 011 555' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Transport request updated successfully');
    expect(res.body.data).toMatchObject({ transport_request_status_id: 3, cost: 80, admin_fees: null, total: 80, contact: 'Ufficio traffico 011 555' });
    // Another carrier's admin view is full scope; the request's own carrier sees the change.
    expect((await p().api('GET', `/company/transport_requests/show/${id}`, { token: w.tokens.beta })).body.data.transport_request_status_id).toBe(3);
    expect((await p().api('POST', '/company/transport_requests/updateRequest', { token: w.tokens.admin, body: { tr_id: 999999 } })).status).toBe(404);
  });

  it('an end-user company with requests is not deleted, and the refusal says why', async () => {
    const res = await p().api('GET', `/admin/companies/destroy/${w.bianchi}`, { token: w.tokens.admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/richieste di trasporto/);
  });
});
