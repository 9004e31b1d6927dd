import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_EVENTS, WEBHOOK_NAMESPACES, WEBHOOK_STATUSES, WEBHOOK_URL_MAX, type WebhookEvent } from '../../../model/webhooks.js';
import { int, intN, list, obj, pagedAnswer, str, strN, writeAnswer } from '../../lib/answers.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { checkTarget } from '../../lib/webhooks/addresses.js';
import { webhooksRepo } from '../../repositories/webhooks.js';
import './webhookMessages.js';

const eventList = { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } } as const;
const eventName = { type: 'string', enum: [...WEBHOOK_EVENTS] } as const;
// events and status from model/webhooks.ts (an endpoint only ever stores events the body's enum admitted)
const endpointRow = obj({
  id: int,
  url: str,
  events: list(eventName),
  status: { type: 'string', enum: [...WEBHOOK_STATUSES], description: 'active, or failing (deliveries gave up): see failing_since' },
  created_by_name: str,
  created_at: str,
  failing_since: strN,
});
const deliveryRow = obj({
  id: int,
  event_id: str,
  event_type: eventName,
  transport_request_id: int,
  state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
  created_at: str,
  attempts: int,
  last_attempt_at: strN,
  next_attempt_at: strN,
  last_status_code: intN,
  last_duration_ms: intN,
  last_error: strN,
  delivered_at: strN,
  gave_up_at: strN,
});
const storeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: {
    url: { type: 'string', minLength: 1, maxLength: WEBHOOK_URL_MAX, description: 'The receiver: https in production, on a public address' },
    events: { ...eventList, minItems: 1, uniqueItems: true, description: 'transport_request.created, transport_request.status_changed' },
  },
} as const;
const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const resendParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'deliveryId'],
  properties: { id: { type: 'integer', minimum: 1 }, deliveryId: { type: 'integer', minimum: 1 } },
} as const;
const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 }, per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
} as const;

/** The messages an endpoint receives, as /api/docs tells an integrator (docs/webhooks.md). */
const WEBHOOK_CONTRACT =
  'Each event is a POST to the URL with a JSON body `{id, type, timestamp, data}`: `type` is one of the subscribed events, ' +
  '`data` the transport request as `GET /{ns}/transport_requests/show/{id}` answers it for the receiving company. ' +
  'Signed per Standard Webhooks: headers `webhook-id` (the same on retries: deduplicate on it), `webhook-timestamp` (Unix seconds) and ' +
  '`webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the secret; verify with the standardwebhooks package). ' +
  'Answer 2xx within 10 s; anything else is retried with exponential backoff for 24 h, in order per request, then the endpoint is marked failing. ' +
  'In production the URL must be https on a public address (checked now and before every delivery).';

/**
 * A company's webhook endpoints (issue 23, docs/webhooks.md), for the carrier kind (`/company/webhooks`) and
 * end users (`/enduser/webhooks`): list, create (the signing secret is answered once), delete (with its
 * deliveries), the deliveries of one endpoint (paged), and Resend of a finished delivery. Another company's
 * endpoint answers 404. Never callable with an API key (no scope names these routes).
 */
