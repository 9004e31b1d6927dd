import { sql, type RawBuilder } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Lang, ResourceDecl } from '../../model/resource.js';
import { RESOURCES } from '../../model/registry.js';
import type { Db } from '../db/index.js';
import { languageColumns, referencesOf } from './declaredScope.js';
import { hasMessage, registerMessages } from '../i18n/index.js';

/**
 * The names an audit entry's coded values stand for (issue 35, item 11): "Azienda: Rossi Logistica", not
 * "Azienda: 2"; "Stato: Aperta → Rifiutata", not "1 → 4". A change's value that names a row (a company, a
 * user, a country, a document type…) or a status is answered beside it as `before_text` / `after_text`, in the
 * caller's language; any other value has none and the screen writes it as it is.
 *
 * The rule is by column name, whatever the table (`company_id` names a company everywhere), plus every
 * reference field of the entry's declared resource (its target and `optionText`, in the caller's language
 * when the target names its rows per language, declaredScope.ts `languageColumns`). One query per referenced
 * table and page, not one per entry. A row deleted since reads as nothing (the id then shows), and so does,
 * for a carrier's reader, a row outside its tenant (another company's name is not its to read).
 */
type Source = {
  table: string;
  text: (alias: string, lang: Lang) => RawBuilder<string | null>;
  /** The rows a carrier's reader may see named (its tenant's): absent for global reference data. */
  scope?: (qb: any, alias: string, tenant: number) => any;
};

const col = (alias: string, c: string) => sql.ref(`${alias}.${c}`);
/** A row's name in `lang` (its language column), its `name` where that is empty. */
const localName = (table: string) => ({
  table,
  text: (a: string, lang: Lang) => sql<string | null>`coalesce(nullif(${col(a, lang)}, ''), ${col(a, 'name')})`,
});
/** A carrier's tenant: its own company and its end-user companies (as the audit log's `tenant_id`). */
const inTenant = (companyColumn: string) => (qb: any, a: string, tenant: number) =>
  qb.where((eb: any) =>
    eb.or([
      eb(`${a}.${companyColumn}`, '=', tenant),
      eb(`${a}.${companyColumn}`, 'in', eb.selectFrom('companies as tc').select('tc.id').where('tc.carrier_id', '=', tenant)),
    ]),
  );
const companies: Source = { table: 'companies', text: (a) => sql<string | null>`${col(a, 'legal_name')}`, scope: inTenant('id') };
const users: Source = {
  table: 'users',
  text: (a) => sql<string | null>`${col(a, 'first_name')} || ' ' || ${col(a, 'last_name')}`,
  scope: inTenant('company_id'),
};
const countries: Source = localName('countries');
const languages: Source = { table: 'languages', text: (a) => sql<string | null>`coalesce(${col(a, 'native')}, ${col(a, 'en')})` };
const plain = (table: string, c = 'name', scope?: Source['scope']): Source => ({ table, text: (a) => sql<string | null>`${col(a, c)}`, scope });
/** A carrier's tariff categories are its own. */
const categories = plain('categories', 'code', (qb, a, tenant) => qb.where(`${a}.company_id`, '=', tenant));

/** Columns that name a row of one table in every audited table. */
const BY_COLUMN: Record<string, Source> = {
  company_id: companies,
  carrier_id: companies,
  enduser_company_id: companies,
  carrier_company_id: companies,
  created_company_id: companies,
  user_id: users,
  enduser_user_id: users,
  created_user_id: users,
  closed_by: users,
  reviewed_by: users,
  country_id: countries,
  carrier_country_id: countries,
  language_id: languages,
  carrier_language_id: languages,
  document_type_id: localName('document_types'),
  shipment_type_id: localName('shipment_types'),
  ticket_category_id: localName('ticket_categories'),
  price_category_id: plain('price_categories'),
  exp_category_id: categories,
  std_category_id: categories,
};

/**
 * The source of a column of an entry's table: a generated declaration's reference first (its target is a
 * declared resource), else the common rule. One object per column (the page's queries are keyed by it).
 */
