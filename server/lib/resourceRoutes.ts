import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Kind } from '../../model/roles.js';
import { bodySchemas, checkBounds, fieldSchema, normalizeBody, referenceTextKey, uniqueFields, type FieldDef } from '../../model/fields.js';
import { kindsOf, sortableOf, storedFields, type Action, type Lang, type ResourceDecl } from '../../model/resource.js';
import { RESOURCES } from '../../model/registry.js';
import { ApiError, invalid, notFound } from './errors.js';
import { listQuerySchema, paginate, type ListQuery } from './paging.js';
import { nowIso } from './tokens.js';
import { diff } from '../repositories/auditLog.js';
import { dataAnswer, int, list, obj, pagedAnswer, str, writeAnswer } from './answers.js';
import type { App } from './typed.js';
import { exportAnswer, exportQuerySchema, pagedSource, sendExport, type ExportFormat } from './listExport.js';
import { declaredExportColumns } from './declaredExport.js';
import { companyExists, languageColumns, referenceProblems, referencesOf, selectWithTexts, tenantOf, uniqueMatch } from './declaredScope.js';
import { applyFilters, filterQueryProperties, MAX_IDS } from './declaredFilters.js';
import { columnValues, moneyEuros, readMoneyInput } from './declaredValues.js';
import { deleteRow } from './declaredDelete.js';
import { hasMessage } from '../i18n/index.js';
import { declaredImportRoutes } from './declaredImport.js';

type Row = Record<string, unknown>;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
/** A declared body: the declaration's JSON schema, typed as its rows' values (checked by AJV before the handler). */
type Body = Record<string, unknown>;

/**
 * The JSON schema of one field in an answer: the stored value, null only when the column may be empty —
 * as `RowOf` (model/resource.ts) types the row: nullable unless required or defaulted. Input-only rules
 * (lengths, patterns, formats) are left out: an answer carries what is stored.
 */
function answerFieldSchema(f: FieldDef): Record<string, unknown> {
  // `created` (createdAlias) repeats created_at, which the table keeps NOT NULL.
  if (f.type === 'date' && f.readOnly) return { type: 'string', description: 'When the row was created (= created_at)' };
  const s = fieldSchema({ ...f, required: f.required || f.default !== undefined, default: undefined }, { withDefault: false });
  delete s.minLength;
  delete s.pattern;
  delete s.format;
  if (f.type === 'money') s.description = 'Euros (integer cents in the table)';
  return s;
}

/**
 * The schema of one row of a declared resource as its routes answer it: `selectAll()` of its table, so
 * every column, always present (issue 33: closed and complete): id, each declared field (`created`, the
 * alias, included), created_at with timestamps (NOT NULL in every migration); with `tenancy: 'company'`
 * the owning `company_id` and its `company_name`; beside each reference its display text (issue 34,
 * `referenceTextKey`: null when the reference is empty).
 */
export function rowSchema(decl: ResourceDecl): Record<string, unknown> {
  const properties: Record<string, unknown> = { id: { type: 'integer' } };
  for (const [name, f] of Object.entries(decl.fields)) {
    if (f.type === 'password') continue;
    properties[name] = answerFieldSchema(f);
    if (f.type === 'reference' && !f.readOnly)
      properties[referenceTextKey(name)] = {
        type: ['string', 'null'],
        description: `The display text (${f.reference?.optionText}; the name in the caller's language when the referenced resource has one) of the row ${name} names`,
      };
  }
  if (decl.timestamps) properties.created_at = { type: 'string', description: 'ISO 8601 time' };
  if (decl.tenancy === 'company') {
    properties.company_id = { type: 'integer', description: 'The company that owns the row' };
    // null only if the company row were gone: the migrations reference companies, so never in practice
    properties.company_name = { type: ['string', 'null'], description: "The owning company's legal name" };
  }
  return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
}

const sentence = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

const bulkBody = {
  type: 'object',
  additionalProperties: false,
  required: ['action', 'ids'],
  properties: {
    action: { type: 'string', enum: ['delete'], description: 'The bulk action: `delete` (the only one)' },
    ids: { type: 'array', minItems: 1, maxItems: MAX_IDS, items: { type: 'integer', minimum: 1 }, description: `The rows, at most ${MAX_IDS}` },
  },
} as const;
const bulkAnswer = writeAnswer(
  obj({
    deleted: { ...int, description: 'How many rows were deleted' },
    results: list(
      obj(
        {
          id: int,
          result: {
            type: 'string',
            enum: ['deleted', 'not_found', 'conflict'],
            description: "`not_found`: absent, or another company's; `conflict`: other rows still refer to it",
          },
          message: { ...str, description: 'Why it was not deleted, in the caller’s language' },
        },
        ['message'],
      ),
    ),
  }),
);

