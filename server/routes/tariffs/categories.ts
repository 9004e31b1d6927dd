import type { App } from '../../lib/typed.js';
import { COMPANY_ROLE } from '../../../model/roles.js';
import { invalid, notFound } from '../../lib/errors.js';
import { listQuerySchema, paginate, type ListQuery } from '../../lib/paging.js';
import { NAMESPACES, tariffCompany, type Namespace } from './scope.js';
import { Type } from 'typebox';
import { diff } from '../../repositories/auditLog.js';
import { int, intN, obj, pagedAnswer, str, strN, writeAnswer } from '../../lib/answers.js';
import { categoryZoneSchema, withProperties } from './answers.js';

const enduserCategories = obj({ id: int, legal_name: str, exp_category_id: intN, std_category_id: intN });
/** A listed end-user company: its place and status, its categories with their codes (null: none given). */
const listedEnduser = obj({
  id: int,
  legal_name: str,
  city: strN,
  province: strN,
  status_id: int,
  exp_category_id: intN,
  exp_category_code: strN,
  std_category_id: intN,
  std_category_code: strN,
  std_category_zone: categoryZoneSchema,
});

/** A category id in a form: an integer, or empty / 0 for "none". */
const categoryRef = { type: ['integer', 'null'], minimum: 0 } as const;

/**
 * Categories (pricing.md §1; the `category_list` lookups are in routes/visitor/lookups.ts):
 * `enduser_carrier_categories`, which end-user company of a carrier is priced with which express and
 * standard category (companies.exp_category_id / std_category_id), read and changed by admins and carriers.
 */