const SOURCES = new Map<string, Source | undefined>();
function sourceOf(table: string, field: string): Source | undefined {
  const key = `${table}.${field}`;
  if (!SOURCES.has(key)) SOURCES.set(key, findSource(table, field));
  return SOURCES.get(key);
}
function findSource(table: string, field: string): Source | undefined {
  const decl = (RESOURCES as readonly ResourceDecl[]).find((r) => r.table === table && r.routes === 'generated');
  const ref = decl ? referencesOf(decl, RESOURCES as readonly ResourceDecl[]).find((r) => r.field === field) : undefined;
  if (ref) {
    const { target, optionText } = ref;
    const langs = languageColumns(target);
    return {
      table: target.table,
      scope: target.tenancy === 'company' ? (qb, a, tenant) => qb.where(`${a}.company_id`, '=', tenant) : undefined,
      text: (a, lang) =>
        langs.includes(lang) ? sql<string | null>`coalesce(nullif(${col(a, lang)}, ''), ${col(a, optionText)})` : sql<string | null>`${col(a, optionText)}`,
    };
  }
  return BY_COLUMN[field];
}

registerMessages({
  it: {
    'auditNames.tickets.open': 'Aperto',
    'auditNames.tickets.closed': 'Chiuso',
    'auditNames.access_requests.OP': 'Aperta',
    'auditNames.access_requests.CF': 'Confermata',
    'auditNames.access_requests.RF': 'Rifiutata',
  },
  en: {
    'auditNames.tickets.open': 'Open',
    'auditNames.tickets.closed': 'Closed',
    'auditNames.access_requests.OP': 'Open',
    'auditNames.access_requests.CF': 'Confirmed',
    'auditNames.access_requests.RF': 'Refused',
  },
  fr: {
    'auditNames.tickets.open': 'Ouvert',
    'auditNames.tickets.closed': 'Fermé',
    'auditNames.access_requests.OP': 'Ouverte',
    'auditNames.access_requests.CF': 'Confirmée',
    'auditNames.access_requests.RF': 'Refusée',
  },
});

/** Coded values the server's messages name: a request's status ("Aperta"), a ticket's or an access request's. */
function codedText(req: Pick<FastifyRequest, 't'>, table: string, field: string, value: unknown): string | undefined {
  const key =
    field === 'transport_request_status_id'
      ? `status.${String(value)}`
      : field === 'status' && (table === 'tickets' || table === 'access_requests')
        ? `auditNames.${table}.${String(value)}`
        : undefined;
  return key && hasMessage(key) ? req.t(key) : undefined;
}

export interface NamedChange {
  field: string;
  before: unknown;
  after: unknown;
  before_text?: string;
  after_text?: string;
}

const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0) || (typeof v === 'string' && /^[1-9][0-9]{0,9}$/.test(v));

/** The entries with each coded change's `before_text` / `after_text` in `req.lang`. */
export async function nameChanges<E extends { resource: string; changes: Array<{ field: string; before: unknown; after: unknown }> }>(
  db: Db,
  req: Pick<FastifyRequest, 't' | 'lang'>,
  entries: E[],
  /** A carrier's reader: only the rows of its tenant are named (another company's id stays a bare id). */
  tenant?: number,
): Promise<Array<E & { changes: NamedChange[] }>> {
  // The ids wanted per source (a source is keyed by its table and the expression's SQL shape: by its object).
  const wanted = new Map<Source, Set<number>>();
  for (const e of entries)
    for (const c of e.changes) {
      const source = sourceOf(e.resource, c.field);
      if (!source) continue;
      for (const v of [c.before, c.after]) if (isId(v)) (wanted.get(source) ?? wanted.set(source, new Set()).get(source)!).add(Number(v));
    }
  const found = new Map<Source, Map<number, string>>();
  for (const [source, ids] of wanted) {
    let qb = (db as any)
      .selectFrom(`${source.table} as s`)
      .select(['s.id as id', source.text('s', req.lang).as('text')])
      .where('s.id', 'in', [...ids].slice(0, 1000));
    if (tenant !== undefined && source.scope) qb = source.scope(qb, 's', tenant);
    const rows = await qb.execute();
    found.set(source, new Map(rows.map((r: { id: number; text: string | null }) => [Number(r.id), r.text ?? ''])));
  }
  return entries.map((e) => ({
    ...e,
    changes: e.changes.map((c) => {
      const source = sourceOf(e.resource, c.field);
      const text = (v: unknown): string | undefined => {
        if (v === null || v === undefined || v === '') return undefined;
        if (source) return isId(v) ? found.get(source)?.get(Number(v)) || undefined : undefined;
        return codedText(req, e.resource, c.field, v);
      };
      const out: NamedChange = { ...c };
      const b = text(c.before);
      const a = text(c.after);
      if (b !== undefined) out.before_text = b;
      if (a !== undefined) out.after_text = a;
      return out;
    }),
  }));
}
