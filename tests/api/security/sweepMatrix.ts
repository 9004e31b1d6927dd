import { TARIFF_TABLES, TEMPLATES } from '../../../model/tariffs.js';
import { RESOURCES } from '../../../model/registry.js';
import { kindsOf, type ResourceDecl } from '../../../model/resource.js';
import { choiceOf, type FieldDef } from '../../../model/fields.js';
import type { Kind } from '../../../model/roles.js';
import { templateXlsx } from '../../../server/imports/template.js';
import { PASSWORD } from '../accountsFixtures.js';
import { handShipment, shipmentLists } from '../requestsFixtures.js';
import { SWEEP_APPLICANT } from './tenantSnapshot.js';
import type { TenantA } from './tenantWorld.js';

type Part = string | { filename: string; type: string; data: Buffer };

/** One request of the sweep: tenant A's ids in the path, the query and the body. */
export interface Call {
  path: string;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  /** A multipart body instead of JSON. */
  form?: Record<string, Part | Part[]>;
  /** Tenant B's own rows: a string a 200 answer to B's roles inside the policy must contain (the list is not just empty). */
  sees?: string;
}

/** What tenant B needs to name its own things next to A's ids. */
export interface SweepContext {
  bCarrier: number;
  bCustomer: number;
  bStaff: number;
  bRequest: number;
  country: number;
  language: number;
  ticketCategory: number;
  docType: number;
  priceCategory: number;
}

export interface Entry {
  calls: (a: TenantA, c: SweepContext) => Call[];
  /** The statuses tenant B's roles inside the route's policy may get. Outside it: 403, signed out 401 (from the policy). */
  expect: number[];
  /** A's strings a route shows everyone by design, and why. */
  shows?: { markers: string[]; why: string };
  /** The call ends the caller's session (the sweep signs in again). */
  signsOut?: true;
}

// The outcomes, named.
/** The caller's own rows, or reference data: 200, and never a value of A's. */
const OWN = [200];
const NOT_FOUND = [404];
const INVALID = [422];
/** A list filter naming A's ids: refused as unknown (404), or ignored for the caller's own scope (200). */
const SCOPED = [200, 404];
/** A write that lands in the caller's own tenant (200), or is refused for its content (409 a full set, 422). */
const OWN_WRITE = [200, 409, 422];
/** The admin namespace: no role of tenant B is inside its policy (the admin is global by design and not swept there). */
const ADMIN_ONLY = [403];
/** Visitor forms that count every attempt per email (429 once the sweep's roles have used the budget). */
const THROTTLED = (...s: number[]) => [...s, 429];

const get = (path: string, query?: Call['query'], sees?: string): Call => ({ path, query, sees });
const post = (path: string, body: Record<string, unknown> = {}): Call => ({ path, body });

/** Every template as a file, written once (the writer streams, so it is awaited here). */
const TEMPLATE_FILES: Record<string, Buffer> = Object.fromEntries(
  await Promise.all(Object.entries(TEMPLATES).map(async ([key, spec]) => [key, await templateXlsx(spec)] as const)),
);
const spreadsheet = (key: string): Part => ({ filename: `${key}.xlsx`, type: 'application/octet-stream', data: TEMPLATE_FILES[key] });

const companyBody = (a: TenantA, c: SweepContext, extra: Record<string, unknown> = {}) => ({
  legal_name: 'Sweep Planted S.r.l.',
  address: 'Via Sweep 1',
  city: 'Torino',
  province: 'TO',
  postal_code: '10121',
  country_id: c.country,
  language_id: c.language,
  fax: 'planted@sweep.test',
  company_role_id: 3,
  carrier_id: a.carrier,
  type: 'Customer',
  price_category_id: c.priceCategory,
  combo_cbm_ratio: 300,
  combo_lm_ratio: 1750,
  ...extra,
});
const userBody = (company_id: number, email: string, c: SweepContext) => ({
  title: 'Sig.',
  first_name: 'Planted',
  last_name: 'User',
  email,
  password: PASSWORD,
  password_confirmation: PASSWORD,
  company_id,
  role_id: 6,
  country_id: c.country,
  language_id: c.language,
  address: 'Via Sweep 2',
  city: 'Torino',
  postal_code: '10121',
  phone: '+39 333 111 2222',
});
const quote = (a: TenantA) => ({
  zone: 'national',
  service: 'standard',
  originCountry: 'IT',
  originPostalCode: '10121',
  originLocality: 'Torino',
  originProvince: 'TO',
  destinationCountry: 'IT',
  destinationPostalCode: '00184',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
  standardunits: 2,
  standardweight: 300,
  standardvolume: 1,
  standardvolumeType: 'CBM',
  calculationRatio: 'CBM300',
  company_id: a.carrier,
  enduser_id: a.customer,
});
const accessForm = (a: TenantA, c: SweepContext) => ({
  carrier_name: 'Sweep Logistica',
  carrier_email: 'office@sweep.test',
  carrier_phone: '+39 011 000 0000',
  carrier_city: 'Torino',
  carrier_postal_code: '10121',
  carrier_province: 'TO',
  carrier_website_url: 'sweep.test',
  carrier_address: 'Via Roma 1',
  carrier_country_id: c.country,
  carrier_language_id: c.language,
  user_first_name: 'Sweep',
  user_last_name: 'Applicant',
  user_email: SWEEP_APPLICANT,
  user_phone: '+39 333 000 0000',
  user_password: PASSWORD,
  user_password_confirmation: PASSWORD,
  carrier_id: a.carrier,
});

/** Reference lookups: the same for everyone, nothing of a tenant. */
const reference = (path: string, query?: Call['query']): Entry => ({ calls: () => [get(path, query)], expect: OWN });
/** An admin-only route, called with A's ids. */
const adminOnly = (calls: Entry['calls']): Entry => ({ calls, expect: ADMIN_ONLY });

/**
 * The sweep rows of the generated routes of declared resources (model/resource.ts), from their
 * declarations:
 * - `global`: reference data is the same for every tenant, so a kind the declaration lets read it gets it
 *   (200 or an unknown id's 404, and never a string of tenant A's), a write of it is another tenant's
 *   business only when that kind may write (then it lands in the global table, by design);
 * - `company` (issue 34): tenant B's roles name A's rows (planted from the declaration: TenantA.declared,
 *   tests/api/security/declaredRows.ts): show, update and destroy answer 404, a bulk delete of A's ids
 *   answers 200 with each `not_found` (and A's rows stay: the snapshot), the list filtered to A's ids or
 *   company is B's own (empty) page, a store naming A's company lands in B's;
 * - the /admin paths are outside every tenant role's policy (403).
 * A declaration of another tenancy has hand-written routes, classified by hand below.
 * Import routes (`import: true`): `declaredImportSweepRows` below.
 */
