import type { App } from '../../lib/typed.js';
import type { FastifyRequest } from 'fastify';
import { kindsFor } from '../../../model/permissions.js';
import { API_KEY_NAMESPACES } from '../../../model/apiKeys.js';
import { CALENDAR_FEED_MANAGERS, calendarFeedUrl } from '../../../model/calendarFeed.js';
import { bool, int, obj, str, strN, writeAnswer } from '../../lib/answers.js';
import { ApiError, conflict } from '../../lib/errors.js';
import { registerMessages } from '../../i18n/index.js';
import { calendar } from '../../i18n/calendar.js';
import { calendarFeedsRepo } from '../../repositories/calendarFeeds.js';
import { FEED_DAYS_AHEAD, FEED_DAYS_BACK, FEED_SHIPMENT_CAP } from '../../lib/calendarFeed.js';

registerMessages(calendar);

const stateRow = obj({
  enabled: { type: 'boolean', description: 'Whether the feed is on (its address answers)' },
  created_at: { ...strN, description: 'When the current address was made (null when off)' },
  created_by_name: { ...strN, description: 'Who made it (null when off)' },
  last_fetched_at: { ...strN, description: 'When a calendar last read the feed (to the hour; null: not yet, or off)' },
  can_manage: { type: 'boolean', description: 'Whether the caller may turn it on or off and make a new address (the company’s main account)' },
  days_back: int,
  days_ahead: int,
  max_shipments: int,
});
const urlRow = obj({
  url: { type: 'string', description: 'The private address (https://…/ical/<token>.ics): answered this once, only its hash is kept' },
  created_at: str,
});

/**
 * A company's private calendar feed (issue 36 item 4, docs/calendar-feed.md), for the carrier kind
 * (`/company/calendar_feed`) and end users (`/enduser/calendar_feed`): its state, turn it on (the address
 * is answered once), make a new address (the old one stops at once), turn it off. Every user of the company
 * sees the state; only its main account — the Carrier (or Reseller) user of a carrier, the Enduser users of
 * an end-user company, i.e. not Carrier Users — manages it (403 otherwise): the address opens every pickup
 * and delivery of the company's requests to whoever holds it. Never callable with an API key (no scope names them).
 */
export default async function calendarFeedRoutes(app: App) {
  const feeds = calendarFeedsRepo(app.db);

  for (const [ns, kind] of Object.entries(API_KEY_NAMESPACES)) {
    const tags = [ns];
    const config = (action: 'show' | 'edit') => ({ policy: kindsFor('calendar-feed', action).filter((k) => k === kind), resource: 'calendar-feed' });
    const manager = (req: FastifyRequest) => {
      const me = req.user!;
      if (!CALENDAR_FEED_MANAGERS.includes(me.role_id)) throw new ApiError(403, 'calendar.adminOnly');
      return { id: me.id, name: `${me.first_name} ${me.last_name}`.trim(), company_id: me.company_id };
    };
    const urlOf = (token: string) => calendarFeedUrl(app.config.publicUrl, token);

    app.get(
      `/${ns}/calendar_feed`,
      {
        config: config('show'),
        schema: {
          tags,
          summary: "Whether the caller's company calendar feed is on (never its address), and whether the caller may manage it.",
          response: { 200: obj({ status: bool, data: stateRow }) },
        },
      },
      async (req) => {
        const found = await feeds.stateOf(req.user!.company_id);
        return {
          status: true,
          data: {
            enabled: !!found,
            created_at: found?.created_at ?? null,
            created_by_name: found?.created_by_name ?? null,
            last_fetched_at: found?.last_fetched_at ?? null,
            can_manage: CALENDAR_FEED_MANAGERS.includes(req.user!.role_id),
            days_back: FEED_DAYS_BACK,
            days_ahead: FEED_DAYS_AHEAD,
            max_shipments: FEED_SHIPMENT_CAP,
          },
        };
      },
    );

    app.post(
      `/${ns}/calendar_feed/enable`,
      {
        config: config('edit'),
        schema: {
          tags,
          summary: "Turns the caller's company calendar feed on; `data.url` (GET, no headers: for calendar apps) is answered this once. 409 when already on.",
          response: { 200: writeAnswer(urlRow) },
        },
      },
      async (req) => {
        const me = manager(req);
        const token = await feeds.enable(me.company_id, me);
        if (token === 'exists') throw conflict('calendar.alreadyOn');
        const state = (await feeds.stateOf(me.company_id))!;
        req.audit({
          action: 'create',
          resource: 'calendar_feeds',
          resource_id: me.company_id,
          company_id: me.company_id,
          changes: { enabled: { before: false, after: true } },
        });
        return { status: true, message: req.t('calendar.enabled'), data: { url: urlOf(token), created_at: state.created_at } };
      },
    );

    app.post(
      `/${ns}/calendar_feed/regenerate`,
      {
        config: config('edit'),
        schema: {
          tags,
          summary: 'Makes a new address for the calendar feed, answered this once; the old one answers 404 from now on. 409 when the feed is off.',
          response: { 200: writeAnswer(urlRow) },
        },
      },
      async (req) => {
        const me = manager(req);
        const before = await feeds.stateOf(me.company_id);
        const token = await feeds.regenerate(me.company_id, me);
        if (!token || !before) throw conflict('calendar.off');
        const state = (await feeds.stateOf(me.company_id))!;
        req.audit({
          action: 'update',
          resource: 'calendar_feeds',
          resource_id: me.company_id,
          company_id: me.company_id,
          // the address itself is a secret: the entry says a new one was made, and when
          changes: { created_at: { before: before.created_at, after: state.created_at } },
        });
        return { status: true, message: req.t('calendar.regenerated'), data: { url: urlOf(token), created_at: state.created_at } };
      },
    );

    app.post(
      `/${ns}/calendar_feed/disable`,
      {
        config: config('edit'),
        schema: {
          tags,
          summary: "Turns the caller's company calendar feed off: its address answers 404 from now on. 409 when already off.",
          response: { 200: writeAnswer(obj({ enabled: bool })) },
        },
      },
      async (req) => {
        const me = manager(req);
        if (!(await feeds.disable(me.company_id))) throw conflict('calendar.off');
        req.audit({
          action: 'delete',
          resource: 'calendar_feeds',
          resource_id: me.company_id,
          company_id: me.company_id,
          changes: { enabled: { before: true, after: false } },
        });
        return { status: true, message: req.t('calendar.disabled'), data: { enabled: false } };
      },
    );
  }
}