export default async function categoryRoutes(app: App) {
  for (const { ns, policy } of NAMESPACES) register(ns, policy);

  function register(ns: Namespace, policy: any) {
    const base = `/${ns}/enduser_carrier_categories`;
    const tags = ['rate sheets'];
    const adminOnly: Record<string, object> = ns === 'admin' ? { company_id: { type: 'integer', minimum: 1 } } : {};

    /** The end-user company, when it is a customer of the carrier; else 404. */
    async function enduserOf(carrierId: number, enduserId: number) {
      const row = await app.db
        .selectFrom('companies')
        .select(['id', 'legal_name', 'exp_category_id', 'std_category_id'])
        .where('id', '=', enduserId)
        .where('carrier_id', '=', carrierId)
        .where('company_role_id', '=', COMPANY_ROLE.ENDUSER)
        .executeTakeFirst();
      if (!row) throw notFound();
      return row;
    }

    app.get(
      base,
      {
        config: { policy },
        schema: {
          tags,
          summary: "A page of a carrier's end-user companies with their express and standard categories.",
          querystring: Type.Unsafe<ListQuery & { company_id?: number; category_id?: number }>(
            listQuerySchema(['id', 'legal_name', 'city'], { ...adminOnly, category_id: { type: 'integer', minimum: 1 } }),
          ),
          // company_id: the carrier listed (null: no carrier yet, the page is empty).
          response: { 200: withProperties(pagedAnswer(listedEnduser), { company_id: intN }) },
        },
      },
      async (req) => {
        const q = req.query;
        const company = await tariffCompany(app, req, ns, q.company_id);
        if (!company) return { data: [], current_page: 1, per_page: q.per_page, last_page: 1, total: 0, company_id: null };
        let qb = app.db
          .selectFrom('companies as e')
          .leftJoin('categories as ec', 'ec.id', 'e.exp_category_id')
          .leftJoin('categories as sc', 'sc.id', 'e.std_category_id')
          .select([
            'e.id',
            'e.legal_name',
            'e.city',
            'e.province',
            'e.status_id',
            'e.exp_category_id',
            'ec.code as exp_category_code',
            'e.std_category_id',
            'sc.code as std_category_code',
            'sc.zone as std_category_zone',
          ])
          .where('e.carrier_id', '=', company.id)
          .where('e.company_role_id', '=', COMPANY_ROLE.ENDUSER);
        if (q.category_id) qb = qb.where((eb) => eb.or([eb('e.exp_category_id', '=', q.category_id!), eb('e.std_category_id', '=', q.category_id!)]));
        const page = await paginate(qb, q, {
          sortColumns: { id: 'e.id', legal_name: 'e.legal_name', city: 'e.city' },
          defaultSort: 'legal_name',
          idColumn: 'e.id',
        });
        return { ...page, company_id: company.id };
      },
    );

    app.post(
      `${base}/store`,
      {
        config: { policy, bodyRequired: ns === 'admin' ? ['company_id'] : [] },
        schema: {
          tags,
          summary: 'Sets the express and standard categories of an end-user company.',
          body: Type.Unsafe<{ company_id?: number; enduser_id: number; exp_category_id?: number | null; std_category_id?: number | null }>({
            type: 'object',
            additionalProperties: false,
            required: ['enduser_id'],
            properties: { ...adminOnly, enduser_id: { type: 'integer', minimum: 1 }, exp_category_id: categoryRef, std_category_id: categoryRef },
          }),
          response: { 200: writeAnswer(enduserCategories) },
        },
      },
      async (req) => {
        const b = req.body;
        const company = (await tariffCompany(app, req, ns, b.company_id, { required: true }))!;
        const enduser = await enduserOf(company.id, b.enduser_id);
        const changes: { exp_category_id?: number | null; std_category_id?: number | null } = {};
        for (const [field, rateType] of [
          ['exp_category_id', 'EXP'],
          ['std_category_id', 'STD'],
        ] as const) {
          if (!(field in b)) continue;
          const id = b[field] || null;
          if (id !== null) {
            const cat = await app.db
              .selectFrom('categories')
              .select(['id', 'rate_type'])
              .where('id', '=', id)
              .where('company_id', '=', company.id)
              .executeTakeFirst();
            if (!cat || cat.rate_type !== rateType) throw invalid({ [field]: { key: 'categories.wrongType', params: { rate_type: rateType } } });
          }
          changes[field] = id;
        }
        if (Object.keys(changes).length) {
          await app.db
            .updateTable('companies')
            .set({ ...changes, updated_at: new Date().toISOString() })
            .where('id', '=', enduser.id)
            .execute();
        }
        req.audit({ action: 'update', resource: 'companies', resource_id: enduser.id, company_id: enduser.id, changes: diff(enduser, changes) });
        const data = await app.db
          .selectFrom('companies')
          .select(['id', 'legal_name', 'exp_category_id', 'std_category_id'])
          .where('id', '=', enduser.id)
          .executeTakeFirstOrThrow();
        return { status: true, message: req.t('categories.saved'), data };
      },
    );

    app.post(
      `${base}/destroy`,
      {
        config: { policy, bodyRequired: ns === 'admin' ? ['company_id'] : [] },
        schema: {
          tags,
          summary: 'Clears the categories of an end-user company.',
          body: Type.Unsafe<{ company_id?: number; enduser_id: number }>({
            type: 'object',
            additionalProperties: false,
            required: ['enduser_id'],
            properties: { ...adminOnly, enduser_id: { type: 'integer', minimum: 1 } },
          }),
          response: { 200: writeAnswer(obj({ id: int, exp_category_id: intN, std_category_id: intN })) },
        },
      },
      async (req) => {
        const b = req.body;
        const company = (await tariffCompany(app, req, ns, b.company_id, { required: true }))!;
        const enduser = await enduserOf(company.id, b.enduser_id);
        await app.db
          .updateTable('companies')
          .set({ exp_category_id: null, std_category_id: null, updated_at: new Date().toISOString() })
          .where('id', '=', enduser.id)
          .execute();
        req.audit({
          action: 'update',
          resource: 'companies',
          resource_id: enduser.id,
          company_id: enduser.id,
          changes: diff(enduser, { exp_category_id: null, std_category_id: null }),
        });
        return { status: true, message: req.t('categories.saved'), data: { id: enduser.id, exp_category_id: null, std_category_id: null } };
      },
    );
  }
}
