import type { FastifyInstance } from 'fastify';
import { COMPANY_ROLE } from '../../../src/schema/roles.js';
import { invalid, notFound } from '../../lib/errors.js';

/**
 * The two company lookups the calculator's selectors need (calculator document §7; server.md §2: they
 * need a sign-in and answer only the caller's scope). Minimal versions written with the calculator;
 * the reference-data area owns the full set of lookups.
 * - companies_list: admins all active companies, carriers their own and their end users', others their
 *   own; `company_role_id` (one or more) narrows by role (e.g. 2 and 4 for the sellers).
 * - enduser_list: the active end-user companies of one carrier (`company_id`; a carrier's own always).
 *   Items carry `carrier_name`, the name the document gives the entry's label, equal to `legal_name`.
 */
export default async function lookupRoutes(app: FastifyInstance) {
  app.get('/visitor/companies_list', {
    config: { policy: 'signedIn' },
    schema: {
      tags: ['visitor'],
      querystring: { type: 'object', additionalProperties: false, properties: { company_role_id: { type: 'array', items: { type: 'integer', minimum: 1 } } } },
    },
  }, async (req) => {
    const { company_role_id: roles } = req.query as { company_role_id?: number[] };
    const u = req.user!;
    let q = app.db.selectFrom('companies').select(['id', 'legal_name', 'company_role_id']).where('status_id', '=', 1);
    if (u.kind === 'carrier') q = q.where((eb) => eb.or([eb('id', '=', u.company_id), eb('carrier_id', '=', u.company_id)]));
    else if (u.kind !== 'admin') q = q.where('id', '=', u.company_id);
    if (roles?.length) q = q.where('company_role_id', 'in', roles);
    return { status: true, data: await q.orderBy('legal_name').orderBy('id').execute() };
  });

  app.get('/visitor/enduser_list', {
    config: { policy: 'signedIn' },
    schema: {
      tags: ['visitor'],
      querystring: { type: 'object', additionalProperties: false, properties: { company_id: { type: 'integer', minimum: 1 } } },
    },
  }, async (req) => {
    const { company_id } = req.query as { company_id?: number };
    const u = req.user!;
    let q = app.db.selectFrom('companies').select(['id', 'legal_name']).where('company_role_id', '=', COMPANY_ROLE.ENDUSER).where('status_id', '=', 1);
    if (u.kind === 'admin') {
      if (!company_id) throw invalid({ company_id: 'validation.required' });
      q = q.where('carrier_id', '=', company_id);
    } else if (u.kind === 'carrier' || u.kind === 'support') {
      if (company_id && company_id !== u.company_id) throw notFound();
      q = q.where('carrier_id', '=', u.company_id);
    } else {
      q = q.where('id', '=', u.company_id);
    }
    const rows = await q.orderBy('legal_name').orderBy('id').execute();
    return { status: true, data: rows.map((r) => ({ ...r, carrier_name: r.legal_name })) };
  });
}
