import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS, rateRowsSpec } from '../../../model/tariffs.js';
import { ApiError, invalid, notFound } from '../../lib/errors.js';
import { listQuerySchema, type ListQuery } from '../../lib/paging.js';
import { answeringImportErrors } from '../../imports/errors.js';
import { RATE_SHEET_FILES, checkRateSheet, deleteRateSheet, importRateSheet } from '../../imports/rateSheets.js';
import { summaryText } from '../../imports/check.js';
import { searchQuery } from '../../imports/search.js';
import { dryRunField } from './dryRun.js';
import {
  anySheetRowSchema,
  listedSheetSchema,
  rateTypeSchema,
  sheetAreaSchema,
  sheetSchema,
  sheetZoneSchema,
  storeOrCheck,
  OUTCOME,
  storedSheetSchema,
  withProperties,
} from './answers.js';
import { SHEET_SORT, rateSheetsRepo } from '../../repositories/rateSheets.js';
import { rowOut, sortableOf, uploadConfig } from './tables.js';
import { NAMESPACES, XLSX_MIME, XLS_MIME, fileField, tariffCompany, uploadedFile, type Namespace } from './scope.js';
import { attachment } from '../../lib/downloadNames.js';
import type { RateType, SheetZone } from '../../pricing/types.js';
import { Type } from 'typebox';
import { diff } from '../../repositories/auditLog.js';
import { binaryAnswer, int, intN, obj, pagedAnswer, writeAnswer, XLSX } from '../../lib/answers.js';

const companyIdProp = { company_id: { type: 'integer', minimum: 1 } } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
/** The store's answer, made while this module loads (its named schemas: ./answers.ts storeOrCheck); a publish answers the stored sheet with its row count. */
const RATE_SHEET_STORE_ANSWER = storeOrCheck(
  'RateSheet',
  [EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS],
  writeAnswer(
    withProperties(storedSheetSchema, {
      rows: int,
      summary: {
        ...obj({ added: int, changed: int, removed: int, unchanged: int }),
        description: 'What the version changed against the one it follows, as its check counted',
      },
    }),
  ),
);

const SHEET_MIME: Record<string, string> = {
  '.xlsx': XLSX_MIME,
  '.xls': XLS_MIME,
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.csv': 'text/csv; charset=utf-8',
};

/** Sends a stored rate-sheet file as an attachment under its original name, streamed from the file store. */
export async function sendSheetFile(app: FastifyInstance, reply: FastifyReply, sheet: { file_path: string | null; file_name: string | null; code: string }) {
  const name = sheet.file_path ?? '';
  const file = /^[a-f0-9]{32}\.(xlsx?|ods|csv)$/.test(name) ? await app.files.open(RATE_SHEET_FILES, name) : null;
  if (!file) throw new ApiError(404, 'rateSheets.fileMissing');
  const ext = path.extname(name);
  const download = sheet.file_name && path.extname(sheet.file_name).toLowerCase() === ext ? sheet.file_name : `${sheet.code}${ext}`;
  return reply
    .type(SHEET_MIME[ext] ?? XLSX_MIME)
    .header('content-length', file.size)
    .header('content-disposition', attachment(download))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(file.stream);
}

/**
 * Rate sheets (calculator document §2 "Rate sheets", §3, §5, §7; pricing.md §1): list with filters,
 * create a version (file imported into its rows, code generated, new category unless one is given),
 * download of the original file, a read-only page of its rows, delete.
 */
