import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Kind } from '../../model/roles.js';
import { bodySchemas, checkBounds, fieldSchema, normalizeBody, uniqueFields, type FieldDef } from '../../model/fields.js';
import { kindsOf, sortableOf, storedFields, type Action, type ResourceDecl } from '../../model/resource.js';
import { invalid, notFound } from './errors.js';
import { listQuerySchema, paginate, type ListQuery } from './paging.js';
import { nowIso } from './tokens.js';
import { diff } from '../repositories/auditLog.js';
import { dataAnswer, pagedAnswer, writeAnswer } from './answers.js';
import type { App } from './typed.js';
import { exportAnswer, exportQuerySchema, pagedSource, sendExport, type ExportFormat } from './listExport.js';
import { declaredExportColumns } from './declaredExport.js';
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
  return s;
}

/**
 * The schema of one row of a declared resource as its routes answer it: `selectAll()` of its table, so
 * every column, always present (issue 33: closed and complete): id, each declared field (`created`, the
 * alias, included), created_at with timestamps (NOT NULL in every migration).
 */
export function rowSchema(decl: ResourceDecl): Record<string, unknown> {
  const properties: Record<string, unknown> = { id: { type: 'integer' } };
  for (const [name, f] of Object.entries(decl.fields)) if (f.type !== 'password') properties[name] = answerFieldSchema(f);
  if (decl.timestamps) properties.created_at = { type: 'string', description: 'ISO 8601 time' };
  return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
}

const sentence = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * The routes of a declared resource (model/resource.ts), for each kind its `api` names: list (paged,
 * sorted, `q` search), show, and — when that kind may create / edit — store and update. Bodies come from
 * the declaration (trimmed, extra fields dropped, defaults on store, unique values answered 422
 * `validation.uniqueRow` in the caller's language, naming the value and the row that holds it, also when
 * two writes race into the unique index);
 * nothing is stored on an error. Every route carries its summary, operation id and answer schemas.
 */
