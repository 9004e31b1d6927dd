import { generate } from 'otplib';
import { sql } from 'kysely';
import { hashPassword } from '../../../server/lib/passwords.js';
import { nowIso } from '../../../server/lib/tokens.js';
import type { TestPortal } from '../helpers.js';
import { DEMO } from '../helpers.js';
import { PASSWORD, createTenants } from '../accountsFixtures.js';
import { ensureDocumentType, handShipment, multipart, shipmentLists } from '../requestsFixtures.js';
import { RESOURCES } from '../../../model/registry.js';
import { REAL } from '../../fixtures/images.js';
import { plantDeclaredRows, type DeclaredIds } from './declaredRows.js';

/** The roles of a tenant the sweep calls as (`visitor` = signed out). */
export const ROLES = ['admin', 'owner', 'staff', 'support', 'enduser', 'visitor'] as const;
export type Role = (typeof ROLES)[number];
/** Each role's kind, as route policies name them. */
export const KIND: Record<Role, 'admin' | 'carrier' | 'support' | 'enduser' | null> = {
  admin: 'admin',
  owner: 'carrier',
  staff: 'carrier',
  support: 'support',
  enduser: 'enduser',
  visitor: null,
};

/** Every id of tenant A that a request could name. */
export interface TenantA {
  carrier: number;
  customer: number;
  owner: number;
  staff: number;
  support: number;
  enduser: number;
  categoryExp: number;
  categoryStd: number;
  sheets: number[];
  ticket: number;
  message: number;
  accessRequest: number;
  request: number;
  shipment: number;
  pickup: number;
  delivery: number;
  detail: number;
  document: number;
  /** A session (auth_tokens row) of A's end user. */
  session: number;
  /** API keys of A's carrier and of its end-user company (issue 23). */
  apiKeys: { carrier: number; enduser: number };
  /** Webhook endpoints of A's carrier and end-user company, and a finished delivery of each (issue 23). */
  webhooks: { carrier: number; enduser: number; carrierDelivery: number; enduserDelivery: number };
  /** A notification of A's owner (the bell: A's request, booked by A's end user). */
  notification: number;
  emails: { owner: string; enduser: string };
  /** A's rows of each generated company-tenancy resource (issue 34): its carrier's and its end-user company's. */
  declared: DeclaredIds;
}

export interface SweepWorld {
  a: TenantA;
  b: { carrier: number; customer: number; staff: number };
  /** Sign-in of each role of tenant B (the admin is global). */
  logins: Record<Exclude<Role, 'visitor'>, { email: string; password: string }>;
  /** The sign-in of tenant A's owner, whose session must survive the sweep. */
  aOwner: { email: string; password: string };
}

/**
 * Strings that exist only in tenant A's rows: an answer to tenant B containing one has shown B a value
 * of A's. The demo carrier Acme is tenant A (with its demo tariffs and requests); everything the sweep
 * adds to A carries "Axq", everything it adds to B "Bxq".
 */
export const A_MARKERS = [
  'axq',
  'acme trasporti',
  'acme-trasporti',
  'rossi logistica',
  'elena rossi',
  'carlo corriere',
  DEMO.carrier,
  DEMO.enduser,
  'staff@acme.test',
  'support@acme.test',
  'ac-exp-nat',
  'ac-std-nat',
  'listino',
  'ord-24',
  'consegna in barca',
  'zona extradoganale',
];

const user = async (p: TestPortal, company_id: number, role_id: number, email: string, first_name: string) => {
  const now = nowIso();
  const row = await p.db.db
    .insertInto('users')
    .values({
      role_id,
      support_role_id: role_id === 7 ? 1 : null,
      company_id,
      first_name,
      last_name: 'Test',
      email,
      password_hash: await hashPassword(PASSWORD),
      status_id: 1,
      created_at: now,
      updated_at: now,
    } as any)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
};

