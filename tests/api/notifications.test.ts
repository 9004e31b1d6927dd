import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import { describeEachDb } from './helpers.js';
import { createWorld, handShipment, multipart, PASSWORD, type World } from './requestsFixtures.js';

const STATUS_URL = '/company/transport_requests/updateTransportRequestStatus';
const EDIT_URL = '/company/transport_requests/updateRequest';
type Mail = { to: string; subject: string; text: string; html?: string };

describeEachDb('notifications: the in-app bell and the status mails (issue 22 item 4)', (p) => {
  let w: World;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    w = await createWorld(p());
    const db = p().db.db;
    const now = nowIso();
    const hash = await hashPassword(PASSWORD);
    const user = async (key: string, company_id: number, role_id: number, status_id = 1) => {
      const row = await db
        .insertInto('users')
        .values({
          role_id,
          company_id,
          first_name: key,
          last_name: 'Test',
          email: `${key}@notify.test`,
          password_hash: hash,
          status_id,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[key] = Number(row.id);
      if (status_id === 1) tokens[key] = await p().login(`${key}@notify.test`, PASSWORD);
    };
    await user('staff', w.acme, 5); // Acme's Carrier Users
    await user('colleague', w.rossi, 6); // a second end user of Rossi
    await user('sleeper', w.acme, 5, 2); // inactive: never notified
    await user('support', w.acme, 7); // support does not see requests
    for (const [key, email] of [
      ['admin', 'admin@portal.demo'],
      ['acme', 'carrier@portal.demo'],
      ['rossi', 'enduser@portal.demo'],
    ]) {
      ids[key] = Number((await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);
    }
    Object.assign(tokens, w.tokens);
  });

  const ns = (who: string) => (who === 'admin' ? 'admin' : ['rossi', 'colleague', 'bianchi'].includes(who) ? 'enduser' : 'company');
  const list = async (who: string, query = '') => {
    const r = await p().api('GET', `/${ns(who)}/notifications${query}`, { token: tokens[who] });
    expect(r.status).toBe(200);
    return r.body as { data: Array<Record<string, any>>; total: number; current_page: number; last_page: number };
  };
  const unread = async (who: string) => {
    const r = await p().api('GET', `/${ns(who)}/notifications/count`, { token: tokens[who] });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(true);
    return r.body.data.unread as number;
  };
  const create = async (over: Record<string, string> = {}) => {
    const mp = await multipart(handShipment(0, over));
    const res = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, payload: mp.payload, headers: mp.headers });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  };
  /** A price, which confirming needs; an edit, so no notification and no mail. */
  const price = async (id: number) =>
    expect((await p().api('POST', EDIT_URL, { token: w.tokens.acme, body: { tr_id: id, price: '120.00' } })).status).toBe(200);
  const outbox = (): Mail[] => {
    const dir = path.join(p().config.dataDir, 'outbox');
    return fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
      : [];
  };
  const mailsFor = (to: string, id: number) => outbox().filter((m) => m.to === to && new RegExp(`\\b(no?\\.|n°) ${id}\\b`).test(m.subject));

  it('tells everyone who may see a request but the one who acted: admins, the carrier’s users, the end users of the customer company', async () => {
    const before = Object.fromEntries(
      await Promise.all(['admin', 'acme', 'staff', 'rossi', 'colleague', 'beta', 'bianchi'].map(async (k) => [k, await unread(k)])),
    );
    const id = await create();
    const after = Object.fromEntries(await Promise.all(Object.keys(before).map(async (k) => [k, await unread(k)])));
    // the booking end user made it: not told; its colleague, Acme's users and the admin are; tenant B is not
    expect(Object.fromEntries(Object.keys(before).map((k) => [k, after[k] - before[k]]))).toEqual({
      admin: 1,
      acme: 1,
      staff: 1,
      rossi: 0,
      colleague: 1,
      beta: 0,
      bianchi: 0,
    });
    const rows = await p().db.db.selectFrom('notifications').select('user_id').where('transport_request_id', '=', id).execute();
    expect(rows.map((r) => r.user_id)).not.toContain(ids.sleeper);
    expect(rows.map((r) => r.user_id)).not.toContain(ids.support);
    const [top] = (await list('acme')).data;
    expect(top).toEqual({
      id: expect.any(Number),
      transport_request_id: id,
      event: 'created',
      status_id: 1,
      created_at: expect.any(String),
      read: false,
      read_at: null,
      actor: 'Rossi Logistica S.r.l.',
    });

    // The carrier confirms: the customer's users and the admin are told, not the carrier who acted.
    await price(id);
    const c0 = { acme: await unread('acme'), staff: await unread('staff'), rossi: await unread('rossi') };
    expect((await p().api('POST', STATUS_URL, { token: w.tokens.acme, body: { id, transport_request_status_id: 3, note: 'Ritiro giovedì' } })).status).toBe(
      200,
    );
    expect(await unread('acme')).toBe(c0.acme);
    expect(await unread('staff')).toBe(c0.staff + 1);
    expect(await unread('rossi')).toBe(c0.rossi + 1);
    const mine = await list('rossi');
    expect(mine.data[0]).toMatchObject({ transport_request_id: id, event: 'status_changed', status_id: 3, read: false, actor: 'Acme Trasporti S.r.l.' });
    // an admin's change names the admin
    expect((await p().api('POST', EDIT_URL, { token: w.tokens.admin, body: { tr_id: id, status_id: 5 } })).status).toBe(200);
    expect((await list('rossi')).data[0]).toMatchObject({ status_id: 5, actor: expect.stringMatching(/\S/) });
    expect((await list('rossi')).data[0].actor).not.toBe('Acme Trasporti S.r.l.');
    // edits and new prices stay in the timeline only
    const c1 = await unread('rossi');
    expect((await p().api('POST', EDIT_URL, { token: w.tokens.admin, body: { tr_id: id, notes: 'Nuove note' } })).status).toBe(200);
    expect(await unread('rossi')).toBe(c1);
  });

  it('pages newest first, filters the unread, and marks only the caller’s own rows read', async () => {
    await create();
    await create();
    const all = await list('staff', '?per_page=2');
    expect(all.data).toHaveLength(2);
    expect(all.current_page).toBe(1);
    expect(all.last_page).toBe(Math.ceil(all.total / 2));
    expect(all.data[0].id).toBeGreaterThan(all.data[1].id);
    const page2 = await list('staff', '?per_page=2&page=2');
    expect(page2.data[0].id).toBeLessThan(all.data[1].id);

    // The staff user marks its newest read, naming also someone else's row: only its own changes.
    const adminRow = (await list('admin')).data.find((n) => !n.read)!;
    const staffUnread = await unread('staff');
    const r = await p().api('POST', '/company/notifications/read', { token: tokens.staff, body: { ids: [all.data[0].id, adminRow.id] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: true, message: '1 notifiche segnate come lette.', data: { marked: 1, unread: staffUnread - 1 } });
    expect((await list('admin')).data.find((n) => n.id === adminRow.id)!.read).toBe(false);
    expect((await list('staff')).data[0]).toMatchObject({ read: true, read_at: expect.any(String) });
    const unreadOnly = await list('staff', '?unread=1&per_page=100');
    expect(unreadOnly.total).toBe(staffUnread - 1);
    expect(unreadOnly.data.every((n) => !n.read)).toBe(true);
    // all at once
    const allRead = await p().api('POST', '/company/notifications/read', { token: tokens.staff, body: { all: true }, lang: 'en' });
    expect(allRead.body).toMatchObject({ message: `${staffUnread - 1} notifications marked as read.`, data: { marked: staffUnread - 1, unread: 0 } });
    expect(await unread('staff')).toBe(0);
    expect(await unread('admin')).toBeGreaterThan(0);

    // Bad bodies: 422 in the caller's language, nothing changed.
    for (const body of [{}, { ids: [] }, { ids: ['x'] }, { all: false }, { ids: [1], all: true }]) {
      const bad = await p().api('POST', '/enduser/notifications/read', { token: tokens.rossi, body, lang: 'fr' });
      expect(bad.status).toBe(422);
      expect(bad.body.message).toMatch(/\S/);
    }
    // Each kind its own namespace; support sees no requests and so has no bell.
    expect((await p().api('GET', '/company/notifications', { token: tokens.rossi })).status).toBe(403);
    expect((await p().api('GET', '/enduser/notifications/count', { token: tokens.acme })).status).toBe(403);
    expect((await p().api('GET', '/admin/notifications', { token: tokens.acme })).status).toBe(403);
    expect((await p().api('GET', '/company/notifications/count', { token: tokens.support })).status).toBe(403);
    expect((await p().api('GET', '/enduser/notifications/count')).status).toBe(401);
  });

  it('mails the customer and the consignee on each status change, in the customer’s language, with the carrier’s note for the customer only', async () => {
    await p().db.db.deleteFrom('consignee_mail_off').execute();
    const en = Number((await p().db.db.selectFrom('languages').select('id').where('code', '=', 'en').executeTakeFirstOrThrow()).id);
    await p().db.db.updateTable('users').set({ language_id: en }).where('id', '=', ids.rossi).execute();
    try {
      const id = await create({ consigneeemail: 'Consignee@Example.test', deliverypostalcode: '00184' });
      await price(id);
      // creation and edits mail nobody
      await new Promise((r) => setTimeout(r, 200));
      expect(mailsFor('enduser@portal.demo', id)).toHaveLength(0);
      expect(
        (await p().api('POST', STATUS_URL, { token: w.tokens.acme, body: { id, transport_request_status_id: 3, note: 'Pickup <Thursday> & Friday' } })).status,
      ).toBe(200);
      await expect.poll(() => mailsFor('enduser@portal.demo', id).length).toBe(1);
      await expect.poll(() => mailsFor('Consignee@Example.test', id).length).toBe(1);
      const [customer] = mailsFor('enduser@portal.demo', id);
      expect(customer.subject).toBe(`Transport request no. ${id} confirmed`);
      expect(customer.text).toContain(`has been confirmed by Acme Trasporti S.r.l.\n`);
      expect(customer.text).not.toContain('S.r.l..');
      expect(customer.text).toContain('Note from Acme Trasporti S.r.l.:\n> Pickup <Thursday> & Friday');
      expect(customer.text).toContain(`http://localhost:3000/#/transport-requests-visuals/${id}/1`);
      expect(customer.html).toContain('Portale Trasporti');
      expect(customer.html).toContain('#0b4f6c');
      expect(customer.html).toContain('Pickup &lt;Thursday&gt; &amp; Friday');
      expect(customer.html).toContain(`href="http://localhost:3000/#/transport-requests-visuals/${id}/1"`);
      const [consignee] = mailsFor('Consignee@Example.test', id);
      expect(consignee.subject).toBe(`Shipment no. ${id} for you: confirmed`);
      expect(consignee.text).toContain(`http://localhost:3000/#/track?code=${id}&postal_code=00184`);
      expect(consignee.text).not.toContain('Thursday');
      expect(consignee.html).not.toContain('Thursday');
      expect(consignee.html).toContain(`href="http://localhost:3000/#/track?code=${id}&amp;postal_code=00184"`);

      // Every later status mails both: in transit, delivered, each in its own words.
      expect((await p().api('POST', STATUS_URL, { token: w.tokens.admin, body: { id, transport_request_status_id: 5 } })).status).toBe(200);
      await expect.poll(() => mailsFor('Consignee@Example.test', id).map((m) => m.subject)).toContain(`Shipment no. ${id} for you: in transit`);
      await expect.poll(() => mailsFor('enduser@portal.demo', id).map((m) => m.subject)).toContain(`Transport request no. ${id} in transit`);

      // The carrier switches the consignee mail of "delivered" off: the customer is still told, the consignee not.
      const off = await p().api('POST', '/company/notification_settings/update', {
        token: w.tokens.acme,
        body: { consignee: [{ status_id: 6, enabled: false }] },
      });
      expect(off.status).toBe(200);
      expect((await p().api('POST', STATUS_URL, { token: w.tokens.admin, body: { id, transport_request_status_id: 6 } })).status).toBe(200);
      await expect.poll(() => mailsFor('enduser@portal.demo', id).map((m) => m.subject)).toContain(`Transport request no. ${id} delivered`);
      await new Promise((r) => setTimeout(r, 300));
      expect(
        mailsFor('Consignee@Example.test', id)
          .map((m) => m.subject)
          .sort(),
      ).toEqual([`Shipment no. ${id} for you: confirmed`, `Shipment no. ${id} for you: in transit`]);
    } finally {
      await p().db.db.updateTable('users').set({ language_id: null }).where('id', '=', ids.rossi).execute();
    }
  });

  it('writes the mails in Italian and French too, from the same templates', async () => {
    const fr = Number((await p().db.db.selectFrom('languages').select('id').where('code', '=', 'fr').executeTakeFirstOrThrow()).id);
    const id = await create({ consigneeemail: 'dest-it@example.test' });
    expect((await p().api('POST', STATUS_URL, { token: w.tokens.acme, body: { id, transport_request_status_id: 4, note: 'Zona non servita' } })).status).toBe(
      200,
    );
    await expect.poll(() => mailsFor('enduser@portal.demo', id).map((m) => m.subject)).toEqual([`Richiesta di trasporto n. ${id} rifiutata`]);
    expect(mailsFor('enduser@portal.demo', id)[0].text).toMatch(
      /^Gentile .+,\n\nla tua richiesta di trasporto n\. \d+ del \d\d\/\d\d\/\d{4} \(Bologna → Roma\) è stata rifiutata da Acme/,
    );
    expect(mailsFor('enduser@portal.demo', id)[0].text).toContain('Nota di Acme Trasporti S.r.l.:\n> Zona non servita');
    await expect.poll(() => mailsFor('dest-it@example.test', id).map((m) => m.subject)).toEqual([`Spedizione n. ${id} per voi: non accettata`]);

    await p().db.db.updateTable('users').set({ language_id: fr }).where('id', '=', ids.rossi).execute();
    try {
      const id2 = await create();
      expect((await p().api('POST', EDIT_URL, { token: w.tokens.admin, body: { tr_id: id2, price: '100', status_id: 7 } })).status).toBe(200);
      await expect.poll(() => mailsFor('enduser@portal.demo', id2).map((m) => m.subject)).toEqual([`Demande de transport n° ${id2} annulée`]);
      expect(mailsFor('enduser@portal.demo', id2)[0].text).toContain('Bonjour');
      expect(mailsFor('enduser@portal.demo', id2)[0].html).toContain('<html lang="fr">');
    } finally {
      await p().db.db.updateTable('users').set({ language_id: null }).where('id', '=', ids.rossi).execute();
    }
  });

  it('keeps a consignee e-mail per shipment, refusing a malformed one with a message on its field', async () => {
    const mp = await multipart(handShipment(0, { consigneeemail: 'not-an-address' }));
    const bad = await p().api('POST', '/enduser/transport_requests/newRequest', { token: w.tokens.rossi, payload: mp.payload, headers: mp.headers });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.consigneeemail).toEqual(['Il campo e-mail del destinatario deve essere un indirizzo email valido.']);
    const id = await create({ consigneeemail: 'dest@example.test' });
    const show = await p().api('GET', `/enduser/transport_requests/show/${id}`, { token: w.tokens.rossi });
    expect(show.body.data.shipment[0].consignee_email).toBe('dest@example.test');
    // an edit that does not send the list keeps it
    const s = show.body.data.shipment[0];
    const edit = await p().api('POST', EDIT_URL, {
      token: w.tokens.acme,
      body: {
        tr_id: id,
        sid: [s.id],
        shipperref: ['RIF-X'],
        pickupdate: [s.pickup_date],
        pickuptimefrom: ['08:00'],
        pickuptimeto: ['12:00'],
        ...addressLists(),
      },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data.shipment[0]).toMatchObject({ shipper_reference: 'RIF-X', consignee_email: 'dest@example.test' });
  });

  it('lets a carrier switch consignee mails per status (all on by default), audited; end users and other kinds may not', async () => {
    const get = await p().api('GET', '/company/notification_settings', { token: w.tokens.beta });
    expect(get.status).toBe(200);
    expect(get.body.data.consignee).toEqual([1, 3, 4, 5, 6, 7].map((status_id) => ({ status_id, enabled: true })));
    const set = await p().api('POST', '/company/notification_settings/update', {
      token: w.tokens.beta,
      body: {
        consignee: [
          { status_id: 5, enabled: false },
          { status_id: 7, enabled: false },
        ],
      },
      lang: 'en',
    });
    expect(set.status).toBe(200);
    expect(set.body.message).toBe('Consignee e-mail settings saved.');
    expect(set.body.data.consignee.filter((s: any) => !s.enabled).map((s: any) => s.status_id)).toEqual([5, 7]);
    // another carrier's switches are its own
    expect(
      (await p().api('GET', '/company/notification_settings', { token: w.tokens.acme })).body.data.consignee.find((s: any) => s.status_id === 5).enabled,
    ).toBe(true);
    const audit = await p()
      .db.db.selectFrom('audit_log')
      .selectAll()
      .where('resource', '=', 'notification_settings')
      .where('company_id', '=', w.beta)
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('update');
    expect(audit.tenant_id).toBe(w.beta);
    expect(JSON.parse(String(audit.changes))).toEqual({ consignee_mail_5: { before: true, after: false }, consignee_mail_7: { before: true, after: false } });
    const back = await p().api('POST', '/company/notification_settings/update', {
      token: w.tokens.beta,
      body: { consignee: [{ status_id: 5, enabled: true }] },
    });
    expect(back.body.data.consignee.filter((s: any) => !s.enabled).map((s: any) => s.status_id)).toEqual([7]);
    const bad = await p().api('POST', '/company/notification_settings/update', {
      token: w.tokens.beta,
      body: { consignee: [{ status_id: 2, enabled: true }] },
      lang: 'fr',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty(['consignee.0.status_id']);
    expect((await p().api('GET', '/company/notification_settings', { token: w.tokens.rossi })).status).toBe(403);
    expect(
      (await p().api('POST', '/company/notification_settings/update', { token: w.tokens.admin, body: { consignee: [{ status_id: 5, enabled: false }] } }))
        .status,
    ).toBe(403);
  });
});

/** The address lists of one shipment, as handShipment has them. */
function addressLists(): Record<string, string[]> {
  const s = handShipment(0);
  const keys = Object.keys(s).filter((k) => /^(pickup|delivery)(locationname|address|postalcode|city|province|country)$/.test(k));
  return Object.fromEntries(keys.map((k) => [k, [s[k]]]));
}
