import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import type { Db } from '../../db/index.js';
import type { Kind } from '../../../model/roles.js';
import { COMPANY_ROLE } from '../../../model/roles.js';
import { invalid, notFound } from '../../lib/errors.js';
import { listQuerySchema } from '../../lib/paging.js';
import { Type } from 'typebox';
import { binaryAnswer, dataAnswer, downloadHeaders, keyedPage, withHeaders } from '../../lib/answers.js';
import { attachment } from '../../lib/downloadNames.js';
import { requestAnswer, requestShowAnswer } from '../../lib/requestAnswer.js';
import { requestEventsRepo } from '../../repositories/requestEvents.js';
import { isDate } from '../../lib/romeTime.js';
import { SORTABLE, transportRequestsRepo, type ListFilters, type RequestScope } from '../../repositories/transportRequests.js';
import { present, type Namespace } from '../../lib/presentRequest.js';

export const DOCUMENTS_AREA = 'documents';

/** The requests a caller of a namespace may see (server.md §2): the tenant comes from the token. */
export function scopeOf(req: FastifyRequest, ns: Namespace): RequestScope {
  const u = req.user!;
  if (ns === 'enduser') return { enduserCompanyId: u.company_id };
  if (u.kind === 'admin') return { all: true };
  return { carrierId: u.company_id };
}

/** The query of a namespace's list (and of its export): its filters, the admin's `company_id` for `carrier_id`. */
type ListQuery = Omit<ListFilters, 'page' | 'per_page'> & { company_id?: number };

/**
 * The scope and filters of a namespace's list, as the list and its export both read them: the date must be a
 * real day (422); `carrier_id` only for the admin (or its `company_id`), `enduser_id` not for an end user; a
 * carrier filtering on an end user that is not its own gets 404, as if it did not exist.
 */
export async function listedScope<Q extends ListQuery>(db: Db, req: FastifyRequest, ns: Namespace, q: Q): Promise<{ scope: RequestScope; filters: Q }> {
  if (q.date && !isDate(q.date)) throw invalid({ date: { key: 'validation.format', params: { format: req.t('format.date') } } });
  const scope = scopeOf(req, ns);
  const filters: Q = {
    ...q,
    carrier_id: ns === 'admin' ? (q.carrier_id ?? q.company_id) : undefined,
    enduser_id: ns === 'enduser' ? undefined : q.enduser_id,
  };
  if (ns === 'company' && filters.enduser_id && 'carrierId' in scope) {
    const eu = await db
      .selectFrom('companies')
      .select('id')
      .where('id', '=', filters.enduser_id)
      .where('carrier_id', '=', scope.carrierId)
      .where('company_role_id', '=', COMPANY_ROLE.ENDUSER)
      .executeTakeFirst();
    if (!eu) throw notFound();
  }
  return { scope, filters };
}

const id = { type: 'integer', minimum: 1 } as const;

const idParams = { type: 'object', required: ['id'], properties: { id } } as const;
const dateFilter = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
/** The list's (and its export's) search, at most this many characters (issue 35 item 3). */
export const REQUEST_SEARCH_MAX = 100;
export const requestSearch = {
  type: 'string',
  maxLength: REQUEST_SEARCH_MAX,
  description:
    "Search, case aside: the request number (digits, optionally after `#`), or part of a pickup or delivery place (company name, address, city, province, postal code) or of a customer's reference. `%` and `_` are plain characters.",
} as const;

/** The three namespaces' list, detail and document download of transport requests (calculator document §7). */
export const NAMESPACES: Array<{ ns: Namespace; policy: Kind[]; filters: Record<string, object> }> = [
  { ns: 'admin', policy: ['admin'], filters: { carrier_id: id, company_id: id, enduser_id: id } },
  { ns: 'company', policy: ['carrier'], filters: { enduser_id: id } },
  { ns: 'enduser', policy: ['enduser'], filters: {} },
];

/**
 * Lists answer `{transportRequests: {data, current_page, per_page, last_page, total}}` (server.md §1),
 * newest first; filters: date (a Europe/Rome day), transport_request_status_id, and per namespace the
 * carrier (`carrier_id`, or `company_id` as the admin's company selector sends it) and the end-user
 * company (`enduser_id`). Each row carries its shipments and documents, so the list and the detail
 * read the same shape. A carrier filtering on another carrier's end user gets 404. `q` searches the number,
 * places, postal codes and references (repositories/transportRequests.ts searchedRequests).
 */
export default async function requestListRoutes(app: App) {
  const repo = transportRequestsRepo(app.db);
  const events = requestEventsRepo(app.db);

  for (const { ns, policy, filters } of NAMESPACES) {
    const tags = ['transport requests'];
    app.get(
      `/${ns}/transport_requests`,
      {
        config: { policy },
        schema: {
          tags,
          summary: 'A page of transport requests, newest first.',
          querystring: Type.Unsafe<ListFilters & { company_id?: number }>(
            listQuerySchema(SORTABLE, { date: dateFilter, transport_request_status_id: id, q: requestSearch, ...filters }),
          ),
          response: { 200: keyedPage('transportRequests', requestAnswer) },
        },
      },
      async (req) => {
        const q = req.query;
        const { scope, filters: f } = await listedScope(app.db, req, ns, q);
        const { ids, total } = await repo.page(scope, f);
        const rows = await repo.load(ids);
        return {
          status: true,
          transportRequests: {
            data: rows.map((r) => present(req, ns, r)),
            current_page: q.page,
            per_page: q.per_page,
            last_page: Math.max(1, Math.ceil(total / q.per_page)),
            total,
          },
        };
      },
    );

    app.get(
      `/${ns}/transport_requests/show/:id`,
      {
        config: { policy },
        schema: {
          tags,
          summary: 'A transport request with its shipments, documents and timeline.',
          params: idParams,
          response: { 200: dataAnswer(requestShowAnswer) },
        },
      },
      async (req) => {
        const { id: requestId } = req.params;
        const found = await repo.findScoped(requestId, scopeOf(req, ns));
        if (!found) throw notFound();
        const [[row], timeline] = await Promise.all([repo.load([requestId]), events.timeline(requestId)]);
        return { status: true, data: { ...present(req, ns, row), timeline } };
      },
    );

    // Always an attachment with a neutral type: a document is never rendered by the browser.
    app.get(
      `/${ns}/transport_requests/documents/:id`,
      {
        config: { policy },
        schema: {
          tags,
          summary: 'Downloads a document of a transport request.',
          params: idParams,
          response: { 200: withHeaders(binaryAnswer('The document', 'application/octet-stream'), downloadHeaders) },
        },
      },
      async (req, reply) => {
        const { id: documentId } = req.params;
        const doc = await repo.documentScoped(documentId, scopeOf(req, ns));
        const file = doc && /^[a-f0-9]{32}\.[a-z0-9]+$/.test(doc.stored_name) ? await app.files.open(DOCUMENTS_AREA, doc.stored_name) : null;
        if (!doc || !file) throw notFound();
        return reply
          .type('application/octet-stream')
          .header('content-length', file.size)
          .header('content-disposition', attachment(doc.filename))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(file.stream);
      },
    );
  }
}
