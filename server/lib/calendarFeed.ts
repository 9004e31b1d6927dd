import crypto from 'node:crypto';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { Db } from '../db/index.js';
import { COMPANY_ROLE } from '../../model/roles.js';
import { requestScreenPath } from '../../model/notifications.js';
import { LANGS, translate, type Lang } from '../i18n/index.js';
import { requestCalendarRepo, type CalendarAddress, type CalendarShipment } from '../repositories/requestCalendar.js';
import type { FeedOwner } from '../repositories/calendarFeeds.js';
import { addDays, romeDate, romeInstant } from './romeTime.js';

/**
 * What a company's calendar feed holds (docs/calendar-feed.md). Choices:
 * - Window: pickups and deliveries dated from 60 days ago to 180 days ahead (Rome dates), at most 1000
 *   shipments (2 events each): a calendar polls the feed every few hours, so it stays one cheap query.
 * - Statuses: open, confirmed, in transit and delivered. Refused and cancelled requests are left out: a
 *   subscribed calendar drops an event that leaves its feed, so the dispatcher's day no longer shows it.
 * - Times: the windows are Rome wall-clock times (what the booking form means); they are written as UTC
 *   instants (`DTSTART:20261130T073000Z`), valid RFC 5545 without a VTIMEZONE, shown by every calendar in
 *   its own zone. A day without a time is an all-day event (`VALUE=DATE`); a window with one end only lasts an hour.
 * - UIDs: `pickup-<shipment id>@<host>` and `delivery-<shipment id>@<host>`, so a changed request updates
 *   its events instead of adding new ones; SEQUENCE and LAST-MODIFIED follow the request's `updated_at`.
 */
export const FEED_DAYS_BACK = 60;
export const FEED_DAYS_AHEAD = 180;
export const FEED_SHIPMENT_CAP = 1000;
/** The statuses shown: OP, CF, IT, DL (server.md §5); RF and CN are left out. */
export const FEED_STATUSES = [1, 3, 5, 6] as const;

const HOUR = 3_600_000;

const isTime = (t: string | null): t is string => !!t && /^\d{1,2}:\d{2}/.test(t);

/** An event's span: timed from the window, or all day. */
function spanOf(date: string, from: string | null, to: string | null): { start: Date; end: Date; allDay: boolean } {
  if (!isTime(from) && !isTime(to)) return { start: new Date(`${date}T00:00:00Z`), end: new Date(`${addDays(date, 1)}T00:00:00Z`), allDay: true };
  const start = isTime(from) ? romeInstant(date, from) : new Date(romeInstant(date, to!).getTime() - HOUR);
  const end = isTime(to) ? romeInstant(date, to) : new Date(start.getTime() + HOUR);
  // a window whose end is not after its start (a typing slip) lasts an hour
  return { start, end: end > start ? end : new Date(start.getTime() + HOUR), allDay: false };
}

const placeText = (a: CalendarAddress | null) =>
  a
    ? [a.location_name, a.address, [a.postal_code, a.city, a.province ? `(${a.province})` : null].filter(Boolean).join(' '), a.country]
        .filter(Boolean)
        .join(', ')
    : '';
const townOf = (a: CalendarAddress | null) => a?.city ?? a?.postal_code ?? '';

/** The feed's text (RFC 5545) for one company, and its ETag. */
export async function calendarFeed(db: Db, owner: FeedOwner, publicUrl: string, now = new Date()): Promise<{ body: string; etag: string }> {
  const lang: Lang = LANGS.includes(owner.lang as Lang) ? (owner.lang as Lang) : 'it';
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, key, params);
  const side = owner.company_role_id === COMPANY_ROLE.ENDUSER ? 'enduser' : 'carrier';
  const today = romeDate(now);
  const shipments = await requestCalendarRepo(db).shipmentsOf(
    { company_id: owner.company_id, side },
    { from: addDays(today, -FEED_DAYS_BACK), to: addDays(today, FEED_DAYS_AHEAD), statuses: FEED_STATUSES, cap: FEED_SHIPMENT_CAP },
  );
  const host = new URL(publicUrl).hostname;
  const calendar = ical({
    name: t('calendar.name', { company: owner.company_name }),
    prodId: { company: 'freight-portal', product: 'calendar-feed', language: lang.toUpperCase() },
    method: ICalCalendarMethod.PUBLISH,
    // calendars that honour it poll hourly (Google decides for itself, every few hours)
    ttl: 3600,
  });

  const inWindow = (d: string | null): d is string => !!d && d >= addDays(today, -FEED_DAYS_BACK) && d <= addDays(today, FEED_DAYS_AHEAD);
  const add = (s: CalendarShipment, kind: 'pickup' | 'delivery') => {
    const date = kind === 'pickup' ? s.pickup_date : s.delivery_date;
    if (!inWindow(date)) return;
    const span = spanOf(date, kind === 'pickup' ? s.pickup_time_from : s.delivery_time_from, kind === 'pickup' ? s.pickup_time_to : s.delivery_time_to);
    const where = kind === 'pickup' ? s.pickup : s.delivery;
    const other = side === 'carrier' ? s.customer_name : s.carrier_name;
    const link = `${publicUrl}${requestScreenPath(s.request_id)}`;
    const notes = kind === 'pickup' ? s.pickup_notes : s.delivery_notes;
    const updated = new Date(s.updated_at);
    calendar.createEvent({
      id: `${kind}-${s.shipment_id}@${host}`,
      // SEQUENCE rises with each change of the request (seconds since 2020: monotonic, within 32 bits until 2088)
      sequence: Math.max(0, Math.floor((updated.getTime() - Date.UTC(2020, 0, 1)) / 1000)),
      start: span.start,
      end: span.end,
      allDay: span.allDay,
      stamp: now,
      lastModified: updated,
      summary: `${t(`calendar.${kind}`)} #${s.request_id} · ${townOf(s.pickup)} → ${townOf(s.delivery)}${other ? ` · ${other}` : ''}`,
      location: placeText(where) || null,
      description: [
        `${t('calendar.request')} #${s.request_id} (${t(`status.${s.status_id}`)})`,
        other ? `${t(side === 'carrier' ? 'calendar.customer' : 'calendar.carrier')}: ${other}` : null,
        `${t('calendar.from')}: ${placeText(s.pickup)}`,
        `${t('calendar.to')}: ${placeText(s.delivery)}`,
        `${t('calendar.shipperRef')}: ${s.shipper_reference}`,
        s.consignee_reference ? `${t('calendar.consigneeRef')}: ${s.consignee_reference}` : null,
        notes ? `${t('calendar.notes')}: ${notes}` : null,
        `${t('calendar.link')}: ${link}`,
      ]
        .filter(Boolean)
        .join('\n'),
      url: link,
      // open requests are not yet agreed: TENTATIVE; the others CONFIRMED
      status: s.status_id === 1 ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    });
  };
  for (const s of shipments) {
    add(s, 'pickup');
    add(s, 'delivery');
  }
  const body = calendar.toString();
  // DTSTAMP changes on every build: the ETag is of the content without it, so an unchanged feed answers 304
  const etag = `"${crypto
    .createHash('sha256')
    .update(body.replace(/^DTSTAMP:.*$/gm, ''))
    .digest('base64url')
    .slice(0, 27)}"`;
  return { body, etag };
}
