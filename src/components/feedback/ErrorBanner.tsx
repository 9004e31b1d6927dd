import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Box, Collapse } from '@mui/material';
import { collectMessages, isRefusal } from './errors';

/** Accounts document §8, §9: the banner shows for 5 s. */
export const BANNER_DURATION = 5000;

/**
 * The error banner: `show(error)` collects the error's message plus the body's message or every
 * field's messages (a success-shaped `status: false` answer too) and shows them in a red alert for
 * 5 seconds; a new error replaces the shown one and restarts the time.
 */
export function useErrorBanner(duration = BANNER_DURATION) {
  const [messages, setMessages] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setMessages([]);
  }, []);
  const show = useCallback(
    (error: unknown) => {
      const list = collectMessages(error);
      clearTimeout(timer.current);
      setMessages(list);
      timer.current = setTimeout(() => setMessages([]), duration);
    },
    [duration],
  );
  /** Shows a refusal answer (`status: false`); answers whether it was one. */
  const check = useCallback(
    (answer: unknown) => {
      if (!isRefusal(answer)) return false;
      show(answer);
      return true;
    },
    [show],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return { messages, show, check, clear };
}

export function ErrorBanner({ messages, onClose }: { messages: string[]; onClose?: () => void }) {
  const translate = useTranslate();
  return (
    <Collapse in={messages.length > 0} timeout={300} unmountOnExit>
      <Box sx={{ mb: 2 }}>
        <Alert severity="error" variant="filled" role="alert" data-testid="error-banner" onClose={onClose}>
          {messages.length === 1 ? (
            translate(messages[0], { _: messages[0] })
          ) : (
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {messages.map((m) => (
                <li key={m}>{translate(m, { _: m })}</li>
              ))}
            </Box>
          )}
        </Alert>
      </Box>
    </Collapse>
  );
}
