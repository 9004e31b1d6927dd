import type { Db } from '../../db/index.js';
import { translate, type Lang } from '../../i18n/index.js';
import { nowIso } from '../tokens.js';
import { newEventId } from '../../repositories/webhooks.js';
import { transportRequestsRepo } from '../../repositories/transportRequests.js';
import { requestEventsRepo } from '../../repositories/requestEvents.js';
import { present } from '../presentRequest.js';
import type { RequestEvent } from '../../../model/requestTimeline.js';
import type { WebhookEvent } from '../../../model/webhooks.js';

/** The timeline events that are webhook events. */
const WEBHOOK_OF: Partial<Record<RequestEvent, WebhookEvent>> = {
  created: 'transport_request.created',
  status_changed: 'transport_request.status_changed',
};

/**
 * Writes the webhook deliveries of a request's change, in the change's transaction (`db` is it): called by
 * recordEvents (lib/requestEvents/record.ts), the one place every event of a request passes, after the
 * timeline's rows (the payload's timeline holds them) and before the bell's. The receivers are the endpoints of
 * the request's carrier company and of its end user's company subscribed to the event; each gets the
 * request as the show route answers it for that company (present.ts, the namespace `company` or `enduser`,
 * in the endpoint's language) with its timeline, plus the event's id and time. Nothing is read when no
 * endpoint listens, so a portal without webhooks pays one indexed query per change.
 */
export async function enqueueWebhooks(db: Db, requestId: number, events: readonly RequestEvent[]): Promise<void> {
  const types = [...new Set(events.map((e) => WEBHOOK_OF[e]).filter((t): t is WebhookEvent => !!t))];
  if (!types.length) return;
  const tr = await db.selectFrom('transport_requests').select(['carrier_id', 'enduser_company_id']).where('id', '=', requestId).executeTakeFirst();
  if (!tr) return;
  const companies = [tr.carrier_id, tr.enduser_company_id].filter((c): c is number => c !== null);
  const endpoints = (
    await db.selectFrom('webhook_endpoints').select(['id', 'company_id', 'events', 'lang']).where('company_id', 'in', companies).execute()
  ).filter((e) => types.some((t) => e.events.split(',').includes(t)));
  if (!endpoints.length) return;
  const [[row], timeline] = await Promise.all([transportRequestsRepo(db).load([requestId]), requestEventsRepo(db).timeline(requestId)]);
  const now = nowIso();
  const values = [];
  for (const e of endpoints) {
    const lang = e.lang as Lang;
    const ns = e.company_id === tr.carrier_id ? 'company' : 'enduser';
    const data = { ...present({ lang, t: (key, params) => translate(lang, key, params) }, ns, row), timeline };
    for (const type of types) {
      if (!e.events.split(',').includes(type)) continue;
      const id = newEventId();
      values.push({
        endpoint_id: Number(e.id),
        event_id: id,
        event_type: type,
        transport_request_id: requestId,
        ordering_key: `tr:${requestId}`,
        payload: JSON.stringify({ id, type, timestamp: now, data }),
        created_at: now,
        next_attempt_at: now,
      });
    }
  }
  await db.insertInto('webhook_deliveries').values(values).execute();
}