export default async function rateSheetRoutes(app: App) {
  const repo = rateSheetsRepo(app.db);
  for (const { ns, policy } of NAMESPACES) register(ns, policy);

  function register(ns: Namespace, policy: any) {
    const base = `/${ns}/rate_sheet`;
    const tags = ['rate sheets'];
    const adminOnly: Record<string, object> = ns === 'admin' ? companyIdProp : {};

    /** The sheet, when it belongs to the company the caller may work on; else 404. */
    async function ownSheet(req: FastifyRequest, id: number, companyId?: number) {
      const company = ns === 'company' || companyId !== undefined ? await tariffCompany(app, req, ns, companyId) : null;
      const sheet = await repo.find(id, company?.id);
      if (!sheet) throw notFound();
      return sheet;
    }

    app.get(
      base,
      {
        config: { policy },
        schema: {
          tags,
          summary: "A page of a carrier's rate sheets.",
          querystring: Type.Unsafe<ListQuery & { company_id?: number; category_id?: number; zone?: string; rate_type?: string; area?: string; q?: string }>(
            listQuerySchema(SHEET_SORT, {
              ...adminOnly,
              q: { type: 'string', maxLength: 100, description: "Search: sheets whose code, description or category's code contains it, case-insensitively" },
              category_id: { type: 'integer', minimum: 1 },
              zone: sheetZoneSchema,
              rate_type: rateTypeSchema,
              area: sheetAreaSchema,
            }),
          ),
          // company_id: the carrier listed (null: no carrier yet, the page is empty).
          response: { 200: withProperties(pagedAnswer(listedSheetSchema), { company_id: intN }) },
        },
      },
      async (req) => {
        const q = req.query;
        const company = await tariffCompany(app, req, ns, q.company_id);
        if (!company) return { data: [], current_page: 1, per_page: q.per_page, last_page: 1, total: 0, company_id: null };
        const page = await repo.list({ companyId: company.id, categoryId: q.category_id, zone: q.zone, rateType: q.rate_type, area: q.area, q: q.q }, q);
        return { ...page, company_id: company.id };
      },
    );

    app.post(
      `${base}/store`,
      {
        // Also required, checked by the handler (tariffCompany, uploadedFile): the carrier for an admin, the file.
        config: { policy, ...uploadConfig, bodyRequired: [...(ns === 'admin' ? ['company_id'] : []), 'rate_sheet'] },
        schema: {
          tags,
          summary: 'Checks (dry_run=1) or creates a rate-sheet version from a spreadsheet.',
          consumes: ['multipart/form-data'],
          // The publish answers the stored sheet with the number of rows read into it.
          response: { 200: RATE_SHEET_STORE_ANSWER },
          body: Type.Unsafe<
            {
              company_id?: number;
              description?: string;
              zone: SheetZone;
              rate_type: RateType;
              area: 'Customer' | 'Supplier';
              validate_from: string;
              validate_to: string;
              is_standard: 0 | 1;
              category_id?: number;
              dry_run?: 0 | 1;
            } & Record<string, unknown>
          >({
            type: 'object',
            additionalProperties: false,
            required: ['zone', 'rate_type', 'area', 'validate_from', 'validate_to'],
            properties: {
              ...adminOnly,
              // Sent by the documents' form but generated here (calculator document §5): ignored.
              code: { type: 'string', maxLength: 100 },
              description: { type: 'string', maxLength: 255 },
              zone: sheetZoneSchema,
              rate_type: rateTypeSchema,
              area: sheetAreaSchema,
              validate_from: { type: 'string', format: 'date' },
              validate_to: { type: 'string', format: 'date' },
              is_standard: { type: 'integer', enum: [0, 1], default: 1 },
              // 0 or absent: a new category named after the sheet's code.
              category_id: { type: 'integer', minimum: 0 },
              dry_run: dryRunField,
              rate_sheet: fileField,
            },
          }),
        },
      },
      async (req) => {
        const b = req.body;
        const company = (await tariffCompany(app, req, ns, b.company_id, { required: true }))!;
        if (b.validate_to <= b.validate_from) throw invalid({ validate_to: 'rateSheets.validateTo' }, 'rateSheets.validateTo');
        if (b.rate_type === 'EXP' && b.zone !== 'NAT') throw invalid({ zone: 'rateSheets.expressNational' }, 'rateSheets.expressNational');
        let categoryId: number | null = null;
        if (b.category_id) {
          const cat = await app.db.selectFrom('categories').selectAll().where('id', '=', b.category_id).where('company_id', '=', company.id).executeTakeFirst();
          if (!cat) throw notFound();
          if (cat.rate_type !== b.rate_type || cat.zone !== b.zone) {
            throw invalid({ category_id: { key: 'rateSheets.categoryMismatch', params: { code: cat.code, rate_type: cat.rate_type, zone: cat.zone } } });
          }
          categoryId = cat.id;
        }
        const file = uploadedFile(b, 'rate_sheet');
        if (b.dry_run === 1) {
          const input = { companyId: company.id, rateType: b.rate_type, zone: b.zone, area: b.area, isStandard: b.is_standard, categoryId, file };
          const data = await answeringImportErrors(req, 'rate_sheet', () => checkRateSheet(app.db, input, req));
          req.auditNothing(); // a check writes nothing
          return { outcome: OUTCOME.checked, status: true, data };
        }
        const description = b.description?.trim() || null;
        const { sheet, rows, summary } = await answeringImportErrors(req, 'rate_sheet', () =>
          importRateSheet(app.db, app.files, {
            companyId: company.id,
            legalName: company.legal_name,
            rateType: b.rate_type,
            zone: b.zone,
            area: b.area,
            isStandard: b.is_standard,
            validateFrom: b.validate_from,
            validateTo: b.validate_to,
            description,
            categoryId,
            file,
          }),
        );
        req.audit({
          action: 'upload',
          resource: 'rate_sheets',
          resource_id: sheet.id,
          company_id: company.id,
          changes: {
            ...diff(null, { code: sheet.code, rate_type: b.rate_type, zone: b.zone, area: b.area }),
            file: { before: null, after: file.filename },
            rows: { before: null, after: rows },
          },
        });
        // The message says what the version changes against the one it follows (issue 35), as its check did.
        return {
          outcome: OUTCOME.published,
          status: true,
          message: req.t('rateSheets.published', { code: sheet.code, changes: summaryText(req, summary) }),
          data: { ...sheet, rows, summary },
        };
      },
    );

    app.get(
      `${base}/download/:id`,
      {
        config: { policy },
        schema: {
          tags,
          summary: 'Downloads the original file of a rate sheet.',
          params: idParams,
          querystring: Type.Unsafe<{ company_id?: number }>({ type: 'object', additionalProperties: false, properties: { ...adminOnly } }),
          response: { 200: binaryAnswer('The rate-sheet file', XLSX, 'application/vnd.ms-excel') },
        },
      },
      async (req, reply) => {
        const sheet = await ownSheet(req, req.params.id, req.query.company_id);
        return sendSheetFile(app, reply, sheet);
      },
    );

    app.get(
      `${base}/rows/:id`,
      {
        config: { policy },
        schema: {
          tags,
          summary: 'A page of the rows of a rate sheet.',
          params: idParams,
          querystring: Type.Unsafe<ListQuery & { company_id?: number; q?: string }>(
            listQuerySchema([...new Set([...sortableOf(rateRowsSpec('EXP')), ...sortableOf(rateRowsSpec('STD'))])], { ...adminOnly, ...searchQuery }),
          ),
          response: { 200: withProperties(pagedAnswer(anySheetRowSchema), { sheet: sheetSchema }) },
        },
      },
      async (req) => {
        const q = req.query;
        const sheet = await ownSheet(req, req.params.id, q.company_id);
        const page = await repo.rows(sheet, q);
        const spec = rateRowsSpec(sheet.rate_type);
        return { sheet, ...page, data: page.data.map((r) => rowOut(spec, r)) };
      },
    );

    const destroy = async (req: FastifyRequest, id: number, companyId: number | undefined) => {
      const sheet = await ownSheet(req, id, companyId);
      await deleteRateSheet(app.db, app.files, sheet);
      req.audit({
        action: 'delete',
        resource: 'rate_sheets',
        resource_id: sheet.id,
        company_id: sheet.company_id,
        changes: { code: { before: sheet.code, after: null } },
      });
      return { status: true, message: req.t('rateSheets.deleted', { code: sheet.code }), data: { id: sheet.id } };
    };
    const deleted = { 200: writeAnswer(obj({ id: int })) };
    const destroySchema = {
      tags,
      summary: 'Deletes a rate sheet with its rows and file.',
      params: idParams,
      response: deleted,
      body: Type.Unsafe<{ company_id?: number } | undefined>({ type: 'object', additionalProperties: false, properties: { ...adminOnly } }),
    };
    app.post(`${base}/destroy/:id`, { config: { policy }, schema: destroySchema }, (req) => destroy(req, req.params.id, req.body?.company_id));
    if (ns === 'company') {
      app.get(
        `${base}/destroy/:id`,
        {
          config: { policy },
          schema: { tags, summary: "Deletes a rate sheet with its rows and file (the documents' GET form).", params: idParams, response: deleted },
        },
        (req) => destroy(req, req.params.id, undefined),
      );
    }
  }
}