export default async function webhookRoutes(app: App) {
  const hooks = webhooksRepo(app.db);

  for (const [ns, kind] of Object.entries(WEBHOOK_NAMESPACES)) {
    const tags = [ns];
    const config = (action: 'list' | 'create' | 'edit' | 'delete') => ({
      policy: kindsFor('webhooks', action).filter((k) => k === kind),
      resource: 'webhooks',
    });
    const own = async (companyId: number, id: number) => {
      const found = await hooks.findOf(companyId, id);
      if (!found) throw notFound();
      return found;
    };

    app.get(
      `/${ns}/webhooks`,
      {
        config: config('list'),
        schema: {
          tags,
          summary: "The caller's company webhook endpoints (never their secrets), newest first.",
          response: { 200: obj({ status: { type: 'boolean' }, data: list(endpointRow), events: eventList }) },
        },
      },
      async (req) => ({ status: true, data: await hooks.listOf(req.user!.company_id), events: [...WEBHOOK_EVENTS] }),
    );

    app.post(
      `/${ns}/webhooks/store`,
      {
        config: config('create'),
        schema: {
          tags,
          summary: `Adds a webhook endpoint of the caller’s company (at most ${WEBHOOK_ENDPOINTS_MAX}, then 409); \`data.secret\` (whsec_…, to verify signatures) is answered this once.`,
          description: WEBHOOK_CONTRACT,
          body: storeBody,
          response: { 200: writeAnswer(obj({ id: int, url: str, events: list(eventName), secret: str })) },
        },
      },
      async (req) => {
        const me = req.user!;
        const url = req.body.url.trim();
        const checked = await checkTarget(url, app.config.production);
        if ('refused' in checked) throw invalid({ url: checked.refused });
        const events = req.body.events as WebhookEvent[];
        const created = await hooks.create(
          { companyId: me.company_id, url, events, lang: req.lang, userId: me.id, userName: `${me.first_name} ${me.last_name}` },
          WEBHOOK_ENDPOINTS_MAX,
        );
        if (created === 'full') throw conflict('webhooks.tooMany', { max: WEBHOOK_ENDPOINTS_MAX });
        req.audit({
          action: 'create',
          resource: 'webhook_endpoints',
          resource_id: created.id,
          company_id: me.company_id,
          changes: { url: { before: null, after: url }, events: { before: null, after: events.join(', ') } },
        });
        return { status: true, message: req.t('webhooks.created'), data: { id: created.id, url, events, secret: created.secret } };
      },
    );

    app.get(
      `/${ns}/webhooks/destroy/:id`,
      {
        config: config('delete'),
        schema: {
          tags,
          summary: 'Deletes a webhook endpoint of the caller’s company with its deliveries; nothing more is sent to it.',
          params: idParams,
          response: { 200: writeAnswer(obj({ id: int })) },
        },
      },
      async (req) => {
        const me = req.user!;
        const removed = await hooks.remove(me.company_id, req.params.id);
        if (!removed) throw notFound();
        req.audit({
          action: 'delete',
          resource: 'webhook_endpoints',
          resource_id: req.params.id,
          company_id: me.company_id,
          changes: { url: { before: removed.url, after: null }, events: { before: removed.events.split(',').join(', '), after: null } },
        });
        return { status: true, message: req.t('webhooks.deleted'), data: { id: req.params.id } };
      },
    );

    app.get(
      `/${ns}/webhooks/:id/deliveries`,
      {
        config: config('list'),
        schema: {
          tags,
          summary: 'A page of an endpoint’s deliveries, newest first: event, state, attempts, the last attempt’s status code, duration and time.',
          params: idParams,
          querystring: pageQuery,
          response: { 200: pagedAnswer(deliveryRow) },
        },
      },
      async (req) => {
        await own(req.user!.company_id, req.params.id);
        const page = req.query.page ?? 1;
        const perPage = req.query.per_page ?? 20;
        const { rows, total } = await hooks.deliveries(req.params.id, page, perPage);
        return { data: rows, current_page: page, per_page: perPage, last_page: Math.max(1, Math.ceil(total / perPage)), total };
      },
    );

    app.post(
      `/${ns}/webhooks/:id/deliveries/:deliveryId/resend`,
      {
        config: config('edit'),
        schema: {
          tags,
          summary: 'Sends a delivered or given-up delivery again: a new delivery with the same message id and body, after the request’s others.',
          params: resendParams,
          response: { 200: writeAnswer(deliveryRow) },
        },
      },
      async (req) => {
        const me = req.user!;
        await own(me.company_id, req.params.id);
        const again = await hooks.resend(req.params.id, req.params.deliveryId);
        if (!again) throw notFound();
        if (again === 'pending') throw conflict('webhooks.stillPending');
        req.audit({
          action: 'resend',
          resource: 'webhook_deliveries',
          resource_id: again.id,
          company_id: me.company_id,
          changes: { event_id: { before: null, after: again.event_id }, event_type: { before: null, after: again.event_type } },
        });
        return { status: true, message: req.t('webhooks.resent'), data: again };
      },
    );
  }
}
