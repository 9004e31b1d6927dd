import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { kindsFor, type Action } from '../../../model/permissions.js';
import { ACCOUNT_STATUSES, COMPANY_ROLE, COMPANY_ROLES, USER_ROLES_FOR_COMPANY_ROLE } from '../../../model/roles.js';
import {
  ADMIN_ONLY_COMPANY_FIELDS,
  COMPANY_FIELD_NAMES,
  COMPANY_TYPES,
  LOGO_LIMIT_CREATE,
  LOGO_LIMIT_UPDATE,
  companyFields,
  requiredCompanyFields,
  isCarrierLike,
} from '../../../model/companies.js';
import { cleanBody, declaredBody } from '../../lib/declaredBodies.js';
import { Type } from 'typebox';
import { dataAnswer, int, metaPaged, obj, writeAnswer } from '../../lib/answers.js';
import { companyAnswer } from '../../lib/accountAnswers.js';
import { COMPANY_DEPENDENTS, countDependents, isForeignKeyViolation } from '../../lib/dependents.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { imageUpload } from '../../lib/images.js';
import { listQuerySchema, withMeta } from '../../lib/paging.js';
import { carrierScope } from '../../lib/scope.js';
import { nowIso } from '../../lib/tokens.js';
import { companiesRepo, COMPANY_SORT_COLUMNS, presentCompany, type CompanyScope } from '../../repositories/companies.js';
import { tokensRepo } from '../../repositories/tokens.js';
import { checkCompany, companyColumns, companyInputOf, type CompanyInput } from './companyRules.js';
import { companyTenant, diff } from '../../repositories/auditLog.js';
import { dependentsText } from './dependentsText.js';

export type Namespace = 'admin' | 'company';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
export const companyListFilters = {
  search: { type: 'string', maxLength: 100 },
  company_role_id: { type: 'integer', enum: Object.keys(COMPANY_ROLES).map(Number) },
  status_id: { type: 'integer', enum: Object.keys(ACCOUNT_STATUSES).map(Number) },
  carrier_id: { type: 'integer', minimum: 1 },
  price_category_id: { type: 'integer', minimum: 1 },
  type: { type: 'string', enum: [...COMPANY_TYPES] },
};

/** Each namespace answers only its own kind: /admin for admins, /company for carriers (server.md §2). */
const policyOf = (ns: Namespace, action: Action) => kindsFor('companies', action).filter((k) => (ns === 'admin' ? k === 'admin' : k === 'carrier'));

/**
 * Companies under /admin and /company alike (accounts document §7, server.md §2). A carrier's variant
 * fixes the tenant from its token: it sees and changes its own company and its end-user companies,
 * creates only end-user companies of its own, and the body has no role, carrier or status to send.
 * Status changes only through changeStatus, for admins as well, so ending sessions is never skipped.
 */
