import { useCallback, useEffect, useRef, useState } from 'react';
import { usePermissions } from 'react-admin';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';
import { sideOf, useChat, type ChatMessage, type Side, type Ticket, type TicketQuery } from './api';
import { subscribeLive, useLiveConnected } from '../../components/live/LiveEvents';
import { readScheduler } from './readScheduler';

/**
 * Live updates from the tab's event stream (docs/live-events.md): a chat message or a ticket change
 * invalidates the support queries and makes the open conversation ask for the messages after the last id
 * it holds. Only while the stream is down do the screens poll as before (server.md §7, §10): the open
 * conversation every 2 s, the ticket list every 5 s, the sidebar badge every 10 s; nothing while the window
 * is hidden (it catches up when shown).
 */
export const POLL_MESSAGES_MS = 2000;
export const POLL_TICKETS_MS = 5000;
export const POLL_UNREAD_MS = 10_000;

export const UNREAD_KEY = ['support', 'unread'];
export const TICKETS_KEY = ['support', 'tickets'];

/** The sidebar badge of /support: unread messages of the other side (declared by the page, shown by the menu). */
export function useSupportUnread(): number {
  const { permissions } = usePermissions<Kind>();
  const enabled = !!permissions && canAccess(permissions, 'support', 'list');
  const side = sideOf(permissions);
  const dataProvider = useChat();
  const live = useLiveConnected();
  const { data } = useQuery({
    queryKey: [...UNREAD_KEY, side],
    queryFn: () => dataProvider.chatUnread(side),
    enabled,
    refetchInterval: live ? false : POLL_UNREAD_MS,
    refetchIntervalInBackground: false,
  });
  return data?.data.messages ?? 0;
}

export function useTickets(side: Side, query: TicketQuery) {
  const dataProvider = useChat();
  const live = useLiveConnected();
  return useQuery({
    queryKey: [...TICKETS_KEY, side, query],
    queryFn: ({ signal }) => dataProvider.chatTickets(side, query, signal),
    refetchInterval: live ? false : POLL_TICKETS_MS,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
  });
}

/** Refreshes the list and the badge after something changed in a conversation. */
export function useRefreshSupport() {
  const client = useQueryClient();
  return useCallback(() => {
    void client.invalidateQueries({ queryKey: UNREAD_KEY });
    void client.invalidateQueries({ queryKey: TICKETS_KEY });
  }, [client]);
}

const mergeById = (a: ChatMessage[], b: ChatMessage[]) => {
  const byId = new Map<number, ChatMessage>();
  for (const m of [...a, ...b]) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => x.id - y.id);
};

export interface Conversation {
  chatId: number;
  messages: ChatMessage[];
  ticket?: Ticket;
  readUpTo: number;
  hasOlder: boolean;
  loading: boolean;
  error?: { status: number; message: string };
}

/**
 * One open chat: the newest messages first, then the ones `after` the last id held (the server answers
 * them in id order and never skips one) whenever the stream says this chat changed — or, while the stream
 * is down, every POLL_MESSAGES_MS. Reading marks the other side's messages as read, so the list and the
 * badge are refreshed when something new arrives.
 */
