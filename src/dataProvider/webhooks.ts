import { apiRequest } from '../api/http';
import type { Kind } from '../../model/roles';
import type { DeliveryState, WebhookEvent, WebhookStatus } from '../../model/webhooks';

/** A webhook endpoint as the list shows it (server/routes/shared/webhooks.ts): never its secret. */
export interface WebhookEndpoint {
  id: number;
  url: string;
  events: WebhookEvent[];
  status: WebhookStatus;
  created_by_name: string;
  created_at: string;
  failing_since: string | null;
}

/** One delivery of an endpoint: its event and its last attempt. */
export interface WebhookDelivery {
  id: number;
  event_id: string;
  event_type: WebhookEvent;
  transport_request_id: number;
  state: DeliveryState;
  created_at: string;
  attempts: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  delivered_at: string | null;
  gave_up_at: string | null;
}

type Answer<T> = { message: string; data: T };
export interface DeliveryPage {
  data: WebhookDelivery[];
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
}

/** The carrier kind manages its endpoints under /company, end users under /enduser. */
const ns = (kind: Kind) => (kind === 'enduser' ? 'enduser' : 'company');

/** Webhooks of the caller's company (issue 23, docs/webhooks.md): the settings' "Webhook" card. */
export const webhookMethods = (getKind: () => Kind) => ({
  webhooks: () => apiRequest<{ data: WebhookEndpoint[]; events: WebhookEvent[] }>(`/${ns(getKind())}/webhooks`),
  createWebhook: (body: { url: string; events: WebhookEvent[] }) =>
    apiRequest<Answer<{ id: number; url: string; events: WebhookEvent[]; secret: string }>>(`/${ns(getKind())}/webhooks/store`, { body }),
  deleteWebhook: (id: number) => apiRequest<Answer<{ id: number }>>(`/${ns(getKind())}/webhooks/destroy/${id}`),
  webhookDeliveries: (id: number, page = 1) => apiRequest<DeliveryPage>(`/${ns(getKind())}/webhooks/${id}/deliveries`, { query: { page, per_page: 10 } }),
  resendWebhookDelivery: (id: number, deliveryId: number) =>
    apiRequest<Answer<WebhookDelivery>>(`/${ns(getKind())}/webhooks/${id}/deliveries/${deliveryId}/resend`, { method: 'POST' }),
});
