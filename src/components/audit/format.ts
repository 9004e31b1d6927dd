import type { Lang } from '../../../model/resource';
import { AUDIT_ACTIONS } from '../../../model/resources/auditLog';
import { AUDIT_TEXTS, declarationOfTable, fieldLabel, formatValue } from '../../../model/auditTexts';
import { formatCents } from '../format';

/**
 * How an audit entry reads (issue 19, docs/audit-log-screens.md): the action ("Modifica"), the resource
 * ("Aziende", the declaration's own label in the user's language) and each change ("Ragione sociale: «A» → «B»",
 * the declaration's field label where there is one). Pure functions of the entry and the language, shared by
 * the audit log list and the "Attività" sections; the texts are also the screens' i18n messages (messages.ts).
 */

/**
 * One change; `before_text` / `after_text`: what a coded value names, in the user's language (a company's name,
 * a status's word: the server's server/lib/auditNames.ts, issue 35), written bare instead of the value.
 */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
  before_text?: string;
  after_text?: string;
}

/** One entry as `GET /admin/audit_log` and `GET /company/audit_log` answer it (shared contract 3). */
export interface AuditEntry {
  id: number;
  at: string;
  action: string;
  resource: string;
  resource_id: number | null;
  user_id: number | null;
  user_name: string | null;
  user_role_id: number | null;
  company_id: number | null;
  company_name: string | null;
  changes: AuditChange[];
  ip: string | null;
}

export { AUDIT_ACTIONS };

export { AUDIT_TEXTS, actionLabel, declarationOfTable, fieldLabel, formatValue, langOf, resourceLabel, type AuditTexts } from '../../../model/auditTexts';

/** The display name of a coded value (a role id → "Vettore"), when the screen knows it; undefined leaves the value as it is. */
export type NameOf = (table: string, field: string, value: unknown) => string | undefined;

/** Columns of undeclared tables that hold money in cents (the transport requests' price and fees). */
const CENTS_COLUMNS: Record<string, readonly string[]> = { transport_requests: ['cost', 'admin_fees'] };

/**
 * A value of one column: money columns (declared `money`, or known cents columns) in euros in the user's
 * language, yes/no columns (declared `boolean`/`flag`) as Sì/No, `status_id` as Attivo/Inattivo, else formatValue.
 */
export function formatFieldValue(table: string, field: string, value: unknown, lang: Lang, name?: NameOf): string {
  if (value === null || value === undefined || value === '') return formatValue(value, lang);
  const named = name?.(table, field, value);
  if (named) return named;
  const type = declarationOfTable(table)?.fields[field]?.type;
  if ((type === 'money' || CENTS_COLUMNS[table]?.includes(field)) && Number.isFinite(Number(value))) return formatCents(value, lang);
  if ((type === 'boolean' || type === 'flag') && ['0', '1'].includes(String(value))) return formatValue(String(value) === '1', lang);
  if (field === 'status_id' && ['0', '1'].includes(String(value))) return String(value) === '1' ? AUDIT_TEXTS[lang].active : AUDIT_TEXTS[lang].inactive;
  return formatValue(value, lang);
}

/**
 * One change in words: "Ragione sociale: «A» → «B»" (the language's quotes, model/auditTexts.ts `quoted`),
 * "Stato: Aperta → Rifiutata" (a coded value by its name); a creation (and an upload) shows the new value alone
 * ("Ragione sociale: «B»"), a deletion the old one.
 */
export function formatChange(table: string, action: string, change: AuditChange, lang: Lang, name?: NameOf): string {
  const label = fieldLabel(table, change.field, lang);
  const value = (v: unknown, text?: string) => text || formatFieldValue(table, change.field, v, lang, name);
  const before = value(change.before, change.before_text);
  const after = value(change.after, change.after_text);
  if (action === 'create' || action === 'upload') return `${label}: ${after}`;
  if (action === 'delete') return `${label}: ${before}`;
  return `${label}: ${before} → ${after}`;
}

/** Every change of an entry, one line each, in the order the server sent them. */
export const formatChanges = (entry: Pick<AuditEntry, 'resource' | 'action' | 'changes'>, lang: Lang, name?: NameOf): string[] =>
  (entry.changes ?? []).map((c) => formatChange(entry.resource, entry.action, c, lang, name));

/**
 * Where the thing an entry is about has a screen: a company, a user, a transport request (by id), a rate
 * sheet (by id and its company), a tariff table (the table's screen: its rows are a set, not one id). Null for the others.
 */
export function linkOf(entry: Pick<AuditEntry, 'resource' | 'resource_id'> & { company_id?: number | null }): string | null {
  const id = entry.resource_id;
  if (entry.resource === 'rate_sheets' && id !== null && entry.company_id) return `/rate-sheets/${id}/${entry.company_id}`;
  if (entry.resource === 'companies' && id !== null) return `/companies/${id}`;
  // A sign-in event's id is the user's.
  if ((entry.resource === 'users' || entry.resource === 'auth') && id !== null) return `/user-management/${id}`;
  if (entry.resource === 'transport_requests' && id !== null) return `/transport-requests-visuals/${id}/1`;
  const decl = declarationOfTable(entry.resource);
  if (decl && /^(express_|standard_)/.test(entry.resource)) return `/${decl.name}`;
  // A generated resource's row has its show page (issue 34); a deleted row's link leads to the list's "not found".
  if (decl && decl.routes === 'generated' && id !== null) return `/${decl.name}/${id}/show`;
  return null;
}
