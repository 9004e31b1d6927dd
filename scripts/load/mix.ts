/**
 * The traffic mix: each operation is ONE HTTP call of a portal screen, with its share of the calls.
 * Shares (choice, from how the portal is used): quotes are most of the traffic (the public calculator
 * and the customers' own), then the request lists of the three kinds of user, the chat (the browser
 * polls the unread badge, reads and writes messages), the dashboard, and a few writes: requests
 * booked from a quote or typed by hand, tickets; sign-in and sign-out a few per cent. Every call is
 * valid: a non-2xx answer (or a 200 with status false) means a fault on one side, and is reported.
 */
import { romeDate } from '../../server/lib/romeTime.js';
import { formData, type CallOptions, type Reply } from './http.js';
import type { Ledger } from './ledger.js';
import { message, pdf, pick, QUOTES, quoteFields, quotedPrice, shipmentFields, subject, type QuoteBody, type Rng } from './bodies.js';
import type { Actor, World } from './world.js';
import { PASSWORD } from './world.js';

export interface Ctx {
  world: World;
  ledger: Ledger;
  r: Rng;
  seq(): number;
  /** the next visitor's address (round robin over the pool) */
  visitor(): string;
  /** sends one call for `kind`, timed from its scheduled start; the reply when it is a success, else null */
  send(kind: string, o: Omit<CallOptions, 'base'>): Promise<Reply | null>;
  /** the last quote answers of each end-user company (what the browser hands to the create form) */
  quotes: Map<number, Array<{ body: QuoteBody; data: any }>>;
}

export interface Operation {
  share: number;
  run(c: Ctx): Promise<unknown>;
}

const as = (a: Actor) => ({ from: a.address, token: a.token });
const endUser = (c: Ctx) => pick(c.r, c.world.endUsers);
const carrier = (c: Ctx) => pick(c.r, c.world.carriers);
const recent = <T>(list: T[] | undefined, n = 5) => (list?.length ? list.slice(-n) : []);
const listQuery = (c: Ctx, extra: Record<string, string | number | undefined> = {}) => ({
  page: c.r() < 0.8 ? 1 : 2,
  per_page: pick(c.r, [10, 15, 25]),
  ...(c.r() < 0.3 ? { transport_request_status_id: 1 } : {}),
  ...(c.r() < 0.2 ? { date: romeDate() } : {}),
  ...(c.r() < 0.2 ? { sort: 'cost', order: 'desc' } : {}),
  ...extra,
});

async function signIn(c: Ctx) {
  const a = pick(c.r, c.world.all);
  const res = await c.send('sign-in', {
    from: a.address,
    method: 'POST',
    path: '/visitor/login',
    json: { email: a.email, password: PASSWORD, remember: c.r() < 0.3 },
  });
  if (res) a.spare.push(res.body.token);
}

async function signOut(c: Ctx) {
  const a = c.world.all.find((x) => x.spare.length);
  if (!a) return signIn(c);
  const token = a.spare.shift()!;
  return c.send('sign-out', { from: a.address, token, method: 'GET', path: '/visitor/logout' });
}

async function endUserQuote(c: Ctx) {
  const a = endUser(c);
  const body = pick(c.r, QUOTES);
  const res = await c.send('quote (end user)', { ...as(a), method: 'POST', path: '/visitor/costRequest', json: body });
  if (!res) return;
  const list = c.quotes.get(a.companyId) ?? [];
  list.push({ body, data: res.body.data });
  if (list.length > 10) list.shift();
  c.quotes.set(a.companyId, list);
}

