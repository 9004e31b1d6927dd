import { apiRequest } from '../api/http';
import type { Kind } from '../../model/roles';

/** The calendar feed's state (server/routes/shared/calendarFeed.ts): never its address. */
export interface CalendarFeedState {
  enabled: boolean;
  created_at: string | null;
  created_by_name: string | null;
  last_fetched_at: string | null;
  can_manage: boolean;
  days_back: number;
  days_ahead: number;
  max_shipments: number;
}

type Answer<T> = { message: string; data: T };

/** The carrier kind's feed is under /company, end users' under /enduser. */
const ns = (kind: Kind) => (kind === 'enduser' ? 'enduser' : 'company');

/** The company's private calendar feed (issue 36, docs/calendar-feed.md): the settings' "Calendario" card. */
export const calendarFeedMethods = (getKind: () => Kind) => ({
  calendarFeed: () => apiRequest<{ data: CalendarFeedState }>(`/${ns(getKind())}/calendar_feed`),
  enableCalendarFeed: () => apiRequest<Answer<{ url: string; created_at: string }>>(`/${ns(getKind())}/calendar_feed/enable`, { method: 'POST' }),
  regenerateCalendarFeed: () => apiRequest<Answer<{ url: string; created_at: string }>>(`/${ns(getKind())}/calendar_feed/regenerate`, { method: 'POST' }),
  disableCalendarFeed: () => apiRequest<Answer<{ enabled: boolean }>>(`/${ns(getKind())}/calendar_feed/disable`, { method: 'POST' }),
});
