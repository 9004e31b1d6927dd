import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { conflict, notFound } from '../../lib/errors.js';
import { composeMail, createMailer } from '../../lib/mail.js';
import { listQuerySchema, withMeta } from '../../lib/paging.js';
import { carrierScope } from '../../lib/scope.js';
import { metaPaged, writeAnswer } from '../../lib/answers.js';
import { cInt, cIntN, cMediaN, cStr, cStrN, cTime, cTimeN, columnsOf, described, oneOf } from '../../lib/columns.js';
import { diff } from '../../repositories/auditLog.js';
import { ACCESS_STATUS_MEANINGS, accessRequestsRepo } from '../../repositories/accessRequests.js';

type AccessRequestRow = NonNullable<Awaited<ReturnType<ReturnType<typeof accessRequestsRepo>['find']>>>;
/** One access request as the review answers it (repositories/accessRequests.ts): never the password hash. */
const accessRequest = columnsOf<AccessRequestRow>()({
  id: cInt,
  status: oneOf(ACCESS_STATUS_MEANINGS, 'The review status'),
  carrier_id: described(cIntN, 'The carrier the request is addressed to (an invitation); null: a request for a new carrier, reviewed by admins'),
  carrier_name: cStr,
  carrier_email: cStr,
  carrier_phone: cStr,
  carrier_city: cStr,
  carrier_country_id: cInt,
  carrier_country: described(cStrN, "The country's name in the caller's language"),
  carrier_country_en: described(cStrN, "The country's name in English"),
  carrier_language_id: cInt,
  carrier_language: described(cStrN, "The language's own name"),
  carrier_language_en: described(cStrN, "The language's name in English"),
  carrier_postal_code: cStr,
  carrier_province: cStr,
  carrier_website_url: cStr,
  carrier_address: cStr,
  carrier_logo: cMediaN,
  user_first_name: cStr,
  user_last_name: cStr,
  user_email: cStr,
  user_phone: cStr,
  created_company_id: described(cIntN, 'The company a confirmation created'),
  created_user_id: described(cIntN, 'The user a confirmation created'),
  reviewed_at: cTimeN,
  created_at: cTime,
  updated_at: cTime,
});

/** The review list's query (its export takes the same, `format` instead of the page). */
export const accessRequestListQuery = listQuerySchema(['id', 'created_at', 'status', 'carrier_name', 'user_email'], {
  status: { type: 'string', enum: ['OP', 'CF', 'RF'] },
  date: { type: 'string', format: 'date' },
});

/**
 * The access-request review (calculator document "Access requests", server.md §4). Admins review the
 * requests for new carriers, a carrier (Carrier, Reseller, Carrier Users) those addressed to its
 * company; anything else answers 404.
 */
export default async function requestAccessRoutes(app: App) {
  const requests = accessRequestsRepo(app.db);
  const mailer = createMailer(app.config, app.log);

  app.get(
    '/company/request_access',
    {
      config: { policy: kindsFor('request-access', 'list') },
      schema: {
        tags: ['company'],
        summary: 'A page of access requests to review.',
        response: { 200: metaPaged(accessRequest) },
        querystring: accessRequestListQuery,
      },
    },
    async (req) => {
      return withMeta(await requests.list(carrierScope(req), req.query, req.lang));
    },
  );

  app.post(
    '/company/request_access/changeStatus',
    {
      config: { policy: kindsFor('request-access', 'edit') },
      schema: {
        tags: ['company'],
        summary: 'Confirms (creates the accounts) or refuses an access request.',
        response: { 200: writeAnswer(accessRequest) },
        body: {
          type: 'object',
          required: ['id', 'status'],
          additionalProperties: false,
          properties: { id: { type: 'integer', minimum: 1 }, status: { type: 'string', enum: ['CF', 'RF'] } },
        },
      },
    },
    async (req) => {
      const { id, status } = req.body;
      const scope = carrierScope(req);
      const found = await requests.find(scope, id);
      if (!found) throw notFound();
      const changed = status === 'CF' ? await requests.confirm(id, req.user!.id) : await requests.refuse(id, req.user!.id);
      if (!changed) {
        // The request was reviewed before (or meanwhile, by another reviewer).
        const now = (await requests.find(scope, id))!;
        if (status === 'RF' && now.status === 'CF') throw conflict('accessRequests.cannotReject');
        throw conflict(now.status === 'CF' ? 'accessRequests.alreadyConfirmed' : 'accessRequests.alreadyRefused');
      }
      const row = (await requests.find(scope, id))!;
      req.audit({
        action: status === 'CF' ? 'confirm' : 'refuse',
        resource: 'access_requests',
        resource_id: id,
        company_id: found.carrier_id ?? null,
        changes: { status: { before: found.status, after: row.status } },
      });
      if (typeof changed === 'object') {
        // the accounts the confirmation created
        const { companyId, userId } = changed;
        const company = { legal_name: row.carrier_name, carrier_id: found.carrier_id ?? null };
        req.audit({ action: 'create', resource: 'companies', resource_id: companyId, company_id: companyId, changes: diff(null, company) });
        req.audit({ action: 'create', resource: 'users', resource_id: userId, company_id: companyId, changes: diff(null, { email: row.user_email }) });
      }
      const reviewer = await requests.reviewerName(req.user!.company_id);
      void mailer.sendLater(
        await composeMail(app.db, {
          to: row.user_email,
          languageId: row.carrier_language_id,
          key: status === 'CF' ? 'mail.accessConfirmed' : 'mail.accessRefused',
          params: { name: row.user_first_name, company: row.carrier_name, email: row.user_email, reviewer },
        }),
      );
      return { status: true, message: req.t('accessRequests.statusChanged'), data: row };
    },
  );
}