export function useConversation(side: Side, chatId: number | null) {
  const [state, setState] = useState<Conversation | null>(null);
  const lastId = useRef(0);
  const poke = useRef<() => void>(() => undefined);
  const refresh = useRefreshSupport();
  // The provider through a ref: the polling loop restarts for a new chat, never for a new provider object.
  const chat = useChat();
  const dataProvider = useRef(chat);
  dataProvider.current = chat;
  // The loop reads the stream's state through a ref: it polls only while the stream is down.
  const live = useLiveConnected();
  const liveRef = useRef(live);
  liveRef.current = live;
  useEffect(() => {
    // The stream dropped: polling resumes now; it came back: one read catches up, then events drive it.
    poke.current();
  }, [live]);

  useEffect(() => {
    if (!chatId) {
      setState(null);
      return undefined;
    }
    let cancelled = false;
    let inFlight = false;
    /** An event (or poke) came while a read was under way: read again once it ends, or the change is lost. */
    let again = false;
    let status: string | undefined;
    const controller = new AbortController();
    lastId.current = 0;
    setState({ chatId, messages: [], readUpTo: 0, hasOlder: false, loading: true });

    // When the next read runs (readScheduler.ts): now after an event or a poke, else periodically while the stream is down.
    const next = readScheduler(() => void tick());
    async function tick() {
      if (cancelled || document.hidden) return;
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      const first = lastId.current === 0;
      try {
        const answer = await dataProvider.current.chatMessages(
          side,
          first ? { chat_id: chatId! } : { chat_id: chatId!, after: lastId.current },
          controller.signal,
        );
        if (cancelled) return;
        const newest = answer.data.at(-1)?.id ?? 0;
        if (newest > lastId.current) lastId.current = newest;
        setState((s) => ({
          chatId: chatId!,
          messages: mergeById(s?.chatId === chatId ? s.messages : [], answer.data),
          ticket: answer.ticket,
          readUpTo: answer.read_up_to,
          hasOlder: first ? answer.has_more : (s?.hasOlder ?? false),
          loading: false,
        }));
        // New messages were marked read, or the chat was closed: the list and the badge follow at once.
        if (answer.data.length || (status && status !== answer.ticket.status)) refresh();
        status = answer.ticket.status;
        // More new messages than one answer holds: ask again at once.
        if (!first && answer.has_more) next.soon();
        else next.later(liveRef.current ? null : POLL_MESSAGES_MS);
      } catch (err: any) {
        if (cancelled || err?.name === 'AbortError') return;
        setState((s) => ({
          ...(s ?? { chatId: chatId!, messages: [], readUpTo: 0, hasOlder: false }),
          loading: false,
          error: { status: err?.status ?? 0, message: err?.message ?? '' },
        }));
        // Not found (or no longer ours) stays so; a network hiccup is retried.
        if (err?.status !== 404 && err?.status !== 403) next.later(POLL_MESSAGES_MS * 2);
      } finally {
        inFlight = false;
        if (again && !cancelled) {
          again = false;
          next.soon();
        }
      }
    }
    poke.current = () => next.soon();
    const onVisible = () => {
      if (!document.hidden) next.soon();
    };
    document.addEventListener('visibilitychange', onVisible);
    const unsubscribe = subscribeLive((m) => {
      if (m.type === 'reset' || ((m.type.startsWith('chat.') || m.type === 'ticket.changed') && m.data.chat_id === chatId)) next.soon();
    });
    void tick();
    return () => {
      cancelled = true;
      unsubscribe();
      controller.abort();
      next.cancel();
      document.removeEventListener('visibilitychange', onVisible);
      poke.current = () => undefined;
    };
  }, [side, chatId, refresh]);

  /** A message this user just sent: shown at once, and the poll fetches whatever came before it. */
  const addOwn = useCallback(
    (m: ChatMessage) => {
      setState((s) => (s && s.chatId === m.chat_id ? { ...s, messages: mergeById(s.messages, [m]), error: undefined } : s));
      poke.current();
      refresh();
    },
    [refresh],
  );

  const setTicket = useCallback(
    (t: Ticket) => {
      setState((s) => (s && s.chatId === t.id ? { ...s, ticket: t } : s));
      refresh();
    },
    [refresh],
  );

  const loadOlder = useCallback(async () => {
    const s = state;
    if (!s || !s.messages.length) return;
    const answer = await dataProvider.current.chatMessages(side, { chat_id: s.chatId, before: s.messages[0].id });
    setState((cur) => (cur && cur.chatId === s.chatId ? { ...cur, messages: mergeById(answer.data, cur.messages), hasOlder: answer.has_more } : cur));
  }, [side, state]);

  return { conversation: state && state.chatId === chatId ? state : null, addOwn, setTicket, loadOlder, pollNow: () => poke.current() };
}
