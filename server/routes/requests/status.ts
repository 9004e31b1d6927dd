import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { ApiError, conflict, invalid, notFound } from '../../lib/errors.js';
import { requestStatusRepo, type StatusChange } from '../../repositories/requestStatus.js';
import { STATUS } from '../../repositories/transportRequests.js';
import { int, obj, writeAnswer } from '../../lib/answers.js';
import { statusIdAnswer } from '../../lib/requestAnswer.js';
import { changeRequest } from '../../lib/requestEvents/change.js';
import { actorOf } from '../../lib/requestEvents/record.js';
import { TIMELINE_NOTE_MAX } from '../../../model/requestTimeline.js';
import { TRANSPORT_REQUEST_STATUS_IDS } from '../../../model/transportStatuses.js';

/** Turns a refused status change into the answer server.md §1 gives it. */
export function refuse(req: FastifyRequest, r: Exclude<StatusChange, { ok: true }>): never {
  switch (r.reason) {
    case 'notFound':
      throw notFound();
    case 'notOpen':
      throw conflict('requests.notOpen', { status: req.t(`status.${r.status}`) });
    case 'same':
      throw conflict('requests.sameStatus');
    case 'notBooker':
      throw new ApiError(403, 'requests.notBooker');
    case 'needsPrice':
      throw new ApiError(422, 'requests.needsPrice', undefined, { transport_request_status_id: [{ key: 'requests.needsPrice' }] });
    default:
      throw conflict();
  }
}

/**
 * One status change, the one way for every role: the conditional update `change` makes (of concurrent changes
 * exactly one wins), its event (lib/requestEvents: timeline, webhooks, bell, the statistics' drop and the live
 * event commit with it; the status mails go after the commit), the refusal's answer and the audit entry.
 * Answers the status the request left.
 */
async function changeStatus(
  app: App,
  req: FastifyRequest,
  id: number,
  to: number,
  note: string | null,
  change: (repo: ReturnType<typeof requestStatusRepo>) => Promise<StatusChange>,
): Promise<number> {
  const result = await changeRequest(app, async (trx, record) => {
    const r = await change(requestStatusRepo(trx));
    if (!r.ok) return r;
    const owners = await trx.selectFrom('transport_requests').select(['carrier_id', 'enduser_company_id']).where('id', '=', id).executeTakeFirstOrThrow();
    await record({ id, ...owners }, actorOf(req), [{ event: 'status_changed', status_id: to, note }]);
    return { ...r, owners };
  });
  if (!result.ok) refuse(req, result);
  req.audit({
    action: 'status',
    resource: 'transport_requests',
    resource_id: id,
    company_id: result.owners.enduser_company_id ?? result.owners.carrier_id,
    tenant_id: result.owners.carrier_id,
    changes: { transport_request_status_id: { before: result.from, after: to } },
  });
  return result.from;
}

/**
 * POST /company/transport_requests/updateTransportRequestStatus {id, transport_request_status_id}
 * (calculator document §4, server.md §5): a carrier confirms (3) or refuses (4) an OP request of its
 * own; an admin sets any status. One conditional update: of concurrent changes one wins, the others
 * get 409. The end user is told by mail when its request is confirmed or refused. An optional `note`
 * goes into the request's timeline, which the customer sees; a refusal needs one (422 on `note`).
 */
