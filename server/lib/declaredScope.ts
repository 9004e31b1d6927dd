import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { referenceTextKey, type FieldDef } from '../../model/fields.js';
import { LANGS, type Lang, type ResourceDecl } from '../../model/resource.js';

/**
 * Who owns the rows of a generated resource, and what its reference fields point at (issue 34). Shared by
 * the generated routes (resourceRoutes.ts) and the import (declaredImport.ts), so a row imported is checked
 * exactly as a row stored.
 */

type Db = any;
type Problem = { key: string; params?: Record<string, unknown> };
type Row = Record<string, unknown>;

/**
 * The company the caller is bound to on a resource: with `tenancy: 'company'`, a carrier-side, support or
 * end-user caller's own company (`req.user.company_id`); null for an admin (who names the company) and for
 * every other tenancy (rows of no company).
 */
export function tenantOf(req: FastifyRequest, decl: Pick<ResourceDecl, 'tenancy'>): number | null {
  if (decl.tenancy !== 'company') return null;
  const me = req.user;
  if (!me) throw new Error('tenantOf: the route has no signed-in caller');
  return me.kind === 'admin' ? null : Number(me.company_id);
}

/** The declared resource a reference field names (`reference.resource`, among the registry and the app's extra resources). */
export function referenceTarget(decl: ResourceDecl, field: string, all: readonly ResourceDecl[]): ResourceDecl {
  const f = decl.fields[field];
  const name = f?.reference?.resource;
  const target = name ? all.find((r) => r.name === name) : undefined;
  if (!target) throw new Error(`${decl.name}.${field}: reference.resource ${JSON.stringify(name)} names no declared resource`);
  return target;
}

/** The reference fields of a declaration, each with its target and the answer key of its display text. */
export function referencesOf(decl: ResourceDecl, all: readonly ResourceDecl[]) {
  return Object.entries(decl.fields)
    .filter(([, f]) => f.type === 'reference' && !f.readOnly)
    .map(([field, f]) => ({
      field,
      def: f as FieldDef,
      target: referenceTarget(decl, field, all),
      textKey: referenceTextKey(field),
      optionText: f.reference!.optionText,
    }));
}

/**
 * The per-language names of a referenced resource: its text fields named after the portal's languages
 * (LANGS, as the countries' `it`, `en`, `fr`). The rule for every reference to such a resource, generic (not
 * the countries' alone): the display text an answer or an export carries is the caller's language column,
 * falling back to `optionText` where that column is empty or absent (`displayText`), so an Italian reads
 * "Italia" where `optionText` (`name`) says "Italy"; an import's cell names the row by its id, its
 * `optionText` or any of these columns, case aside (`resolveReferences`). Filters and sorts name the
 * referencing table's own columns (the id), so they do not change.
 */
export function languageColumns(target: ResourceDecl): Lang[] {
  return LANGS.filter((l) => target.fields[l]?.type === 'text');
}

/**
 * The SQL of a referenced row's display text, the row read as `alias`: `coalesce(nullif(<lang>, ''),
 * <optionText>)` when the target has a column of the caller's language (`languageColumns`), else its
 * `optionText` column. Both databases read it alike.
 */
function displayText(target: ResourceDecl, alias: string, optionText: string, lang: Lang) {
  const own = sql.ref(`${alias}.${optionText}`);
  if (!languageColumns(target).includes(lang)) return own;
  return sql<string | null>`coalesce(nullif(${sql.ref(`${alias}.${lang}`)}, ''), ${own})`;
}

/**
 * A query on a table's rows a company may see or point at: all of a global resource's, only its own of a
 * company one (`companyId` null: every company's, an admin's view).
 */
function visibleRows(db: Db, target: ResourceDecl, companyId: number | null) {
  let qb = db.selectFrom(target.table);
  if (target.tenancy === 'company' && companyId !== null) qb = qb.where(`${target.table}.company_id`, '=', companyId);
  return qb;
}

/** Whether `id` is a row of `target` that rows of `companyId` may point at (same company for a company-tenancy target). */
export async function referenceExists(db: Db, target: ResourceDecl, id: number, companyId: number | null): Promise<boolean> {
  if (!Number.isInteger(id) || id < 1) return false;
  const found = await visibleRows(db, target, companyId).select(`${target.table}.id`).where(`${target.table}.id`, '=', id).executeTakeFirst();
  return !!found;
}

/** Values per `in (…)` of a batch lookup (well under both databases' parameter limits). */
const LOOKUP_CHUNK = 500;

/** `values` in slices of LOOKUP_CHUNK, each looked up by `find`, the rows put together. */
async function inChunks<T>(values: readonly string[], find: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += LOOKUP_CHUNK) out.push(...(await find(values.slice(i, i + LOOKUP_CHUNK))));
  return out;
}

/**
 * References written as ids or display texts (an import's column: every distinct text at once, one query per
 * kind of lookup and slice, not one per row) to ids: a map from the text (an id as written, a display text in
 * lower case) to the id, or to 0 when several rows bear that display text; a text matching nothing is absent.
 * An id is tried first, then the text (`optionText` or, when the target names its rows per language, any
 * of `languageColumns`; case aside), among the rows `companyId` may point at (same-company rule as
 * `referenceExists`). A text two rows bear, in whichever columns, is ambiguous (0). Read an answer as
 * `map.get(text) ?? map.get(text.toLowerCase())`.
 */
