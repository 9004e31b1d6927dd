import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { USER_ROLE } from '../../../model/roles.js';
import { isCarrierLike } from '../../../model/companies.js';
import { GS1_PREFIX_PATTERN, SSCC_EXTENSION_DIGIT, isGs1CompanyPrefix, maxSerial } from '../../../model/sscc.js';
import { bool, int, intN, obj, strN, writeAnswer } from '../../lib/answers.js';
import { ApiError, invalid, notFound } from '../../lib/errors.js';
import { palletLabelsRepo } from '../../repositories/palletLabels.js';

const settingsRow = obj({
  gs1_company_prefix: { ...strN, description: 'The GS1 company prefix (7 to 10 digits), null until set' },
  extension_digit: { ...int, description: 'The SSCC extension digit the portal uses (always 0)' },
  last_serial: { ...int, description: 'The serials given so far (the last SSCC serial reference)' },
  max_serial: { ...intN, description: 'The highest serial the prefix leaves room for; null without a prefix' },
  can_edit: { ...bool, description: 'Whether the caller may change the prefix (a carrier’s main account, or an admin)' },
});
const body = {
  type: 'object',
  additionalProperties: false,
  required: ['gs1_company_prefix'],
  properties: {
    // Checked by the handler, so the message says what a prefix is (the schema's pattern would only say "format").
    gs1_company_prefix: { type: 'string', maxLength: 32, description: `7 to 10 digits (${GS1_PREFIX_PATTERN.source})` },
  },
} as const;
const companyParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/** The main account of a carrier (Carrier, or Reseller for a reseller) sets the prefix; its Carrier Users only read it. */
const mayEdit = (req: FastifyRequest) => req.user!.kind === 'admin' || [USER_ROLE.CARRIER, USER_ROLE.RESELLER].includes(req.user!.role_id as 3 | 4);

/**
 * A carrier's pallet label settings (issue 36 item 3, docs/pallet-labels.md): its GS1 company prefix, from which
 * its pallets' SSCCs are made. /company for the caller's own company (from the token), /admin for a carrier
 * company named by id (404 for none, 422 for a company that is not a carrier). One prefix per company.
 */
export default async function labelSettingsRoutes(app: App) {
  const repo = palletLabelsRepo(app.db);
  const tags = ['pallet labels'];
  const answer = async (req: FastifyRequest, companyId: number) => {
    const prefix = await repo.prefixOf(companyId);
    return {
      gs1_company_prefix: prefix,
      extension_digit: SSCC_EXTENSION_DIGIT,
      last_serial: await repo.lastSerial(companyId),
      max_serial: prefix ? maxSerial(prefix) : null,
      can_edit: mayEdit(req),
    };
  };
  const save = async (req: FastifyRequest, companyId: number, prefix: string) => {
    if (!mayEdit(req)) throw new ApiError(403, 'labels.onlyCarrierAdmin');
    if (!isGs1CompanyPrefix(prefix)) throw invalid({ gs1_company_prefix: 'labels.prefixFormat' });
    if (await repo.prefixTaken(prefix, companyId)) throw invalid({ gs1_company_prefix: 'labels.prefixTaken' });
    const before = await repo.prefixOf(companyId);
    await repo.setPrefix(companyId, prefix);
    if (before !== prefix) {
      req.audit({
        action: 'update',
        resource: 'label_settings',
        resource_id: companyId,
        company_id: companyId,
        changes: { gs1_company_prefix: { before, after: prefix } },
      });
    }
  };
  const carrierCompany = async (id: number) => {
    const c = await app.db.selectFrom('companies').select(['id', 'company_role_id']).where('id', '=', id).executeTakeFirst();
    if (!c) throw notFound();
    if (!isCarrierLike(c.company_role_id)) throw new ApiError(422, 'labels.notCarrier');
    return c.id;
  };

  app.get(
    '/company/label_settings',
    {
      config: { policy: kindsFor('label-settings', 'show').filter((k) => k === 'carrier') },
      schema: {
        tags,
        summary: "The caller's company pallet label settings (GS1 company prefix).",
        response: { 200: obj({ status: bool, data: settingsRow }) },
      },
    },
    async (req) => ({ status: true, data: await answer(req, req.user!.company_id) }),
  );
  app.post(
    '/company/label_settings/update',
    {
      config: { policy: kindsFor('label-settings', 'edit').filter((k) => k === 'carrier') },
      schema: { tags, summary: "Sets the caller's company GS1 company prefix (its main account only).", body, response: { 200: writeAnswer(settingsRow) } },
    },
    async (req) => {
      await save(req, req.user!.company_id, req.body.gs1_company_prefix);
      return { status: true, message: req.t('labels.settingsSaved'), data: await answer(req, req.user!.company_id) };
    },
  );
  app.get(
    '/admin/label_settings/:id',
    {
      config: { policy: kindsFor('label-settings', 'show').filter((k) => k === 'admin') },
      schema: {
        tags,
        summary: "A carrier company's pallet label settings.",
        params: companyParams,
        response: { 200: obj({ status: bool, data: settingsRow }) },
      },
    },
    async (req) => ({ status: true, data: await answer(req, await carrierCompany(req.params.id)) }),
  );
  app.post(
    '/admin/label_settings/update/:id',
    {
      config: { policy: kindsFor('label-settings', 'edit').filter((k) => k === 'admin') },
      schema: { tags, summary: "Sets a carrier company's GS1 company prefix.", params: companyParams, body, response: { 200: writeAnswer(settingsRow) } },
    },
    async (req) => {
      const id = await carrierCompany(req.params.id);
      await save(req, id, req.body.gs1_company_prefix);
      return { status: true, message: req.t('labels.settingsSaved'), data: await answer(req, id) };
    },
  );
}
