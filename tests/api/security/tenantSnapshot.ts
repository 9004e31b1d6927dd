import { sql } from 'kysely';
import { sha256 } from '../fileHelpers.js';
import { RATE_SHEET_FILES } from '../../../server/imports/rateSheets.js';
import { DOCUMENTS_AREA } from '../../../server/routes/requests/list.js';
import type { TestPortal } from '../helpers.js';
import type { TenantA } from './tenantWorld.js';
import { RESOURCES } from '../../../model/registry.js';

/** The email of the access requests the sweep itself addresses to A (an invitation link names any carrier, by design). */
export const SWEEP_APPLICANT = 'sweep.applicant@example.test';

type Sets = { companies: number[]; users: number[]; sheets: number[]; tickets: number[]; requests: number[]; shipments: number[] };
type Filter = (a: TenantA, s: Sets) => [column: string, ids: number[], extra?: 'sweepApplicant' | 'visitorAccessRequests'];

/**
 * Every table of the database, classified (a table added without a class fails the sweep's guard):
 * - tenant: A's rows, selected by the filter, compared byte for byte before and after;
 * - global: reference data and settings that only admins change, compared whole;
 * - free: counters, caches, migrations, and what a visitor may cause by design.
 */
export const TENANT_TABLES: Record<string, Filter> = {
  companies: (_, s) => ['id', s.companies],
  users: (_, s) => ['company_id', s.companies],
  auth_tokens: (_, s) => ['user_id', s.users],
  device_tokens: (_, s) => ['user_id', s.users],
  user_mfa: (_, s) => ['user_id', s.users],
  mfa_recovery_codes: (_, s) => ['user_id', s.users],
  mfa_challenges: (_, s) => ['user_id', s.users],
  categories: (a) => ['company_id', [a.carrier]],
  rate_sheets: (a) => ['company_id', [a.carrier]],
  express_rate_rows: (_, s) => ['rate_sheet_id', s.sheets],
  standard_rate_rows: (_, s) => ['rate_sheet_id', s.sheets],
  express_hub_costs: (a) => ['company_id', [a.carrier]],
  express_island_zones: (a) => ['company_id', [a.carrier]],
  express_hub_codes: (a) => ['company_id', [a.carrier]],
  express_special_zones: (a) => ['company_id', [a.carrier]],
  standard_special_zones: (a) => ['company_id', [a.carrier]],
  standard_no_passage: (a) => ['company_id', [a.carrier]],
  postal_surcharges: (a) => ['company_id', [a.carrier]],
  tickets: (a) => ['carrier_company_id', [a.carrier]],
  chat_messages: (_, s) => ['chat_id', s.tickets],
  access_requests: (a) => ['carrier_id', [a.carrier], 'sweepApplicant'],
  transport_requests: (a) => ['carrier_id', [a.carrier]],
  transport_request_counts: (a) => ['carrier_id', [a.carrier]], // the list's totals, kept by triggers
  shipments: (_, s) => ['transport_request_id', s.requests],
  shipment_addresses: (_, s) => ['shipment_id', s.shipments],
  shipment_details: (_, s) => ['shipment_id', s.shipments],
  transport_request_documents: (_, s) => ['transport_request_id', s.requests],
  transport_request_pods: (_, s) => ['transport_request_id', s.requests], // the proof of delivery (issue 36)
  transport_request_events: (_, s) => ['transport_request_id', s.requests], // the timeline (migration 0018)
  // A's audit entries (docs/audit-log.md): B's roles add none (their entries carry B's tenant), but a
  // visitor's access request addressed to A is A's by design (as access_requests above).
  audit_log: (a) => ['tenant_id', [a.carrier], 'visitorAccessRequests'],
  api_keys: (_, s) => ['company_id', s.companies],
  webhook_endpoints: (_, s) => ['company_id', s.companies],
  webhook_deliveries: (_, s) => ['transport_request_id', s.requests], // an event goes to the request's own companies only
  // the bell (migration 0020): A's users' rows, read and marked by their own user only
  notifications: (_, s) => ['user_id', s.users],
  consignee_mail_off: (_, s) => ['company_id', s.companies],
  calendar_feeds: (_, s) => ['company_id', s.companies], // the private calendar feed (migration 0030)
  label_settings: (_, s) => ['company_id', s.companies], // the GS1 prefix and SSCC counter (migration 0029)
  // The generated company-tenancy resources (issue 34): A's companies' rows, from their declarations.
  ...Object.fromEntries(
    RESOURCES.filter((r) => r.routes === 'generated' && r.tenancy === 'company').map((r) => [r.table, ((_, s) => ['company_id', s.companies]) as Filter]),
  ),
};
/** Reference tables, the same for every tenant: the declared global resources' (model/registry.ts) and these. */
export const GLOBAL_TABLES = [
  ...RESOURCES.filter((r) => r.tenancy === 'global').map((r) => r.table),
  'languages',
  'price_categories',
  'ticket_categories',
  'settings',
  'user_roles',
  'company_roles',
  'support_roles',
  'transport_request_statuses',
];
export const FREE_TABLES: Record<string, string> = {
  rate_limits: 'throttle counters',
  throttle_events: 'throttle events',
  statistics_cache: 'a cache, recomputed',
  kysely_migration: 'migrations',
  kysely_migration_lock: 'migrations',
  // Reference places: no route writes them (and they are thousands of rows).
  provinces: 'read-only reference',
  municipalities: 'read-only reference',
  municipality_postal_codes: 'read-only reference',
  island_places: 'read-only reference',
  // Anyone may ask for a reset code for any email, and guess at it: by design (server.md §3); the code goes to the owner.
  password_resets: 'reset codes, requested by anyone by design',
  // Every write adds its live event (docs/live-events.md); the stream filters them per user (tests/api/liveEvents.test.ts).
  live_events: "the live stream's short memory, written by every write by design",
  // Uploaded files kept in the database (lib/fileStoreDb.ts): keyed by random names, no tenant column; tenant
  // A's files are compared by their bytes (snapshotA's `files`), and an upload by anyone adds a row.
  stored_files: "uploaded files' bytes, compared per file below",
  // Every quote PDF anyone downloads (a visitor too) is numbered and recorded by design (migration 0031).
  issued_quotes: 'the quote numbers issued, one row per quote PDF downloaded by anyone',
};

