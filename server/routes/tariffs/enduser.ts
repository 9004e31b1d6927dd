import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { App } from '../../lib/typed.js';
import { EXPRESS_RATE_ROWS, SHEET_ZONES, STANDARD_RATE_ROWS, rateRowsSpec, type Example, type RowsSpec } from '../../../model/tariffs.js';
import { ApiError } from '../../lib/errors.js';
import { listQuerySchema, type ListQuery } from '../../lib/paging.js';
import { adjustSell } from '../../pricing/adjust.js';
import { selectSheets } from '../../pricing/sheets.js';
import type { Category, EndUserSettings, RateSheet, RateType, SheetZone } from '../../pricing/types.js';
import { romeToday } from '../../imports/rateSheets.js';
import { rowsXlsx } from '../../imports/template.js';
import { storedPages } from '../../imports/check.js';
import { rateSheetsRepo } from '../../repositories/rateSheets.js';
import { XLSX_MIME } from './scope.js';
import { attachment, downloadName } from '../../lib/downloadNames.js';
import { Type } from 'typebox';
import { binaryAnswer, bool, nullable, obj, pagedAnswer, XLSX, type JsonSchema } from '../../lib/answers.js';
import { enduserRowSchema, publicSheetSchema, withProperties } from './answers.js';

/** A page of the end user's sheet of one kind: its rows (`adjusted`), and the sheet (null: none applies, the page is empty). */
const sheetPage = (spec: RowsSpec): JsonSchema =>
  withProperties(pagedAnswer(enduserRowSchema(spec)), {
    sheet: { ...nullable(publicSheetSchema), description: 'The sheet shown; null: no sheet of this kind applies today' },
  });

type Settings = Pick<EndUserSettings, 'exp_category_id' | 'std_category_id' | 'increase_percent' | 'decrease_percent'>;

/**
 * The end user's own rate sheets (calculator document §2 "Enduser rate sheets", §7 getMyRateSheet):
 * the sell sheet that prices its quotes today (pricing.md §1: its category's applicable Customer
 * version, else the carrier's standard one), express (EXP/NAT) and standard (STD, national unless
 * `zone=INT`), paged.
 *
 * Prices are shown as the end user pays them: each money cell with the end user's increase and
 * decrease percentages applied (pricing.md §1 "What each caller sees": list prices before the end
 * user's adjustments are never shown to it). For the same reason the download is generated from these
 * rows, never the carrier's original file (which may hold other columns, such as its own costs).
 */
