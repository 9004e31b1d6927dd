import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { LANGS, type Lang, type ResourceDecl } from '../../../model/resource.js';
import companiesDecl from '../../../model/resources/companies.js';
import usersDecl from '../../../model/resources/users.js';
import accessDecl from '../../../model/resources/access-requests.js';
import auditDecl from '../../../model/resources/auditLog.js';
import { actionLabel, fieldLabel, formatValue, resourceLabel } from '../../../model/auditTexts.js';
import { invalid } from '../../lib/errors.js';
import { listQuerySchema, type ListQuery } from '../../lib/paging.js';
import { carrierScope } from '../../lib/scope.js';
import { messageHeader } from '../../lib/declaredExport.js';
import { exportAnswer, exportQuerySchema, pagedSource, sendExport, type CellKind, type ExportColumn, type ExportFormat } from '../../lib/listExport.js';
import { COMPANY_SORT_COLUMNS, companiesRepo, type CompanyFilters, type CompanyScope } from '../../repositories/companies.js';
import { USER_SORT_COLUMNS, userManagementRepo, type UserFilters } from '../../repositories/userManagement.js';
import { accessRequestsRepo, type AccessStatus } from '../../repositories/accessRequests.js';
import { auditLogRepo, presentEntry, type AuditQuery } from '../../repositories/auditLog.js';
import { companyListFilters } from './companies.js';
import { userListFilters } from './users.js';
import { auditListQuery } from './auditLog.js';
import { nameChanges, type NamedChange } from '../../lib/auditNames.js';
import { accessRequestListQuery } from '../company/requestAccess.js';

type Row = Record<string, any>;
type Q<T> = Omit<ListQuery, 'page' | 'per_page'> & T & { format: ExportFormat };

/** A column headed by a declaration's field label. */
const field = (decl: ResourceDecl, name: string, kind: CellKind, value: (r: Row) => unknown): ExportColumn<Row> => ({
  header: Object.fromEntries(LANGS.map((l) => [l, (decl.fieldLabels[l] as Record<string, string>)[name] ?? name])) as Record<Lang, string>,
  kind,
  value,
});
const text = (decl: ResourceDecl, name: string, value: (r: Row) => unknown = (r) => r[name]) => field(decl, name, 'text', value);
const activeWord = (req: FastifyRequest) => (r: Row) => req.t(Number(r.status_id) === 1 ? 'export.active' : 'export.inactive');
const summary = (s: string) => `Every row of the list (its filters and sort) as .xlsx or .csv: ${s}.`;

/** The companies list's columns (src/resources/companies/CompanyList.tsx). */
const companyColumns = (req: FastifyRequest): ExportColumn<Row>[] => [
  { header: { it: 'ID', en: 'ID', fr: 'ID' }, kind: 'int', value: (r) => r.id },
  text(companiesDecl, 'legal_name'),
  text(companiesDecl, 'company_role_id', (r) => req.t(`export.companyRole.${r.company_role_id}`)),
  text(companiesDecl, 'price_category_id', (r) => r.price_category_name),
  text(companiesDecl, 'carrier_id', (r) => r.carrier_name),
  text(companiesDecl, 'language_id', (r) => r.language_name),
  text(companiesDecl, 'city'),
  text(companiesDecl, 'postal_code'),
  text(companiesDecl, 'country_id', (r) => r.country_name),
  { header: messageHeader('export.companies.users'), kind: 'int', value: (r) => Number(r.users_count ?? 0) },
  { header: messageHeader('export.companies.status'), kind: 'text', value: activeWord(req) },
];

/** The users list's columns (src/resources/user-management/UserList.tsx). */
const userColumns = (req: FastifyRequest): ExportColumn<Row>[] => [
  { header: { it: 'ID', en: 'ID', fr: 'ID' }, kind: 'int', value: (r) => r.id },
  text(usersDecl, 'company_id', (r) => r.company_legal_name),
  ...['title', 'first_name', 'last_name', 'address', 'city', 'postal_code', 'phone', 'email', 'support_email', 'support_skype'].map((n) => text(usersDecl, n)),
  { header: messageHeader('export.users.status'), kind: 'text', value: activeWord(req) },
  text(usersDecl, 'country_id', (r) => r.country_name),
  text(usersDecl, 'language_id', (r) => r.language_name),
];

/** The access requests' review list (src/resources/request-access/RequestAccessList.tsx), its grouped cells spread out. */
const accessColumns = (req: FastifyRequest): ExportColumn<Row>[] => [
  { header: { it: 'Ricevuta il', en: 'Received', fr: 'Reçue le' }, kind: 'datetime', value: (r) => r.created_at },
  text(accessDecl, 'status', (r) => req.t(`export.access.${r.status}`)),
  ...[
    'carrier_name',
    'carrier_email',
    'carrier_phone',
    'carrier_website_url',
    'carrier_address',
    'carrier_postal_code',
    'carrier_city',
    'carrier_province',
  ].map((n) => text(accessDecl, n)),
  text(accessDecl, 'carrier_country_id', (r) => r.carrier_country),
  ...['user_first_name', 'user_last_name', 'user_email', 'user_phone'].map((n) => text(accessDecl, n)),
  text(accessDecl, 'carrier_language_id', (r) => r.carrier_language),
];