/** The tables of the current database (PostgreSQL: of the test's own schema). */
export async function tableNames(p: TestPortal): Promise<string[]> {
  const current = p.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(p.db.db)).rows[0].s : null;
  const tables = await p.db.db.introspection.getTables({ withInternalKyselyTables: true });
  return tables
    .filter((t) => !current || t.schema === current)
    .map((t) => t.name)
    .sort();
}

const sha = async (p: TestPortal, area: string, name: string) => sha256(await p.app.files.read(area, name));

/** Tenant A's rows of every tenant table, every global table whole, and the bytes of A's stored files. */
export async function snapshotA(p: TestPortal, a: TenantA) {
  const db = p.db.db as any;
  const ids = async (table: string, column: string, values: number[]) =>
    values.length ? (await db.selectFrom(table).select('id').where(column, 'in', values).execute()).map((r: { id: number }) => Number(r.id)) : [];
  const companies = [a.carrier, ...(await ids('companies', 'carrier_id', [a.carrier]))];
  const sheets = await ids('rate_sheets', 'company_id', [a.carrier]);
  const requests = await ids('transport_requests', 'carrier_id', [a.carrier]);
  const sets: Sets = {
    companies,
    sheets,
    requests,
    users: await ids('users', 'company_id', companies),
    tickets: await ids('tickets', 'carrier_company_id', [a.carrier]),
    shipments: await ids('shipments', 'transport_request_id', requests),
  };
  const out: Record<string, unknown> = {};
  for (const [table, filter] of Object.entries(TENANT_TABLES)) {
    const [column, values, extra] = filter(a, sets);
    let q = db
      .selectFrom(table)
      .selectAll()
      .where(column, 'in', values.length ? values : [-1]);
    if (extra === 'sweepApplicant') q = q.where('user_email', '<>', SWEEP_APPLICANT);
    if (extra === 'visitorAccessRequests')
      q = q.where((eb: any) => eb.not(eb.and([eb('resource', '=', 'access_requests'), eb('user_id', 'is', null), eb('action', '=', 'create')])));
    // the request counters and the label settings have no id: ordered by their key
    out[table] = await (
      table === 'transport_request_counts'
        ? q.orderBy('enduser_company_id').orderBy('transport_request_status_id')
        : table === 'label_settings'
          ? q.orderBy('company_id')
          : q.orderBy('id')
    ).execute();
  }
  for (const table of GLOBAL_TABLES)
    out[table] = await db
      .selectFrom(table)
      .selectAll()
      .orderBy(table === 'settings' ? 'key' : 'id')
      .execute();
  const sheetFiles = await db
    .selectFrom('rate_sheets')
    .select('file_path')
    .where('company_id', '=', a.carrier)
    .where('file_path', 'is not', null)
    .orderBy('id')
    .execute();
  const docs = await db
    .selectFrom('transport_request_documents')
    .select('stored_name')
    .where('transport_request_id', 'in', requests.length ? requests : [-1])
    .orderBy('id')
    .execute();
  const pods = await db
    .selectFrom('transport_request_pods')
    .select('stored_name')
    .where('transport_request_id', 'in', requests.length ? requests : [-1])
    .orderBy('id')
    .execute();
  out.files = [
    ...(await Promise.all(sheetFiles.map(async (r: { file_path: string }) => [r.file_path, await sha(p, RATE_SHEET_FILES, r.file_path)]))),
    ...(await Promise.all(docs.map(async (r: { stored_name: string }) => [r.stored_name, await sha(p, DOCUMENTS_AREA, r.stored_name)]))),
    ...(await Promise.all(pods.map(async (r: { stored_name: string }) => [r.stored_name, await sha(p, 'pods', r.stored_name)]))),
  ];
  return out;
}
