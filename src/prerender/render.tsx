/**
 * Build-time only (issue 37; never part of the browser bundle): the first screen of the public pages a visitor
 * meets, rendered in Node by build/prerender.ts through Vite's SSR module loader, exactly as src/main.tsx
 * renders them in the browser (the public shell, PublicApp, at that route, in Italian: no language is stored
 * in Node), with the CSS emotion generated for them.
 *
 * React's `prerenderToNodeStream` waits for the lazy pages (tracking, access request) instead of writing
 * their progress, and effects do not run on the server, so what is written is React's first commit in the
 * browser: the quote page without its calculator, the access request without the user's fields (both follow
 * the first paint, `useAfterFirstPaint`).
 */
import { Writable } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router-dom';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import PublicApp from '../PublicApp';
import { PRERENDERED } from '../publicPages';

export interface RenderedPage {
  route: string;
  html: string;
  /** emotion's rules for this page, by name (the same name on several pages is the same rule) */
  css: Array<[string, string]>;
}

export const PRERENDERED_ROUTES = Object.keys(PRERENDERED);

export async function renderPublicPage(route: string): Promise<RenderedPage> {
  // The browser's default cache key (`css`), so the class names are those React will write. `compat`: the
  // rules are kept in `cache.inserted` instead of written as <style> elements beside the components
  // (what @emotion/server's extraction reads too).
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  const { prelude } = await prerenderToNodeStream(
    <CacheProvider value={cache}>
      <MemoryRouter initialEntries={[route]}>
        <PublicApp />
      </MemoryRouter>
    </CacheProvider>,
  );
  let html = '';
  await new Promise<void>((resolve, reject) =>
    prelude.pipe(
      new Writable({
        write(chunk, _enc, next) {
          html += String(chunk);
          next();
        },
        final(done) {
          resolve();
          done();
        },
      }).on('error', reject),
    ),
  );
  const css = Object.entries(cache.inserted).filter((e): e is [string, string] => typeof e[1] === 'string');
  return { route, html, css };
}