async function ok(what: string, r: Promise<{ status: number; body: any }>) {
  const res = await r;
  if (res.status !== 200 || res.body?.status === false) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/** A request by hand with one document, as an end user's form sends it. */
async function newRequest(p: TestPortal, token: string, notes: string, docType: number, filename: string) {
  const mp = await multipart({
    ...shipmentLists([handShipment(0)]),
    notes,
    documents: [{ filename, type: 'application/pdf', data: Buffer.from(`%PDF-1.4 ${notes}`) }],
    doctypes: [String(docType)],
  });
  return ok('newRequest', p.api('POST', '/enduser/transport_requests/newRequest', { token, payload: mp.payload, headers: mp.headers }));
}

const accessRequest = (name: string, email: string, carrierId: number, country: number, language: number) => ({
  carrier_name: name,
  carrier_email: `office-${email}`,
  carrier_phone: '+39 011 000 0000',
  carrier_city: 'Torino',
  carrier_postal_code: '10121',
  carrier_province: 'TO',
  carrier_website_url: 'example.test',
  carrier_address: 'Via Roma 1',
  carrier_country_id: country,
  carrier_language_id: language,
  user_first_name: 'Ada',
  user_last_name: 'Test',
  user_email: email,
  user_phone: '+39 333 000 0000',
  user_password: PASSWORD,
  user_password_confirmation: PASSWORD,
  carrier_id: carrierId,
});

/**
 * Two complete tenants: A (the demo carrier Acme and its end user Rossi, with demo tariffs, rate sheets
 * and requests, plus a Carrier Users and a Support user, a ticket with messages, a request with a
 * document, an access request addressed to it, a row in each tariff table) and B (carrier Beta with
 * its owner, staff, support and end-user company Bianchi, with a ticket, a request, an access request,
 * a category and a tariff row of its own). The visitor carrier is B's, so visitor quotes and bookings
 * stay out of A.
 */
export async function createSweepWorld(p: TestPortal): Promise<SweepWorld> {
  const db = p.db.db;
  const t = await createTenants(p);
  const acmeSupport = await user(p, t.acme, 7, 'support@acme.test', 'Axqsupport');
  const betaStaff = await user(p, t.beta, 5, 'staff@beta.test', 'Bxqstaff');
  await user(p, t.beta, 7, 'support@beta.test', 'Bxqsupport');
  await db.updateTable('users').set({ first_name: 'Axqstaff' }).where('id', '=', t.acmeStaff.id).execute();
  await db.updateTable('categories').set({ description: 'Axq category' }).where('id', 'in', [t.acmeExp, t.acmeStd]).execute();
  await db.updateTable('categories').set({ description: 'Bxq category' }).where('id', '=', t.betaExp).execute();
  const docType = await ensureDocumentType(p);
  const ticketCategory = Number((await db.selectFrom('ticket_categories').select('id').orderBy('id').executeTakeFirstOrThrow()).id);

  // Tenant A's conversation, request and access request, through the API as A's users would make them.
  const rossi = await p.login(DEMO.enduser);
  const acme = await p.login(DEMO.carrier);
  const ticket = (
    await ok(
      'A ticket',
      p.api('POST', '/enduser/chats/newTicket', {
        token: rossi,
        body: { ticket_category_id: ticketCategory, subject: 'Axq ticket subject', message: 'Axq first message' },
      }),
    )
  ).data.id;
  const message = (
    await ok('A reply', p.api('POST', '/company/chats/sendChatMessage', { token: acme, body: { chat_id: ticket, message: 'Axq carrier reply' } }))
  ).data.id;
  await newRequest(p, rossi, 'Axq request notes', docType, 'axq-delivery-note.pdf');
  await ok(
    'A access request',
    p.api('POST', '/visitor/request_access/store', {
      body: accessRequest('Axq Logistica', 'axq.applicant@example.test', t.acme, t.itCountry, t.itLanguage),
      headers: { 'x-forwarded-for': '198.18.0.1' },
    }),
  );
  // A's staff member has two-step verification on, and a sign-in waiting for its code (docs/two-factor.md).
  const staffToken = await p.login(t.acmeStaff.email, PASSWORD);
  const { secret } = (await ok('A mfa setup', p.api('POST', '/visitor/mfa/setup', { token: staffToken }))).data;
  await ok('A mfa enable', p.api('POST', '/visitor/mfa/enable', { token: staffToken, body: { code: await generate({ secret }) } }));
  const pending = await p.api('POST', '/visitor/login', {
    body: { email: t.acmeStaff.email, password: PASSWORD },
    headers: { 'x-forwarded-for': '198.18.0.3' },
  });
  if (!pending.body.mfa_required) throw new Error('tenant A has no pending second step');
  // A row of A's own in each tariff table, next to the demo rows.
  await db.insertInto('express_hub_costs').values({ company_id: t.acme, code: 'AXQHUB', silver: 111, gold: 222 }).execute();
  await db.insertInto('express_hub_codes').values({ company_id: t.acme, code: 'AXQ01', hub: 'AXQHUB' }).execute();
  await db
    .insertInto('express_island_zones')
    .values({
      company_id: t.acme,
      island: 'Axq Isola',
      special_zone: 'AXQ',
      quintal_cost: 100,
      multiplier: '1.1',
      type_id: 1,
      p150: 1,
      p300: 2,
      p550: 3,
      ps550: 4,
      p1000: 5,
    })
    .execute();
  await db.insertInto('express_special_zones').values({ company_id: t.acme, province: 'TO', city: 'Axqtown', postal_code: '10999' }).execute();
  await db.insertInto('standard_special_zones').values({ company_id: t.acme, province: 'TO', code: 'AXQZ', city: 'Axqville', postal_code: '10998' }).execute();
  await db
    .insertInto('standard_no_passage')
    .values({
      company_id: t.acme,
      postal_code: '10997',
      city: 'Axqburg',
      cost: 500,
      province: 'TO',
      flow: 'OUT',
      special_zone: 'AXQ',
      company_iso_2: 'IT',
      code: 'AXQ1',
      rate_code: null,
      cost2: null,
      col_11: 'Axq note',
    })
    .execute();
  await db
    .insertInto('postal_surcharges')
    .values({ company_id: t.acme, country: 'IT', postal_code: '1099*', kind: 'ztl', flow: null, fixed: 700, percent: '1.5' })
    .execute();

  // Tenant B's own rows, so its lists have something to show.
  const bianchi = await p.login(t.bianchiUser.email, PASSWORD);
  await ok(
    'B ticket',
    p.api('POST', '/enduser/chats/newTicket', {
      token: bianchi,
      body: { ticket_category_id: ticketCategory, subject: 'Bxq ticket subject', message: 'Bxq first message' },
    }),
  );
  await newRequest(p, bianchi, 'Bxq request notes', docType, 'bxq-delivery-note.pdf');
  await ok(
    'B access request',
    p.api('POST', '/visitor/request_access/store', {
      body: accessRequest('Bxq Logistica', 'bxq.applicant@example.test', t.beta, t.itCountry, t.itLanguage),
      headers: { 'x-forwarded-for': '198.18.0.2' },
    }),
  );
  await db.insertInto('express_hub_codes').values({ company_id: t.beta, code: 'BXQ01', hub: 'BXQHUB' }).execute();
  // API keys of both tenants, each namespace (issue 23)
  const keyOf = async (token: string, ns: string, name: string) =>
    Number((await ok(name, p.api('POST', `/${ns}/api_keys/store`, { token, body: { name, scopes: ['quotes', 'requests:read'] } }))).data.id);
  const apiKeys = { carrier: await keyOf(acme, 'company', 'Axq carrier key'), enduser: await keyOf(rossi, 'enduser', 'Axq enduser key') };
  await keyOf(await p.login(t.betaOwner.email, PASSWORD), 'company', 'Bxq carrier key');
  await keyOf(bianchi, 'enduser', 'Bxq enduser key');
  // Webhook endpoints of both tenants, each namespace, and a delivered message of each of A's (issue 23)
  const hookOf = async (token: string, ns: string, url: string) =>
    Number((await ok(url, p.api('POST', `/${ns}/webhooks/store`, { token, body: { url, events: ['transport_request.status_changed'] } }))).data.id);
  const hooks = {
    carrier: await hookOf(acme, 'company', 'http://127.0.0.1:9/axq-carrier-hook'),
    enduser: await hookOf(rossi, 'enduser', 'http://127.0.0.1:9/axq-enduser-hook'),
  };
  await hookOf(await p.login(t.betaOwner.email, PASSWORD), 'company', 'http://127.0.0.1:9/bxq-carrier-hook');
  await hookOf(bianchi, 'enduser', 'http://127.0.0.1:9/bxq-enduser-hook');
  const aRequest = await db.selectFrom('transport_requests').select('id').where('carrier_id', '=', t.acme).orderBy('id').executeTakeFirstOrThrow();
  const delivered = (endpoint_id: number) =>
    db
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id,
        event_id: `msg_axq${endpoint_id}`,
        event_type: 'transport_request.status_changed',
        transport_request_id: aRequest.id,
        ordering_key: `tr:${aRequest.id}`,
        payload: '{"data":"Axq payload"}',
        created_at: new Date().toISOString(),
        attempts: 1,
        delivered_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.id));
  const webhooks = { ...hooks, carrierDelivery: await delivered(hooks.carrier), enduserDelivery: await delivered(hooks.enduser) };
  // A consignee mail switched off by each carrier (docs/notifications.md)
  const switchOff = (token: string, what: string) =>
    ok(what, p.api('POST', '/company/notification_settings/update', { token, body: { consignee: [{ status_id: 7, enabled: false }] } }));
  await switchOff(acme, 'A consignee switch');
  await switchOff(await p.login(t.betaOwner.email, PASSWORD), 'B consignee switch');
  // A's calendar feeds, each namespace (docs/calendar-feed.md); B's roles turn theirs on and off in the sweep
  await ok('A carrier calendar feed', p.api('POST', '/company/calendar_feed/enable', { token: acme }));
  await ok('A enduser calendar feed', p.api('POST', '/enduser/calendar_feed/enable', { token: rossi }));
  // A's GS1 company prefix for its pallet labels (docs/pallet-labels.md): B's main account cannot take it
  await ok('A GS1 prefix', p.api('POST', '/company/label_settings/update', { token: acme, body: { gs1_company_prefix: '7001234' } }));
  // Visitors price and book with B.
  await db
    .updateTable('settings')
    .set({ value: String(t.beta) })
    .where('key', '=', 'visitor_company_id')
    .execute();

  const one = async <T>(q: Promise<T | undefined>, what: string) => {
    const r = await q;
    if (!r) throw new Error(`tenant A has no ${what}`);
    return r as T;
  };
  const request = await one(db.selectFrom('transport_requests').select('id').where('notes', '=', 'Axq request notes').executeTakeFirst(), 'request');
  const shipment = await one(db.selectFrom('shipments').select('id').where('transport_request_id', '=', request.id).executeTakeFirst(), 'shipment');
  const address = (kind: 'pickup' | 'delivery') =>
    one(db.selectFrom('shipment_addresses').select('id').where('shipment_id', '=', shipment.id).where('kind', '=', kind).executeTakeFirst(), kind);
  const detail = await one(db.selectFrom('shipment_details').select('id').where('shipment_id', '=', shipment.id).executeTakeFirst(), 'detail');
  // A's proof of delivery (issue 36): its row and its file (the route's checks are carrierProgress.test.ts's)
  const podFile = await p.app.files.store('pods', REAL.jpeg, '.jpg');
  await db
    .insertInto('transport_request_pods')
    .values({
      transport_request_id: request.id,
      name: 'Axq receiver',
      notes: 'Axq pod notes',
      kind: 'file',
      stored_name: podFile,
      content_type: 'image/jpeg',
      bytes: REAL.jpeg.length,
      width: 8,
      height: 6,
      delivered_at: nowIso(),
      created_by: null,
      created_at: nowIso(),
    })
    .execute();
  const document = await one(
    db.selectFrom('transport_request_documents').select('id').where('transport_request_id', '=', request.id).executeTakeFirst(),
    'document',
  );
  const notification = await one(
    db.selectFrom('notifications').select('id').where('user_id', '=', t.acmeOwner.id).where('transport_request_id', '=', request.id).executeTakeFirst(),
    'notification',
  );
  const session = await one(db.selectFrom('auth_tokens').select('id').where('user_id', '=', t.rossiUser.id).executeTakeFirst(), 'session');
  const access = await one(db.selectFrom('access_requests').select('id').where('carrier_id', '=', t.acme).executeTakeFirst(), 'access request');
  const sheets = await db.selectFrom('rate_sheets').select('id').where('company_id', '=', t.acme).orderBy('id').execute();
  if (!sheets.length) throw new Error('tenant A has no rate sheets (the demo tariffs are missing)');
  const n = await db
    .selectFrom('transport_requests')
    .select(sql<number>`count(*)`.as('n'))
    .where('carrier_id', '=', t.acme)
    .executeTakeFirstOrThrow();
  if (Number(n.n) < 2) throw new Error('tenant A has no demo requests');

  return {
    a: {
      carrier: t.acme,
      customer: t.rossi,
      owner: t.acmeOwner.id,
      staff: t.acmeStaff.id,
      support: acmeSupport,
      enduser: t.rossiUser.id,
      categoryExp: t.acmeExp,
      categoryStd: t.acmeStd,
      sheets: sheets.map((s) => Number(s.id)),
      ticket: Number(ticket),
      message: Number(message),
      accessRequest: Number(access.id),
      request: Number(request.id),
      shipment: Number(shipment.id),
      pickup: Number((await address('pickup')).id),
      delivery: Number((await address('delivery')).id),
      detail: Number(detail.id),
      document: Number(document.id),
      session: Number(session.id),
      apiKeys,
      webhooks,
      notification: Number(notification.id),
      emails: { owner: DEMO.carrier, enduser: DEMO.enduser },
      declared: await plantDeclaredRows(p, RESOURCES, { carrier: t.acme, enduser: t.rossi }),
    },
    b: { carrier: t.beta, customer: t.bianchi, staff: betaStaff },
    logins: {
      admin: { email: DEMO.admin, password: DEMO.password },
      owner: { email: t.betaOwner.email, password: PASSWORD },
      staff: { email: 'staff@beta.test', password: PASSWORD },
      support: { email: 'support@beta.test', password: PASSWORD },
      enduser: { email: t.bianchiUser.email, password: PASSWORD },
    },
    aOwner: { email: DEMO.carrier, password: DEMO.password },
  };
}