export default async function requestStatusRoutes(app: App) {
  app.post(
    '/company/transport_requests/updateTransportRequestStatus',
    {
      config: { policy: ['admin', 'carrier'] },
      schema: {
        tags: ['transport requests'],
        summary: 'Changes the status of a transport request (carrier: confirm or refuse).',
        response: {
          200: writeAnswer(
            obj({
              id: int, // the ids of model/transportStatuses.ts, typed as a tuple of numbers so the body's static type is `number` (typebox infers `never` from a plain number[])
              transport_request_status_id: {
                type: 'integer',
                enum: TRANSPORT_REQUEST_STATUS_IDS,
                description: statusIdAnswer.description as string,
              },
              previous_status_id: statusIdAnswer,
            }),
          ),
        },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'transport_request_status_id'],
          properties: {
            id: { type: 'integer', minimum: 1 },
            transport_request_status_id: {
              type: 'integer',
              enum: TRANSPORT_REQUEST_STATUS_IDS,
              description: statusIdAnswer.description as string,
            },
            note: { type: 'string', maxLength: TIMELINE_NOTE_MAX },
          },
        },
      },
    },
    async (req) => {
      const { id, transport_request_status_id: to } = req.body;
      const note = req.body.note?.trim() || null;
      const u = req.user!;
      // Carriers only confirm or refuse; an id of another carrier is 404 before anything else.
      if (u.kind !== 'admin' && to !== STATUS.CF && to !== STATUS.RF) {
        const own = await app.db.selectFrom('transport_requests').select('id').where('id', '=', id).where('carrier_id', '=', u.company_id).executeTakeFirst();
        if (!own) throw notFound();
        throw invalid({ transport_request_status_id: 'requests.carrierStatusOnly' });
      }
      if (to === STATUS.RF && !note) {
        const seen = await app.db
          .selectFrom('transport_requests')
          .select('id')
          .where('id', '=', id)
          .$if(u.kind !== 'admin', (q) => q.where('carrier_id', '=', u.company_id))
          .executeTakeFirst();
        if (!seen) throw notFound();
        throw invalid({ note: 'requests.refusalNeedsNote' });
      }
      const from = await changeStatus(app, req, id, to, note, (repo) =>
        u.kind === 'admin' ? repo.byAdmin(id, to) : repo.byCarrier(id, u.company_id, to as typeof STATUS.CF | typeof STATUS.RF),
      );
      const message = to === STATUS.CF ? 'requests.confirmed' : to === STATUS.RF ? 'requests.refused' : 'requests.statusChanged';
      return { status: true, message: req.t(message), data: { id, transport_request_status_id: to, previous_status_id: from } };
    },
  );

  /**
   * POST /enduser/transport_requests/updateTransportRequestStatus {id, transport_request_status_id: 7, note}
   * (server.md §5, issue 35 item 4): the end user who booked cancels its own OP request with a reason. The
   * reason is the timeline entry's note (the carrier reads it there, in its bell's link and in the webhook's
   * timeline; the customer's mail quotes it). One conditional update (requestStatusRepo.byEndUser): against a
   * concurrent confirm or refuse exactly one wins, the other gets 409. Another company's request is 404, a
   * colleague's 403, a request no longer open 409, no reason 422 on `note`; nothing changes on a refusal.
   */
  app.post(
    '/enduser/transport_requests/updateTransportRequestStatus',
    {
      config: { policy: ['enduser'] },
      schema: {
        tags: ['transport requests'],
        summary: 'Cancels an open transport request the end user booked, with a reason.',
        response: {
          200: writeAnswer(
            obj({
              id: int,
              transport_request_status_id: { type: 'integer', enum: [STATUS.CN], description: 'Cancelled (CN)' },
              previous_status_id: statusIdAnswer,
            }),
          ),
        },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'transport_request_status_id', 'note'],
          properties: {
            id: { type: 'integer', minimum: 1 },
            transport_request_status_id: { type: 'integer', enum: [STATUS.CN], description: 'The end user only cancels (7, CN).' },
            note: { type: 'string', maxLength: TIMELINE_NOTE_MAX, description: 'Why the request is cancelled: the carrier reads it on the timeline.' },
          },
        },
      },
    },
    async (req) => {
      const { id } = req.body;
      const note = req.body.note.trim();
      const u = req.user!;
      if (!note) {
        const seen = await app.db
          .selectFrom('transport_requests')
          .select('id')
          .where('id', '=', id)
          .where('enduser_company_id', '=', u.company_id)
          .executeTakeFirst();
        if (!seen) throw notFound();
        throw invalid({ note: 'requests.cancelNeedsReason' });
      }
      const from = await changeStatus(app, req, id, STATUS.CN, note, (repo) => repo.byEndUser(id, u.company_id, u.id));
      return {
        status: true,
        message: req.t('requests.cancelled', { id }),
        data: { id, transport_request_status_id: STATUS.CN, previous_status_id: from },
      };
    },
  );
}