export function declaredSweepRows(decls: readonly ResourceDecl[]): Record<string, Entry> {
  const m: Record<string, Entry> = {};
  for (const d of decls) {
    if (d.routes !== 'generated') continue;
    if (d.tenancy !== 'global' && d.tenancy !== 'company') throw new Error(`${d.name}: generated routes are only classified for global and company resources`);
    const byCompany = d.tenancy === 'company';
    for (const [kind, path] of Object.entries(d.api) as Array<[Kind, string]>) {
      const may = (action: Parameters<typeof kindsOf>[1]) => kindsOf(d, action).includes(kind);
      const outcome = (ok: number[]): number[] => (kind === 'admin' ? ADMIN_ONLY : ok);
      const sample = Object.fromEntries(
        Object.entries(d.fields)
          .filter(([, f]) => f.required && !f.readOnly)
          .map(([n, f]) => [n, byCompany ? sweepValue(f) : 'Sweep']),
      );
      if (!byCompany) {
        if (may('list')) m[`GET ${path}`] = { calls: () => [get(path)], expect: outcome(OWN) };
        if (may('show')) m[`GET ${path}/show/:id`] = { calls: () => [get(`${path}/show/1`)], expect: outcome([200, 404]) };
        if (may('create')) m[`POST ${path}/store`] = { calls: () => [post(`${path}/store`, sample)], expect: outcome(OWN_WRITE) };
        if (may('edit')) m[`POST ${path}/update/:id`] = { calls: () => [post(`${path}/update/1`, sample)], expect: outcome([...OWN_WRITE, 404]) };
        if (may('delete')) {
          // a global row is every tenant's: only a kind that may delete it reaches here (then by design)
          m[`GET ${path}/destroy/:id`] = { calls: () => [get(`${path}/destroy/999999`)], expect: outcome([404]) };
          m[`POST ${path}/bulk`] = { calls: () => [post(`${path}/bulk`, { action: 'delete', ids: [999999] })], expect: outcome(OWN) };
        }
        continue;
      }
      /** A's row of this resource as this kind's company would own it (the end user's for /enduser paths). */
      const aId = (a: TenantA) => {
        const ids = a.declared[d.name];
        if (!ids) throw new Error(`${d.name}: the sweep world planted no row of tenant A (createSweepWorld, plantDeclaredRows)`);
        return kind === 'enduser' ? ids.enduser : ids.carrier;
      };
      const aCompany = (a: TenantA) => (kind === 'enduser' ? a.customer : a.carrier);
      if (may('list'))
        m[`GET ${path}`] = {
          calls: (a) => [get(path, { company_id: aCompany(a) }), get(path, { ids: String(aId(a)) })],
          expect: outcome(OWN),
        };
      if (may('show')) m[`GET ${path}/show/:id`] = { calls: (a) => [get(`${path}/show/${aId(a)}`)], expect: outcome(NOT_FOUND) };
      if (may('create'))
        m[`POST ${path}/store`] = { calls: (a) => [post(`${path}/store`, { ...sample, company_id: aCompany(a) })], expect: outcome(OWN_WRITE) };
      // A body the schema refuses (a declared pattern the sample misses) never reaches A's row: 422 tells nothing.
      if (may('edit'))
        m[`POST ${path}/update/:id`] = {
          calls: (a) => [post(`${path}/update/${aId(a)}`, { ...sample, company_id: aCompany(a) })],
          expect: outcome([404, 422]),
        };
      if (may('delete')) {
        m[`GET ${path}/destroy/:id`] = { calls: (a) => [get(`${path}/destroy/${aId(a)}`)], expect: outcome(NOT_FOUND) };
        m[`POST ${path}/bulk`] = { calls: (a) => [post(`${path}/bulk`, { action: 'delete', ids: [aId(a)] })], expect: outcome(OWN) };
      }
    }
  }
  return m;
}

/** A value of a required field its body schema takes (text within its length, a select's first option), so a call reaches the row. */
function sweepValue(f: FieldDef): unknown {
  switch (f.type) {
    case 'select':
      return choiceOf((f.options ?? [])[0]).id;
    case 'integer':
    case 'reference':
      return f.min ?? 1;
    case 'money':
      return (f.min ?? 0) + 1;
    case 'decimal':
      return String((f.min ?? 0) + 1);
    case 'boolean':
      return true;
    case 'flag':
      return '1';
    case 'date':
      return '2026-01-15';
    case 'month':
      return '2026-01';
    case 'email':
      return 'sweep@example.test';
    case 'url':
      return 'https://sweep.example.test';
    default:
      return 'Sweep'.slice(0, f.maxLength ?? 255);
  }
}

/**
 * The sweep rows of the import routes of declared resources with `import: true` (issue 34,
 * server/lib/declaredImport.ts), for each kind that may create, whatever the tenancy: the template is the
 * same for everyone (the field labels); an import by tenant B's roles names A's company and lands in B's own
 * rows (a `company_id` is dropped outside /admin) or is refused for its content (422). The file: a CSV whose
 * header names every importable field, one row of values each field's type reads.
 */
export function declaredImportSweepRows(decls: readonly ResourceDecl[]): Record<string, Entry> {
  const m: Record<string, Entry> = {};
  const sampleOf = (f: ResourceDecl['fields'][string]): string => {
    switch (f.type) {
      case 'integer':
      case 'decimal':
      case 'money':
        return String(f.min ?? 1);
      case 'date':
        return '2026-01-01';
      case 'month':
        return '2026-01';
      case 'flag':
      case 'boolean':
        return '1';
      case 'select':
        return String(typeof f.options?.[0] === 'object' ? f.options[0].id : (f.options?.[0] ?? ''));
      case 'reference':
        return '1';
      case 'email':
        return 'sweep@sweep.test';
      case 'url':
        return 'https://sweep.test';
      default:
        return 'SWEEP';
    }
  };
  for (const d of decls) {
    if (d.routes !== 'generated' || !d.import) continue;
    const fields = Object.entries(d.fields).filter(([, f]) => !f.readOnly && !['image', 'file', 'password'].includes(f.type));
    const csv = Buffer.from(`${fields.map(([n]) => n).join(',')}\r\n${fields.map(([, f]) => sampleOf(f)).join(',')}\r\n`);
    for (const [kind, path] of Object.entries(d.api) as Array<[Kind, string]>) {
      if (!kindsOf(d, 'create').includes(kind)) continue;
      const outcome = (ok: number[]): number[] => (kind === 'admin' ? ADMIN_ONLY : ok);
      m[`GET ${path}/import/template`] = { calls: () => [get(`${path}/import/template`)], expect: outcome(OWN) };
      m[`POST ${path}/import`] = {
        calls: (a) => [{ path: `${path}/import`, form: { company_id: String(a.carrier), file: { filename: 'sweep.csv', type: 'text/csv', data: csv } } }],
        expect: outcome(OWN_WRITE),
      };
    }
  }
  return m;
}

