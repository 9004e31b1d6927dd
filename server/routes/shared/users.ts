import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { kindsFor, type Action } from '../../../model/permissions.js';
import { ACCOUNT_STATUSES, USER_ROLE, USER_ROLES } from '../../../model/roles.js';
import {
  USER_FIELD_NAMES,
  requiredUserFields,
  rolesACarrierAssigns,
  rolesForCompanyRole,
  stripPhone,
  userFields,
  type UserField,
} from '../../../model/users.js';
import { cleanBody, declaredBody } from '../../lib/declaredBodies.js';
import { Type } from 'typebox';
import { dataAnswer, int, obj, pagedAnswer, writeAnswer } from '../../lib/answers.js';
import { managedUserAnswer } from '../../lib/accountAnswers.js';
import { USER_DEPENDENTS, countDependents, isForeignKeyViolation, isUniqueViolation } from '../../lib/dependents.js';
import { ApiError, conflict, forbidden, invalid, notFound, type FieldErrors } from '../../lib/errors.js';
import { hashPassword, passwordProblem } from '../../lib/passwords.js';
import { listQuerySchema } from '../../lib/paging.js';
import { carrierScope } from '../../lib/scope.js';
import { newToken, nowIso } from '../../lib/tokens.js';
import { mailNewAccount } from '../../lib/invitations.js';
import { LANGS } from '../../i18n/index.js';
import { companiesRepo, type CompanyScope } from '../../repositories/companies.js';
import { tokensRepo } from '../../repositories/tokens.js';
import { passwordResetsRepo } from '../../repositories/passwordResets.js';
import { USER_SORT_COLUMNS, presentUser, userManagementRepo, type ManagedUserRow } from '../../repositories/userManagement.js';
import { dependentsText } from './dependentsText.js';
import { diff } from '../../repositories/auditLog.js';
import type { Namespace } from './companies.js';

type UserInput = Partial<Record<UserField, unknown>>;
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
export const userListFilters = {
  search: { type: 'string', maxLength: 100 },
  role_id: { type: 'integer', enum: Object.keys(USER_ROLES).map(Number) },
  status_id: { type: 'integer', enum: Object.keys(ACCOUNT_STATUSES).map(Number) },
  company_id: { type: 'integer', minimum: 1 },
};
/** The columns a user record keeps (the password travels apart, as a hash). */
const STORED: UserField[] = USER_FIELD_NAMES.filter((f) => f !== 'password' && f !== 'password_confirmation');

const policyOf = (ns: Namespace, action: Action) => kindsFor('user-management', action).filter((k) => (ns === 'admin' ? k === 'admin' : k === 'carrier'));

const add = (errors: FieldErrors, field: string, key: string, params: Record<string, unknown> = {}) => {
  (errors[field] ??= []).push({ key, params: { field, ...params } });
};

/**
 * Users under /admin and /company alike (accounts document §7, server.md §2–3). Admins manage every
 * user; a carrier manages the users of its own company (roles Carrier Users and Support) and of its
 * end-user companies (role Enduser), and may not touch the accounts above them (its company's owner).
 * Status changes only through changeStatus; deactivating ends the user's sessions.
 */