export function companyRoutes(ns: Namespace) {
  return async function routes(app: App) {
    const repo = companiesRepo(app.db);
    const tokens = tokensRepo(app.db);
    const base = `/${ns}/companies`;
    const tags = [ns];
    const writable = COMPANY_FIELD_NAMES.filter((f) => ns === 'admin' || !ADMIN_ONLY_COMPANY_FIELDS.includes(f));
    const body = Type.Unsafe<CompanyInput>(declaredBody(companyFields, writable));
    // Creating: the fields every company needs (the document's `required`; the route refuses them missing, with
    // its other checks, in one answer); an admin's end-user company needs its carrier and ratios too.
    const createRequired = requiredCompanyFields(ns === 'admin' ? null : COMPANY_ROLE.ENDUSER).filter((f) => writable.includes(f));
    const createBody = Type.Unsafe<CompanyInput>(
      declaredBody(companyFields, writable, {
        conditions: Object.fromEntries(
          requiredCompanyFields(COMPANY_ROLE.ENDUSER)
            .filter((f) => !requiredCompanyFields(null).includes(f))
            .map((f) => [f, `Required when company_role_id is ${COMPANY_ROLE.ENDUSER} (an end-user company).`]),
        ),
      }),
    );
    // One company schema for every answer of both namespaces (lib/accountAnswers.ts); a delete answers the id only.
    const company = companyAnswer;
    const companyWrite = writeAnswer(company);
    const companyDeleted = writeAnswer(obj({ id: int }));
    const scopeOf = (req: FastifyRequest): CompanyScope => ({ carrierId: ns === 'admin' ? null : carrierScope(req) });
    const clean = async (req: FastifyRequest) => cleanBody(companyFields, req.body);
    const load = async (req: FastifyRequest, id: number) => {
      const row = await repo.find(scopeOf(req), id);
      if (!row) throw notFound();
      return row;
    };
    /** The caller's own company: never deleted or deactivated from here. */
    const isOwn = (req: FastifyRequest, id: number) => req.user!.company_id === id;

    /**
     * A write's answer: the company as it is now. A write never moves a company out of the caller's scope
     * (a carrier cannot change a carrier_id), so only a delete racing this write leaves nothing to show: that
     * answers 404 (the company is gone) rather than a bare `{id}` the answer's schema does not describe.
     */
    async function answer(req: FastifyRequest, id: number, message: string) {
      const row = await repo.find(scopeOf(req), id);
      if (!row) throw notFound();
      return { status: true, message: req.t(message), data: presentCompany(row) };
    }

    app.get(
      base,
      {
        config: { policy: policyOf(ns, 'list') },
        schema: {
          tags,
          summary: 'A page of companies.',
          querystring: listQuerySchema(Object.keys(COMPANY_SORT_COLUMNS), companyListFilters),
          response: { 200: metaPaged(company) },
        },
      },
      async (req) => {
        const page = await repo.list(scopeOf(req), req.query);
        return withMeta({ ...page, data: page.data.map(presentCompany) });
      },
    );

    app.get(
      `${base}/show/:id`,
      {
        config: { policy: policyOf(ns, 'show') },
        schema: { tags, summary: 'A company.', params: idParams, response: { 200: dataAnswer(company) } },
      },
      async (req) => ({ status: true, data: presentCompany(await load(req, req.params.id)) }),
    );

    app.post(
      `${base}/store`,
      {
        config: { policy: policyOf(ns, 'create'), uploadLimit: '5 MB', bodyRequired: createRequired },
        schema: {
          tags,
          summary: 'Creates a company.',
          body: createBody,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: companyWrite },
        },
        preValidation: clean,
      },
      async (req) => {
        const input = { ...req.body };
        const rec: CompanyInput = { type: 'Customer', is_inbound: 1, ...input };
        if (ns === 'company') {
          // A carrier creates only end-user companies of its own (server.md §2).
          rec.company_role_id = COMPANY_ROLE.ENDUSER;
          rec.carrier_id = carrierScope(req);
        }
        const errors = await checkCompany(app.db, rec);
        if (Object.keys(errors).length) throw new ApiError(422, 'errors.validation', undefined, errors);
        const logo = await imageUpload(input.site_header_logo, LOGO_LIMIT_CREATE, 'site_header_logo');
        const now = nowIso();
        const name = logo ? await app.files.store('media', logo.data, logo.ext) : null;
        try {
          const values = {
            ...(companyColumns(rec) as any),
            legal_name: String(rec.legal_name),
            company_role_id: Number(rec.company_role_id),
            site_header_logo: name,
            status_id: 1,
          };
          const id = await repo.insert({ ...values, created_at: now, updated_at: now });
          req.audit({ action: 'create', resource: 'companies', resource_id: id, company_id: id, changes: diff(null, values) });
          return await answer(req, id, 'companies.created');
        } catch (err) {
          await app.files.remove('media', name);
          throw err;
        }
      },
    );

    app.post(
      `${base}/update/:id`,
      {
        config: { policy: policyOf(ns, 'edit'), uploadLimit: '1 MB' },
        schema: {
          tags,
          summary: 'Updates a company.',
          params: idParams,
          body,
          consumes: ['application/json', 'multipart/form-data'],
          response: { 200: companyWrite },
        },
        preValidation: clean,
      },
      async (req) => {
        const row = await load(req, req.params.id);
        const input = { ...req.body };
        const rec: CompanyInput = { ...companyInputOf(presentCompany(row)), ...input };
        if (ns === 'company') {
          // Nothing a carrier sends moves a company to another tenant or changes its role.
          rec.company_role_id = row.company_role_id;
          rec.carrier_id = row.carrier_id;
        }
        const errors = await checkCompany(app.db, rec, { selfId: row.id, sent: Object.keys(input) });
        if (Object.keys(errors).length) throw new ApiError(422, 'errors.validation', undefined, errors);
        const newRole = Number(rec.company_role_id);
        if (newRole !== row.company_role_id) await checkRoleChange(row.id, row.company_role_id, newRole);
        const logo = await imageUpload(input.site_header_logo, LOGO_LIMIT_UPDATE, 'site_header_logo');
        const name = logo ? await app.files.store('media', logo.data, logo.ext) : undefined;
        // JSON null removes the logo; a URL sent back (the record as it was) keeps it.
        const removeLogo = !logo && 'site_header_logo' in input && input.site_header_logo === null;
        const set = {
          ...(companyColumns(rec) as any),
          ...(name ? { site_header_logo: name } : removeLogo ? { site_header_logo: null } : {}),
        };
        await repo.update(row.id, { ...set, updated_at: nowIso() });
        req.audit({ action: 'update', resource: 'companies', resource_id: row.id, company_id: row.id, changes: diff(row as Record<string, unknown>, set) });
        if (name || removeLogo) await app.files.remove('media', row.site_header_logo);
        return answer(req, row.id, 'companies.updated');
      },
    );

    /** An admin's role change must leave every user of the company with a fitting role, and no customers orphaned. */
    async function checkRoleChange(id: number, from: number, to: number) {
      const fitting = USER_ROLES_FOR_COMPANY_ROLE[to] ?? [];
      const misfits = (await repo.userRoles(id)).filter((r) => !fitting.includes(r));
      if (misfits.length) throw conflict('companies.roleChangeUsers');
      if (isCarrierLike(from) && !isCarrierLike(to) && (await repo.countCustomers(id)) > 0) throw conflict('companies.roleChangeCustomers');
    }

    app.get(
      `${base}/destroy/:id`,
      {
        config: { policy: policyOf(ns, 'delete') },
        schema: { tags, summary: 'Deletes a company without dependents.', params: idParams, response: { 200: companyDeleted } },
      },
      async (req) => {
        const row = await load(req, req.params.id);
        if (isOwn(req, row.id)) throw conflict('companies.deleteOwn');
        // A company with users, customers, requests or tariffs is refused with what blocks it (README).
        const deps = await countDependents(app.db, COMPANY_DEPENDENTS, row.id);
        if (Object.keys(deps).length) throw conflict('companies.deleteBlocked', { what: dependentsText(req, deps) });
        try {
          await repo.remove(row.id);
        } catch (err) {
          if (isForeignKeyViolation(err)) throw conflict('companies.referenced');
          throw err;
        }
        await app.files.remove('media', row.site_header_logo);
        await app.files.remove('media', row.logo);
        req.audit({
          action: 'delete',
          resource: 'companies',
          resource_id: row.id,
          company_id: row.id,
          tenant_id: companyTenant(row),
          changes: diff({ legal_name: row.legal_name, company_role_id: row.company_role_id, carrier_id: row.carrier_id }, null),
        });
        return { status: true, message: req.t('companies.deleted'), data: { id: row.id } };
      },
    );

    app.get(
      `${base}/changeStatus/:id`,
      {
        config: { policy: policyOf(ns, 'edit') },
        schema: { tags, summary: 'Activates or deactivates a company.', params: idParams, response: { 200: companyWrite } },
      },
      async (req) => {
        const row = await load(req, req.params.id);
        if (isOwn(req, row.id)) throw conflict('companies.statusOwn');
        const status = await repo.toggleStatus(row.id, nowIso());
        // A deactivated company's users are signed out at once and cannot sign in (tokens.resolve, login).
        if (status === 0) await tokens.revokeCompany(row.id);
        req.audit({
          action: 'status',
          resource: 'companies',
          resource_id: row.id,
          company_id: row.id,
          changes: { status_id: { before: row.status_id, after: status } },
        });
        return answer(req, row.id, status === 1 ? 'companies.activated' : 'companies.deactivated');
      },
    );
  };
}