/**
 * Every /api/v1 route (HEAD aside), keyed `METHOD /path`: the calls tenant B's roles make with tenant
 * A's ids, and what they may get. The sweep fails when a registered route has no row here.
 */
export function sweepMatrix(): Record<string, Entry> {
  const m: Record<string, Entry> = {
    // Session and profile: the caller's own account only.
    'POST /visitor/login': { calls: (a) => [post('/visitor/login', { email: a.emails.owner, password: 'Wrong-passw0rd' })], expect: THROTTLED(401) },
    'GET /visitor/logout': { calls: () => [get('/visitor/logout', { user_id: 1 })], expect: OWN, signsOut: true },
    'GET /visitor/getProfile': { calls: (a) => [get('/visitor/getProfile', { id: a.owner, user_id: a.enduser })], expect: OWN },
    'POST /visitor/changePassword': {
      calls: () => [post('/visitor/changePassword', { oldPassword: 'Wrong-passw0rd', password: 'Sweep12345', password_confirmation: 'Sweep12345' })],
      expect: INVALID,
    },
    'POST /visitor/updateProfile': {
      calls: (a, c) => [post('/visitor/updateProfile', { first_name: 'Sweep', last_name: 'Tester', country_id: c.country, id: a.owner, user_id: a.owner })],
      expect: OWN,
    },
    // Active sessions: the caller's own; A's session ids are unknown (404).
    'GET /visitor/sessions': { calls: (a) => [get('/visitor/sessions', { user_id: a.enduser })], expect: OWN },
    'GET /visitor/sessions/destroy/:id': { calls: (a) => [get(`/visitor/sessions/destroy/${a.session}`)], expect: NOT_FOUND },
    'GET /visitor/sessions/destroyOthers': { calls: (a) => [get('/visitor/sessions/destroyOthers', { user_id: a.enduser })], expect: OWN },
    // API keys (issue 23): the caller's company's only; A's key ids are unknown (404).
    'GET /company/api_keys': { calls: (a) => [get('/company/api_keys', { company_id: a.carrier }, 'bxq carrier key')], expect: OWN },
    'POST /company/api_keys/store': {
      calls: (a) => [post('/company/api_keys/store', { name: 'Bxq sweep key', scopes: ['quotes'], company_id: a.carrier })],
      expect: OWN_WRITE,
    },
    'GET /company/api_keys/destroy/:id': { calls: (a) => [get(`/company/api_keys/destroy/${a.apiKeys.carrier}`)], expect: NOT_FOUND },
    'GET /enduser/api_keys': { calls: (a) => [get('/enduser/api_keys', { company_id: a.customer }, 'bxq enduser key')], expect: OWN },
    'POST /enduser/api_keys/store': {
      calls: (a) => [post('/enduser/api_keys/store', { name: 'Bxq sweep key', scopes: ['quotes'], company_id: a.customer })],
      expect: OWN_WRITE,
    },
    'GET /enduser/api_keys/destroy/:id': { calls: (a) => [get(`/enduser/api_keys/destroy/${a.apiKeys.enduser}`)], expect: NOT_FOUND },
    // Webhooks (issue 23): the caller's company's only; A's endpoints and deliveries are unknown (404).
    'GET /company/webhooks': { calls: () => [get('/company/webhooks', undefined, 'bxq-carrier-hook')], expect: OWN },
    'POST /company/webhooks/store': {
      calls: (a) => [post('/company/webhooks/store', { url: 'http://127.0.0.1:9/bxq-sweep', events: ['transport_request.created'], company_id: a.carrier })],
      expect: OWN_WRITE,
    },
    'GET /company/webhooks/destroy/:id': { calls: (a) => [get(`/company/webhooks/destroy/${a.webhooks.carrier}`)], expect: NOT_FOUND },
    'GET /company/webhooks/:id/deliveries': { calls: (a) => [get(`/company/webhooks/${a.webhooks.carrier}/deliveries`)], expect: NOT_FOUND },
    'POST /company/webhooks/:id/deliveries/:deliveryId/resend': {
      calls: (a) => [post(`/company/webhooks/${a.webhooks.carrier}/deliveries/${a.webhooks.carrierDelivery}/resend`)],
      expect: NOT_FOUND,
    },
    // Webhooks (issue 23): the caller's company's only; A's endpoints and deliveries are unknown (404).
    'GET /enduser/webhooks': { calls: () => [get('/enduser/webhooks', undefined, 'bxq-enduser-hook')], expect: OWN },
    'POST /enduser/webhooks/store': {
      calls: (a) => [post('/enduser/webhooks/store', { url: 'http://127.0.0.1:9/bxq-sweep', events: ['transport_request.created'], company_id: a.customer })],
      expect: OWN_WRITE,
    },
    'GET /enduser/webhooks/destroy/:id': { calls: (a) => [get(`/enduser/webhooks/destroy/${a.webhooks.enduser}`)], expect: NOT_FOUND },
    'GET /enduser/webhooks/:id/deliveries': { calls: (a) => [get(`/enduser/webhooks/${a.webhooks.enduser}/deliveries`)], expect: NOT_FOUND },
    'POST /enduser/webhooks/:id/deliveries/:deliveryId/resend': {
      calls: (a) => [post(`/enduser/webhooks/${a.webhooks.enduser}/deliveries/${a.webhooks.enduserDelivery}/resend`)],
      expect: NOT_FOUND,
    },
    // The bell (docs/notifications.md): the caller's own rows whatever ids are sent; A's ids mark nothing.
    'GET /admin/notifications': { calls: () => [get('/admin/notifications', { unread: 1 })], expect: ADMIN_ONLY },
    'GET /admin/notifications/count': { calls: () => [get('/admin/notifications/count')], expect: ADMIN_ONLY },
    'POST /admin/notifications/read': { calls: (a) => [post('/admin/notifications/read', { ids: [a.notification] })], expect: ADMIN_ONLY },
    'GET /company/notifications': { calls: () => [get('/company/notifications', { unread: 1 })], expect: OWN },
    'GET /company/notifications/count': { calls: () => [get('/company/notifications/count')], expect: OWN },
    'POST /company/notifications/read': {
      calls: (a) => [post('/company/notifications/read', { ids: [a.notification] }), post('/company/notifications/read', { all: true })],
      expect: OWN,
    },
    'GET /enduser/notifications': { calls: () => [get('/enduser/notifications', { unread: 1 })], expect: OWN },
    'GET /enduser/notifications/count': { calls: () => [get('/enduser/notifications/count')], expect: OWN },
    'POST /enduser/notifications/read': {
      calls: (a) => [post('/enduser/notifications/read', { ids: [a.notification] }), post('/enduser/notifications/read', { all: true })],
      expect: OWN,
    },
    // The consignee mail switches: the caller's company's, from the token.
    'GET /company/notification_settings': { calls: (a) => [get('/company/notification_settings', { company_id: a.carrier })], expect: OWN },
    'POST /company/notification_settings/update': {
      calls: (a) => [post('/company/notification_settings/update', { consignee: [{ status_id: 5, enabled: false }], company_id: a.carrier })],
      expect: [200, 422],
    },
    // The calendar feed (issue 36, docs/calendar-feed.md): the caller's company's, from the token (A's ids in the
    // body are dropped by the closed schema); Carrier Users and Support get 403 on the writes, an off feed 409.
    ...Object.fromEntries(
      (['company', 'enduser'] as const).flatMap((ns) => [
        [
          `GET /${ns}/calendar_feed`,
          { calls: (a: TenantA) => [get(`/${ns}/calendar_feed`, { company_id: ns === 'company' ? a.carrier : a.customer })], expect: OWN },
        ],
        ...(['enable', 'regenerate', 'disable'] as const).map((action) => [
          `POST /${ns}/calendar_feed/${action}`,
          {
            calls: (a: TenantA) => [post(`/${ns}/calendar_feed/${action}`, { company_id: ns === 'company' ? a.carrier : a.customer })],
            expect: [200, 403, 409],
          },
        ]),
      ]),
    ),
    // The pallet label settings (docs/pallet-labels.md): the caller's company's, from the token; A's prefix cannot be taken
    // (422), a carrier user may not change it (403); the admin's per company are admin only.
    'GET /company/label_settings': { calls: (a) => [get('/company/label_settings', { company_id: a.carrier })], expect: OWN },
    'POST /company/label_settings/update': {
      calls: (a) => [post('/company/label_settings/update', { gs1_company_prefix: '7001234', company_id: a.carrier })],
      expect: [403, 422],
    },
    'GET /admin/label_settings/:id': adminOnly((a) => [get(`/admin/label_settings/${a.carrier}`)]),
    'POST /admin/label_settings/update/:id': adminOnly((a) => [post(`/admin/label_settings/update/${a.carrier}`, { gs1_company_prefix: '7009999' })]),
    'GET /admin/users/destroySessions/:id': { calls: (a) => [a.owner, a.enduser].map((id) => get(`/admin/users/destroySessions/${id}`)), expect: ADMIN_ONLY },
    // The live events stream (issue 24, docs/live-events.md): a ticket is for the caller's own session, whatever
    // ids are sent; the stream opens only with one (422 without), and shows only the caller's events (liveEvents.test.ts).
    'POST /admin/events/ticket': adminOnly((a) => [post('/admin/events/ticket', { company_id: a.carrier })]),
    'GET /admin/events': adminOnly(() => [get('/admin/events')]),
    'POST /company/events/ticket': { calls: (a) => [post('/company/events/ticket', { company_id: a.carrier, user_id: a.owner })], expect: OWN },
    'GET /company/events': { calls: (a) => [get('/company/events', { company_id: a.carrier })], expect: INVALID },
    'POST /enduser/events/ticket': { calls: (a) => [post('/enduser/events/ticket', { company_id: a.customer, user_id: a.enduser })], expect: OWN },
    'GET /enduser/events': { calls: (a) => [get('/enduser/events', { company_id: a.customer })], expect: INVALID },
    'POST /visitor/changeEmail': { calls: (a) => [post('/visitor/changeEmail', { email: a.emails.owner })], expect: [403] },
    // Two-step verification (docs/two-factor.md): the caller's own, whatever ids are sent; a challenge is the only key of the second step.
    'GET /visitor/mfa': { calls: (a) => [get('/visitor/mfa', { user_id: a.owner })], expect: OWN },
    'POST /visitor/mfa/setup': { calls: () => [post('/visitor/mfa/setup')], expect: OWN },
    'POST /visitor/mfa/enable': { calls: () => [post('/visitor/mfa/enable', { code: '000000' })], expect: [409, 422] },
    'POST /visitor/mfa/disable': { calls: () => [post('/visitor/mfa/disable', { password: 'Wrong-passw0rd' })], expect: THROTTLED(409) },
    'POST /visitor/mfa/recovery_codes': { calls: () => [post('/visitor/mfa/recovery_codes', { password: 'Wrong-passw0rd' })], expect: THROTTLED(409) },
    'POST /visitor/login/mfa': { calls: () => [post('/visitor/login/mfa', { challenge: 'forged-challenge', code: '000000' })], expect: THROTTLED(401) },
    'POST /visitor/login/mfa/setup': { calls: () => [post('/visitor/login/mfa/setup', { challenge: 'forged-challenge' })], expect: THROTTLED(401) },
    'GET /admin/users/mfa/:id': adminOnly((a) => [get(`/admin/users/mfa/${a.staff}`)]),
    'POST /admin/users/mfaReset/:id': adminOnly((a) => [post(`/admin/users/mfaReset/${a.staff}`)]),
    // A reset code for A's user may be asked by anyone; the answer is the same for every email (server.md §3).
    'POST /visitor/forgetPassword': { calls: (a) => [post('/visitor/forgetPassword', { email: a.emails.enduser })], expect: THROTTLED(200) },
    'POST /visitor/resetPassword': {
      calls: (a) => [post('/visitor/resetPassword', { email: a.emails.enduser, otp: '0000', password: 'Sweep12345', password_confirmation: 'Sweep12345' })],
      expect: THROTTLED(422),
    },
    // An invitation link (issue 35): a forged token opens nothing and sets nothing.
    'POST /visitor/checkInvitation': { calls: () => [post('/visitor/checkInvitation', { token: 'forged-token' })], expect: THROTTLED(422) },
    'POST /visitor/acceptInvitation': {
      calls: () => [post('/visitor/acceptInvitation', { token: 'forged-token', password: 'Sweep12345', password_confirmation: 'Sweep12345' })],
      expect: THROTTLED(422),
    },

    // Lookups.
    'GET /visitor/settings': reference('/visitor/settings', { company_id: 1 }),
    'GET /visitor/countries': reference('/visitor/countries'),
    'GET /visitor/country_list': reference('/visitor/country_list'),
    'GET /visitor/languages_list': reference('/visitor/languages_list'),
    'GET /visitor/company_roles_list': reference('/visitor/company_roles_list'),
    'GET /visitor/user_roles_list': reference('/visitor/user_roles_list'),
    'GET /visitor/support_roles_list': reference('/visitor/support_roles_list'),
    'GET /visitor/company_price_categories_list': reference('/visitor/company_price_categories_list'),
    'GET /visitor/ticket_categories': reference('/visitor/ticket_categories'),
    'GET /visitor/document_types_list': reference('/visitor/document_types_list'),
    'GET /visitor/transport_request_status_list': reference('/visitor/transport_request_status_list'),
    'GET /visitor/province_list': reference('/visitor/province_list', { search: 'to' }),
    'GET /visitor/city_list': reference('/visitor/city_list', { province: 'TO' }),
    'GET /visitor/postal_code_list': reference('/visitor/postal_code_list', { city: 'Torino' }),
    'GET /visitor/island_list': reference('/visitor/island_list'),
    'GET /visitor/carriers_list': {
      calls: () => [get('/visitor/carriers_list')],
      expect: OWN,
      shows: { markers: ['acme trasporti'], why: 'an invitation link names a carrier: the active carriers’ names are public (routes/visitor/lookups.ts)' },
    },
    'GET /visitor/resellers_list': { calls: (a) => [get('/visitor/resellers_list', { company_id: a.carrier })], expect: OWN },
    'GET /visitor/companies_list': {
      calls: (a) => [get('/visitor/companies_list', { company_role_id: 3, carrier_id: a.carrier }), get('/visitor/companies_list')],
      expect: OWN,
    },
    'GET /visitor/enduser_list': { calls: (a) => [get('/visitor/enduser_list', { company_id: a.carrier })], expect: SCOPED },
    'GET /visitor/category_list': {
      calls: (a) => [get('/visitor/category_list', { company_id: a.carrier }), get('/visitor/category_list', { rate_type: 'EXP' }, 'be-exp-nat')],
      expect: SCOPED,
    },
    'GET /visitor/category_list_filter': {
      calls: (a) => [get('/visitor/category_list_filter', { company_id: a.carrier, zone: 'NAT' }), get('/visitor/category_list_filter', {}, 'be-exp-nat')],
      expect: SCOPED,
    },
    'GET /visitor/ping': reference('/visitor/ping'),
    'GET /visitor/templates/:key': { calls: () => [get('/visitor/templates/cs_express_hub_costs')], expect: [200, 404] },

    // Access requests: anyone may address one to any carrier (the invitation link); only the addressee reviews it.
    'POST /visitor/request_access/store': { calls: (a, c) => [post('/visitor/request_access/store', accessForm(a, c))], expect: THROTTLED(200) },
    // The audit log (docs/audit-log.md): B's carrier roles read their own tenant's entries (their sign-ins), never A's.
    'GET /admin/audit_log': adminOnly((a) => [get('/admin/audit_log', { company_id: a.carrier })]),
    'GET /company/audit_log': {
      calls: (a) => [
        get('/company/audit_log', { action: 'login' }, 'login'),
        get('/company/audit_log', { company_id: a.carrier }),
        get('/company/audit_log', { user_id: a.owner }),
        get('/company/audit_log', { resource: 'companies', resource_id: a.carrier }),
      ],
      expect: OWN,
    },
    'GET /company/request_access': { calls: (a) => [get('/company/request_access', { carrier_id: a.carrier }, 'bxq logistica')], expect: OWN },
    'POST /company/request_access/changeStatus': {
      calls: (a) => [
        post('/company/request_access/changeStatus', { id: a.accessRequest, status: 'RF' }),
        post('/company/request_access/changeStatus', { id: a.accessRequest, status: 'CF' }),
      ],
      expect: NOT_FOUND,
    },

    // Chat.
    'GET /enduser/chats/getTickets': { calls: (a) => [get('/enduser/chats/getTickets', { enduser_id: a.customer }, 'bxq ticket')], expect: OWN },
    'POST /enduser/chats/newTicket': {
      calls: (_, c) => [post('/enduser/chats/newTicket', { ticket_category_id: c.ticketCategory, subject: 'Sweep subject', message: 'Sweep message' })],
      expect: OWN,
    },
    'POST /enduser/chats/sendChatMessage': {
      calls: (a) => [post('/enduser/chats/sendChatMessage', { chat_id: a.ticket, message: 'Sweep' })],
      expect: NOT_FOUND,
    },
    'GET /enduser/chats/getChatMessages': {
      calls: (a) => [
        get('/enduser/chats/getChatMessages', { chat_id: a.ticket }),
        get('/enduser/chats/getChatMessages', { chat_id: a.ticket, after: 0, mark_read: 'true' }),
      ],
      expect: NOT_FOUND,
    },
    'GET /enduser/chats/unread': { calls: () => [get('/enduser/chats/unread')], expect: OWN },
    'GET /company/chats/getChatUsers': {
      calls: (a) => [get('/company/chats/getChatUsers', { enduser_id: a.customer }), get('/company/chats/getChatUsers', { q: 'xq' }, 'bxq ticket')],
      expect: OWN,
    },
    'POST /company/chats/getChatMessages': {
      calls: (a) => [
        post('/company/chats/getChatMessages', { chat_id: a.ticket }),
        post('/company/chats/getChatMessages', { chat_id: a.ticket, before: a.message + 1 }),
      ],
      expect: NOT_FOUND,
    },
    'POST /company/chats/sendChatMessage': {
      calls: (a) => [post('/company/chats/sendChatMessage', { chat_id: a.ticket, message: 'Sweep' })],
      expect: NOT_FOUND,
    },
    'POST /company/chats/closeChat': { calls: (a) => [post('/company/chats/closeChat', { chat_id: a.ticket })], expect: NOT_FOUND },
    'GET /company/chats/unread': { calls: () => [get('/company/chats/unread')], expect: OWN },

    // Tariff screens.
    'GET /admin/tariff_companies': adminOnly(() => [get('/admin/tariff_companies')]),
    'GET /admin/tariff_templates/:key': adminOnly(() => [get('/admin/tariff_templates/cs_express_hub_costs')]),
    'GET /company/tariff_templates/:key': { calls: () => [get('/company/tariff_templates/cs_express_hub_costs')], expect: OWN },
    'GET /admin/rate_sheet': adminOnly((a) => [get('/admin/rate_sheet', { company_id: a.carrier })]),
    'POST /admin/rate_sheet/store': adminOnly((a) => [post('/admin/rate_sheet/store', { company_id: a.carrier })]),
    'GET /admin/rate_sheet/download/:id': adminOnly((a) => [get(`/admin/rate_sheet/download/${a.sheets[0]}`)]),
    'GET /admin/rate_sheet/rows/:id': adminOnly((a) => [get(`/admin/rate_sheet/rows/${a.sheets[0]}`)]),
    'GET /admin/rate_sheet/export/:id': adminOnly((a) => [get(`/admin/rate_sheet/export/${a.sheets[0]}`)]),
    'POST /admin/rate_sheet/destroy/:id': adminOnly((a) => [post(`/admin/rate_sheet/destroy/${a.sheets[0]}`, { company_id: a.carrier })]),
    'GET /company/rate_sheet': {
      calls: (a) => [get('/company/rate_sheet', { company_id: a.carrier, category_id: a.categoryExp }), get('/company/rate_sheet', { company_id: a.carrier })],
      expect: OWN,
    },
    'POST /company/rate_sheet/store': {
      calls: (a) => [
        {
          path: '/company/rate_sheet/store',
          form: {
            company_id: String(a.carrier),
            category_id: String(a.categoryExp),
            zone: 'NAT',
            rate_type: 'EXP',
            area: 'Customer',
            validate_from: '2030-01-01',
            validate_to: '2030-12-31',
            rate_sheet: spreadsheet('express_rate_sheet'),
          },
        },
      ],
      expect: NOT_FOUND,
    },
    'GET /company/rate_sheet/download/:id': {
      calls: (a) => a.sheets.map((id) => get(`/company/rate_sheet/download/${id}`, { company_id: a.carrier })),
      expect: NOT_FOUND,
    },
    'GET /company/rate_sheet/rows/:id': {
      calls: (a) => a.sheets.map((id) => get(`/company/rate_sheet/rows/${id}`, { company_id: a.carrier })),
      expect: NOT_FOUND,
    },
    'GET /company/rate_sheet/export/:id': {
      calls: (a) => a.sheets.map((id) => get(`/company/rate_sheet/export/${id}`, { company_id: a.carrier })),
      expect: NOT_FOUND,
    },
    'POST /company/rate_sheet/destroy/:id': {
      calls: (a) => a.sheets.map((id) => post(`/company/rate_sheet/destroy/${id}`, { company_id: a.carrier })),
      expect: NOT_FOUND,
    },
    'GET /company/rate_sheet/destroy/:id': { calls: (a) => a.sheets.map((id) => get(`/company/rate_sheet/destroy/${id}`)), expect: NOT_FOUND },
    'GET /admin/enduser_carrier_categories': adminOnly((a) => [get('/admin/enduser_carrier_categories', { company_id: a.carrier })]),
    'POST /admin/enduser_carrier_categories/store': adminOnly((a) => [
      post('/admin/enduser_carrier_categories/store', { company_id: a.carrier, enduser_id: a.customer, exp_category_id: null }),
    ]),
    'POST /admin/enduser_carrier_categories/destroy': adminOnly((a) => [
      post('/admin/enduser_carrier_categories/destroy', { company_id: a.carrier, enduser_id: a.customer }),
    ]),
    'GET /company/enduser_carrier_categories': {
      calls: (a) => [
        get('/company/enduser_carrier_categories', { company_id: a.carrier, category_id: a.categoryExp }),
        get('/company/enduser_carrier_categories', {}, 'bianchi'),
      ],
      expect: OWN,
    },
    'POST /company/enduser_carrier_categories/store': {
      calls: (a, c) => [
        post('/company/enduser_carrier_categories/store', { company_id: a.carrier, enduser_id: a.customer, exp_category_id: null, std_category_id: null }),
        // B's own customer priced with A's categories.
        post('/company/enduser_carrier_categories/store', { enduser_id: c.bCustomer, exp_category_id: a.categoryExp }),
        post('/company/enduser_carrier_categories/store', { enduser_id: c.bCustomer, std_category_id: a.categoryStd }),
      ],
      expect: [404, 422],
    },
    'POST /company/enduser_carrier_categories/destroy': {
      calls: (a) => [post('/company/enduser_carrier_categories/destroy', { company_id: a.carrier, enduser_id: a.customer })],
      expect: NOT_FOUND,
    },
    'GET /enduser/getMyRateSheet': {
      calls: () => [get('/enduser/getMyRateSheet', { zone: 'NAT' }), get('/enduser/getMyRateSheet', { zone: 'INT' })],
      expect: OWN,
    },
    // B has no sheet of its own: a 200 here would be someone else's prices.
    'GET /enduser/getMyRateSheet/download': {
      calls: () => [get('/enduser/getMyRateSheet/download', { rate_type: 'EXP' }), get('/enduser/getMyRateSheet/download', { rate_type: 'STD' })],
      expect: NOT_FOUND,
    },

    // Portal settings.
    'GET /admin/settings': adminOnly(() => [get('/admin/settings')]),
    'POST /admin/settings/update': adminOnly((a) => [post('/admin/settings/update', { visitor_company_id: a.carrier })]),

    // Quotes and requests. Visitors price and book with B (the visitor carrier of the sweep).
    'POST /visitor/costRequest': { calls: (a) => [post('/visitor/costRequest', quote(a))], expect: [200, 403, 404, 422] },
    // Public tracking (docs/tracking.md): A's request number with a wrong postal code is the one 404 of every mismatch, counted per address.
    'GET /visitor/track': { calls: (a) => [get('/visitor/track', { code: a.request, postal_code: '00000' })], expect: THROTTLED(404) },
    'POST /visitor/costRequest/pdf': { calls: (a) => [post('/visitor/costRequest/pdf', quote(a))], expect: [200, 403, 404, 422] },
    'POST /enduser/transport_requests/newRequest': {
      calls: () => [post('/enduser/transport_requests/newRequest', { ...shipmentLists([handShipment(0)]), notes: 'Sweep request' })],
      expect: OWN_WRITE,
    },
    'POST /visitor/saveExpressRequest': {
      calls: (a) => [
        post('/visitor/saveExpressRequest', {
          ...quote(a),
          ...shipmentLists([handShipment(0)]),
          service: 'palletExpress',
          shipmentclass: 'SILVER',
          palletWeight: [100],
          palletWidth: [80],
          palletLength: [120],
          palletHeight: [100],
          shipmentprice: '10.00',
          adminfee: '1.00',
          firstname: 'Sweep',
          lastname: 'Visitor',
          email: 'visitor@sweep.test',
          phone: '+39 333 000 1111',
          visitor_company: 'Sweep',
          enduser_id: String(a.customer),
        }),
      ],
      expect: [200, 422],
    },
    'POST /visitor/saveStandardRequest': {
      calls: (a) => [
        post('/visitor/saveStandardRequest', {
          ...quote(a),
          ...shipmentLists([handShipment(0)]),
          shipmentprice: '10.00',
          adminfee: '1.00',
          firstname: 'Sweep',
          lastname: 'Visitor',
          email: 'visitor@sweep.test',
          phone: '+39 333 000 1111',
          visitor_company: 'Sweep',
          enduser_id: String(a.customer),
        }),
      ],
      expect: [200, 422],
    },
    'POST /company/transport_requests/updateTransportRequestStatus': {
      calls: (a) => [3, 4, 5].map((s) => post('/company/transport_requests/updateTransportRequestStatus', { id: a.request, transport_request_status_id: s })),
      expect: NOT_FOUND,
    },
    // The end user's cancel (issue 35): A's request is unknown, with a reason or without.
    'POST /enduser/transport_requests/updateTransportRequestStatus': {
      calls: (a) => [
        post('/enduser/transport_requests/updateTransportRequestStatus', { id: a.request, transport_request_status_id: 7, note: 'Sweep' }),
        post('/enduser/transport_requests/updateTransportRequestStatus', { id: a.request, transport_request_status_id: 7, note: ' ' }),
      ],
      expect: NOT_FOUND,
    },
    'POST /company/transport_requests/updateRequest': {
      calls: (a, c) => [
        post('/company/transport_requests/updateRequest', { tr_id: a.request, notes: 'Hijacked', price: '1.00', status_id: 5 }),
        post('/company/transport_requests/updateRequest', {
          tr_id: a.request,
          sid: [a.shipment],
          pid: [a.pickup],
          did: [a.delivery],
          sdid: [String(a.detail)],
          ...shipmentLists([handShipment(0)]),
        }),
        // B's own request, pointing at A's shipment, addresses and goods.
        post('/company/transport_requests/updateRequest', {
          tr_id: c.bRequest,
          sid: [a.shipment],
          pid: [a.pickup],
          did: [a.delivery],
          sdid: [String(a.detail)],
          ...shipmentLists([handShipment(0)]),
        }),
      ],
      expect: [404, 409, 422],
    },
  };

  // Declared resources with generated routes: classified from their declarations.
  Object.assign(m, declaredSweepRows(RESOURCES));
  Object.assign(m, declaredImportSweepRows(RESOURCES));

  // The six tariff tables. /company takes no company: a company_id sent is dropped and the caller's own set is used.
  for (const spec of TARIFF_TABLES) {
    const admin = `/admin/${spec.key}`;
    const company = `/company/${spec.key}`;
    m[`GET ${admin}`] = adminOnly((a) => [get(admin, { company_id: a.carrier })]);
    m[`POST ${admin}/store`] = adminOnly((a) => [
      { path: `${admin}/store`, form: { company_id: String(a.carrier), [spec.fileField]: spreadsheet(spec.templateKey) } },
    ]);
    m[`POST ${admin}/destroy`] = adminOnly((a) => [post(`${admin}/destroy`, { company_id: a.carrier })]);
    m[`GET ${company}`] = { calls: (a) => [get(company, { company_id: a.carrier })], expect: OWN };
    // Imports into B's own set (or 409 when B's set is not empty): never into A's.
    m[`POST ${company}/store`] = {
      calls: (a, c) => [
        {
          path: `${company}/store`,
          form: { company_id: String(a.carrier), [spec.fileField]: spreadsheet(spec.templateKey) },
          sees: `"company_id":${c.bCarrier},"summary"`,
        },
      ],
      expect: OWN_WRITE,
    };
    // Deletes B's own set.
    m[`GET ${company}/destroy`] = { calls: (a) => [get(`${company}/destroy`, { company_id: a.carrier })], expect: OWN };
    // Exports: the admin's by company_id; B's own set (the company_id sent is dropped).
    m[`GET ${admin}/export`] = adminOnly((a) => [get(`${admin}/export`, { company_id: a.carrier })]);
    m[`GET ${company}/export`] = { calls: (a) => [get(`${company}/export`, { company_id: a.carrier })], expect: OWN };
  }

  // Companies and users, under /admin (admins only) and /company (the carrier's own tenant).
  for (const ns of ['admin', 'company'] as const) {
    const inB = <T extends Entry>(e: T): Entry => (ns === 'admin' ? { ...e, expect: ADMIN_ONLY } : e);
    const companies = (a: TenantA) => [a.carrier, a.customer];
    const users = (a: TenantA) => [a.owner, a.staff, a.support, a.enduser];
    m[`GET /${ns}/companies`] = inB({
      calls: (a) => [get(`/${ns}/companies`, { carrier_id: a.carrier }), get(`/${ns}/companies`, { search: 'acme' }), get(`/${ns}/companies`, {}, 'bianchi')],
      expect: OWN,
    });
    m[`GET /${ns}/companies/show/:id`] = inB({ calls: (a) => companies(a).map((id) => get(`/${ns}/companies/show/${id}`)), expect: NOT_FOUND });
    m[`POST /${ns}/companies/update/:id`] = inB({
      calls: (a, c) => [
        ...companies(a).map((id) => post(`/${ns}/companies/update/${id}`, { legal_name: 'Hijacked', carrier_id: a.carrier })),
        // B's own customer, moved under A or priced with A's categories.
        post(`/${ns}/companies/update/${c.bCustomer}`, { carrier_id: a.carrier, exp_category_id: a.categoryExp, std_category_id: a.categoryStd }),
      ],
      expect: [404, 422],
    });
    m[`GET /${ns}/companies/destroy/:id`] = inB({ calls: (a) => companies(a).map((id) => get(`/${ns}/companies/destroy/${id}`)), expect: NOT_FOUND });
    m[`GET /${ns}/companies/changeStatus/:id`] = inB({ calls: (a) => companies(a).map((id) => get(`/${ns}/companies/changeStatus/${id}`)), expect: NOT_FOUND });
    m[`POST /${ns}/companies/store`] = inB({
      // Planted under A by name (lands in B), and priced with A's categories (refused).
      calls: (a, c) => [
        { ...post(`/${ns}/companies/store`, companyBody(a, c)), sees: `"carrier_id":${c.bCarrier},` },
        post(`/${ns}/companies/store`, companyBody(a, c, { legal_name: 'Sweep Planted 2', exp_category_id: a.categoryExp, std_category_id: a.categoryStd })),
      ],
      expect: [200, 422],
    });
    m[`GET /${ns}/users`] = inB({
      calls: (a) => [get(`/${ns}/users`, { company_id: a.customer }), get(`/${ns}/users`, { search: 'acme' }), get(`/${ns}/users`, {}, 'owner@beta.test')],
      expect: OWN,
    });
    m[`GET /${ns}/users/show/:id`] = inB({ calls: (a) => users(a).map((id) => get(`/${ns}/users/show/${id}`)), expect: NOT_FOUND });
    m[`POST /${ns}/users/update/:id`] = inB({
      calls: (a, c) => [
        ...users(a).map((id) => post(`/${ns}/users/update/${id}`, { first_name: 'Hijacked', password: 'Hijack1234', password_confirmation: 'Hijack1234' })),
        // B's own user, moved into A's customer.
        post(`/${ns}/users/update/${c.bStaff}`, { company_id: a.customer, role_id: 6 }),
      ],
      expect: [404, 422],
    });
    m[`GET /${ns}/users/destroy/:id`] = inB({ calls: (a) => users(a).map((id) => get(`/${ns}/users/destroy/${id}`)), expect: NOT_FOUND });
    m[`GET /${ns}/users/changeStatus/:id`] = inB({ calls: (a) => users(a).map((id) => get(`/${ns}/users/changeStatus/${id}`)), expect: NOT_FOUND });
    m[`POST /${ns}/users/store`] = inB({
      calls: (a, c) => [
        post(`/${ns}/users/store`, userBody(a.customer, 'planted1@sweep.test', c)),
        post(`/${ns}/users/store`, userBody(a.carrier, 'planted2@sweep.test', c)),
      ],
      expect: INVALID,
    });
  }

  // Transport requests and statistics, per namespace.
  for (const ns of ['admin', 'company', 'enduser'] as const) {
    const inB = (e: Entry): Entry => (ns === 'admin' ? { ...e, expect: ADMIN_ONLY } : e);
    m[`GET /${ns}/transport_requests`] = inB({
      calls: (a) => [
        get(`/${ns}/transport_requests`, { enduser_id: a.customer, carrier_id: a.carrier, company_id: a.carrier }),
        get(`/${ns}/transport_requests`, {}, 'bxq request'),
        // The search (issue 35): both tenants' requests go to Bologna, only B's own come back; A's number finds nothing.
        get(`/${ns}/transport_requests`, { q: 'bologna' }, 'bxq request'),
        get(`/${ns}/transport_requests`, { q: `#${a.request}` }),
      ],
      expect: SCOPED,
    });
    m[`GET /${ns}/transport_requests/show/:id`] = inB({ calls: (a) => [get(`/${ns}/transport_requests/show/${a.request}`)], expect: NOT_FOUND });
    m[`GET /${ns}/transport_requests/documents/:id`] = inB({ calls: (a) => [get(`/${ns}/transport_requests/documents/${a.document}`)], expect: NOT_FOUND });
    m[`GET /${ns}/transport_requests/waybill/:id`] = inB({ calls: (a) => [get(`/${ns}/transport_requests/waybill/${a.request}`)], expect: NOT_FOUND });
    m[`GET /${ns}/transport_requests/pod/:id`] = inB({ calls: (a) => [get(`/${ns}/transport_requests/pod/${a.request}`)], expect: NOT_FOUND });
    m[`GET /${ns}/transport_requests/labels/:id`] = inB({
      calls: (a) => [get(`/${ns}/transport_requests/labels/${a.request}`), get(`/${ns}/transport_requests/labels/${a.request}`, { format: 'zpl' })],
      expect: NOT_FOUND,
    });
    m[`GET /${ns}/transport_requests/quote/:id`] = inB({ calls: (a) => [get(`/${ns}/transport_requests/quote/${a.request}`)], expect: NOT_FOUND });
    m[`GET /${ns}/statistics`] = inB({ calls: (a) => [get(`/${ns}/statistics`, { company_id: a.carrier })], expect: OWN });
  }
  return withExports(m);
}