export function userRoutes(ns: Namespace) {
  return async function routes(app: App) {
    const repo = userManagementRepo(app.db);
    const companies = companiesRepo(app.db);
    const tokens = tokensRepo(app.db);
    const resets = passwordResetsRepo(app.db);
    const base = `/${ns}/users`;
    const tags = [ns];
    const body = Type.Unsafe<UserInput>(declaredBody(userFields, USER_FIELD_NAMES));
    // Creating: the declared required fields (an admin names the company and role too), which the route refuses
    // missing with its other checks in one answer: the document's `required` (config.bodyRequired). The password
    // is optional (issue 35): without it the new user is mailed a link to choose one.
    const createBody = body; // the same fields; what creating requires is config.bodyRequired
    // One user schema for every answer of both namespaces (lib/accountAnswers.ts); a delete answers the id only.
    const user = managedUserAnswer;
    const userWrite = writeAnswer(user);
    const userDeleted = writeAnswer(obj({ id: int }));
    const scopeOf = (req: FastifyRequest): CompanyScope => ({ carrierId: ns === 'admin' ? null : carrierScope(req) });
    const clean = async (req: FastifyRequest) => {
      cleanBody(userFields, req.body);
      const b = req.body;
      // Anything but an object (a JSON string, number or list) is left to the schema, which refuses it.
      if (isRecord(b)) for (const f of ['phone', 'phone_2'] as const) if (f in b) b[f] = stripPhone(b[f]);
    };
    const load = async (req: FastifyRequest, id: number) => {
      const row = await repo.find(scopeOf(req), id);
      if (!row) throw notFound();
      return row;
    };
    /** A carrier changes only the users it could have created; anyone changes their own record. */
    const mayChange = (req: FastifyRequest, row: ManagedUserRow) => {
      if (ns === 'admin' || row.id === req.user!.id) return true;
      return rolesACarrierAssigns(row.company_id === carrierScope(req)).includes(row.role_id);
    };

    /** Company and role rules, references, email and password: the field errors of a whole record. */
    async function check(req: FastifyRequest, rec: UserInput, opts: { creating: boolean; selfId?: number; roleUnchanged?: boolean; sent?: string[] }) {
      const errors: FieldErrors = {};
      // On update a required field may not be blanked; one the stored record never had (a user made from an
      // access request has no title or address) is asked for only when sent.
      const required = requiredUserFields(ns === 'admin').filter(
        (f) => opts.creating || (opts.sent?.includes(f) && f !== 'password' && f !== 'password_confirmation'),
      );
      for (const f of required) if (rec[f] === null || rec[f] === undefined) add(errors, f, 'validation.required');

      if (rec.company_id != null) {
        const company = await companies.find(scopeOf(req), Number(rec.company_id));
        if (!company) add(errors, 'company_id', 'validation.exists');
        else if (opts.roleUnchanged) {
          // Same role in the same company: it fitted when it was given (a role change of the company is checked there).
        } else if (ns === 'company') {
          const allowed = rolesACarrierAssigns(company.id === carrierScope(req));
          rec.role_id ??= allowed[0];
          if (!allowed.includes(Number(rec.role_id))) add(errors, 'role_id', 'users.roleNotAllowed');
        } else if (rec.role_id != null && !rolesForCompanyRole(company.company_role_id).includes(Number(rec.role_id))) {
          add(errors, 'role_id', 'users.roleNotForCompany');
        }
      }
      if (Number(rec.role_id) !== USER_ROLE.SUPPORT) rec.support_role_id = null;

      if (rec.country_id != null && !(await companies.exists('countries', Number(rec.country_id)))) add(errors, 'country_id', 'validation.exists');
      // Only the portal's languages (it, en, fr: issue 35): any other id, stored or not, says which ones.
      if (rec.language_id != null) {
        const lang = await app.db.selectFrom('languages').select('code').where('id', '=', Number(rec.language_id)).executeTakeFirst();
        if (!lang || !(LANGS as string[]).includes(lang.code)) add(errors, 'language_id', 'users.languageNotOffered');
      }
      if (typeof rec.email === 'string') {
        const owner = await repo.emailOwner(rec.email);
        if (owner && owner.id !== opts.selfId) add(errors, 'email', 'users.emailTaken');
      }
      if (typeof rec.password === 'string') {
        const problem = passwordProblem(rec.password);
        if (problem) add(errors, 'password', problem);
        else if (rec.password !== rec.password_confirmation) add(errors, 'password_confirmation', 'users.passwordConfirmation');
      } else if (rec.password_confirmation != null) {
        add(errors, 'password', 'validation.required');
      }
      if (Object.keys(errors).length) throw new ApiError(422, 'errors.validation', undefined, errors);
    }

    const columns = (rec: UserInput) => Object.fromEntries(STORED.filter((f) => f in rec).map((f) => [f, rec[f] ?? null]));

    /**
     * A write's answer: the user as it is now. A write keeps the user inside the caller's scope (`check`
     * finds the company in it), so only a delete racing this write leaves nothing to show: that answers 404
     * rather than a bare `{id}` the answer's schema does not describe.
     */
    async function answer(req: FastifyRequest, id: number, message: string) {
      const row = await repo.find(scopeOf(req), id);
      if (!row) throw notFound();
      return { status: true, message: req.t(message), data: presentUser(row, req.lang) };
    }

    app.get(
      base,
      {
        config: { policy: policyOf(ns, 'list') },
        schema: {
          tags,
          summary: 'A page of users.',
          querystring: listQuerySchema(Object.keys(USER_SORT_COLUMNS), userListFilters),
          response: { 200: pagedAnswer(user) },
        },
      },
      async (req) => {
        const page = await repo.list(scopeOf(req), req.query);
        return { ...page, data: page.data.map((r) => presentUser(r, req.lang)) };
      },
    );

    app.get(
      `${base}/show/:id`,
      {
        config: { policy: policyOf(ns, 'show') },
        schema: { tags, summary: 'A user.', params: idParams, response: { 200: dataAnswer(user) } },
      },
      async (req) => ({ status: true, data: presentUser(await load(req, req.params.id), req.lang) }),
    );

    app.post(
      `${base}/store`,
      {
        config: { policy: policyOf(ns, 'create'), bodyRequired: requiredUserFields(ns === 'admin') },
        schema: { tags, summary: 'Creates a user.', body: createBody, response: { 200: userWrite } },
        preValidation: clean,
      },
      async (req) => {
        const rec: UserInput = { ...req.body };
        // A carrier's user belongs to its own company unless it names one of its end-user companies.
        if (ns === 'company') rec.company_id ??= carrierScope(req);
        await check(req, rec, { creating: true });
        const now = nowIso();
        // Without a password from its creator, the account gets one nobody knows (a random secret's hash) and
        // the user a link to choose theirs (lib/invitations.ts); with one, a welcome mail.
        const invite = typeof rec.password !== 'string';
        let id: number;
        const values = { ...(columns(rec) as any), email: String(rec.email).toLowerCase(), status_id: 1 };
        try {
          const secret = invite ? newToken() : String(rec.password);
          id = await repo.insert({ ...values, password_hash: await hashPassword(secret), created_at: now, updated_at: now });
        } catch (err) {
          if (isUniqueViolation(err)) throw invalid({ email: 'users.emailTaken' });
          throw err;
        }
        req.audit({ action: 'create', resource: 'users', resource_id: id, company_id: values.company_id ?? null, changes: diff(null, values) });
        const me = req.user!;
        await mailNewAccount(
          app,
          { id, email: values.email, first_name: values.first_name, language_id: values.language_id ?? null },
          {
            invite,
            by: `${me.first_name} ${me.last_name}`.trim() || me.email,
          },
        );
        const row = await repo.find(scopeOf(req), id);
        if (!row) throw notFound();
        return { status: true, message: req.t(invite ? 'users.createdInvited' : 'users.created', { email: values.email }), data: presentUser(row) };
      },
    );

    app.post(
      `${base}/update/:id`,
      {
        config: { policy: policyOf(ns, 'edit') },
        schema: { tags, summary: 'Updates a user.', params: idParams, body, response: { 200: userWrite } },
        preValidation: clean,
      },
      async (req) => {
        const row = await load(req, req.params.id);
        if (!mayChange(req, row)) throw forbidden();
        const input = req.body;
        const rec: UserInput = { ...Object.fromEntries(STORED.map((f) => [f, (row as any)[f] ?? null])), ...input };
        const self = row.id === req.user!.id;
        if (self && (Number(rec.role_id) !== row.role_id || Number(rec.company_id) !== row.company_id)) {
          throw invalid({ role_id: 'users.ownRole' });
        }
        const roleUnchanged = Number(rec.role_id) === row.role_id && Number(rec.company_id) === row.company_id;
        await check(req, rec, { creating: false, selfId: row.id, roleUnchanged, sent: Object.keys(input) });
        const password = typeof rec.password === 'string' ? rec.password : null;
        try {
          const set = { ...(columns(rec) as any), ...(password ? { password_hash: await hashPassword(password) } : {}) };
          await repo.update(row.id, { ...set, updated_at: nowIso() });
          // (the hash, when the password changed, is written as [redacted]: plugins/audit.ts)
          req.audit({
            action: 'update',
            resource: 'users',
            resource_id: row.id,
            company_id: row.company_id,
            changes: diff(row as Record<string, unknown>, set),
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw invalid({ email: 'users.emailTaken' });
          throw err;
        }
        // A new password ends the user's other sessions (server.md §3); the caller's own one stays.
        // An open invitation link or reset code dies with it.
        if (password) {
          await tokens.revokeAllOf(row.id, self ? req.user!.token_id : undefined);
          await resets.voidAllOf(row.id);
        }
        return answer(req, row.id, 'users.updated');
      },
    );

    app.get(
      `${base}/destroy/:id`,
      {
        config: { policy: policyOf(ns, 'delete') },
        schema: { tags, summary: 'Deletes a user without dependents.', params: idParams, response: { 200: userDeleted } },
      },
      async (req) => {
        const row = await load(req, req.params.id);
        if (row.id === req.user!.id) throw conflict('users.deleteSelf');
        if (!mayChange(req, row)) throw forbidden();
        // A user with requests, tickets or messages keeps them: refused, to be deactivated instead (README).
        const deps = await countDependents(app.db, USER_DEPENDENTS, row.id);
        if (Object.keys(deps).length) throw conflict('users.deleteBlocked', { what: dependentsText(req, deps) });
        try {
          await repo.remove(row.id);
        } catch (err) {
          if (isForeignKeyViolation(err)) throw conflict('users.referenced');
          throw err;
        }
        await app.files.remove('media', row.image);
        req.audit({
          action: 'delete',
          resource: 'users',
          resource_id: row.id,
          company_id: row.company_id,
          changes: diff({ email: row.email, first_name: row.first_name, last_name: row.last_name, role_id: row.role_id }, null),
        });
        return { status: true, message: req.t('users.deleted'), data: { id: row.id } };
      },
    );

    app.get(
      `${base}/changeStatus/:id`,
      {
        config: { policy: policyOf(ns, 'edit') },
        schema: { tags, summary: 'Activates or deactivates a user.', params: idParams, response: { 200: userWrite } },
      },
      async (req) => {
        const row = await load(req, req.params.id);
        if (row.id === req.user!.id) throw conflict('users.statusSelf');
        if (!mayChange(req, row)) throw forbidden();
        const status = await repo.toggleStatus(row.id, nowIso());
        if (status === 0) await tokens.revokeAllOf(row.id);
        req.audit({
          action: 'status',
          resource: 'users',
          resource_id: row.id,
          company_id: row.company_id,
          changes: { status_id: { before: row.status_id, after: status } },
        });
        return answer(req, row.id, status === 1 ? 'users.activated' : 'users.deactivated');
      },
    );
  };
}
