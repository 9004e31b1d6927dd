/**
 * Messages from outside React to the toasts: a mutation answer's message as a success toast, a server errors
 * object as one error toast per field message. App.tsx wires the data provider's events (`onAnswer`,
 * `onFieldErrors`) here; the provider itself imports no UI.
 */
export interface BusMessage {
  type: 'success' | 'error' | 'info' | 'warning';
  message: string;
}
type Listener = (m: BusMessage) => void;
const listeners = new Set<Listener>();

export const feedbackBus = {
  emit(m: BusMessage) {
    if (!m.message) return;
    for (const l of listeners) l(m);
  },
  subscribe(l: Listener) {
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  },
};

/** A successful write answered `{status: true, message}`: its message becomes a success toast. */
export function announceSuccess(answer: unknown) {
  const message = answer && typeof answer === 'object' ? (answer as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message.trim()) feedbackBus.emit({ type: 'success', message });
}

/** A refused write with field messages: one error toast per message. */
export function announceFieldErrors(errors: Record<string, string[]>) {
  for (const list of Object.values(errors)) for (const message of list) feedbackBus.emit({ type: 'error', message });
}
