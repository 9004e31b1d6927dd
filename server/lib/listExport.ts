import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../../model/resource.js';
import { ApiError } from './errors.js';
import { romeDate } from './romeTime.js';
import { binaryAnswer, downloadHeaders, withHeaders, XLSX as XLSX_TYPE } from './answers.js';
import { xlsxChunks, type XCell } from './xlsxWriter.js';
import { attachment, downloadName } from './downloadNames.js';

/**
 * The export of a list (issue 24 item 3, docs/list-exports.md): every row the list shows under the
 * same filters, sort and scope, as .xlsx or .csv, with the columns' labels in the caller's language.
 * A route gives its columns and a source of rows in batches built on the list's own query; this file
 * writes the file. Cells: text (guarded against formula injection), integers, numbers, money (integer
 * cents in, euros out), dates (`YYYY-MM-DD`) and instants (ISO text, shown in Europe/Rome).
 */

export type ExportFormat = 'xlsx' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['xlsx', 'csv'];
export const CSV_TYPE = 'text/csv; charset=utf-8';

/** At most this many rows in one file; past it the export answers 422 and asks for narrower filters. */
export const MAX_EXPORT_ROWS = 200_000;
/** Rows read per query. */
export const EXPORT_BATCH = 2_000;

export type CellKind = 'text' | 'int' | 'number' | 'money' | 'date' | 'month' | 'datetime';

export interface ExportColumn<R> {
  header: Record<Lang, string>;
  kind: CellKind;
  /** The cell's value: text, a number (money in cents), a date or an ISO instant; null or undefined for an empty cell. */
  value: (row: R) => unknown;
  /** Excel column width in characters (default from the header). */
  width?: number;
}

export interface RowSource<R> {
  /** How many rows the export holds (checked against the cap before anything is written). */
  total: () => Promise<number>;
  /** The rows, in the list's order, in batches. */
  batches: () => AsyncIterable<R[]>;
}

/** The export's query-string properties: the list's (paging aside) and `format`. */
export function exportQuerySchema(listSchema: { properties: Record<string, unknown> }) {
  const { page: _p, per_page: _pp, ...props } = listSchema.properties;
  return {
    type: 'object',
    additionalProperties: false,
    properties: { ...props, format: { type: 'string', enum: [...EXPORT_FORMATS], default: 'xlsx' } },
  } as const;
}

/**
 * The answer schema of every export route, with the headers `sendExport` always sets (issue 33): the file's
 * name and the number of rows written (so a client can tell the rows without reading the file).
 */
export const exportAnswer = () =>
  withHeaders(binaryAnswer('The rows of the list, as a spreadsheet', XLSX_TYPE, CSV_TYPE), {
    ...downloadHeaders,
    'X-Export-Rows': { type: 'integer', minimum: 0, description: `The number of data rows in the file (at most ${MAX_EXPORT_ROWS})` },
  });

/** A source over a paged list function (the list route's own): pages of EXPORT_BATCH rows, offset by offset. */
export function pagedSource<R>(list: (page: number, perPage: number) => Promise<{ data: R[]; total: number }>): RowSource<R> {
  return {
    total: async () => (await list(1, 1)).total,
    async *batches() {
      for (let page = 1; ; page++) {
        const { data } = await list(page, EXPORT_BATCH);
        if (data.length) yield data;
        if (data.length < EXPORT_BATCH) return;
      }
    },
  };
}

// ---- Cells ---------------------------------------------------------------------------------------------

/** A text that a spreadsheet would read as a formula (= + - @, or a tab / carriage return first) gets a leading apostrophe. */
export const guardText = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

/**
 * The formula guard of a CSV text (issue 31): a CSV opened with another separator than it was
 * written with (an Italian `;` file in an English Excel, which splits on `,`, or a tab-separated paste)
 * starts a cell after any `,` `;` tab or line break inside a field, where the field's quotes no longer
 * count (they are mid-cell then). So every place that may start a cell — the text's start and each
 * character after one of those — gets an apostrophe when what follows (after spaces) is = + - @, a tab or
 * a carriage return: `x,=1+1` is written `x,'=1+1`. The file's own reader sees the field whole (it is
 * quoted, csvField); any other reader sees a cell starting with the apostrophe, i.e. text.
 */
