import { obj, type JsonSchema } from '../answers.js';
import { requestShowAnswer } from '../requestAnswer.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../../model/webhooks.js';

/**
 * The webhooks' messages in the OpenAPI document (issue 33 item 7; docs/webhooks.md): OpenAPI 3.1's
 * top-level `webhooks`, one entry per event of model/webhooks.ts WEBHOOK_EVENTS, each a `post` the portal
 * makes to the company's endpoint. The body is what lib/webhooks/enqueue.ts writes, `{id, type, timestamp,
 * data}`, and `data` is the show route's `data` (lib/requestAnswer.ts `requestShowAnswer`, the one schema of
 * both), so a client generates one TransportRequest type for the API and its webhooks. Given to
 * @fastify/swagger as its `openapi.webhooks` option (server/app.ts), which copies it into the document as is.
 */

/** What each event means (the keys are the constant's values, so a new event must be described here). */
const EVENT_MEANING: Record<WebhookEvent, { summary: string; description: string }> = {
  'transport_request.created': {
    summary: 'A transport request was booked.',
    description: "Sent to the request's carrier company and to its end user's company (the endpoints subscribed to the event) once the booking commits.",
  },
  'transport_request.status_changed': {
    summary: 'The status of a transport request changed.',
    description:
      'Sent when a carrier confirms or refuses a request, the end user who booked it cancels it, or an administrator sets its status (`data.transport_request_status_id` is the new ' +
      'status, the last `data.timeline` entry the change with its note).',
  },
};

/** The body of one event's message (lib/webhooks/enqueue.ts). */
export function webhookPayloadSchema(type: WebhookEvent): JsonSchema {
  return {
    ...obj({
      id: { type: 'string', pattern: '^msg_', description: 'The message id (`msg_…`): the same as the `webhook-id` header, on every attempt and a Resend' },
      type: { const: type, description: 'The event' },
      timestamp: { type: 'string', description: 'When the change committed, ISO-8601 UTC' },
      data: {
        ...requestShowAnswer,
        description:
          'The request exactly as `GET /{ns}/transport_requests/show/{id}` answers it for the receiving company (`company` for the carrier, ' +
          '`enduser` for the end user), in the language of the endpoint, as it was when the change committed',
      },
    }),
    title: `Webhook ${type}`,
  };
}

// Standard Webhooks headers (lib/webhooks/send.ts `signedHeaders`, made by the standardwebhooks package).
const headerParameters: JsonSchema[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The message id (`msg_…`), the same as the body's `id`; unchanged on retries and on a Resend: deduplicate on it (delivery is at least once).",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; part of what is signed (refuse a message too far from your clock to stop replays).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      "`v1,` + base64 of HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (`whsec_…`, base64 after the prefix); " +
      'verify it on the raw body, e.g. with the `standardwebhooks` package (docs/integrations.md).',
    schema: { type: 'string', pattern: '^v1,' },
  },
];

/** The document's `webhooks` section: one `post` per event of WEBHOOK_EVENTS. */
export function webhooksDocument(): Record<string, JsonSchema> {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${type
            .split(/[._]/)
            .map((w) => w[0].toUpperCase() + w.slice(1))
            .join('')}`,
          tags: ['webhooks'],
          summary: EVENT_MEANING[type].summary,
          description: `${EVENT_MEANING[type].description} A signed POST (Standard Webhooks, docs/webhooks.md), in order per request.`,
          // The receiver is the company's own server: no portal credential is sent; the signature authenticates the message.
          security: [],
          parameters: headerParameters,
          requestBody: { required: true, content: { 'application/json': { schema: webhookPayloadSchema(type) } } },
          responses: {
            '2XX': { description: 'Delivered: any 2xx within WEBHOOK_TIMEOUT_MS (10 s); the body is read and ignored.' },
            default: {
              description:
                'Anything else (another status, a redirect, which is never followed, a timeout): retried with backoff for 24 h, then given up and the endpoint marked failing.',
            },
          },
        },
      },
    ]),
  );
}