export default async function enduserRateSheetRoutes(app: App) {
  const repo = rateSheetsRepo(app.db);

  async function context(req: FastifyRequest) {
    const u = req.user!;
    const me = await app.db
      .selectFrom('companies')
      .select(['id', 'carrier_id', 'exp_category_id', 'std_category_id', 'increase_percent', 'decrease_percent'])
      .where('id', '=', u.company_id)
      .executeTakeFirst();
    const carrierId = me?.carrier_id ?? null;
    if (!me || carrierId === null) return null;
    const [categories, sheets] = await Promise.all([
      app.db.selectFrom('categories').select(['id', 'code', 'rate_type', 'zone', 'company_id']).where('company_id', '=', carrierId).execute(),
      app.db
        .selectFrom('rate_sheets')
        .select(['id', 'category_id', 'area', 'validate_from', 'validate_to', 'is_standard', 'code'])
        .where('company_id', '=', carrierId)
        .execute(),
    ]);
    return { me: me as Settings & { id: number }, carrierId, categories: categories as Category[], sheets: sheets as RateSheet[] };
  }

  async function applicable(ctx: NonNullable<Awaited<ReturnType<typeof context>>>, rateType: RateType, zone: SheetZone) {
    const choice = selectSheets({ categories: ctx.categories, sheets: ctx.sheets, endUser: ctx.me, rateType, zone, date: romeToday() });
    return choice.sell ? ((await repo.find(choice.sell.id, ctx.carrierId)) ?? null) : null;
  }

  /** A stored row as the end user sees it: money in euros after its own adjustments. */
  function adjusted(rateType: RateType, me: Settings, row: Record<string, any>): Example {
    const out: Example = {};
    for (const c of rateRowsSpec(rateType).columns) {
      const v = row[c.name];
      if (c.kind === 'money' && v !== null && v !== undefined) {
        out[c.name] = adjustSell(Number(v), { caller: 'enduser', carrier: { visitor_price_multiplier: null }, endUser: me }, null).cents / 100;
      } else out[c.name] = v ?? null;
    }
    return out;
  }

  const publicSheet = (s: any) =>
    s && {
      id: s.id,
      code: s.code,
      description: s.description,
      zone: s.zone,
      rate_type: s.rate_type,
      validate_from: s.validate_from,
      validate_to: s.validate_to,
      category_code: s.category_code,
    };

  app.get(
    '/enduser/getMyRateSheet',
    {
      config: { policy: ['enduser'] },
      schema: {
        tags: ['rate sheets'],
        summary: "The end user's express and standard sell sheets, as it pays them (paged).",
        querystring: Type.Unsafe<ListQuery & { zone: SheetZone }>(
          listQuerySchema(['id'], { zone: { type: 'string', enum: [...SHEET_ZONES], default: 'NAT' } }),
        ),
        response: { 200: obj({ status: bool, standard_rate_sheet: sheetPage(STANDARD_RATE_ROWS), express_rate_sheet: sheetPage(EXPRESS_RATE_ROWS) }) },
      },
    },
    async (req) => {
      const q = req.query;
      const empty = { sheet: null, data: [], current_page: 1, per_page: q.per_page, last_page: 1, total: 0 };
      const ctx = await context(req);
      if (!ctx) return { status: true, standard_rate_sheet: empty, express_rate_sheet: empty };
      const page = async (rateType: RateType, zone: SheetZone) => {
        const sheet = await applicable(ctx, rateType, zone);
        if (!sheet) return empty;
        const p = await repo.rows(sheet, { ...q, sort: undefined });
        return { sheet: publicSheet(sheet), ...p, data: p.data.map((r) => ({ id: r.id, ...adjusted(rateType, ctx.me, r) })) };
      };
      return { status: true, standard_rate_sheet: await page('STD', q.zone), express_rate_sheet: await page('EXP', 'NAT') };
    },
  );

  app.get(
    '/enduser/getMyRateSheet/download',
    {
      config: { policy: ['enduser'] },
      schema: {
        tags: ['rate sheets'],
        summary: "Downloads the end user's sell sheet as a spreadsheet.",
        response: { 200: binaryAnswer('The rate sheet', XLSX) },
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['rate_type'],
          properties: { rate_type: { type: 'string', enum: ['STD', 'EXP'] }, zone: { type: 'string', enum: [...SHEET_ZONES], default: 'NAT' } },
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const ctx = await context(req);
      const sheet = ctx ? await applicable(ctx, q.rate_type, q.rate_type === 'EXP' ? 'NAT' : (q.zone ?? 'NAT')) : null;
      if (!ctx || !sheet) throw new ApiError(404, 'errors.notFound');
      const spec = rateRowsSpec(q.rate_type);
      async function* rows() {
        for await (const page of storedPages(app.db as Kysely<any>, spec, ['rate_sheet_id', sheet!.id]))
          yield page.map((r) => adjusted(q.rate_type, ctx!.me, r));
      }
      const data = Readable.from(rowsXlsx(spec, rows(), sheet.code.slice(0, 31)));
      return reply
        .type(XLSX_MIME)
        .header('content-disposition', attachment(downloadName.rateSheet(req.lang, sheet.code)))
        .header('cache-control', 'private, no-store')
        .send(data);
    },
  );
}
