import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { nameChanges } from '../../lib/auditNames.js';
import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { AUDIT_ACTIONS } from '../../../model/resources/auditLog.js';
import { int, intN, list, obj, pagedAnswer, str, strN } from '../../lib/answers.js';
import { userRoleId } from '../../lib/accountAnswers.js';
import { orNull } from '../../lib/columns.js';
import { invalid } from '../../lib/errors.js';
import { listQuerySchema } from '../../lib/paging.js';
import { carrierScope } from '../../lib/scope.js';
import { registerMessages } from '../../i18n/index.js';
import { auditLogRepo, presentEntry, type AuditQuery } from '../../repositories/auditLog.js';

registerMessages({
  en: { 'audit.toBeforeFrom': 'The end date cannot come before the start date.' },
  it: { 'audit.toBeforeFrom': 'La data finale non può precedere quella iniziale.' },
  fr: { 'audit.toBeforeFrom': 'La date de fin ne peut pas précéder la date de début.' },
});

/** A changed field's value as it was written: any JSON value (text, number, flag, null…), so no type is given. */
const anything = { description: 'The value (any JSON type; null when absent)' };
/** The contract's Entry (docs/audit-log.md). */
const entry = obj({
  id: int,
  at: str,
  // Not an enumeration: AUDIT_ACTIONS (model/resources/auditLog.ts) lists the common ones, but routes may write
  // others (webhooks' `resend`), and the column is free text.
  action: { type: 'string', description: `What happened: ${AUDIT_ACTIONS.join(', ')}, …` },
  resource: str,
  resource_id: intN,
  user_id: intN,
  user_name: strN,
  user_role_id: orNull(userRoleId),
  company_id: intN,
  company_name: strN,
  changes: list(
    obj(
      {
        field: str,
        before: anything,
        after: anything,
        before_text: { type: 'string', description: "What `before` names, in the caller's language (a company's name, a status's word; issue 35)" },
        after_text: { type: 'string', description: "What `after` names, in the caller's language" },
      },
      ['before_text', 'after_text'],
    ),
  ),
  ip: strN,
});

const id = { type: 'integer', minimum: 1 };
const day = { type: 'string', format: 'date', description: 'YYYY-MM-DD, a Europe/Rome day (inclusive)' };
export const auditListQuery = listQuerySchema(['at'], {
  resource: { type: 'string', pattern: '^[a-z_]{1,64}$', description: 'A table name (companies, users, transport_requests, …; auth for sign-ins)' },
  resource_id: id,
  user_id: id,
  company_id: { ...id, description: "The actor's company or the company the entry is about" },
  action: { type: 'string', enum: [...AUDIT_ACTIONS] },
  sign_ins: {
    type: 'boolean',
    default: true,
    description: 'false leaves out the sign-in events (resource `auth`: sign-ins, failed sign-ins, sign-outs) unless `resource=auth`; the screen sends false',
  },
  from: day,
  to: day,
});

/**
 * The audit log (server.md §3, docs/audit-log.md): read only, newest first. Admins read every entry; the
 * carrier kind its own tenant's (its company, its customers and their users, its tariffs and requests).
 * No route changes or deletes an entry.
 */
export default async function auditLogRoutes(app: App) {
  const repo = auditLogRepo(app.db);
  const read = async (req: FastifyRequest, q: AuditQuery, tenant?: number) => {
    if (q.from && q.to && q.to < q.from) throw invalid({ to: 'audit.toBeforeFrom' }, 'audit.toBeforeFrom');
    const page = await repo.list(q, tenant);
    return { ...page, data: await nameChanges(app.db, req, page.data.map(presentEntry), tenant) };
  };
  const schema = (summary: string, tags: string[]) => ({
    tags,
    summary,
    querystring: Type.Unsafe<AuditQuery>(auditListQuery),
    response: { 200: pagedAnswer(entry) },
  });

  app.get(
    '/admin/audit_log',
    { config: { policy: kindsFor('audit-log', 'list').filter((k) => k === 'admin') }, schema: schema('A page of the audit log (every entry).', ['admin']) },
    async (req) => read(req, req.query),
  );
  app.get(
    '/company/audit_log',
    {
      config: { policy: kindsFor('audit-log', 'list').filter((k) => k !== 'admin') },
      schema: schema("A page of the audit log of the caller's carrier (its company, customers, users, tariffs and requests).", ['company']),
    },
    async (req) => read(req, req.query, carrierScope(req)!),
  );
}