/** The audit log's columns (src/components/audit/AuditTable.tsx): its words from model/auditTexts.ts; the IP, a hidden column, too. */
const auditColumns = (req: FastifyRequest): ExportColumn<Row>[] => {
  const lang = req.lang;
  // A coded value by its name (issue 35: server/lib/auditNames.ts), as the screen shows it.
  const change = (e: ReturnType<typeof presentEntry>, c: NamedChange) => {
    const label = fieldLabel(e.resource, c.field, lang);
    const before = c.before_text ?? formatValue(c.before, lang);
    const after = c.after_text ?? formatValue(c.after, lang);
    if (e.action === 'create' || e.action === 'upload') return `${label}: ${after}`;
    if (e.action === 'delete') return `${label}: ${before}`;
    return `${label}: ${before} → ${after}`;
  };
  return [
    field(auditDecl, 'at', 'datetime', (r) => r.at),
    { header: messageHeader('export.audit.who'), kind: 'text', value: (r) => r.user_name },
    text(auditDecl, 'company_name'),
    text(auditDecl, 'action', (r) => actionLabel(r.action, lang)),
    text(auditDecl, 'resource', (r) => resourceLabel(r.resource, lang)),
    field(auditDecl, 'resource_id', 'int', (r) => r.resource_id),
    { header: messageHeader('export.audit.changes'), kind: 'text', width: 60, value: (r) => r.changes.map((c: any) => change(r as any, c)).join('\n') || null },
    text(auditDecl, 'ip'),
  ];
};

/**
 * The exports of the hand-written lists (issue 24 item 3, docs/list-exports.md): companies, users, access
 * requests and the audit log, each on its list's own repository function with the list's own scope and
 * query (filters, sort), in batches; the same policy as the list.
 */
export default async function listExportRoutes(app: App) {
  const companies = companiesRepo(app.db);
  const users = userManagementRepo(app.db);
  const access = accessRequestsRepo(app.db);
  const audit = auditLogRepo(app.db);

  for (const ns of ['admin', 'company'] as const) {
    const scopeOf = (req: FastifyRequest): CompanyScope => ({ carrierId: ns === 'admin' ? null : carrierScope(req) });
    const only = (k: string) => (ns === 'admin' ? k === 'admin' : k === 'carrier');
    const tags = [ns];

    app.get(
      `/${ns}/companies/export`,
      {
        config: { policy: kindsFor('companies', 'list').filter(only) },
        schema: {
          tags,
          summary: summary('companies'),
          querystring: Type.Unsafe<Q<CompanyFilters>>(exportQuerySchema(listQuerySchema(Object.keys(COMPANY_SORT_COLUMNS), companyListFilters))),
          response: { 200: exportAnswer() },
        },
      },
      async (req, reply) => {
        const { format, ...q } = req.query;
        const source = pagedSource((page, per_page) => companies.list(scopeOf(req), { ...q, page, per_page }));
        return sendExport(req, reply, { title: companiesDecl.labels[req.lang].many, format, columns: companyColumns(req), source });
      },
    );

    app.get(
      `/${ns}/users/export`,
      {
        config: { policy: kindsFor('user-management', 'list').filter(only) },
        schema: {
          tags,
          summary: summary('users'),
          querystring: Type.Unsafe<Q<UserFilters>>(exportQuerySchema(listQuerySchema(Object.keys(USER_SORT_COLUMNS), userListFilters))),
          response: { 200: exportAnswer() },
        },
      },
      async (req, reply) => {
        const { format, ...q } = req.query;
        const source = pagedSource((page, per_page) => users.list(scopeOf(req), { ...q, page, per_page }));
        return sendExport(req, reply, { title: usersDecl.labels[req.lang].many, format, columns: userColumns(req), source });
      },
    );

    app.get(
      `/${ns}/audit_log/export`,
      {
        config: { policy: kindsFor('audit-log', 'list').filter((k) => (ns === 'admin' ? k === 'admin' : k !== 'admin')) },
        schema: {
          tags,
          summary: summary('the audit log'),
          querystring: Type.Unsafe<Q<AuditQuery>>(exportQuerySchema(auditListQuery)),
          response: { 200: exportAnswer() },
        },
      },
      async (req, reply) => {
        const { format, ...q } = req.query;
        if (q.from && q.to && q.to < q.from) throw invalid({ to: 'audit.toBeforeFrom' }, 'audit.toBeforeFrom');
        const tenant = ns === 'admin' ? undefined : carrierScope(req)!;
        const source = pagedSource(async (page, per_page) => {
          const p = await audit.list({ ...q, page, per_page }, tenant);
          return { ...p, data: await nameChanges(app.db, req, p.data.map(presentEntry), tenant) };
        });
        return sendExport(req, reply, { title: auditDecl.labels[req.lang].many, format, columns: auditColumns(req), source });
      },
    );
  }

  app.get(
    '/company/request_access/export',
    {
      config: { policy: kindsFor('request-access', 'list') },
      schema: {
        tags: ['company'],
        summary: summary('access requests to review'),
        querystring: Type.Unsafe<Q<{ status?: AccessStatus; date?: string }>>(exportQuerySchema(accessRequestListQuery)),
        response: { 200: exportAnswer() },
      },
    },
    async (req, reply) => {
      const { format, ...q } = req.query;
      const source = pagedSource((page, per_page) => access.list(carrierScope(req), { ...q, page, per_page }, req.lang));
      return sendExport(req, reply, { title: accessDecl.labels[req.lang].many, format, columns: accessColumns(req), source });
    },
  );
}