export const guardCsvText = (s: string) => s.replace(/(^|[,;\t\r\n])(?=[ ]*[=+\-@\t\r])/g, "$1'");

const ROME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Rome',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
/** The Rome wall clock of an ISO instant: [y, m, d, hh, mm]. */
function romeClock(iso: string): [number, number, number, number, number] | null {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  // en-GB: "25/11/2026, 08:30"
  const m = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2})$/.exec(ROME.format(t));
  return m ? [Number(m[3]), Number(m[2]), Number(m[1]), Number(m[4]), Number(m[5])] : null;
}
const dateParts = (s: string): [number, number, number] | null => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
};
const EPOCH = Date.UTC(1899, 11, 30);
/** Excel's serial day number of a wall-clock time. */
const serial = (y: number, mo: number, d: number, h = 0, mi = 0) => (Date.UTC(y, mo - 1, d, h, mi) - EPOCH) / 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

type Cell = { kind: 'text'; v: string } | { kind: 'num'; v: number; z?: string } | null;

export const DATE_FORMAT = 'dd/mm/yyyy';
export const DATETIME_FORMAT = 'dd/mm/yyyy hh:mm';
export const MONTH_FORMAT = 'mm/yyyy';
export const MONEY_FORMAT = '#,##0.00';

/** The typed cell of a value: the one conversion both writers share. */
function cellOf(kind: CellKind, v: unknown): Cell {
  if (v === null || v === undefined || v === '') return null;
  switch (kind) {
    case 'int':
    case 'number': {
      const n = typeof v === 'number' ? v : Number(v);
      return Number.isFinite(n) ? { kind: 'num', v: n } : { kind: 'text', v: guardText(String(v)) };
    }
    case 'money': {
      const n = typeof v === 'number' ? v : Number(v);
      return Number.isFinite(n) ? { kind: 'num', v: Math.round(n) / 100, z: MONEY_FORMAT } : { kind: 'text', v: guardText(String(v)) };
    }
    case 'date': {
      const p = dateParts(String(v).slice(0, 10));
      return p ? { kind: 'num', v: serial(...p), z: DATE_FORMAT } : { kind: 'text', v: guardText(String(v)) };
    }
    case 'month': {
      const p = dateParts(`${String(v).slice(0, 7)}-01`);
      return p ? { kind: 'num', v: serial(...p), z: MONTH_FORMAT } : { kind: 'text', v: guardText(String(v)) };
    }
    case 'datetime': {
      const p = romeClock(String(v));
      return p ? { kind: 'num', v: serial(...p), z: DATETIME_FORMAT } : { kind: 'text', v: guardText(String(v)) };
    }
    default:
      return { kind: 'text', v: guardText(String(v)) };
  }
}

// ---- CSV -----------------------------------------------------------------------------------------------

/** Italian and French: `;` and a decimal comma (what their Excel opens); English: `,` and a point. */
export const csvStyle = (lang: Lang) => (lang === 'en' ? { delimiter: ',', decimal: '.' } : { delimiter: ';', decimal: ',' });

/** One value as CSV text: numbers with the language's decimal mark, dates dd/mm/yyyy (hh:mm) in Rome time. */
function csvText(kind: CellKind, v: unknown, decimal: string): string {
  const c = cellOf(kind, v);
  if (!c) return '';
  if (c.kind === 'text') return guardCsvText(c.v);
  if (kind === 'money') return c.v.toFixed(2).replace('.', decimal);
  if (kind === 'month') return `${String(v).slice(5, 7)}/${String(v).slice(0, 4)}`;
  if (kind === 'date' || kind === 'datetime') {
    const s = String(v);
    if (kind === 'date') {
      const [y, m, d] = dateParts(s.slice(0, 10))!;
      return `${pad(d)}/${pad(m)}/${y}`;
    }
    const [y, m, d, h, mi] = romeClock(s)!;
    return `${pad(d)}/${pad(m)}/${y} ${pad(h)}:${pad(mi)}`;
  }
  return String(c.v).replace('.', decimal);
}

