import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { AuditLogTable } from '../db/types.js';
import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';
import { romeDayRange } from '../lib/romeDay.js';
import { paginate, type Page } from '../lib/paging.js';

/** One recorded write or event, as a route describes it (the shared contract of issue 19, docs/audit-log.md). */
export interface AuditEntry {
  action: string;
  /** The database table (`companies`, `users`, …; `auth` for sign-in events). */
  resource: string;
  resource_id?: number | null;
  /** The company the write is about (its tenant is the entry's, when an admin or a visitor wrote it). */
  company_id?: number | null;
  changes?: Record<string, { before: unknown; after: unknown }>;
  /** The tenant, when the company row is gone by the time the entry is written (a deleted company): `companyTenant(row)`. */
  tenant_id?: number | null;
}

/** The carrier tenant of a company row (as the SQL `tenantOf` below): itself for a carrier or reseller, its carrier for an end-user company. */
export const companyTenant = (c: { id: number; company_role_id: number; carrier_id: number | null }): number | null =>
  c.company_role_id === 2 || c.company_role_id === 4 ? c.id : c.company_role_id === 3 ? c.carrier_id : null;

/** Who wrote it: a signed-in user (from the token), an account named by a security event, or nobody (a visitor). */
export interface AuditActor {
  user_id: number | null;
  /** The actor's own tenant (a non-admin signed-in user: its carrier), else undefined (from the entry's company). */
  tenant?: number | null | RawBuilder<number | null>;
  ip: string | null;
  /** The name written instead of the user's: a write made with an API key names the key (`API key "ERP"`). */
  name?: string;
}

/** Field names whose values are never written (passwords, hashes, tokens, secrets, TOTP codes, reset codes). */
const SECRET = /pass(word)?|hash|token|secret|totp|otp|mfa|api_?key/i;
export const REDACTED = '[redacted]';

/** The changes with every secret's values replaced (by field name). */
export function redact(changes: AuditEntry['changes']): AuditEntry['changes'] {
  if (!changes) return changes;
  const out: NonNullable<AuditEntry['changes']> = {};
  for (const [field, c] of Object.entries(changes))
    out[field] = SECRET.test(field) ? { before: c.before == null ? null : REDACTED, after: c.after == null ? null : REDACTED } : c;
  return out;
}

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number';

/** The changed fields only: `{field: {before, after}}` for each key of `after` whose value differs (missing before = null). */
export function diff(before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined, fields?: string[]) {
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const k of fields ?? Object.keys(after ?? before ?? {})) {
    if (k === 'id' || k === 'created_at' || k === 'updated_at') continue;
    const b = before ? (before[k] ?? null) : null;
    const a = after ? (after[k] ?? null) : null;
    // 300 and '300' (a number column read back, a decimal text sent) are the same value
    const same = JSON.stringify(b) === JSON.stringify(a) || (isScalar(b) && isScalar(a) && String(b) === String(a));
    if (!same) out[k] = { before: b, after: a };
  }
  return out;
}

/** The carrier tenant of a company: itself for a carrier or reseller, its carrier for an end-user company, none for the admins'. */
const tenantOf = (companyId: number | null | undefined): RawBuilder<number | null> | null =>
  companyId == null
    ? null
    : sql<
        number | null
      >`(select case when c.company_role_id in (2, 4) then c.id when c.company_role_id = 3 then c.carrier_id else null end from companies c where c.id = ${companyId})`;

