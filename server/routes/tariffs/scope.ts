import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COMPANY_ROLE } from '../../../model/roles.js';
import { TARIFF_LIMITS } from '../../../model/tariffs.js';
import { SPREADSHEET_TYPES, filePart } from '../../../model/fileParts.js';
import type { Policy } from '../../fastify.js';
import { invalid, notFound } from '../../lib/errors.js';
import { carrierScope } from '../../lib/scope.js';
import { isUploadedFile, type UploadedFile } from '../../plugins/forms.js';

/** Companies that own tariffs: carriers and resellers (company roles 2 and 4). */
export const TARIFF_OWNER_ROLES = [COMPANY_ROLE.CARRIER, COMPANY_ROLE.RESELLER];

export type Namespace = 'admin' | 'company';

/** Tariff calls exist under /admin (any chosen company) and /company (the caller's own company). */
export const NAMESPACES: Array<{ ns: Namespace; policy: Policy }> = [
  { ns: 'admin', policy: ['admin'] },
  { ns: 'company', policy: ['carrier'] },
];

export interface TariffCompany {
  id: number;
  legal_name: string;
}

/**
 * The carrier company a tariff call works on. /company: the caller's own company, from the token —
 * a company_id in the query or body never travels there (the schemas drop it). /admin: the company_id
 * given, which must be a carrier or reseller (else 404); when absent, writes refuse (422: a write never
 * guesses its tenant) and reads use the first carrier by id (the documents' "default company").
 */
export async function tariffCompany(
  app: FastifyInstance,
  req: FastifyRequest,
  ns: Namespace,
  companyId: number | undefined,
  opts: { required?: boolean } = {},
): Promise<TariffCompany | null> {
  const base = app.db.selectFrom('companies').select(['id', 'legal_name']).where('company_role_id', 'in', TARIFF_OWNER_ROLES);
  if (ns === 'company') {
    const own = carrierScope(req);
    if (own === null) throw notFound();
    const row = await base.where('id', '=', own).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }
  if (companyId === undefined || companyId === null) {
    if (opts.required) throw invalid({ company_id: 'validation.required' });
    return (await base.orderBy('id').limit(1).executeTakeFirst()) ?? null;
  }
  const row = await base.where('id', '=', companyId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** The uploaded file of a multipart field, or a 422 naming the field. */
export function uploadedFile(body: Record<string, unknown>, field: string): UploadedFile {
  const v = body[field];
  const file = Array.isArray(v) ? v[0] : v;
  if (!isUploadedFile(file)) throw invalid({ [field]: 'validation.required' });
  return file;
}

/** JSON schema of a multipart file field (the forms plugin has turned it into an UploadedFile). */
export const fileField = filePart({
  what: 'The table as a spreadsheet: .xlsx, .xls, .ods or .csv',
  types: SPREADSHEET_TYPES,
  maxBytes: TARIFF_LIMITS.fileBytes,
  fileOnly: true,
});

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const XLS_MIME = 'application/vnd.ms-excel';
