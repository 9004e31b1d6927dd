import { sql } from 'kysely';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import type { Db } from '../../db/index.js';
import { listQuerySchema } from '../../lib/paging.js';
import { messageHeader } from '../../lib/declaredExport.js';
import { EXPORT_BATCH, exportAnswer, exportQuerySchema, sendExport, type ExportColumn, type ExportFormat, type RowSource } from '../../lib/listExport.js';
import { SORTABLE, countListed, listedRequests, type ListFilters, type RequestScope } from '../../repositories/transportRequests.js';
import { NAMESPACES, listedScope, requestSearch } from './list.js';
import type { Namespace } from '../../lib/presentRequest.js';

type Filters = Omit<ListFilters, 'page' | 'per_page'>;

/** One request as the export reads it: the list's columns, nothing of its shipments but the first route. */
async function exportBatch(db: Db, scope: RequestScope, f: Filters, after: { key: unknown; id: number } | null, offset: number) {
  const desc = (f.order ?? (f.sort ? 'asc' : 'desc')).toLowerCase() === 'desc';
  const sort = f.sort && (SORTABLE as readonly string[]).includes(f.sort) ? f.sort : 'created_at';
  const column = `tr.${sort}` as 'tr.created_at';
  const way = desc ? 'desc' : 'asc';
  const place = (kind: 'pickup' | 'delivery') =>
    sql<
      string | null
    >`(select coalesce(nullif(a.city, ''), a.postal_code) from shipments s join shipment_addresses a on a.shipment_id = s.id and a.kind = ${kind} where s.transport_request_id = tr.id order by s.position limit 1)`;
  let qb = listedRequests(db, scope, f)
    .innerJoin('companies as car', 'car.id', 'tr.carrier_id')
    .leftJoin('companies as eu', 'eu.id', 'tr.enduser_company_id')
    .select([
      'tr.id',
      'tr.created_at',
      'tr.cost',
      'tr.admin_fees',
      'tr.transport_request_status_id',
      'tr.visitor_company',
      'tr.firstname',
      'tr.lastname',
      'tr.service',
      'tr.service_class',
      'car.legal_name as carrier_name',
      'eu.legal_name as enduser_name',
      place('pickup').as('pickup'),
      place('delivery').as('delivery'),
      sql<number>`(select count(*) from shipments s where s.transport_request_id = tr.id)`.as('shipments'),
    ]);
  // Keyset paging on (column, id) for the columns that are never null; the cost (nullable, ordered
  // differently by each database) pages by offset in the list's own order.
  if (after && sort !== 'cost') {
    const op = desc ? '<' : '>';
    // A row-value comparison: both databases read it as one range of the (column, id) index.
    qb = qb.where(sql<boolean>`(${sql.ref(column)}, ${sql.ref('tr.id')}) ${sql.raw(op)} (${after.key}, ${after.id})`);
  }
  qb = qb.orderBy(column, way).orderBy('tr.id', way).limit(EXPORT_BATCH);
  if (sort === 'cost' && offset) qb = qb.offset(offset);
  return { rows: await qb.execute(), sort };
}

type ExportRow = Awaited<ReturnType<typeof exportBatch>>['rows'][number];

function requestSource(db: Db, scope: RequestScope, f: Filters): RowSource<ExportRow> {
  return {
    total: () => countListed(db, scope, f),
    async *batches() {
      let after: { key: unknown; id: number } | null = null;
      for (let offset = 0; ; offset += EXPORT_BATCH) {
        const { rows, sort } = await exportBatch(db, scope, f, after, offset);
        if (rows.length) yield rows;
        if (rows.length < EXPORT_BATCH) return;
        const last = rows[rows.length - 1] as Record<string, unknown>;
        after = { key: last[sort], id: Number(last.id) };
      }
    },
  };
}

/** The list's columns (src/custom/transportRequests/RequestList.tsx), per namespace; money split into cost, fees and total. */
function columns(req: FastifyRequest, ns: Namespace): ExportColumn<ExportRow>[] {
  const h = (k: string) => messageHeader(`export.requests.${k}`);
  const cols: Array<ExportColumn<ExportRow> | false> = [
    { header: h('id'), kind: 'int', value: (r) => r.id },
    { header: h('date'), kind: 'datetime', value: (r) => r.created_at },
    ns !== 'enduser' && {
      header: h('client'),
      kind: 'text',
      value: (r) => r.enduser_name ?? ([r.visitor_company, [r.firstname, r.lastname].filter(Boolean).join(' ')].filter(Boolean).join(' · ') || null),
    },
    ns === 'admin' && { header: h('carrier'), kind: 'text', value: (r) => r.carrier_name },
    {
      header: h('route'),
      kind: 'text',
      width: 30,
      value: (r) => (r.shipments ? `${r.pickup ?? '?'} → ${r.delivery ?? '?'}${Number(r.shipments) > 1 ? ` (+${Number(r.shipments) - 1})` : ''}` : null),
    },
    {
      header: h('service'),
      kind: 'text',
      value: (r) =>
        r.service === 'palletExpress'
          ? `${req.t('export.requests.express')} ${r.service_class ?? ''}`.trim()
          : r.service === 'standard'
            ? req.t('export.requests.standard')
            : req.t('export.requests.manual'),
    },
    { header: h('cost'), kind: 'money', value: (r) => r.cost },
    { header: h('fees'), kind: 'money', value: (r) => r.admin_fees },
    {
      header: h('total'),
      kind: 'money',
      value: (r) => (r.cost === null ? req.t('export.requests.toBeQuoted') : Number(r.cost) + Number(r.admin_fees ?? 0)),
    },
    { header: h('status'), kind: 'text', value: (r) => req.t(`status.${r.transport_request_status_id}`) },
  ];
  return cols.filter((c): c is ExportColumn<ExportRow> => !!c);
}

/**
 * `GET /{ns}/transport_requests/export` (issue 24 item 3, docs/list-exports.md): every request the list
 * shows under the same filters and sort, in the same scope (`listedScope`, `listedRequests`: the list's own, with
 * its 404 for another carrier's end user), read in keyset batches; CSV streams, .xlsx is built from the batches.
 */
export default async function requestExportRoutes(app: App) {
  for (const { ns, policy, filters } of NAMESPACES) {
    const listSchema = listQuerySchema(SORTABLE, {
      date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      transport_request_status_id: { type: 'integer', minimum: 1 },
      q: requestSearch,
      ...filters,
    });
    app.get(
      `/${ns}/transport_requests/export`,
      {
        config: { policy },
        schema: {
          tags: ['transport requests'],
          summary: 'Every transport request of the list (its filters and sort) as .xlsx or .csv.',
          querystring: Type.Unsafe<Filters & { company_id?: number; format: ExportFormat }>(exportQuerySchema(listSchema)),
          response: { 200: exportAnswer() },
        },
      },
      async (req, reply) => {
        const { format, ...q } = req.query;
        const { scope, filters: f } = await listedScope(app.db, req, ns, q);
        return sendExport(req, reply, {
          title: req.t('export.requests'),
          format,
          columns: columns(req, ns),
          source: requestSource(app.db, scope, f),
        });
      },
    );
  }
}
