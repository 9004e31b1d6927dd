import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { ApiError, conflict, invalid, notFound } from '../../lib/errors.js';
import { PROGRESS_FROM, requestStatusRepo, type StatusChange } from '../../repositories/requestStatus.js';
import { STATUS } from '../../repositories/transportRequests.js';
import { int, obj, writeAnswer } from '../../lib/answers.js';
import { statusIdAnswer } from '../../lib/requestAnswer.js';
import { changeRequest } from '../../lib/requestEvents/change.js';
import { actorOf } from '../../lib/requestEvents/record.js';
import { TIMELINE_NOTE_MAX } from '../../../model/requestTimeline.js';
import { TRANSPORT_REQUEST_STATUS_IDS } from '../../../model/transportStatuses.js';
import { Type } from 'typebox';
import type { Db } from '../../db/index.js';
import { settleAfterError } from '../../lib/fileSweep.js';
import type { ImageProblem } from '../../lib/images.js';
import { checkPod, eventTime, hasPodFields, type PodFields, type PodInput } from '../../lib/podInput.js';
import { POD_AREA, proofOfDeliveryRepo } from '../../repositories/proofOfDelivery.js';
import { filePart, sizeText } from '../../../model/fileParts.js';
import { POD_FILE_MAX, POD_FILE_TYPES, POD_NAME_MAX, POD_NOTES_MAX, POD_SIGNATURE_MAX, POD_SIGNATURE_TYPES } from '../../../model/proofOfDelivery.js';

