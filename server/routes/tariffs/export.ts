import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { App } from '../../lib/typed.js';
import { binaryAnswer, XLSX } from '../../lib/answers.js';
import { TARIFF_TABLES, rateRowsSpec } from '../../../model/tariffs.js';
import { notFound } from '../../lib/errors.js';
import { exportXlsx } from '../../imports/export.js';
import { storedPages } from '../../imports/check.js';
import { rateSheetsRepo } from '../../repositories/rateSheets.js';
import { romeToday } from '../../imports/rateSheets.js';
import { NAMESPACES, XLSX_MIME, tariffCompany } from './scope.js';
import { attachment, downloadName, templateTitle } from '../../lib/downloadNames.js';

const companyIdProp = { company_id: { type: 'integer', minimum: 1 } } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
/** A sheet name Excel accepts: at most 31 characters, none of : \ / ? * [ ]. */
const sheetName = (s: string) => s.replace(/[:\\/?*[\]]/g, '_').slice(0, 31) || 'data';

/**
 * Exports of what is stored (issue 20 item 4): a tariff table of a carrier and one rate sheet, as an .xlsx
 * in the template's columns (model/tariffs.ts), so that the file uploaded again stores the same rows.
 * Scope as the list routes: /company the caller's own company; /admin the company_id given (a carrier
 * or reseller, else 404) or, for a table, the first carrier when none is given; a sheet of another
 * company is a 404.
 */
export default async function tariffExportRoutes(app: App) {
  const repo = rateSheetsRepo(app.db);
  for (const { ns, policy } of NAMESPACES) {
    const query = Type.Unsafe<{ company_id?: number }>({
      type: 'object',
      additionalProperties: false,
      properties: ns === 'admin' ? { ...companyIdProp } : {},
    });
    for (const spec of TARIFF_TABLES) {
      app.get(
        `/${ns}/${spec.key}/export`,
        {
          config: { policy },
          schema: {
            tags: ['tariffs'],
            summary: `Exports the stored ${spec.key.replace(/_/g, ' ')} rows of a carrier as a spreadsheet in the template's columns.`,
            querystring: query,
            response: { 200: binaryAnswer('The stored rows', XLSX) },
          },
        },
        async (req, reply) => {
          const company = await tariffCompany(app, req, ns, req.query.company_id);
          const name = downloadName.export(`${templateTitle(spec.templateKey, req.lang)} ${company?.id ?? 0}`, romeToday(), 'xlsx');
          return reply
            .type(XLSX_MIME)
            .header('content-disposition', attachment(name))
            .header('cache-control', 'private, no-store')
            .send(
              Readable.from(
                exportXlsx(
                  spec,
                  company ? storedPages(app.db as Kysely<any>, spec, ['company_id', company.id]) : (async function* () {})(),
                  sheetName(spec.key),
                ),
              ),
            );
        },
      );
    }

    app.get(
      `/${ns}/rate_sheet/export/:id`,
      {
        config: { policy },
        schema: {
          tags: ['rate sheets'],
          summary: "Exports a rate sheet's stored rows as a spreadsheet in the template's columns.",
          params: idParams,
          querystring: query,
          response: { 200: binaryAnswer('The stored rows', XLSX) },
        },
      },
      async (req, reply) => {
        const companyId = req.query.company_id;
        const company = ns === 'company' || companyId !== undefined ? await tariffCompany(app, req, ns, companyId) : null;
        const sheet = await repo.find(req.params.id, company?.id);
        if (!sheet) throw notFound();
        const spec = rateRowsSpec(sheet.rate_type);
        return reply
          .type(XLSX_MIME)
          .header('content-disposition', attachment(downloadName.rateSheet(req.lang, sheet.code)))
          .header('cache-control', 'private, no-store')
          .send(Readable.from(exportXlsx(spec, storedPages(app.db as Kysely<any>, spec, ['rate_sheet_id', sheet.id]), sheetName(sheet.code))));
      },
    );
  }
}
