import type { Kind } from './roles';

/**
 * Webhooks (issue 23, docs/webhooks.md): the events a company's endpoint may subscribe to, declared here
 * and nowhere else. Each delivery follows the Standard Webhooks specification (headers `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`); its body is `{id, type, timestamp, data}` where `data` is the
 * request as the show route answers it for the receiving company.
 */
export const WEBHOOK_EVENTS = ['transport_request.created', 'transport_request.status_changed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The secret's visible start, as the standard suggests. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The namespaces whose users manage their company's endpoints: the same as API keys'. */
export const WEBHOOK_NAMESPACES = { company: 'carrier', enduser: 'enduser' } as const satisfies Record<string, Kind>;

export const WEBHOOK_STATUSES = ['active', 'failing'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The longest URL an endpoint may have. */
export const WEBHOOK_URL_MAX = 500;

/**
 * The most endpoints one company may have (issue 31): every event is sent to each, so a company with a
 * thousand endpoints would make the worker send a thousand requests per change (and hold a thousand
 * secrets). Ten covers a production receiver, a staging one and a few tools.
 */
export const WEBHOOK_ENDPOINTS_MAX = 10;

/** A delivery's state as lists show it. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';
