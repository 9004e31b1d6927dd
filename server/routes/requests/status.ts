import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { ApiError, conflict, invalid, notFound } from '../../lib/errors.js';
import { requestStatusRepo, type StatusChange } from '../../repositories/requestStatus.js';
import { statisticsRepo } from '../../repositories/statistics.js';
import { STATUS } from '../../repositories/transportRequests.js';
import { notifyLater } from './notify.js';
import { int, obj, writeAnswer } from '../../lib/answers.js';

const STATUS_IDS = [1, 3, 4, 5, 6, 7];

/** Turns a refused status change into the answer server.md §1 gives it. */
export function refuse(req: FastifyRequest, r: Exclude<StatusChange, { ok: true }>): never {
  switch (r.reason) {
    case 'notFound':
      throw notFound();
    case 'notOpen':
      throw conflict('requests.notOpen', { status: req.t(`status.${r.status}`) });
    case 'same':
      throw conflict('requests.sameStatus');
    case 'needsPrice':
      throw new ApiError(422, 'requests.needsPrice', undefined, { transport_request_status_id: [{ key: 'requests.needsPrice' }] });
    default:
      throw conflict();
  }
}

/**
 * POST /company/transport_requests/updateTransportRequestStatus {id, transport_request_status_id}
 * (calculator document §4, server.md §5): a carrier confirms (3) or refuses (4) an OP request of its
 * own; an admin sets any status. One conditional update: of concurrent changes one wins, the others
 * get 409. The end user is told by mail when its request is confirmed or refused.
 */
export default async function requestStatusRoutes(app: App) {
  const repo = requestStatusRepo(app.db);
  const stats = statisticsRepo(app.db);

  app.post(
    '/company/transport_requests/updateTransportRequestStatus',
    {
      config: { policy: ['admin', 'carrier'] },
      schema: {
        tags: ['transport requests'],
        summary: 'Changes the status of a transport request (carrier: confirm or refuse).',
        response: { 200: writeAnswer(obj({ id: int, transport_request_status_id: int, previous_status_id: int })) },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'transport_request_status_id'],
          properties: { id: { type: 'integer', minimum: 1 }, transport_request_status_id: { type: 'integer', enum: STATUS_IDS } },
        },
      },
    },
    async (req) => {
      const { id, transport_request_status_id: to } = req.body;
      const u = req.user!;
      let result: StatusChange;
      if (u.kind === 'admin') {
        result = await repo.byAdmin(id, to);
      } else {
        // Carriers only confirm or refuse; an id of another carrier is 404 before anything else.
        if (to !== STATUS.CF && to !== STATUS.RF) {
          const own = await app.db.selectFrom('transport_requests').select('id').where('id', '=', id).where('carrier_id', '=', u.company_id).executeTakeFirst();
          if (!own) throw notFound();
          throw invalid({ transport_request_status_id: 'requests.carrierStatusOnly' });
        }
        result = await repo.byCarrier(id, u.company_id, to);
      }
      if (!result.ok) refuse(req, result);
      const row = await app.db.selectFrom('transport_requests').select(['carrier_id', 'enduser_company_id']).where('id', '=', id).executeTakeFirstOrThrow();
      await stats.invalidate(row);
      req.audit({
        action: 'status',
        resource: 'transport_requests',
        resource_id: id,
        company_id: row.enduser_company_id ?? row.carrier_id,
        tenant_id: row.carrier_id,
        changes: { transport_request_status_id: { before: result.from, after: to } },
      });
      void notifyLater(app, id, to);
      const message = to === STATUS.CF ? 'requests.confirmed' : to === STATUS.RF ? 'requests.refused' : 'requests.statusChanged';
      return { status: true, message: req.t(message), data: { id, transport_request_status_id: to, previous_status_id: result.from } };
    },
  );
}