/** An end user books: from one of its company's quotes (as the calculator hands it over) or typed by hand. */
async function createRequest(c: Ctx) {
  const a = endUser(c);
  const seq = c.seq();
  const quoted = c.r() < 0.6 ? recent(c.quotes.get(a.companyId), 10) : [];
  const q = quoted.length ? pick(c.r, quoted) : null;
  const { fields, sent } = shipmentFields(c.r, seq, q ? 1 : 1 + Math.floor(c.r() * 2), !q);
  const notes = `Carico di prova ${seq} — ${a.email}`;
  const withDoc = c.r() < 0.25;
  const body: Record<string, any> = { ...fields, notes, ...(withDoc ? { documents: [pdf(c.r, seq)], doctypes: [String(c.world.docType)] } : {}) };
  let quote;
  if (q) {
    const cls = q.body.service === 'palletExpress' ? pick(c.r, ['SILVER', 'GOLD'] as const) : null;
    const price = quotedPrice(q.body, q.data, cls ?? 'SILVER');
    Object.assign(body, quoteFields(q.body), cls ? { shipmentclass: cls } : {}, { cost: price.cost.toFixed(2), admin_fees: price.fee.toFixed(2) });
    for (const s of sent) {
      s.pickup = { postal: q.body.originPostalCode, city: q.body.originLocality };
      s.delivery = { postal: q.body.destinationPostalCode, city: q.body.destinationLocality };
    }
    quote = {
      service: q.body.service,
      cls: cls ?? 'STANDARD',
      cost: Math.round(price.cost * 100),
      fee: Math.round(price.fee * 100),
      pallets: (q.body.palletWeight as number[] | undefined)?.length ?? 0,
    };
  }
  const res = await c.send(q ? 'request create (quote)' : 'request create (hand)', {
    ...as(a),
    method: 'POST',
    path: '/enduser/transport_requests/newRequest',
    multipart: await formData(body),
  });
  if (!res) return;
  c.ledger.requests.push({
    id: res.body.data.id,
    userId: a.userId,
    companyId: a.companyId,
    carrierId: c.world.acme,
    notes,
    shipments: sent,
    quote,
    documents: withDoc ? 1 : 0,
  });
}

async function requestDetail(c: Ctx) {
  const mine = c.ledger.requests;
  if (!mine.length) return requestList(c, 'enduser');
  const w = pick(c.r, recent(mine, 50));
  const who = c.r() < 0.5 ? c.world.endUsers.find((a) => a.companyId === w.companyId)! : carrier(c);
  return c.send('request detail', { ...as(who), method: 'GET', path: `/${who.kind === 'enduser' ? 'enduser' : 'company'}/transport_requests/show/${w.id}` });
}

function requestList(c: Ctx, ns: 'enduser' | 'company' | 'admin') {
  const w = c.world;
  if (ns === 'enduser')
    return c.send('requests list (end user)', { ...as(endUser(c)), method: 'GET', path: '/enduser/transport_requests', query: listQuery(c) });
  if (ns === 'company') {
    return c.send('requests list (carrier)', {
      ...as(carrier(c)),
      method: 'GET',
      path: '/company/transport_requests',
      query: listQuery(c, c.r() < 0.4 ? { enduser_id: pick(c.r, w.endUserCompanies) } : {}),
    });
  }
  const filter = c.r() < 0.5 ? { carrier_id: w.acme } : c.r() < 0.5 ? { enduser_id: pick(c.r, w.endUserCompanies) } : {};
  return c.send('requests list (admin)', { ...as(pick(c.r, w.admins)), method: 'GET', path: '/admin/transport_requests', query: listQuery(c, filter) });
}

async function openTicket(c: Ctx) {
  const a = endUser(c);
  const seq = c.seq();
  const json = { ticket_category_id: pick(c.r, c.world.ticketCategories), subject: subject(c.r, seq), message: message(c.r, seq) };
  const res = await c.send('chat ticket open', { ...as(a), method: 'POST', path: '/enduser/chats/newTicket', json });
  if (res) c.ledger.ticket({ id: res.body.data.id, companyId: a.companyId, userId: a.userId, subject: json.subject, message: json.message });
}

async function endUserWrites(c: Ctx) {
  const a = endUser(c);
  const tickets = recent(c.ledger.ticketsOf.get(a.companyId));
  if (!tickets.length) return openTicket(c);
  const chatId = pick(c.r, tickets);
  const text = message(c.r, c.seq());
  const res = await c.send('chat send (end user)', {
    ...as(a),
    method: 'POST',
    path: '/enduser/chats/sendChatMessage',
    json: { chat_id: chatId, message: text },
  });
  if (res) c.ledger.message({ id: res.body.data.id, chatId, userId: a.userId, side: 'enduser', body: text });
}

