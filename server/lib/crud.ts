import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Policy } from '../fastify.js';
import type { DB } from '../db/types.js';
import { bodySchemas, checkBounds, normalizeBody, uniqueFields, type FieldsDecl } from '../../model/fields.js';
import { invalid, notFound } from './errors.js';
import { listQuerySchema, paginate, type ListQuery } from './paging.js';
import { nowIso } from './tokens.js';
import { dataAnswer, int, obj, pagedAnswer, writeAnswer } from './answers.js';

type Row = Record<string, unknown>;

export interface CrudOptions {
  /** Route prefix, e.g. `/admin/currencies`. */
  path: string;
  table: keyof DB & string;
  fields: FieldsDecl;
  /** Who may list and show; who may store and update. */
  read: Policy;
  write: Policy;
  /** Columns the list sorts on (the first is the default), mapped to their SQL column. */
  sortable: string[];
  /** Columns a `q` filter searches (case-insensitive, contains). */
  search?: string[];
  /** Message keys of the write answers. */
  messages: { created: string; updated: string };
  /** Sets `created_at` on insert. */
  timestamps?: boolean;
  /** Shapes a row for the answer (e.g. adds `created`). */
  present?: (row: Row) => Row;
  tag: string;
}

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * List, show, store and update of a table declared with `model/fields.ts`: paged and sorted
 * lists, the declaration's body schemas, trimming, unique checks in the user's language (422
 * `validation.unique`, also when two writes race into the unique index), nothing stored on error.
 */
export function crudRoutes(app: FastifyInstance, o: CrudOptions) {
  const db = app.db as any;
  const schemas = bodySchemas(o.fields);
  const unique = uniqueFields(o.fields);
  const present = o.present ?? ((r: Row) => r);
  // Text sorts without case on both databases (SQLite compares bytes); the paging helper takes the expression as its column.
  const sortColumns = Object.fromEntries(o.sortable.map((c) => [c, (c === 'id' || c.endsWith('_at') ? c : sql`lower(${sql.ref(c)})`) as unknown as string]));
  const q = { type: 'string', maxLength: 100 };
  const normalize = async (req: FastifyRequest) => {
    if (req.body && typeof req.body === 'object') normalizeBody(o.fields, req.body as Row);
  };

  async function check(body: Row, id?: number) {
    const problems: Record<string, { key: string; params?: Record<string, unknown> }> = { ...checkBounds(o.fields, body) };
    for (const field of unique) {
      const v = body[field];
      if (v === undefined || v === null) continue;
      let qb = db.selectFrom(o.table).select('id').where(sql`lower(${sql.ref(field)})`, '=', String(v).toLowerCase());
      if (id) qb = qb.where('id', '<>', id);
      if (await qb.executeTakeFirst()) problems[field] = { key: 'validation.unique' };
    }
    if (Object.keys(problems).length) throw invalid(problems);
  }

  /** A race past `check` ends in the unique index: answer it the same way. */
  async function guarded<T>(body: Row, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const text = String((err as Error)?.message ?? '');
      if (/unique|duplicate/i.test(text)) {
        const field = unique.find((f) => text.includes(f)) ?? unique[0];
        if (field && body[field] !== undefined) throw invalid({ [field]: 'validation.unique' });
      }
      throw err;
    }
  }

  const find = (id: number) => db.selectFrom(o.table).selectAll().where('id', '=', id).executeTakeFirst();

  app.get(o.path, {
    config: { policy: o.read },
    schema: { tags: [o.tag], summary: `A page of ${o.table.replace(/_/g, ' ')}.`, querystring: listQuerySchema(o.sortable, o.search ? { q } : {}), response: { 200: pagedAnswer(obj({ id: int })) } },
  }, async (req) => {
    const query = req.query as ListQuery & { q?: string };
    let qb = db.selectFrom(o.table).selectAll();
    if (query.q && o.search?.length) {
      const term = `%${query.q.trim().toLowerCase()}%`;
      qb = qb.where((eb: any) => eb.or(o.search!.map((c) => eb(sql`lower(${sql.ref(c)})`, 'like', term))));
    }
    const page = await paginate<any, any, Row>(qb, query, { sortColumns, defaultSort: o.sortable[0] });
    return { ...page, data: page.data.map((r: Row) => present(r)) };
  });

  app.get(`${o.path}/show/:id`, {
    config: { policy: o.read },
    schema: { tags: [o.tag], summary: `One of the ${o.table.replace(/_/g, ' ')}.`, params: idParams, response: { 200: dataAnswer(obj({ id: int })) } },
  }, async (req) => {
    const row = await find((req.params as { id: number }).id);
    if (!row) throw notFound();
    return { status: true, data: present(row) };
  });

  app.post(`${o.path}/store`, {
    config: { policy: o.write },
    preValidation: normalize,
    schema: { tags: [o.tag], summary: `Creates one of the ${o.table.replace(/_/g, ' ')}.`, body: schemas.store, response: { 200: writeAnswer(obj({ id: int })) } },
  }, async (req) => {
    const body = req.body as Row;
    await check(body);
    const values = o.timestamps ? { ...body, created_at: nowIso() } : body;
    const { id } = await guarded<{ id: number }>(body, () => db.insertInto(o.table).values(values).returning("id").executeTakeFirstOrThrow());
    return { status: true, message: req.t(o.messages.created), data: present(await find(id)) };
  });

  app.post(`${o.path}/update/:id`, {
    config: { policy: o.write },
    preValidation: normalize,
    schema: { tags: [o.tag], summary: `Updates one of the ${o.table.replace(/_/g, ' ')}.`, params: idParams, body: schemas.update, response: { 200: writeAnswer(obj({ id: int })) } },
  }, async (req) => {
    const { id } = req.params as { id: number };
    const body = req.body as Row;
    if (!(await find(id))) throw notFound();
    await check(body, id);
    if (Object.keys(body).length) await guarded(body, () => db.updateTable(o.table).set(body).where('id', '=', id).execute());
    return { status: true, message: req.t(o.messages.updated), data: present(await find(id)) };
  });
}