/**
 * RFC 4180 quoting, the same in every language whatever the file's own delimiter: a field holding `,` `;`
 * a tab, a quote or a line break is quoted, its quotes doubled. Quoting only the file's delimiter let an
 * Italian `;` file carry `x,=1+1` bare, which an English Excel (splitting on `,`) opened as a live formula.
 */
export function csvField(s: string): string {
  return /[,;\t"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV as a stream of text chunks: BOM and header line first, then one chunk per batch (CRLF line ends). */
export async function* csvChunks<R>(columns: readonly ExportColumn<R>[], lang: Lang, batches: AsyncIterable<R[]>): AsyncGenerator<string> {
  const { delimiter, decimal } = csvStyle(lang);
  const line = (cells: string[]) => cells.map(csvField).join(delimiter) + '\r\n';
  yield '\uFEFF' + line(columns.map((c) => c.header[lang]));
  for await (const batch of batches) {
    let out = '';
    for (const row of batch) out += line(columns.map((c) => csvText(c.kind, c.value(row), decimal)));
    yield out;
  }
}

// ---- XLSX ----------------------------------------------------------------------------------------------

/**
 * The .xlsx of the rows, streamed as they are read (xlsxWriter.ts): a header row of text, typed cells
 * (numbers, money and dates with their formats), column widths, frozen header. Memory stays one batch of
 * rows whatever the size (SheetJS, which builds a workbook whole, took about +390 MB for 100 000 requests).
 */
export function xlsxOf<R>(columns: readonly ExportColumn<R>[], lang: Lang, batches: AsyncIterable<R[]>, sheetName: string): AsyncGenerator<Buffer> {
  async function* rows(): AsyncGenerator<XCell[][]> {
    yield [columns.map((c) => ({ t: 's', v: c.header[lang] }) as const)];
    for await (const batch of batches) {
      yield batch.map((row) =>
        columns.map((col) => {
          const c = cellOf(col.kind, col.value(row));
          return !c ? null : c.kind === 'text' ? { t: 's', v: c.v } : { t: 'n', v: c.v, z: c.z };
        }),
      );
    }
  }
  return xlsxChunks({
    sheetName: sheetName.replace(/[:\\/?*[\]]/g, '_').slice(0, 31) || 'data',
    widths: columns.map((c) => c.width ?? (c.kind === 'datetime' ? 17 : Math.max(10, c.header[lang].length + 2))),
    formats: [MONEY_FORMAT, DATE_FORMAT, DATETIME_FORMAT, MONTH_FORMAT],
    rows: rows(),
  });
}

// ---- The answer ----------------------------------------------------------------------------------------

/**
 * Answers the export as an attachment named after the list in the caller's language and the Rome date
 * (`richieste-di-trasporto-2026-11-29.xlsx`, `transport-requests-…`, `demandes-de-transport-…`: lib/downloadNames.ts);
 * the same title names the sheet. The total is checked first (422
 * `export.tooMany` past MAX_EXPORT_ROWS, nothing written); both formats stream batch by batch.
 */
export async function sendExport<R>(
  req: FastifyRequest,
  reply: FastifyReply,
  opts: { title: string; format: ExportFormat; columns: readonly ExportColumn<R>[]; source: RowSource<R> },
) {
  const total = await opts.source.total();
  if (total > MAX_EXPORT_ROWS) {
    throw new ApiError(422, 'export.tooMany', { total: total.toLocaleString(req.lang), max: MAX_EXPORT_ROWS.toLocaleString(req.lang) });
  }
  const file = downloadName.export(opts.title, romeDate(), opts.format);
  reply.header('content-disposition', attachment(file)).header('cache-control', 'private, no-store').header('x-export-rows', String(total));
  if (opts.format === 'csv') {
    return reply.type(CSV_TYPE).send(Readable.from(csvChunks(opts.columns, req.lang, opts.source.batches()), { objectMode: false }));
  }
  return reply.type(XLSX_TYPE).send(Readable.from(xlsxOf(opts.columns, req.lang, opts.source.batches(), opts.title)));
}