async function carrierAnswers(c: Ctx) {
  const waiting = [...c.ledger.awaitingAnswer];
  const chatId = waiting.length ? pick(c.r, waiting) : c.ledger.tickets.length ? pick(c.r, recent(c.ledger.tickets, 20)).id : null;
  if (chatId === null) return openTicket(c);
  const a = carrier(c);
  const text = message(c.r, c.seq());
  const res = await c.send('chat answer (carrier)', {
    ...as(a),
    method: 'POST',
    path: '/company/chats/sendChatMessage',
    json: { chat_id: chatId, message: text },
  });
  if (res) c.ledger.message({ id: res.body.data.id, chatId, userId: a.userId, side: 'carrier', body: text });
}

function readChat(c: Ctx, side: 'enduser' | 'carrier') {
  const a = side === 'enduser' ? endUser(c) : carrier(c);
  const tickets = side === 'enduser' ? recent(c.ledger.ticketsOf.get(a.companyId)) : recent(c.ledger.tickets, 20).map((t) => t.id);
  if (!tickets.length) return chatTickets(c, side);
  const chat_id = pick(c.r, tickets);
  if (side === 'enduser')
    return c.send('chat read (end user)', { ...as(a), method: 'GET', path: '/enduser/chats/getChatMessages', query: { chat_id, limit: 50 } });
  return c.send('chat read (carrier)', { ...as(a), method: 'POST', path: '/company/chats/getChatMessages', json: { chat_id, limit: 50 } });
}

function chatTickets(c: Ctx, side: 'enduser' | 'carrier') {
  if (side === 'enduser')
    return c.send('chat tickets (end user)', { ...as(endUser(c)), method: 'GET', path: '/enduser/chats/getTickets', query: { page: 1, per_page: 10 } });
  const query = {
    page: 1,
    per_page: 25,
    ...(c.r() < 0.6 ? { status: 'open' } : {}),
    ...(c.r() < 0.3 ? { enduser_id: pick(c.r, c.world.endUserCompanies) } : {}),
  };
  return c.send('chat tickets (carrier)', { ...as(carrier(c)), method: 'GET', path: '/company/chats/getChatUsers', query });
}

/** The dashboard, each kind of user's first page after signing in (figures cached 20 s per scope). */
function dashboard(c: Ctx) {
  const a = c.r() < 0.5 ? endUser(c) : c.r() < 0.7 ? carrier(c) : pick(c.r, c.world.admins);
  return c.send('dashboard statistics', { ...as(a), method: 'GET', path: `/${a.kind === 'carrier' ? 'company' : a.kind}/statistics` });
}

function unread(c: Ctx) {
  const a = c.r() < 0.7 ? endUser(c) : carrier(c);
  return c.send('chat unread badge', { ...as(a), method: 'GET', path: `/${a.kind === 'enduser' ? 'enduser' : 'company'}/chats/unread` });
}

/** The operations and their shares in per cent (they add up to 100). */
export const MIX: Operation[] = [
  { share: 20, run: (c) => c.send('quote (visitor)', { from: c.visitor(), method: 'POST', path: '/visitor/costRequest', json: pick(c.r, QUOTES) }) },
  { share: 12, run: endUserQuote },
  { share: 9, run: (c) => requestList(c, 'enduser') },
  { share: 8, run: (c) => requestList(c, 'company') },
  { share: 4, run: (c) => requestList(c, 'admin') },
  { share: 3, run: requestDetail },
  { share: 6, run: createRequest },
  { share: 2, run: openTicket },
  { share: 5, run: endUserWrites },
  { share: 5, run: carrierAnswers },
  { share: 4, run: (c) => readChat(c, 'enduser') },
  { share: 4, run: (c) => readChat(c, 'carrier') },
  { share: 2, run: (c) => chatTickets(c, 'enduser') },
  { share: 3, run: (c) => chatTickets(c, 'carrier') },
  { share: 5, run: unread },
  { share: 3, run: dashboard },
  { share: 2.5, run: signIn },
  { share: 2.5, run: signOut },
];

/** The share of the calls that are visitor quotes (sizes the visitor address pool). */
export const VISITOR_QUOTE_SHARE = MIX[0].share / 100;