export function auditLogRepo(db: Db) {
  return {
    /**
     * Writes the entries of one request in one statement: the actor's name, role and company are copied from
     * their rows (as they are now, which is the moment of the write), the tenant is the actor's or, for an admin
     * or a visitor, the one of the company the entry is about.
     */
    async insert(actor: AuditActor, entries: AuditEntry[], at = nowIso()): Promise<void> {
      if (!entries.length) return;
      const u = actor.user_id;
      const rows = entries.map((e) => ({
        at,
        user_id: u,
        user_name:
          actor.name !== undefined ? actor.name : u == null ? null : sql<string>`(select u.first_name || ' ' || u.last_name from users u where u.id = ${u})`,
        user_role_id: u == null ? null : sql<number>`(select u.role_id from users u where u.id = ${u})`,
        company_id: u == null ? null : sql<number>`(select u.company_id from users u where u.id = ${u})`,
        company_name: u == null ? null : sql<string>`(select c.legal_name from users u join companies c on c.id = u.company_id where u.id = ${u})`,
        tenant_id: actor.tenant !== undefined ? actor.tenant : e.tenant_id !== undefined ? e.tenant_id : tenantOf(e.company_id),
        target_company_id: e.company_id ?? null,
        action: e.action,
        resource: e.resource,
        resource_id: e.resource_id ?? null,
        changes: e.changes && Object.keys(e.changes).length ? JSON.stringify(redact(e.changes)) : null,
        ip: actor.ip,
      }));
      await db.insertInto('audit_log').values(rows).execute();
    },

    /** One page of entries, newest first (filters as docs/audit-log.md; `tenant` limits to one carrier's scope). */
    async list(q: AuditQuery, tenant?: number): Promise<Page<AuditRow>> {
      let qb = db.selectFrom('audit_log').selectAll();
      if (tenant !== undefined) qb = qb.where('tenant_id', '=', tenant);
      if (q.resource) qb = qb.where('resource', '=', q.resource);
      if (q.resource_id !== undefined) qb = qb.where('resource_id', '=', q.resource_id);
      if (q.user_id !== undefined) qb = qb.where('user_id', '=', q.user_id);
      if (q.company_id !== undefined) {
        const c = q.company_id;
        qb = qb.where((eb) => eb.or([eb('company_id', '=', c), eb('target_company_id', '=', c)]));
      }
      if (q.action) qb = qb.where('action', '=', q.action);
      // Sign-in events (resource `auth`: sign-ins, failed ones, sign-outs) left out on request (issue 35: they drown
      // the changes); a filter naming `auth` itself still finds them.
      if (q.sign_ins === false && q.resource !== 'auth') qb = qb.where('resource', '<>', 'auth');
      if (q.from) qb = qb.where('at', '>=', romeDayRange(q.from).from);
      if (q.to) qb = qb.where('at', '<', romeDayRange(q.to).to);
      return paginate(qb, { ...q, sort: 'at' }, { sortColumns: { at: 'at' }, defaultSort: 'at', defaultOrder: 'desc', tiesInOrder: true });
    },

    /** Removes the entries older than `days` days (the retention, AUDIT_DAYS); answers how many. */
    async purge(days: number, now = Date.now()): Promise<number> {
      const before = new Date(now - days * 86_400_000).toISOString();
      const res = await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows ?? 0);
    },
  };
}

export interface AuditQuery {
  page?: number;
  per_page?: number;
  order?: string;
  resource?: string;
  resource_id?: number;
  user_id?: number;
  company_id?: number;
  action?: string;
  /** false: without the sign-in events (resource `auth`); absent or true: every entry. */
  sign_ins?: boolean;
  from?: string;
  to?: string;
}

/** A stored entry as it is read back. */
export type AuditRow = Selectable<AuditLogTable>;

/** The answered shape of an entry (the contract's `Entry`). */
export function presentEntry(r: AuditRow) {
  const changes = r.changes ? (JSON.parse(r.changes) as Record<string, { before: unknown; after: unknown }>) : {};
  return {
    id: Number(r.id),
    at: r.at,
    action: r.action,
    resource: r.resource,
    resource_id: r.resource_id == null ? null : Number(r.resource_id),
    user_id: r.user_id == null ? null : Number(r.user_id),
    user_name: r.user_name,
    user_role_id: r.user_role_id == null ? null : Number(r.user_role_id),
    company_id: r.company_id == null ? null : Number(r.company_id),
    company_name: r.company_name,
    changes: Object.entries(changes).map(([field, c]) => ({ field, before: c.before, after: c.after })),
    ip: r.ip,
  };
}
