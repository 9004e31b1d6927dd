import { startTransition, useEffect, useState } from 'react';

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
