import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../lib/typed.js';
import { COMPANY_ROLE } from '../../../model/roles.js';
import { binaryAnswer, int, intN, keyedPage, list, obj, str, writeAnswer, XLSX } from '../../lib/answers.js';
import { TARIFF_LIMITS, TARIFF_TABLES, TEMPLATES, listColumns, type RowsSpec, type TariffTableSpec } from '../../../model/tariffs.js';
import { ApiError } from '../../lib/errors.js';
import { listQuerySchema, paginate, type ListQuery } from '../../lib/paging.js';
import { answeringImportErrors } from '../../imports/errors.js';
import { checkTariffTable, deleteTariffTable, importTariffTable } from '../../imports/tables.js';
import { summaryText } from '../../imports/check.js';
import { searchCondition, searchQuery } from '../../imports/search.js';
import { dryRunField } from './dryRun.js';
import { OUTCOME, enumSchema, storeOrCheck, tableRowSchema, withProperties } from './answers.js';
import { templateXlsx } from '../../imports/template.js';
import { NAMESPACES, TARIFF_OWNER_ROLES, XLSX_MIME, fileField, tariffCompany, uploadedFile } from './scope.js';
import { attachment, downloadName, templateTitle } from '../../lib/downloadNames.js';

const UPLOAD_LIMIT = `${TARIFF_LIMITS.fileBytes / (1024 * 1024)} MB`;
// a declared body longer than the file and its part headers is refused before it is read (plugins/forms.ts)
export const uploadConfig = {
  multipartOptions: { limits: { fileSize: TARIFF_LIMITS.fileBytes, files: 1 } },
  uploadMaxBytes: TARIFF_LIMITS.fileBytes + 64 * 1024,
  uploadLimit: UPLOAD_LIMIT,
};

/** A stored row as the API shows it: money columns in euros (JSON numbers), the rest as stored. */
export function rowOut(spec: RowsSpec, row: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const c of spec.columns) if (c.kind === 'money' && out[c.name] !== null && out[c.name] !== undefined) out[c.name] = Number(out[c.name]) / 100;
  return out;
}

export const sortableOf = (spec: RowsSpec) => ['id', ...listColumns(spec).map((c) => c.name)];

const companyIdQuery = { company_id: { type: 'integer', minimum: 1 } } as const;
/** The role of a company that owns tariffs (model/roles.ts COMPANY_ROLE, ./scope.ts TARIFF_OWNER_ROLES). */
const tariffOwnerRoleSchema = enumSchema('company_role_id', TARIFF_OWNER_ROLES, {
  [COMPANY_ROLE.CARRIER]: 'a carrier',
  [COMPANY_ROLE.RESELLER]: 'a reseller',
});
const countAnswer = writeAnswer(obj({ count: int, company_id: int }));
/** A publish: the rows stored and what changed against the set they replaced (the check's summary). */
const publishAnswer = writeAnswer(
  obj({
    count: int,
    company_id: int,
    summary: { ...obj({ added: int, changed: int, removed: int, unchanged: int }), description: 'What the publish changed, as its check counted' },
  }),
);
/** Each table's store answer, made while this module loads (its named schemas: ./answers.ts storeOrCheck). */
const pascal = (key: string) => key.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
const STORE_ANSWERS = new Map(TARIFF_TABLES.map((spec) => [spec.key, storeOrCheck(pascal(spec.key), [spec], publishAnswer)]));

/**
 * The six tariff tables (calculator document §2 "Tariff screens", §7), all from their declarations:
 * list (paged, under the documented key), store (multipart, file field named after the table; dry_run=1
 * checks, else the set is replaced in one transaction), destroy (the whole set), for /admin (any carrier, company_id) and /company (own).
 */
export default async function tariffTableRoutes(app: App) {
  for (const spec of TARIFF_TABLES) {
    for (const { ns, policy } of NAMESPACES) {
      registerTable(app, spec, ns, policy);
    }
  }

  // The admin's company selector of the tariff screens: the companies that own tariffs.
  app.get(
    '/admin/tariff_companies',
    {
      config: { policy: ['admin'] },
      schema: {
        tags: ['tariffs'],
        summary: 'The companies that own tariffs.',
        response: { 200: obj({ data: list(obj({ id: int, legal_name: str, company_role_id: tariffOwnerRoleSchema, status_id: int })) }) },
      },
    },
    async () => ({
      data: await app.db
        .selectFrom('companies')
        .select(['id', 'legal_name', 'company_role_id', 'status_id'])
        .where('company_role_id', 'in', TARIFF_OWNER_ROLES)
        .orderBy('id')
        .execute(),
    }),
  );

  // Templates of every table and rate sheet, by the documented link keys.
  for (const { ns, policy } of NAMESPACES) {
    app.get(
      `/${ns}/tariff_templates/:key`,
      {
        config: { policy },
        schema: {
          tags: ['tariffs'],
          summary: 'Downloads the built-in spreadsheet template of a tariff table or rate sheet.',
          params: { type: 'object', required: ['key'], properties: { key: { type: 'string', enum: Object.keys(TEMPLATES) } } },
          response: { 200: binaryAnswer('The template', XLSX) },
        },
      },
      async (req, reply) => {
        const spec = TEMPLATES[req.params.key];
        if (!spec) throw new ApiError(404, 'tariffs.unknownTemplate');
        return reply
          .type(XLSX_MIME)
          .header('content-disposition', attachment(downloadName.template(req.lang, templateTitle(spec.templateKey, req.lang), 'xlsx')))
          .header('cache-control', 'no-store')
          .send(await templateXlsx(spec));
      },
    );
  }
}

