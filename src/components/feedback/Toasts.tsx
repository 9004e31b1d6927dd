import { isValidElement, useCallback, useEffect, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { useNotificationContext, useTakeUndoableMutation, useTranslate, type NotificationPayload } from 'react-admin';
import { Alert, Box, Button } from '@mui/material';
import { feedbackBus, type BusMessage } from './bus';

/** Accounts document §4, §9: toasts close after 5000 ms, top-right, dismissed past 80% of a sideways drag. */
export const TOAST_DURATION = 5000;
export const DRAG_DISMISS_RATIO = 0.8;
/** At most this many toasts show at once; the others wait their turn. */
export const TOAST_LIMIT = 4;
/** react-admin's own success texts, dropped when the server's message for the same write was just shown. */
const GENERIC_SUCCESS = ['ra.notification.created', 'ra.notification.updated', 'ra.notification.deleted'];
const GENERIC_WINDOW_MS = 3000;

export interface ToastItem {
  id: number;
  type: BusMessage['type'];
  message: ReactNode;
  args?: Record<string, unknown>;
  undoable?: boolean;
  duration: number | null;
}

let nextId = 1;

/**
 * One toast: its own timer, paused while the pointer is over it or the window has lost focus; a
 * click closes it, a sideways drag past 80% of its width dismisses it (a shorter drag springs back).
 */
export function Toast({ toast, onClose, onUndo }: { toast: ToastItem; onClose: (id: number) => void; onUndo?: (id: number) => void }) {
  const translate = useTranslate();
  const [hovered, setHovered] = useState(false);
  const [blurred, setBlurred] = useState(false);
  const [dx, setDx] = useState(0);
  const drag = useRef<{ x: number; width: number; moved: boolean } | null>(null);
  const remaining = useRef(toast.duration);
  const close = useCallback(() => onClose(toast.id), [onClose, toast.id]);

  useEffect(() => {
    const blur = () => setBlurred(true);
    const focus = () => setBlurred(false);
    window.addEventListener('blur', blur);
    window.addEventListener('focus', focus);
    return () => {
      window.removeEventListener('blur', blur);
      window.removeEventListener('focus', focus);
    };
  }, []);

  const paused = hovered || blurred || drag.current !== null;
  useEffect(() => {
    if (paused || remaining.current === null) return;
    const started = Date.now();
    const timer = setTimeout(close, remaining.current);
    return () => {
      clearTimeout(timer);
      if (remaining.current !== null) remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [paused, close]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    drag.current = { x: e.clientX, width: e.currentTarget.getBoundingClientRect().width || 1, moved: false };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const d = e.clientX - drag.current.x;
    if (Math.abs(d) > 4) drag.current.moved = true;
    setDx(d);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    drag.current = null;
    const d = e.clientX - start.x;
    if (!start.moved || Math.abs(d) > start.width * DRAG_DISMISS_RATIO) close();
    else setDx(0);
  };

  const text =
    typeof toast.message === 'string'
      ? translate(toast.message, { _: toast.message, ...(toast.args ?? {}) })
      : isValidElement(toast.message)
        ? toast.message
        : String(toast.message ?? '');
  return (
    <Box
      data-testid="toast"
      data-type={toast.type}
      role={toast.type === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        drag.current = null;
        setDx(0);
      }}
      sx={{
        transform: `translateX(${dx}px)`,
        opacity: drag.current ? Math.max(0.2, 1 - Math.abs(dx) / 400) : 1,
        transition: drag.current ? 'none' : 'transform 300ms, opacity 300ms',
        cursor: 'pointer',
        touchAction: 'pan-y',
        userSelect: 'none',
      }}
    >
      <Alert
        variant="filled"
        severity={toast.type}
        onClose={(e) => {
          e.stopPropagation();
          close();
        }}
        slotProps={{ closeButton: { title: translate('ra.action.close', { _: 'Close' }) } as object }}
        action={
          toast.undoable && onUndo ? (
            <Button
              color="inherit"
              size="small"
              onClick={(e) => {
                e.stopPropagation();
                onUndo(toast.id);
              }}
            >
              {translate('ra.action.undo')}
            </Button>
          ) : undefined
        }
        sx={{ boxShadow: 3, alignItems: 'center', whiteSpace: 'pre-line' }}
      >
        {text}
      </Alert>
    </Box>
  );
}

/**
 * react-admin's notification slot: every `notify()` and every message of the feedback bus becomes a
 * toast, top-right (`top` below the shell's bar), at most `limit` at once. The shell passes it as
 * `<Admin notification={ShellToasts}>` (layout/Layout.tsx).
 */
export function Toasts({ limit = TOAST_LIMIT, duration = TOAST_DURATION, top = '0px' }: { limit?: number; duration?: number; top?: string }) {
  const { notifications, setNotifications } = useNotificationContext();
  const takeMutation = useTakeUndoableMutation();
  const [queue, setQueue] = useState<ToastItem[]>([]);
  const lastServerSuccess = useRef(0);

  const push = useCallback((items: ToastItem[]) => {
    if (items.length) setQueue((q) => [...q, ...items]);
  }, []);

  useEffect(
    () =>
      feedbackBus.subscribe((m) => {
        if (m.type === 'success') lastServerSuccess.current = Date.now();
        push([{ id: nextId++, type: m.type, message: m.message, duration }]);
      }),
    [push, duration],
  );

  useEffect(() => {
    if (!notifications.length) return;
    const fresh = notifications.filter(
      (n: NotificationPayload) =>
        !(
          n.type !== 'error' &&
          typeof n.message === 'string' &&
          GENERIC_SUCCESS.includes(n.message) &&
          Date.now() - lastServerSuccess.current < GENERIC_WINDOW_MS &&
          !n.notificationOptions?.undoable
        ),
    );
    setNotifications([]);
    push(
      fresh.map((n) => {
        const o = n.notificationOptions ?? {};
        return {
          id: nextId++,
          type: n.type,
          message: n.message,
          args: o.messageArgs,
          undoable: !!o.undoable,
          duration: o.autoHideDuration === null ? null : (o.autoHideDuration ?? duration),
        };
      }),
    );
  }, [notifications, setNotifications, push, duration]);

  const queueRef = useRef(queue);
  queueRef.current = queue;
  const finish = useCallback(
    (id: number, isUndo: boolean) => {
      const t = queueRef.current.find((x) => x.id === id);
      if (!t) return;
      if (t.undoable) takeMutation()?.({ isUndo });
      setQueue((q) => q.filter((x) => x.id !== id));
    },
    [takeMutation],
  );
  const onClose = useCallback((id: number) => finish(id, false), [finish]);
  const onUndo = useCallback((id: number) => finish(id, true), [finish]);

  if (!queue.length) return null;
  return (
    <Box
      data-testid="toasts"
      aria-live="polite"
      sx={{
        // Top-right, just below the top bar, so the language switcher and user menu stay reachable.
        position: 'fixed',
        top: `calc(${top} + 8px)`,
        right: 16,
        zIndex: (t) => t.zIndex.snackbar,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        width: { xs: 'calc(100% - 32px)', sm: 380 },
      }}
    >
      {queue.slice(0, limit).map((t) => (
        <Toast key={t.id} toast={t} onClose={onClose} onUndo={onUndo} />
      ))}
    </Box>
  );
}