/** The lists with an export (`GET <list>/export`, docs/list-exports.md): every generated list, and these hand-written ones. */
const EXPORTED_LIST = /^GET \/(admin|company|enduser)\/(companies|users|audit_log|request_access|transport_requests)$/;

/**
 * An export's row, generated from its list's: the same calls (tenant A's ids in the filters) on `<list>/export`
 * as CSV (plain text, so A's markers would show), the same outcomes. `sees` stays where the export's columns
 * hold B's marker; the request list's marker is a note the export's columns do not show, the audit log's an action code the export
 * writes as its word ("Sign-in").
 */
export function withExports(m: Record<string, Entry>): Record<string, Entry> {
  const generated = new Set(
    RESOURCES.filter((d) => d.routes === 'generated').flatMap((d) =>
      (Object.entries(d.api) as Array<[Kind, string]>).filter(([k]) => kindsOf(d, 'list').includes(k)).map(([, path]) => `GET ${path}`),
    ),
  );
  for (const [key, entry] of Object.entries(m)) {
    if (!generated.has(key) && !EXPORTED_LIST.test(key)) continue;
    const keepSees = !/\/(transport_requests|audit_log)$/.test(key);
    m[`${key}/export`] = {
      ...entry,
      calls: (a, c) =>
        entry.calls(a, c).map((call) => ({
          path: `${call.path}/export`,
          query: { ...call.query, format: 'csv' },
          sees: keepSees ? call.sees : undefined,
        })),
    };
  }
  return m;
}
