import { beforeAll, expect, it } from 'vitest';
import { COMPANY_ROLE, USER_ROLE } from '../../model/roles.js';
import { buildApp } from '../../server/app.js';
import { openDb } from '../../server/db/index.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import { DEMO, describeEachDb, type TestPortal } from './helpers.js';

const PASSWORD = 'chat-pass-1';

/** Adds a company and a user straight into the database (the companies and users screens are other issues). */
async function addCompany(p: TestPortal, legal_name: string, company_role_id: number, carrier_id: number | null) {
  const now = nowIso();
  const row = await p.db.db
    .insertInto('companies')
    .values({
      legal_name,
      company_role_id,
      carrier_id,
      status_id: 1,
      is_inbound: 1,
      type: 'Customer',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
async function addUser(p: TestPortal, email: string, role_id: number, company_id: number, first_name: string, last_name: string) {
  const now = nowIso();
  await p.db.db
    .insertInto('users')
    .values({
      role_id,
      company_id,
      first_name,
      last_name,
      email,
      password_hash: await hashPassword(PASSWORD),
      status_id: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return p.login(email, PASSWORD);
}

describeEachDb('support chat', (p) => {
  const t: Record<string, string> = {};
  let categoryId = 0;
  let chatA = 0; // a ticket of the demo end user (carrier A)
  let chatB = 0; // a ticket of carrier B's end user

  const send = (who: 'enduser' | 'company', token: string, chat_id: number, message: string, lang?: string) =>
    p().api('POST', `/${who}/chats/sendChatMessage`, { token, body: { chat_id, message }, lang });
  const readEnduser = (token: string, chat_id: number, extra = '') => p().api('GET', `/enduser/chats/getChatMessages?chat_id=${chat_id}${extra}`, { token });
  const readCompany = (token: string, body: Record<string, unknown>) => p().api('POST', '/company/chats/getChatMessages', { token, body });
  const countRows = async () => ({
    tickets: Number(
      (
        await p()
          .db.db.selectFrom('tickets')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    messages: Number(
      (
        await p()
          .db.db.selectFrom('chat_messages')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  beforeAll(async () => {
    t.admin = await p().login(DEMO.admin);
    t.carrierA = await p().login(DEMO.carrier);
    t.enduserA = await p().login(DEMO.enduser);
    const demoEnduser = await p().db.db.selectFrom('users').select(['company_id']).where('email', '=', DEMO.enduser).executeTakeFirstOrThrow();
    const demoCarrier = await p().db.db.selectFrom('users').select(['company_id']).where('email', '=', DEMO.carrier).executeTakeFirstOrThrow();
    t.supportA = await addUser(p(), 'support@acme.test', USER_ROLE.SUPPORT, demoCarrier.company_id, 'Sara', 'Supporto');
    t.colleagueA = await addUser(p(), 'collega@rossi.test', USER_ROLE.ENDUSER, demoEnduser.company_id, 'Marco', 'Collega');
    const carrierB = await addCompany(p(), 'Beta Spedizioni S.p.A.', COMPANY_ROLE.CARRIER, null);
    const enduserB = await addCompany(p(), 'Verdi Import S.r.l.', COMPANY_ROLE.ENDUSER, carrierB);
    t.carrierB = await addUser(p(), 'carrier@beta.test', USER_ROLE.CARRIER, carrierB, 'Bruno', 'Beta');
    t.enduserB = await addUser(p(), 'enduser@verdi.test', USER_ROLE.ENDUSER, enduserB, 'Vera', 'Verdi');
  });

  it('lists the ticket categories for the new-ticket form', async () => {
    const r = await p().api('GET', '/visitor/ticket_categories');
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThanOrEqual(4);
    expect(r.body.data[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    categoryId = r.body.data[0].id;
  });

  it('lets an end user open a ticket with a first message, and its carrier and support see it unread', async () => {
    const r = await p().api('POST', '/enduser/chats/newTicket', {
      token: t.enduserA,
      body: { ticket_category_id: categoryId, subject: '  Ritiro   in ritardo ', message: '  Il ritiro di ieri non è avvenuto.\r\nPotete verificare?  ' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: true, message: 'Ticket aperto: il tuo vettore ti risponderà qui.' });
    expect(r.body.data).toMatchObject({
      subject: 'Ritiro in ritardo',
      status: 'open',
      ticket_category_id: categoryId,
      enduser_user_name: 'Elena Rossi',
      unread: 0,
    });
    chatA = r.body.data.chat_id;
    expect(r.body.data.id).toBe(chatA);

    const mine = await p().api('GET', '/enduser/chats/getTickets', { token: t.enduserA });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ current_page: 1, per_page: 15, last_page: 1, total: 1 });
    expect(mine.body.data[0]).toMatchObject({
      id: chatA,
      last_message: 'Il ritiro di ieri non è avvenuto.\nPotete verificare?',
      last_sender_side: 'enduser',
      unread: 0,
    });
    expect(mine.body.data[0].category_name).toBeTruthy();

    for (const token of [t.carrierA, t.supportA]) {
      const list = await p().api('GET', '/company/chats/getChatUsers', { token });
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(1);
      expect(list.body.data[0]).toMatchObject({
        id: chatA,
        enduser_company_name: 'Rossi Logistica S.r.l.',
        enduser_user_name: 'Elena Rossi',
        unread: 1,
        status: 'open',
      });
      const unread = await p().api('GET', '/company/chats/unread', { token });
      expect(unread.body.data).toEqual({ messages: 1, chats: 1 });
    }
    // A colleague of the same end-user company shares the company's tickets.
    const colleague = await p().api('GET', '/enduser/chats/getTickets', { token: t.colleagueA });
    expect(colleague.body.data.map((x: any) => x.id)).toEqual([chatA]);
  });

  it('refuses bad tickets with 422 in the caller’s language and stores nothing', async () => {
    const before = await countRows();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ subject: 'x', message: 'y' }, 'ticket_category_id', /obbligatorio/],
      [{ ticket_category_id: categoryId, subject: '   ', message: 'y' }, 'subject', /Il campo oggetto è obbligatorio/],
      [{ ticket_category_id: categoryId, subject: 'x', message: ' \n\t ' }, 'message', /Il campo messaggio è obbligatorio/],
      [{ ticket_category_id: 99999, subject: 'x', message: 'y' }, 'ticket_category_id', /categoria/],
      [{ ticket_category_id: categoryId, subject: 'x'.repeat(151), message: 'y' }, 'subject', /150/],
      [{ ticket_category_id: categoryId, subject: 'x', message: 'y'.repeat(4001) }, 'message', /4000/],
    ];
    for (const [body, field, text] of cases) {
      const r = await p().api('POST', '/enduser/chats/newTicket', { token: t.enduserA, body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.body.errors[field]?.[0]).toMatch(text);
    }
    const en = await p().api('POST', '/enduser/chats/newTicket', {
      token: t.enduserA,
      lang: 'en',
      body: { ticket_category_id: categoryId, subject: 'x', message: '' },
    });
    expect(en.body.errors.message[0]).toMatch(/The message field must be at least 1 characters|required/);
    expect(await countRows()).toEqual(before);
  });

  it('exchanges messages: incremental reads with `after`, read marks, unread counts on both sides', async () => {
    const first = await readCompany(t.carrierA, { chat_id: chatA });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.data[0]).toMatchObject({ sender_name: 'Elena Rossi', sender_side: 'enduser', is_mine: false });
    expect(first.body.ticket).toMatchObject({ id: chatA, status: 'open', unread: 0 });
    expect((await p().api('GET', '/company/chats/unread', { token: t.supportA })).body.data).toEqual({ messages: 0, chats: 0 });
    // The end user sees its message read by the carrier.
    const seen = await readEnduser(t.enduserA, chatA);
    expect(seen.body.read_up_to).toBe(first.body.data[0].id);
    const lastId = seen.body.data.at(-1).id;

    const reply = await send('company', t.carrierA, chatA, 'Buongiorno, verifichiamo subito con l’autista.');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: true,
      message: 'Messaggio inviato',
      data: { sender_name: 'Carlo Corriere', sender_side: 'carrier', is_mine: true },
    });
    const second = await send('company', t.supportA, chatA, 'Il ritiro è riprogrammato per domani mattina.');
    expect(second.status).toBe(200);

    expect((await p().api('GET', '/enduser/chats/unread', { token: t.enduserA })).body.data).toEqual({ messages: 2, chats: 1 });
    const listed = await p().api('GET', '/enduser/chats/getTickets', { token: t.colleagueA });
    expect(listed.body.data[0]).toMatchObject({ unread: 2, last_sender_side: 'carrier', last_sender_name: 'Sara Supporto' });

    // Hidden window: reading without marking leaves them unread.
    const peek = await readEnduser(t.enduserA, chatA, `&after=${lastId}&mark_read=false`);
    expect(peek.body.data.map((m: any) => m.body)).toEqual(['Buongiorno, verifichiamo subito con l’autista.', 'Il ritiro è riprogrammato per domani mattina.']);
    expect((await p().api('GET', '/enduser/chats/unread', { token: t.enduserA })).body.data.messages).toBe(2);

    const fresh = await readEnduser(t.enduserA, chatA, `&after=${lastId}`);
    expect(fresh.body.data).toHaveLength(2);
    expect(fresh.body.data.every((m: any) => m.sender_side === 'carrier' && !m.is_mine)).toBe(true);
    expect(fresh.body.ticket.unread).toBe(0);
    expect((await p().api('GET', '/enduser/chats/unread', { token: t.colleagueA })).body.data).toEqual({ messages: 0, chats: 0 });
    // Nothing newer: an empty page, and the carrier's messages now count as read for the carrier.
    const none = await readEnduser(t.enduserA, chatA, `&after=${fresh.body.data[1].id}`);
    expect(none.body.data).toEqual([]);
    expect((await readCompany(t.carrierA, { chat_id: chatA, after: fresh.body.data[1].id })).body.read_up_to).toBe(fresh.body.data[1].id);

    // Answering marks what the other side wrote as read.
    await send('enduser', t.enduserA, chatA, 'Grazie!');
    await send('company', t.carrierA, chatA, 'Prego.');
    expect((await p().api('GET', '/company/chats/unread', { token: t.carrierA })).body.data.messages).toBe(0);
  });

  it('pages history with `before` and `limit`', async () => {
    const all = (await readCompany(t.carrierA, { chat_id: chatA })).body.data;
    expect(all.length).toBe(5);
    expect(all.map((m: any) => m.id)).toEqual([...all.map((m: any) => m.id)].sort((a: number, b: number) => a - b));
    const newest = await readCompany(t.carrierA, { chat_id: chatA, limit: 2 });
    expect(newest.body.data.map((m: any) => m.id)).toEqual(all.slice(-2).map((m: any) => m.id));
    expect(newest.body.has_more).toBe(true);
    const older = await readCompany(t.carrierA, { chat_id: chatA, before: newest.body.data[0].id, limit: 10 });
    expect(older.body.data.map((m: any) => m.id)).toEqual(all.slice(0, 3).map((m: any) => m.id));
    expect(older.body.has_more).toBe(false);
    const after = await readCompany(t.carrierA, { chat_id: chatA, after: all[0].id, limit: 2 });
    expect(after.body.data.map((m: any) => m.id)).toEqual(all.slice(1, 3).map((m: any) => m.id));
    expect(after.body.has_more).toBe(true);
  });

  it('keeps markup as literal text and refuses empty, too long or control-only messages', async () => {
    const html = `<b>grassetto</b><script>alert("x")</script><img src=x onerror=alert(1)> & 'ok'`;
    const r = await send('enduser', t.enduserA, chatA, html);
    expect(r.status).toBe(200);
    expect(r.body.data.body).toBe(html);
    const back = await readCompany(t.carrierA, { chat_id: chatA, after: r.body.data.id - 1 });
    expect(back.body.data[0].body).toBe(html);

    const before = await countRows();
    const tooLong = await send('enduser', t.enduserA, chatA, 'a'.repeat(4001));
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.message[0]).toBe('Il campo messaggio non può superare 4000 caratteri.');
    expect((await send('company', t.carrierA, chatA, 'a'.repeat(4001), 'fr')).body.errors.message[0]).toMatch(/4000/);
    expect((await send('enduser', t.enduserA, chatA, '   \n  ')).status).toBe(422);
    expect((await send('enduser', t.enduserA, chatA, '\u0000\u0001')).status).toBe(422);
    expect((await p().api('POST', '/enduser/chats/sendChatMessage', { token: t.enduserA, body: { chat_id: chatA } })).status).toBe(422);
    expect(await countRows()).toEqual(before);

    const max = await send('enduser', t.enduserA, chatA, 'é'.repeat(4000));
    expect(max.status).toBe(200);
    expect(max.body.data.body).toHaveLength(4000);
    // NUL and other control characters are dropped (PostgreSQL refuses NUL in text); newlines and tabs stay.
    const ctrl = await send('enduser', t.enduserA, chatA, 'riga\u0000 uno\n\triga due');
    expect(ctrl.body.data.body).toBe('riga uno\n\triga due');
  });

  it('keeps tenants apart: other carriers’ and other companies’ chats answer 404', async () => {
    const rb = await p().api('POST', '/enduser/chats/newTicket', {
      token: t.enduserB,
      body: { ticket_category_id: categoryId, subject: 'Fattura', message: 'Domanda sulla fattura di marzo' },
    });
    expect(rb.status).toBe(200);
    chatB = rb.body.data.id;
    expect(rb.body.data.carrier_company_id).not.toBe((await readCompany(t.carrierA, { chat_id: chatA })).body.ticket.carrier_company_id);

    // Lists hold only the caller's scope.
    expect((await p().api('GET', '/enduser/chats/getTickets', { token: t.enduserB })).body.data.map((x: any) => x.id)).toEqual([chatB]);
    expect((await p().api('GET', '/company/chats/getChatUsers', { token: t.carrierB })).body.data.map((x: any) => x.id)).toEqual([chatB]);
    expect((await p().api('GET', '/company/chats/getChatUsers', { token: t.carrierA })).body.data.map((x: any) => x.id)).toEqual([chatA]);
    expect((await p().api('GET', '/company/chats/unread', { token: t.carrierA })).body.data.chats).toBeLessThanOrEqual(1);
    expect((await p().api('GET', '/company/chats/unread', { token: t.carrierB })).body.data).toEqual({ messages: 1, chats: 1 });

    const before = await countRows();
    // End user of carrier A against carrier B's ticket, and the other way round.
    for (const [token, chat] of [
      [t.enduserA, chatB],
      [t.enduserB, chatA],
    ] as const) {
      expect((await readEnduser(token, chat)).status).toBe(404);
      const w = await send('enduser', token, chat, 'intrusione');
      expect(w.status).toBe(404);
      expect(w.body.message).toBe('Non trovato');
    }
    // Carrier B against carrier A's ticket, and A against B's.
    for (const [token, chat] of [
      [t.carrierB, chatA],
      [t.carrierA, chatB],
      [t.supportA, chatB],
    ] as const) {
      expect((await readCompany(token, { chat_id: chat })).status).toBe(404);
      expect((await send('company', token, chat, 'intrusione')).status).toBe(404);
      expect((await p().api('POST', '/company/chats/closeChat', { token, body: { chat_id: chat } })).status).toBe(404);
    }
    expect((await readCompany(t.carrierA, { chat_id: 987654 })).status).toBe(404);
    // A filter naming another carrier's end user finds nothing.
    const bCompany = rb.body.data.enduser_company_id;
    expect((await p().api('GET', `/company/chats/getChatUsers?enduser_id=${bCompany}`, { token: t.carrierA })).body.total).toBe(0);
    expect(await countRows()).toEqual(before);
    expect((await readCompany(t.carrierB, { chat_id: chatB })).body.ticket.status).toBe('open');
  });

  it('lets only the right kinds call each side', async () => {
    expect((await p().api('GET', '/enduser/chats/getTickets', { token: t.carrierA })).status).toBe(403);
    expect((await p().api('GET', '/enduser/chats/getTickets', { token: t.supportA })).status).toBe(403);
    expect(
      (await p().api('POST', '/enduser/chats/newTicket', { token: t.carrierA, body: { ticket_category_id: categoryId, subject: 'x', message: 'y' } })).status,
    ).toBe(403);
    expect((await p().api('GET', '/company/chats/getChatUsers', { token: t.enduserA })).status).toBe(403);
    expect((await p().api('POST', '/company/chats/closeChat', { token: t.enduserA, body: { chat_id: chatA } })).status).toBe(403);
    for (const url of ['/company/chats/getChatUsers', '/enduser/chats/getTickets', '/company/chats/unread', '/enduser/chats/unread']) {
      expect((await p().api('GET', url, { token: t.admin })).status, url).toBe(403);
    }
    expect((await p().api('GET', '/enduser/chats/getTickets')).status).toBe(401);
  });

  it('filters, searches and sorts the ticket lists', async () => {
    const second = await p().api('POST', '/enduser/chats/newTicket', {
      token: t.colleagueA,
      body: { ticket_category_id: categoryId, subject: 'Etichette 100% pallet_A', message: 'Come stampo le etichette?' },
    });
    expect(second.status).toBe(200);
    const list = async (qs: string) => (await p().api('GET', `/company/chats/getChatUsers?${qs}`, { token: t.carrierA })).body;
    expect((await list('')).data.map((x: any) => x.id)).toEqual([second.body.data.id, chatA]); // newest activity first
    expect((await list('sort=created_at&order=asc')).data.map((x: any) => x.id)).toEqual([chatA, second.body.data.id]);
    expect((await list('q=etichette')).data.map((x: any) => x.id)).toEqual([second.body.data.id]);
    expect((await list('q=100%25')).total).toBe(1);
    expect((await list('q=_')).total).toBe(1); // the wildcard is literal
    expect((await list('q=ROSSI')).total).toBe(2); // the company name is searched too
    expect((await list('per_page=1&page=2')).data.map((x: any) => x.id)).toEqual([chatA]);
    expect((await list('status=closed')).total).toBe(0);
    expect((await p().api('GET', '/company/chats/getChatUsers?status=maybe', { token: t.carrierA })).status).toBe(422);
  });

  it('closes a chat: no new message from either side (409), closing twice is 409, the end user sees it closed', async () => {
    const r = await p().api('POST', '/company/chats/closeChat', { token: t.supportA, body: { chat_id: chatA } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: true, message: 'Chat chiusa', data: { status: 'closed', closed_by_name: 'Sara Supporto' } });
    expect(r.body.data.closed_at).toBeTruthy();

    const before = await countRows();
    const e = await send('enduser', t.enduserA, chatA, 'Ancora una domanda');
    expect(e.status).toBe(409);
    expect(e.body.message).toBe('Questa chat è chiusa e non accetta nuovi messaggi. Apri un nuovo ticket se ti serve altro aiuto.');
    const c = await send('company', t.carrierA, chatA, 'Ultima risposta', 'en');
    expect(c.status).toBe(409);
    expect(c.body.message).toMatch(/^This chat is closed/);
    const twice = await p().api('POST', '/company/chats/closeChat', { token: t.carrierA, body: { chat_id: chatA } });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Questa chat è già chiusa.');
    expect(await countRows()).toEqual(before);

    const seen = await readEnduser(t.enduserA, chatA);
    expect(seen.body.ticket).toMatchObject({ status: 'closed', closed_by_name: 'Sara Supporto' });
    expect((await p().api('GET', '/enduser/chats/getTickets?status=closed', { token: t.enduserA })).body.data.map((x: any) => x.id)).toEqual([chatA]);
    expect((await p().api('GET', '/enduser/chats/getTickets?status=open', { token: t.enduserA })).body.data.map((x: any) => x.id)).not.toContain(chatA);
  });

  it('orders concurrent messages by id and lets exactly one of two concurrent closes win', async () => {
    const before = (await readCompany(t.carrierB, { chat_id: chatB })).body.data.at(-1).id;
    const texts = Array.from({ length: 8 }, (_, i) => `messaggio ${i}`);
    const results = await Promise.all(texts.map((m, i) => send(i % 2 ? 'company' : 'enduser', i % 2 ? t.carrierB : t.enduserB, chatB, m)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const got = (await readCompany(t.carrierB, { chat_id: chatB, after: before })).body.data;
    expect(got.map((m: any) => m.body).sort()).toEqual([...texts].sort());
    expect(got.map((m: any) => m.id)).toEqual([...got.map((m: any) => m.id)].sort((a: number, b: number) => a - b));

    const closes = await Promise.all([1, 2].map(() => p().api('POST', '/company/chats/closeChat', { token: t.carrierB, body: { chat_id: chatB } })));
    expect(closes.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('works across server processes: a second app on the same database sees messages, unread counts and closes', async () => {
    // A second "process": its own app and connection pool on the same database, nothing shared in memory.
    const { config } = p();
    const db2 = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
    const app2 = await buildApp({ config, db: db2 });
    try {
      const call = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
        const r = await app2.inject({
          method,
          url: `/api/v1${url}`,
          headers: { 'x-api-password': p().config.apiPassword, authorization: `Bearer ${token}` },
          payload: body as any,
        });
        return { status: r.statusCode, body: r.json() };
      };
      const opened = await p().api('POST', '/enduser/chats/newTicket', {
        token: t.enduserA,
        body: { ticket_category_id: categoryId, subject: 'Due processi', message: 'Scritto sul primo' },
      });
      const id = opened.body.data.id;
      const seen = await call('POST', '/company/chats/getChatMessages', t.carrierA, { chat_id: id });
      expect(seen.status).toBe(200);
      expect(seen.body.data.map((m: any) => m.body)).toEqual(['Scritto sul primo']);
      const last = seen.body.data[0].id;
      expect((await call('POST', '/company/chats/sendChatMessage', t.carrierA, { chat_id: id, message: 'Risposto dal secondo' })).status).toBe(200);
      expect((await p().api('GET', '/enduser/chats/unread', { token: t.enduserA })).body.data.messages).toBe(1);
      const polled = await readEnduser(t.enduserA, id, `&after=${last}`);
      expect(polled.body.data.map((m: any) => m.body)).toEqual(['Risposto dal secondo']);
      expect((await call('POST', '/company/chats/closeChat', t.carrierA, { chat_id: id })).status).toBe(200);
      expect((await send('enduser', t.enduserA, id, 'Ancora?')).status).toBe(409);
      expect((await readEnduser(t.enduserA, id, `&after=${polled.body.data[0].id}`)).body.ticket.status).toBe('closed');
    } finally {
      await app2.close();
      await db2.destroy();
    }
  });
});
