import { startTransition, useEffect, useRef, useState } from 'react';

/**
 * True from the frame after the first paint, set in a transition (React renders it in slices, between which
 * the browser paints and answers input). A public page renders its first screen (title, introduction, the
 * first fields: what a phone paints first, Lighthouse's LCP) before the rest, and the files the rest needs
 * are requested once that screen is on show, not competing with it (issues 18 and 37, measured with
 * Lighthouse, mobile: the quote page's calculator fetched before the first render put its LCP at 2.9–3.0 s
 * against 2.5 s).
 */
export function useAfterFirstPaint() {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer = 0;
    const frame = requestAnimationFrame(() => (timer = window.setTimeout(() => startTransition(() => setPainted(true)))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/**
 * In place of `autoFocus` on a page's first field: the field is focused by a passive effect, after React's
 * commit, not during it. Issue 37: `autoFocus` focuses inside the commit, and focusing makes the browser
 * compute the styles and layout of the whole new page there and then (~30 ms of the login's first commit,
 * unthrottled: one long task on a 4× slower phone); after the commit, the frame has already done that work.
 */
export function useFocusAfterCommit<T extends HTMLElement>(when = true) {
  const ref = useRef<T>(null);
  // again when `when` turns true (the login's form back from the second step: a new field, as autoFocus did)
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}
