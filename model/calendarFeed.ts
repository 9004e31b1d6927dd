import { USER_ROLE } from './roles';

/**
 * The calendar feed (issue 36 item 4, docs/calendar-feed.md), shared by the server and the settings card.
 * Who manages a company's feed: its main account — the Carrier user of a carrier (or the Reseller user of a
 * reseller) and the Enduser users of an end-user company (an end-user company has no other role). Carrier
 * Users and Support users see whether it is on but neither turn it on nor see its address: the address opens
 * every pickup and delivery of the company to whoever holds it, like an API key.
 */
export const CALENDAR_FEED_MANAGERS: readonly number[] = [USER_ROLE.CARRIER, USER_ROLE.RESELLER, USER_ROLE.ENDUSER];

/** The feed's path: outside /api/v1 (calendar apps send no headers); the token is the only secret. */
export const CALENDAR_FEED_PATH = '/ical';

/** A token as newToken makes it (lib/tokens.ts: 32 random bytes, base64url, 43 characters). */
export const CALENDAR_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const calendarFeedUrl = (publicUrl: string, token: string) => `${publicUrl}${CALENDAR_FEED_PATH}/${token}.ics`;