export async function resolveReferences(
  db: Db,
  target: ResourceDecl,
  optionText: string,
  texts: readonly string[],
  companyId: number | null,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const ids = texts.filter((t) => /^\d{1,15}$/.test(t));
  const byId = await inChunks(ids, (slice) =>
    visibleRows(db, target, companyId)
      .select(`${target.table}.id as id`)
      .where(
        `${target.table}.id`,
        'in',
        slice.map((s) => Number(s)),
      )
      .execute(),
  );
  for (const r of byId as Row[]) out.set(String(r.id), Number(r.id));
  const rest = [...new Set(texts.filter((t) => !out.has(t)).map((t) => t.toLowerCase()))];
  // One query per slice whatever the columns: `optionText` and the language columns side by side, each
  // lower-cased; a row answers the texts any of its columns hold (a slice's values once per column: for
  // the countries 4 × 500 parameters, still well under both databases' limits).
  const columns = [...new Set([optionText, ...languageColumns(target)])];
  const lowered = columns.map((c) => sql<string>`lower(${sql.ref(`${target.table}.${c}`)})`);
  const byText = await inChunks(rest, (slice) =>
    visibleRows(db, target, companyId)
      .select([`${target.table}.id as id`, ...lowered.map((e, i) => e.as(`t${i}`))])
      .where((eb: any) => eb.or(lowered.map((e) => eb(e, 'in', slice))))
      .execute(),
  );
  const wanted = new Set(rest);
  for (const r of byText as Row[]) {
    const id = Number(r.id);
    for (const t of new Set(columns.map((_, i) => r[`t${i}`]).filter((t): t is string => typeof t === 'string' && wanted.has(t))))
      out.set(t, out.has(t) && out.get(t) !== id ? 0 : id);
  }
  return out;
}

/**
 * The problems of a body's reference fields: `validation.reference` on each one naming a row that does not
 * exist (or belongs to another company). `companyId`: the company the written row belongs to.
 */
export async function referenceProblems(
  db: Db,
  decl: ResourceDecl,
  all: readonly ResourceDecl[],
  body: Record<string, unknown>,
  companyId: number | null,
): Promise<Record<string, Problem>> {
  const problems: Record<string, Problem> = {};
  for (const { field, target } of referencesOf(decl, all)) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    if (!(await referenceExists(db, target, Number(v), companyId))) problems[field] = { key: 'validation.reference' };
  }
  return problems;
}

/**
 * The row already holding a unique value (case aside), per company with `tenancy: 'company'`: the unique
 * match of store, update and import (an import row matched so is a change, not an add). Answers the row or
 * undefined.
 */
export function uniqueMatch(db: Db, decl: ResourceDecl, field: string, value: unknown, companyId: number | null, exceptId?: number) {
  let qb = db
    .selectFrom(decl.table)
    .selectAll()
    .where(sql`lower(${sql.ref(field)})`, '=', String(value).toLowerCase());
  if (decl.tenancy === 'company') qb = qb.where('company_id', '=', companyId);
  if (exceptId) qb = qb.where('id', '<>', exceptId);
  return qb.orderBy('id').executeTakeFirst() as Promise<Record<string, unknown> | undefined>;
}

/**
 * `uniqueMatch` for many values at once (an import's column): the stored rows (of the company) holding these
 * values of a unique field, case aside, as lower(value) → the row (the lowest id where several do).
 */
export async function uniqueHolders(db: Db, decl: ResourceDecl, field: string, values: readonly string[], companyId: number | null) {
  const rows = await inChunks([...new Set(values.map((v) => v.toLowerCase()))], (slice) =>
    visibleRows(db, decl, companyId)
      .selectAll()
      .where(sql`lower(${sql.ref(field)})`, 'in', slice)
      .orderBy('id')
      .execute(),
  );
  const out = new Map<string, Row>();
  for (const r of rows as Row[]) if (!out.has(String(r[field]).toLowerCase())) out.set(String(r[field]).toLowerCase(), r);
  return out;
}

/** Whether a company exists (an admin's `company_id` on store, import or filter). */
export async function companyExists(db: Db, id: unknown): Promise<boolean> {
  if (!Number.isInteger(id) || (id as number) < 1) return false;
  return !!(await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst());
}

/**
 * The rows of a declared table with what the answers add beside the stored columns: `company_name` with
 * company tenancy and `<field>_name` per reference (the referenced row's `optionText`, or its name in the
 * caller's language `lang` when the target has one, see `languageColumns`). Correlated
 * subqueries rather than joins: the outer query keeps one table, so filters, sorts and the paging count
 * name its columns unchanged, and a self-reference needs no special case.
 */
export function selectWithTexts(db: Db, decl: ResourceDecl, all: readonly ResourceDecl[], lang: Lang) {
  let qb = db.selectFrom(decl.table).selectAll(decl.table);
  if (decl.tenancy === 'company')
    qb = qb.select((eb: any) =>
      eb.selectFrom('companies as ref_company').select('ref_company.legal_name').whereRef('ref_company.id', '=', `${decl.table}.company_id`).as('company_name'),
    );
  referencesOf(decl, all).forEach(({ field, target, textKey, optionText }, i) => {
    const alias = `ref_${i}`;
    qb = qb.select((eb: any) =>
      eb
        .selectFrom(`${target.table} as ${alias}`)
        .select(displayText(target, alias, optionText, lang).as('text'))
        .whereRef(`${alias}.id`, '=', `${decl.table}.${field}`)
        .as(textKey),
    );
  });
  return qb;
}
