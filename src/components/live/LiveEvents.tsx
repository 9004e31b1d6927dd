import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useDataProvider, usePermissions } from 'react-admin';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Kind } from '../../../model/roles';
import type { PortalDataProvider } from '../../dataProvider';
import { liveStreamUrl } from '../../dataProvider/live';
import { NOTIFICATION_COUNT_KEY, NOTIFICATION_LIST_KEY } from './queryKeys';

/**
 * One live events stream per tab (issue 24, docs/live-events.md). The provider, mounted by the shell,
 * asks a one-time ticket, opens an EventSource on `/{ns}/events` and turns each event into cache updates:
 * - chat.message / chat.read / ticket.changed → the support queries (`['support', …]`) and the open conversation;
 * - request.created / request.status / request.changed → react-admin's `transport_requests` lists, the
 *   detail (`['transport_request', …]`) and the dashboard's statistics;
 * - notifications.count → `['notifications', 'count']` (the notifications' `useNotificationCount`);
 * - reset (the server could not replay what was missed) → all of the above.
 * Screens that used to poll ask `useLiveConnected()` and poll only while it is false (the stream is down).
 * The tab reconnects by itself with a new ticket and the last event id, so the server replays the gap.
 */

export type LiveEventType =
  'chat.message' | 'chat.read' | 'ticket.changed' | 'request.created' | 'request.status' | 'request.changed' | 'notifications.count' | 'reset';
export interface LiveMessage {
  type: LiveEventType;
  data: Record<string, unknown>;
}

const EVENT_TYPES: LiveEventType[] = [
  'chat.message',
  'chat.read',
  'ticket.changed',
  'request.created',
  'request.status',
  'request.changed',
  'notifications.count',
  'reset',
];

/**
 * The bell's count (src/layout/useNotificationCount.ts): a request created or moved writes the bell's rows for
 * exactly the request's audience in the same transaction (server/repositories/notifications.ts), so those
 * events refresh the count too.
 */
const NOTIFICATION_KEYS: unknown[][] = [[...NOTIFICATION_COUNT_KEY], [...NOTIFICATION_LIST_KEY]];
const SUPPORT_KEY = ['support'];
const REQUEST_KEYS = [['transport_requests'], ['transport_request'], ['statistics']];

/** Waits between reconnections: 1 s, then doubling to 30 s; reset once a stream opens. */
const RETRY_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];

const listeners = new Set<(m: LiveMessage) => void>();
/** Listens to the tab's live events (e.g. the open conversation asks for its new messages); answers the unsubscribe. */
export function subscribeLive(fn: (m: LiveMessage) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const LiveContext = createContext(false);
/** True while the tab's stream is open: screens then need no polling. */
export const useLiveConnected = () => useContext(LiveContext);

function applyToCache(client: QueryClient, m: LiveMessage) {
  const invalidate = (queryKey: unknown[]) => void client.invalidateQueries({ queryKey });
  if (m.type.startsWith('chat.') || m.type === 'ticket.changed' || m.type === 'reset') invalidate(SUPPORT_KEY);
  if (m.type.startsWith('request.') || m.type === 'reset') REQUEST_KEYS.forEach(invalidate);
  if (m.type === 'notifications.count' || m.type === 'request.created' || m.type === 'request.status' || m.type === 'reset')
    NOTIFICATION_KEYS.forEach(invalidate);
}

export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const { permissions } = usePermissions<Kind>();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const client = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    const kind = permissions;
    if (!kind || typeof EventSource === 'undefined') return undefined;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let attempt = 0;
    let lastId: string | null = null;
    let everOpen = false;

    const deliver = (m: LiveMessage) => {
      applyToCache(client, m);
      for (const fn of listeners) fn(m);
    };
    const retry = () => {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(connect, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
    };
    async function connect() {
      if (stopped) return;
      let ticket: string;
      try {
        ticket = (await dataProvider.liveTicket(kind!)).ticket;
      } catch (err) {
        // Signed out (401: the client goes to the login screen) or not allowed: no stream. Else try again later.
        const status = (err as { status?: number })?.status;
        if (status !== 401 && status !== 403) retry();
        return;
      }
      if (stopped) return;
      const es = new EventSource(liveStreamUrl(kind!, ticket, lastId));
      source = es;
      es.onopen = () => {
        attempt = 0;
        setConnected(true);
        // Back after a gap without a replay point: what the screens show may be stale.
        if (everOpen && lastId === null) deliver({ type: 'reset', data: {} });
        everOpen = true;
      };
      for (const type of EVENT_TYPES) {
        es.addEventListener(type, (ev) => {
          const e = ev as MessageEvent<string>;
          if (e.lastEventId) lastId = e.lastEventId;
          let data: Record<string, unknown> = {};
          try {
            data = JSON.parse(e.data) as Record<string, unknown>;
          } catch {
            /* an event without data still refreshes */
          }
          deliver({ type, data });
        });
      }
      // The session ended (signed out elsewhere, expired): the next call answers 401 and signs this tab out.
      es.addEventListener('ended', () => {
        es.close();
        setConnected(false);
        void client.invalidateQueries();
        retry();
      });
      // A ticket is spent once: the browser's own reconnection cannot work, so the tab makes a new one.
      es.onerror = () => {
        es.close();
        if (source === es) source = null;
        setConnected(false);
        retry();
      };
    }
    void connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
      setConnected(false);
    };
  }, [permissions, dataProvider, client]);

  return <LiveContext.Provider value={connected}>{children}</LiveContext.Provider>;
}