export function resourceRoutes(app: App, decl: ResourceDecl) {
  for (const l of ['it', 'en', 'fr'] as const) {
    if (!decl.labels[l].created || !decl.labels[l].updated) throw new Error(`${decl.name}: generated routes need labels.${l}.created and .updated`);
  }
  const db = app.db as any;
  const schemas = bodySchemas(decl.fields);
  const unique = uniqueFields(decl.fields);
  const row = rowSchema(decl);
  const sortable = sortableOf(decl);
  const en = decl.labels.en;
  const tag = decl.name;
  // Text sorts without case on both databases (SQLite compares bytes); the paging helper takes the expression as its column.
  const sortColumns = Object.fromEntries(
    sortable.map((c) => {
      const f = decl.fields[c];
      const plain = c === 'id' || c.endsWith('_at') || (f && f.type !== 'text' && f.type !== 'email');
      return [c, (plain ? c : sql`lower(${sql.ref(c)})`) as unknown as string];
    }),
  );
  const defaultSort = decl.list?.sort ?? sortable[0];
  const defaultOrder = decl.list?.order === 'DESC' ? ('desc' as const) : ('asc' as const);
  const search = decl.list?.search ?? [];
  const present = (r: Row) => (decl.createdAlias ? { ...r, created: r.created_at } : r);
  const stored = new Set(storedFields(decl).map(([n]) => n));
  const writable = (body: Row) => Object.fromEntries(Object.entries(body).filter(([k]) => stored.has(k)));
  const normalize = async (req: FastifyRequest<{ Body: unknown }>) => {
    const body = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) normalizeBody(decl.fields, body);
  };
  const storeBody = Type.Unsafe<Body>(schemas.store);
  const updateBody = Type.Unsafe<Body>(schemas.update);
  const listSchema = listQuerySchema(sortable, search.length ? { q: { type: 'string', maxLength: 100 } } : {});
  const listQuery = Type.Unsafe<ListQuery & { q?: string }>(listSchema);
  const exportQuery = Type.Unsafe<Omit<ListQuery, 'page' | 'per_page'> & { q?: string; format: ExportFormat }>(exportQuerySchema(listSchema));
  /** The list's rows under its filters: the list and its export share it. */
  const filtered = (query: { q?: string }) => {
    let qb = db.selectFrom(decl.table).selectAll();
    if (query.q && search.length) {
      const term = `%${query.q.trim().toLowerCase()}%`;
      qb = qb.where((eb: any) => eb.or(search.map((c) => eb(sql`lower(${sql.ref(c)})`, 'like', term))));
    }
    return qb;
  };
  const config = (kind: Kind, action: Action) => ({ policy: [kind], resource: decl.name, action });

  async function check(body: Row, id?: number) {
    const problems: Record<string, { key: string; params?: Record<string, unknown> }> = { ...checkBounds(decl.fields, body) };
    for (const field of unique) {
      const taken = await holder(field, body[field], id);
      if (taken) problems[field] = taken;
    }
    if (Object.keys(problems).length) throw invalid(problems);
  }

  /** The row already holding a unique value (case aside), as the field's message: which value, which row. */
  async function holder(field: string, v: unknown, exceptId?: number) {
    if (v === undefined || v === null) return null;
    let qb = db
      .selectFrom(decl.table)
      .select(['id', field])
      .where(sql`lower(${sql.ref(field)})`, '=', String(v).toLowerCase());
    if (exceptId) qb = qb.where('id', '<>', exceptId);
    const found = await qb.orderBy('id').executeTakeFirst();
    return found ? { key: 'validation.uniqueRow', params: { value: String(found[field]), id: Number(found.id) } } : null;
  }

  /** A race past `check` ends in the unique index: answer it the same way. */
  async function guarded<T>(body: Row, run: () => Promise<T>, id?: number): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const text = String((err as Error)?.message ?? '');
      if (/unique|duplicate/i.test(text)) {
        const field = unique.find((f) => text.includes(f)) ?? unique[0];
        if (field && body[field] !== undefined) throw invalid({ [field]: (await holder(field, body[field], id)) ?? 'validation.unique' });
      }
      throw err;
    }
  }

  const find = (id: number) => db.selectFrom(decl.table).selectAll().where('id', '=', id).executeTakeFirst();
  const written = writeAnswer(row);

  for (const [kind, path] of Object.entries(decl.api) as Array<[Kind, string]>) {
    const may = (action: Action) => kindsOf(decl, action).includes(kind);
    const ns = path.split('/')[1];
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
          const page = await paginate<any, any, Row>(filtered(query), query, { sortColumns, defaultSort, defaultOrder });
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
          const source = pagedSource((page, per_page) =>
            paginate<any, any, Row>(filtered(query), { ...query, page, per_page }, { sortColumns, defaultSort, defaultOrder }).then((p) => ({
              ...p,
              data: p.data.map(present),
            })),
          );
          return sendExport(req, reply, { name: decl.name, format, columns: declaredExportColumns(decl, req), source, sheet: decl.labels[req.lang].many });
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
          const found = await find(req.params.id);
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
          await check(body);
          const values = decl.timestamps ? { ...body, created_at: nowIso() } : body;
          const { id } = await guarded<{ id: number }>(body, () => db.insertInto(decl.table).values(values).returning('id').executeTakeFirstOrThrow());
          req.audit({ action: 'create', resource: decl.table, resource_id: Number(id), changes: diff(null, body) });
          return { status: true, message: req.t(`resource.${decl.name}.created`), data: present(await find(id)) };
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
          const before = await find(id);
          if (!before) throw notFound();
          await check(body, id);
          if (Object.keys(body).length) await guarded(body, () => db.updateTable(decl.table).set(body).where('id', '=', id).execute(), id);
          req.audit({ action: 'update', resource: decl.table, resource_id: id, changes: diff(before as Record<string, unknown>, body) });
          return { status: true, message: req.t(`resource.${decl.name}.updated`), data: present(await find(id)) };
        },
      );
    }
    // Import from a spreadsheet (`import: true`, kinds that may create): server/lib/declaredImport.ts.
    declaredImportRoutes(app, decl, kind, path);
  }
}
