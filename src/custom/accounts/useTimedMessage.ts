import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that clears itself after `ms` (the reset screen's 2 s, the profile notice's 3 s). */
export function useTimedMessage(ms: number): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback(
    (m: string | null) => {
      clearTimeout(timer.current);
      setMessage(m);
      if (m) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