function registerTable(app: App, spec: TariffTableSpec, ns: 'admin' | 'company', policy: any) {
  const base = `/${ns}/${spec.key}`;
  const sortColumns = Object.fromEntries(sortableOf(spec).map((c) => [c, c]));
  const tags = ['tariffs'];

  app.get(
    base,
    {
      config: { policy },
      schema: {
        tags,
        summary: `A page of the ${spec.key.replace(/_/g, ' ')} rows of a carrier.`,
        querystring: Type.Unsafe<ListQuery & { company_id?: number; q?: string }>(
          listQuerySchema(sortableOf(spec), { ...(ns === 'admin' ? companyIdQuery : {}), ...searchQuery }),
        ),
        // The rows under the table's list key, each declared from the table's columns (./answers.ts);
        // company_id: the carrier listed (null: no carrier yet, the page is empty).
        response: { 200: withProperties(keyedPage(spec.listKey, tableRowSchema(spec)), { company_id: intN }) },
      },
    },
    async (req) => {
      const q = req.query;
      const company = await tariffCompany(app, req, ns, q.company_id);
      const rows = app.db.selectFrom(spec.table as 'express_hub_costs').selectAll();
      const search = searchCondition(spec, q.q);
      // The search narrows the company's own rows (the tenant condition stays).
      const page = company
        ? await paginate((search ? rows.where(search) : rows).where('company_id', '=', company.id), q, { sortColumns })
        : { data: [], current_page: 1, per_page: q.per_page, last_page: 1, total: 0 };
      return { [spec.listKey]: { ...page, data: page.data.map((r) => rowOut(spec, r)) }, company_id: company?.id ?? null };
    },
  );

  app.post(
    `${base}/store`,
    {
      // Required (checked by the handler: uploadedFile, tariffCompany): the file, and the carrier when an admin publishes.
      config: { policy, ...uploadConfig, bodyRequired: [...(ns === 'admin' ? ['company_id'] : []), spec.fileField] },
      schema: {
        tags,
        summary: `Checks (dry_run=1) or publishes the ${spec.key.replace(/_/g, ' ')} of a carrier from a spreadsheet, replacing the stored set.`,
        consumes: ['multipart/form-data'],
        body: Type.Unsafe<{ company_id?: number; dry_run?: 0 | 1 } & Record<string, unknown>>({
          type: 'object',
          additionalProperties: false,
          properties: { ...(ns === 'admin' ? companyIdQuery : {}), dry_run: dryRunField, [spec.fileField]: fileField },
        }),
        response: { 200: STORE_ANSWERS.get(spec.key)! },
      },
    },
    async (req) => {
      const body = req.body;
      const company = (await tariffCompany(app, req, ns, body.company_id, { required: true }))!;
      const file = uploadedFile(body, spec.fileField);
      if (body.dry_run === 1) {
        const data = await answeringImportErrors(req, spec.fileField, () => checkTariffTable(app.db, spec, company.id, file, req));
        req.auditNothing(); // a check writes nothing
        return { outcome: OUTCOME.checked, status: true, data };
      }
      const { count, replaced, summary } = await answeringImportErrors(req, spec.fileField, () => importTariffTable(app.db, spec, company.id, file));
      // The upload, not its rows: the file's name and the counts (the rows it replaced before).
      req.audit({
        action: 'upload',
        resource: spec.table,
        company_id: company.id,
        changes: { file: { before: null, after: file.filename }, rows: { before: replaced, after: count } },
      });
      // The message says what changed ("1 riga modificata, 37 invariate"), as the check did (issue 35).
      return {
        outcome: OUTCOME.published,
        status: true,
        message: req.t('tariffs.published', { changes: summaryText(req, summary) }),
        data: { count, company_id: company.id, summary },
      };
    },
  );

  const destroy = async (req: FastifyRequest, companyId: number | undefined) => {
    const company = (await tariffCompany(app, req, ns, companyId, { required: true }))!;
    const count = await deleteTariffTable(app.db, spec, company.id);
    req.audit({ action: 'delete', resource: spec.table, company_id: company.id, changes: { rows: { before: count, after: 0 } } });
    return { status: true, message: req.t('tariffs.deleted', { count }), data: { count, company_id: company.id } };
  };
  if (ns === 'admin') {
    app.post(
      `${base}/destroy`,
      {
        config: { policy },
        schema: {
          tags,
          summary: `Deletes every ${spec.key.replace(/_/g, ' ')} row of a carrier.`,
          body: { type: 'object', additionalProperties: false, required: ['company_id'], properties: companyIdQuery },
          response: { 200: countAnswer },
        },
      },
      (req) => destroy(req, req.body.company_id),
    );
  } else {
    // The documents' company-namespace deletes of these tables are GETs with no id: the set is the caller's own.
    app.get(
      `${base}/destroy`,
      {
        config: { policy },
        schema: { tags, summary: `Deletes every ${spec.key.replace(/_/g, ' ')} row of the caller’s company.`, response: { 200: countAnswer } },
      },
      (req) => destroy(req, undefined),
    );
  }
}