/** What a carrier may set (issue 36): confirm or refuse an open request, then picked up and delivered. */
const CARRIER_TARGETS: number[] = [STATUS.CF, STATUS.RF, STATUS.IT, STATUS.DL];

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
    case 'wrongOrder':
      throw conflict('requests.wrongOrder', { status: req.t(`status.${r.status}`), needs: req.t(`status.${r.needs}`) });
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
  change: (repo: ReturnType<typeof requestStatusRepo>, trx: Db) => Promise<StatusChange>,
): Promise<number> {
  const result = await changeRequest(app, async (trx, record) => {
    const r = await change(requestStatusRepo(trx), trx);
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

/** The status route's body: JSON, or multipart for a delivery with its proof (model/proofOfDelivery.ts). */
type StatusBody = PodFields & { id: number; transport_request_status_id: number; note?: string; picked_up_at?: string; delivered_at?: string };

const timeField = (what: string) => ({
  type: 'string',
  maxLength: 40,
  description: `${what}: ISO-8601 with its zone (2026-11-29T08:30:00Z, …+01:00); default now; not in the future.`,
});

const statusBody = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'transport_request_status_id'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    transport_request_status_id: {
      type: 'integer',
      enum: TRANSPORT_REQUEST_STATUS_IDS,
      description: `${statusIdAnswer.description as string}. A carrier: 3 or 4 from open, 5 from confirmed, 6 from in transit (with its proof).`,
    },
    note: { type: 'string', maxLength: TIMELINE_NOTE_MAX },
    picked_up_at: timeField('With 5 (in transit): when the goods were picked up'),
    delivered_at: timeField('With 6 (delivered): when the goods were delivered, not before the pickup'),
    pod_name: { type: 'string', maxLength: POD_NAME_MAX, description: "With 6: the receiver's name. Required when a carrier marks a request delivered." },
    pod_notes: { type: 'string', maxLength: POD_NOTES_MAX, description: 'With 6: reservations written on delivery (damaged goods, missing pallets).' },
    pod_file: filePart({
      what: 'With 6: a photo (JPEG, PNG, WebP) or PDF of the signed delivery document; required when a carrier marks a request delivered without pod_signature',
      types: POD_FILE_TYPES,
      maxBytes: POD_FILE_MAX,
      fileOnly: true,
    }),
    pod_signature: filePart({
      what: "With 6: the receiver's signature drawn on the screen, a PNG; required when a carrier marks a request delivered without pod_file",
      types: POD_SIGNATURE_TYPES,
      maxBytes: POD_SIGNATURE_MAX,
      fileOnly: true,
    }),
  },
};

/**
 * POST /company/transport_requests/updateTransportRequestStatus {id, transport_request_status_id}
 * (calculator document §4, server.md §5, issue 36, docs/proof-of-delivery.md): a carrier (its users, its API
 * keys with requests:write) confirms (3) or refuses (4) an OP request of its own, moves a confirmed one to in
 * transit (5, with the pickup time) and that one to delivered (6, sent as multipart with its proof: the
 * receiver's name and a photo/PDF of the signed document or a drawn signature); an admin sets any status (a
 * POD optional, checked the same way when sent). One conditional update: of concurrent changes one wins, the
 * others get 409; a step out of order is 409 naming the status it needs. The end user is told by mail per the
 * consignee settings. An optional `note` goes into the request's timeline, which the customer sees; a refusal
 * needs one (422 on `note`). A refused body changes nothing and leaves no file behind.
 */
export default async function requestStatusRoutes(app: App) {
  app.post(
    '/company/transport_requests/updateTransportRequestStatus',
    {
      config: {
        policy: ['admin', 'carrier'],
        // one file (the POD), at most the POD's limit; a larger one is refused in the caller's language on its field
        // a body longer than both files and the text fields could be is refused before it is read
        multipartOptions: { limits: { fileSize: POD_FILE_MAX, files: 2 } },
        uploadMaxBytes: POD_FILE_MAX + POD_SIGNATURE_MAX + 64 * 1024,
      },
      errorHandler: (err) => {
        const e = err as { code?: string };
        if (e.code === 'FST_REQ_FILE_TOO_LARGE') {
          throw invalid({ pod_file: { key: 'pod.tooLarge', params: { limit: sizeText(POD_FILE_MAX) } } });
        }
        throw err;
      },
      schema: {
        tags: ['transport requests'],
        summary: 'Changes the status of a transport request (carrier: confirm, refuse, picked up, delivered with its proof).',
        consumes: ['multipart/form-data', 'application/json'],
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
        body: Type.Unsafe<StatusBody>(statusBody),
      },
    },
    async (req) => {
      const body = req.body;
      const { id, transport_request_status_id: to } = body;
      const note = body.note?.trim() || null;
      const u = req.user!;
      const admin = u.kind === 'admin';
      // The request as the caller may see it: an id of another carrier is 404 before anything else.
      const seen = await app.db
        .selectFrom('transport_requests')
        .select(['id', 'picked_up_at', 'transport_request_status_id as status'])
        .where('id', '=', id)
        .$if(!admin, (q) => q.where('carrier_id', '=', u.company_id))
        .executeTakeFirst();
      if (!seen) throw notFound();
      // Carriers confirm, refuse, pick up and deliver; never reopen or cancel.
      if (!admin && !CARRIER_TARGETS.includes(to)) throw invalid({ transport_request_status_id: 'requests.carrierStatusOnly' });
      if (to === STATUS.RF && !note) throw invalid({ note: 'requests.refusalNeedsNote' });
      // A step out of order is said before the proof is checked (no one fills a POD for a request not in transit);
      // the conditional update below still decides between concurrent changes.
      if (!admin && (to === STATUS.IT || to === STATUS.DL) && seen.status !== PROGRESS_FROM[to]) {
        refuse(req, seen.status === to ? { ok: false, reason: 'same' } : { ok: false, reason: 'wrongOrder', status: seen.status, needs: PROGRESS_FROM[to] });
      }

      const now = new Date();
      const problems: Record<string, ImageProblem> = {};
      let pickedUpAt: string | undefined;
      let deliveredAt: string | undefined;
      let pod: PodInput | null = null;
      if (to === STATUS.IT) {
        const t = eventTime(body.picked_up_at, now);
        if ('problem' in t) problems.picked_up_at = t.problem;
        else pickedUpAt = t.at;
      }
      if (to === STATUS.DL) {
        const t = eventTime(body.delivered_at, now, seen.picked_up_at);
        if ('problem' in t) problems.delivered_at = t.problem;
        else deliveredAt = t.at;
        // The carrier proves the delivery; an admin correcting a status from the office may have no proof.
        if (!admin || hasPodFields(body)) {
          const checked = checkPod(body);
          if ('problems' in checked) Object.assign(problems, checked.problems);
          else pod = checked.pod;
        }
      }
      if (Object.keys(problems).length) throw invalid(problems);

      // The file first, marked pending (lib/files.ts); the row names it in the change's transaction.
      const stored = pod ? await app.files.storePending(POD_AREA, pod.data, pod.ext) : null;
      let replaced: string | null = null;
      let from: number;
      try {
        from = await changeStatus(app, req, id, to, note, async (repo, trx) => {
          const r = admin
            ? await repo.byAdmin(id, to)
            : to === STATUS.IT || to === STATUS.DL
              ? await repo.progress(id, u.company_id, to, pickedUpAt)
              : await repo.byCarrier(id, u.company_id, to as typeof STATUS.CF | typeof STATUS.RF);
          if (!r.ok) return r;
          if (admin && pickedUpAt) await repo.setPickedUp(id, pickedUpAt);
          if (pod && stored && deliveredAt) {
            replaced = await proofOfDeliveryRepo(trx).put({
              transport_request_id: id,
              name: pod.name,
              notes: pod.notes,
              kind: pod.kind,
              stored_name: stored,
              content_type: pod.content_type,
              bytes: pod.data.length,
              width: pod.width,
              height: pod.height,
              delivered_at: deliveredAt,
              created_by: u.id,
            });
          }
          return r;
        });
      } catch (err) {
        // The rows decide (a commit before a lost connection keeps its file).
        if (stored) await settleAfterError(app.db, app.files, POD_AREA, [stored]);
        throw err;
      }
      if (stored) await app.files.settle(POD_AREA, stored, true);
      if (replaced) await app.files.remove(POD_AREA, replaced);
      const message =
        to === STATUS.CF
          ? 'requests.confirmed'
          : to === STATUS.RF
            ? 'requests.refused'
            : !admin && to === STATUS.IT
              ? 'requests.pickedUp'
              : !admin && to === STATUS.DL
                ? 'requests.delivered'
                : 'requests.statusChanged';
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