/**
 * The routes of a declared resource (model/resource.ts), for each kind its `api` names: list (paged,
 * sorted, `q` search, the declared filters and `ids`) and its export, show, and — when that kind may
 * create / edit / delete — store, update, destroy and bulk. Bodies come from the declaration (trimmed,
 * extra fields dropped, defaults on store, money in euros with a comma or a point, unique values answered
 * 422 `validation.uniqueRow` in the caller's language, naming the value (never the holder's id), also when
 * two writes race into the unique index; references checked, 422 `validation.reference`); nothing is stored
 * on an error. Every route carries its summary, operation id and answer schemas.
 *
 * `all`: every declared resource of the app (the registry and the app's extra ones): references name their
 * target among them, and a delete counts the rows of any of them still pointing at the row.
 *
 * With `tenancy: 'company'` (issue 34) each route is scoped by `tenantOf`: a non-admin caller's rows are its
 * company's (another company's id answers 404, as an absent one: nothing tells the two apart), a company_id
 * it sends is dropped by its body schema (which does not declare one); an admin reads every row (filter
 * `?company_id=`), names the company on store, and cannot move a row on update (no company_id there).
 */
export function resourceRoutes(app: App, decl: ResourceDecl, all: readonly ResourceDecl[] = [...RESOURCES, decl]) {
  for (const l of ['it', 'en', 'fr'] as const) {
    if (!decl.labels[l].created || !decl.labels[l].updated) throw new Error(`${decl.name}: generated routes need labels.${l}.created and .updated`);
  }
  if (decl.tenancy === 'custom') throw new Error(`${decl.name}: generated routes need tenancy global or company`);
  const db = app.db as any;
  const byCompany = decl.tenancy === 'company';
  const schemas = bodySchemas(decl.fields);
  const unique = uniqueFields(decl.fields);
  // Resolved now, at start: a reference naming no declared resource, or a display text's key that another
  // answer key already has, is the declaration's mistake, said before any request.
  const answerKeys = new Set(Object.keys(decl.fields));
  for (const { textKey, field } of referencesOf(decl, all))
    if (answerKeys.has(textKey) || textKey === 'company_name') throw new Error(`${decl.name}.${field}: its display text's key ${textKey} is taken`);
  const row = rowSchema(decl);
  const sortable = sortableOf(decl);
  const en = decl.labels.en;
  const tag = decl.name;
  // Text sorts without case on both databases (SQLite compares bytes); the paging helper takes the expression as its column.
  const sortColumns = Object.fromEntries(
    sortable.map((c) => {
      const f = decl.fields[c];
      const plain = c === 'id' || c.endsWith('_at') || (f && f.type !== 'text' && f.type !== 'email');
      return [c, (plain ? sql.ref(`${decl.table}.${c}`) : sql`lower(${sql.ref(`${decl.table}.${c}`)})`) as unknown as string];
    }),
  );
  // A resource naming its rows per language (issue 35: countries, document and shipment types) sorts its `name`
  // in the caller's language, as its list shows it (an Italian's "Germania" among the G), the stored name where empty.
  const localNames = sortable.includes('name') && decl.fields.name?.type === 'text' ? languageColumns(decl) : [];
  const sortColumnsIn = (lang: Lang) =>
    localNames.includes(lang)
      ? {
          ...sortColumns,
          name: sql`lower(coalesce(nullif(${sql.ref(`${decl.table}.${lang}`)}, ''), ${sql.ref(`${decl.table}.name`)}))` as unknown as string,
        }
      : sortColumns;
  const defaultSort = decl.list?.sort ?? sortable[0];
  const defaultOrder = decl.list?.order === 'DESC' ? ('desc' as const) : ('asc' as const);
  const search = decl.list?.search ?? [];
  const moneyFields = Object.entries(decl.fields)
    .filter(([, f]) => f.type === 'money')
    .map(([n]) => n);
  /** A row as the export reads it: the `created` alias; money stays in cents (the export's money cells take cents). */
  const exported = (r: Row) => (decl.createdAlias ? { ...r, created: r.created_at } : r);
  /** A row as a JSON answer carries it: money in euros; the company id a number (PostgreSQL's driver answers text for some). */
  const present = (r: Row) => {
    const out: Row = exported(r);
    for (const m of moneyFields) out[m] = moneyEuros(r[m]);
    if (byCompany) out.company_id = Number(r.company_id);
    return out;
  };
  const stored = new Set(storedFields(decl).map(([n]) => n));
  const writable = (body: Row) => Object.fromEntries(Object.entries(body).filter(([k]) => stored.has(k)));
  const normalize = async (req: FastifyRequest<{ Body: unknown }>) => {
    const body = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      normalizeBody(decl.fields, body);
      readMoneyInput(decl.fields, body as Row);
    }
  };
  // An admin's store of a company resource names the company (required); nobody else's body has a company_id.
  const adminStoreSchema = {
    ...schemas.store,
    required: [...(schemas.store.required as string[]), 'company_id'],
    properties: { ...schemas.store.properties, company_id: { type: 'integer', minimum: 1, description: 'The company that owns the row' } },
  };
  const config = (kind: Kind, action: Action) => ({ policy: [kind], resource: decl.name, action });

  /**
   * The list's rows under its filters, within the caller's company, references named in `lang` (the
   * caller's, declaredScope.ts `languageColumns`): the list and its export share it.
   */
  const filtered = (query: Row, tenant: number | null, lang: Lang) => {
    let qb = selectWithTexts(db, decl, all, lang);
    if (tenant !== null) qb = qb.where(`${decl.table}.company_id`, '=', tenant);
    if (typeof query.q === 'string' && search.length) {
      const term = `%${query.q.trim().toLowerCase()}%`;
      qb = qb.where((eb: any) => eb.or(search.map((c) => eb(sql`lower(${sql.ref(`${decl.table}.${c}`)})`, 'like', term))));
    }
    return applyFilters(qb, decl, query);
  };

  /**
   * Every check of a write before it runs, answered together as one 422: bounds, money finer than a cent,
   * unique values (per company), references (to rows the row's company may point at). Answers the values
   * in the table's terms (money in cents).
   */
  async function check(body: Row, companyId: number | null, id?: number) {
    const { values, problems: money } = columnValues(decl.fields, body);
    const problems: Record<string, { key: string; params?: Record<string, unknown> }> = { ...checkBounds(decl.fields, body), ...money };
    for (const field of unique) {
      const taken = await holder(field, body[field], companyId, id);
      if (taken) problems[field] = taken;
    }
    Object.assign(problems, await referenceProblems(db, decl, all, body, companyId));
    if (Object.keys(problems).length) throw invalid(problems);
    return values;
  }

  /** The row already holding a unique value (case aside, per company), as the field's message: which value. */
  async function holder(field: string, v: unknown, companyId: number | null, exceptId?: number) {
    if (v === undefined || v === null) return null;
    const found = await uniqueMatch(db, decl, field, v, companyId, exceptId);
    // The value that is taken, never the holder's internal id (issue 35: users do not know ids).
    return found ? { key: 'validation.uniqueRow', params: { value: String(found[field]) } } : null;
  }

  /** A race past `check` ends in the unique index ((company_id, field) with company tenancy): answer it the same way. */
  async function guarded<T>(body: Row, companyId: number | null, run: () => Promise<T>, id?: number): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const text = String((err as Error)?.message ?? '') + ' ' + String((err as { detail?: string })?.detail ?? '');
      if (/unique|duplicate/i.test(text)) {
        // the longest field name the message names (a field name inside another's cannot win)
        const field = [...unique].sort((a, b) => b.length - a.length).find((f) => text.includes(f)) ?? unique[0];
        if (field && body[field] !== undefined) throw invalid({ [field]: (await holder(field, body[field], companyId, id)) ?? 'validation.unique' });
      }
      throw err;
    }
  }

  /** One row with its texts (in `lang`), within the caller's company (null: every company's). */
  const find = (id: number, tenant: number | null, lang: Lang) => {
    let qb = selectWithTexts(db, decl, all, lang).where(`${decl.table}.id`, '=', id);
    if (tenant !== null) qb = qb.where(`${decl.table}.company_id`, '=', tenant);
    return qb.executeTakeFirst() as Promise<Row | undefined>;
  };
  /** The stored columns of a row (no texts), for the audit's before/after. */
  const columnsOf = (r: Row) => Object.fromEntries(Object.entries(r).filter(([k]) => stored.has(k) || k === 'company_id'));
  const written = writeAnswer(row);
  const deletedMessage = (req: FastifyRequest) => req.t(hasMessage(`resource.${decl.name}.deleted`) ? `resource.${decl.name}.deleted` : 'resource.deleted');
  const auditCompany = (r: Row) => (byCompany ? { company_id: Number(r.company_id) } : {});

  for (const [kind, path] of Object.entries(decl.api) as Array<[Kind, string]>) {
    const may = (action: Action) => kindsOf(decl, action).includes(kind);
    const ns = path.split('/')[1];
    const admin = kind === 'admin';
    const listSchema = listQuerySchema(sortable, {
      ...(search.length ? { q: { type: 'string', maxLength: 100 } } : {}),
      ...filterQueryProperties(decl, { companyFilter: byCompany && admin }),
    });
    const listQuery = Type.Unsafe<ListQuery & Row>(listSchema);
    const exportQuery = Type.Unsafe<Omit<ListQuery, 'page' | 'per_page'> & Row & { format: ExportFormat }>(exportQuerySchema(listSchema));
    const storeBody = Type.Unsafe<Body>(byCompany && admin ? adminStoreSchema : schemas.store);
    const updateBody = Type.Unsafe<Body>(schemas.update);
    if (may('list')) {
      app.get(
        path,
        {
          config: config(kind, 'list'),
          schema: {
            tags: [tag],
            summary: `List ${sentence(en.many)} (${ns})`,
            querystring: listQuery,
            response: { 200: pagedAnswer(row) },
          },
        },
        async (req) => {
          const query = req.query;
          const page = await paginate<any, any, Row>(filtered(query, tenantOf(req, decl), req.lang), query, {
            sortColumns: sortColumnsIn(req.lang),
            defaultSort,
            defaultOrder,
          });
          return { ...page, data: page.data.map(present) };
        },
      );
      // The list as a file (docs/list-exports.md): the same filters and sort, every row, the list's columns.
      app.get(
        `${path}/export`,
        {
          config: config(kind, 'list'),
          schema: {
            tags: [tag],
            summary: `Export the list of ${sentence(en.many)} as .xlsx or .csv (${ns})`,
            querystring: exportQuery,
            response: { 200: exportAnswer() },
          },
        },
        async (req, reply) => {
          const { format, ...query } = req.query;
          const tenant = tenantOf(req, decl);
          const source = pagedSource((page, per_page) =>
            paginate<any, any, Row>(
              filtered(query, tenant, req.lang),
              { ...query, page, per_page },
              { sortColumns: sortColumnsIn(req.lang), defaultSort, defaultOrder },
            ).then((p) => ({
              ...p,
              data: p.data.map(exported),
            })),
          );
          const columns = declaredExportColumns(decl, req, { company: byCompany && admin });
          return sendExport(req, reply, { title: decl.labels[req.lang].many, format, columns, source });
        },
      );
    }
    if (may('show')) {
      app.get(
        `${path}/show/:id`,
        {
          config: config(kind, 'show'),
          schema: {
            tags: [tag],
            summary: `Show one ${sentence(en.one)} (${ns})`,
            params: idParams,
            response: { 200: dataAnswer(row) },
          },
        },
        async (req) => {
          const found = await find(req.params.id, tenantOf(req, decl), req.lang);
          if (!found) throw notFound();
          return { status: true, data: present(found) };
        },
      );
    }
    if (may('create')) {
      app.post(
        `${path}/store`,
        {
          config: config(kind, 'create'),
          preValidation: normalize,
          schema: { tags: [tag], summary: `Create a ${sentence(en.one)} (${ns})`, body: storeBody, response: { 200: written } },
        },
        async (req) => {
          const body = writable(req.body);
          const tenant = tenantOf(req, decl);
          let companyId: number | null = null;
          if (byCompany) {
            companyId = tenant ?? Number(req.body.company_id);
            if (tenant === null && !(await companyExists(db, companyId))) throw invalid({ company_id: 'validation.reference' });
          }
          const values = await check(body, companyId);
          const row = { ...values, ...(byCompany ? { company_id: companyId } : {}), ...(decl.timestamps ? { created_at: nowIso() } : {}) };
          const { id } = await guarded<{ id: number }>(body, companyId, () => db.insertInto(decl.table).values(row).returning('id').executeTakeFirstOrThrow());
          const { created_at: _c, ...audited } = row as Row;
          req.audit({ action: 'create', resource: decl.table, resource_id: Number(id), ...auditCompany(row), changes: diff(null, audited) });
          return { status: true, message: req.t(`resource.${decl.name}.created`), data: present((await find(Number(id), null, req.lang))!) };
        },
      );
    }
    if (may('edit')) {
      app.post(
        `${path}/update/:id`,
        {
          config: config(kind, 'edit'),
          preValidation: normalize,
          schema: { tags: [tag], summary: `Update a ${sentence(en.one)} (${ns})`, params: idParams, body: updateBody, response: { 200: written } },
        },
        async (req) => {
          const { id } = req.params;
          const body = writable(req.body);
          const before = await find(id, tenantOf(req, decl), req.lang);
          if (!before) throw notFound();
          // the row stays its company's: references and unique values are checked against that company
          const companyId = byCompany ? Number(before.company_id) : null;
          const values = await check(body, companyId, id);
          if (Object.keys(values).length) await guarded(body, companyId, () => db.updateTable(decl.table).set(values).where('id', '=', id).execute(), id);
          req.audit({ action: 'update', resource: decl.table, resource_id: id, ...auditCompany(before), changes: diff(columnsOf(before), values) });
          return { status: true, message: req.t(`resource.${decl.name}.updated`), data: present((await find(id, null, req.lang))!) };
        },
      );
    }
    if (may('delete')) {
      // GET …/destroy/:id: the product's convention (companies, users, API keys).
      app.get(
        `${path}/destroy/:id`,
        {
          config: config(kind, 'delete'),
          schema: {
            tags: [tag],
            summary: `Delete a ${sentence(en.one)}; 409 while other rows still refer to it (${ns})`,
            params: idParams,
            response: { 200: writeAnswer(obj({ id: int })) },
          },
        },
        async (req) => {
          const { id } = req.params;
          const before = await find(id, tenantOf(req, decl), req.lang);
          if (!before) throw notFound();
          const outcome = await deleteRow(req, db, decl, all, id);
          if (outcome.result === 'conflict') throw new ApiError(409, outcome.key, outcome.params);
          req.audit({ action: 'delete', resource: decl.table, resource_id: id, ...auditCompany(before), changes: diff(columnsOf(before), null) });
          return { status: true, message: deletedMessage(req), data: { id } };
        },
      );
      // Bulk actions (react-admin's): each id answered on its own; another company's row is not found, as an absent one.
      app.post(
        `${path}/bulk`,
        {
          config: config(kind, 'delete'),
          schema: {
            tags: [tag],
            summary: `A bulk action on ${sentence(en.many)} (delete), answered per id (${ns})`,
            body: Type.Unsafe<{ action: 'delete'; ids: number[] }>(bulkBody),
            response: { 200: bulkAnswer },
          },
        },
        async (req) => {
          const tenant = tenantOf(req, decl);
          const results: Array<{ id: number; result: 'deleted' | 'not_found' | 'conflict'; message?: string }> = [];
          for (const id of [...new Set(req.body.ids)]) {
            const before = await find(id, tenant, req.lang);
            if (!before) {
              results.push({ id, result: 'not_found', message: req.t('errors.notFound') });
              continue;
            }
            const outcome = await deleteRow(req, db, decl, all, id);
            if (outcome.result === 'conflict') {
              results.push({ id, result: 'conflict', message: req.t(outcome.key, outcome.params) });
              continue;
            }
            req.audit({ action: 'delete', resource: decl.table, resource_id: id, ...auditCompany(before), changes: diff(columnsOf(before), null) });
            results.push({ id, result: 'deleted' });
          }
          const deleted = results.filter((r) => r.result === 'deleted').length;
          // nothing deleted (every id absent, another company's or still referred to): nothing changed to record
          if (!deleted) req.auditNothing();
          return { status: true, message: req.t('resource.bulkDeleted', { deleted, total: results.length }), data: { deleted, results } };
        },
      );
    }
    // Import from a spreadsheet (`import: true`, kinds that may create): server/lib/declaredImport.ts.
    declaredImportRoutes(app, decl, all, kind, path);
  }
}
