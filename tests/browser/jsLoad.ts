import zlib from 'node:zlib';
import type { Page, Request, Response } from 'playwright-core';

/**
 * What JavaScript a page downloads (issue 11), shared by `npm run bench:bundle` and
 * tests/browser/bundle.test.ts. The server sends the files uncompressed; each body is gzipped here
 * with zlib at its default level (6), which is what "gzipped size" means in the budget.
 */

/** The login screen's first load: at most 350 kB of gzipped JavaScript (kB = 1000 bytes, as Vite prints). */
export const FIRST_LOAD_BUDGET = 350_000;

export interface JsChunk {
  url: string;
  /** the file name under /assets/ */
  name: string;
  raw: number;
  gzip: number;
  body: string;
}

const isJs = (r: Response) => /\.m?js(\?|$)/.test(new URL(r.url()).pathname) || /javascript/.test(r.headers()['content-type'] ?? '');

/**
 * Records every JavaScript response of the page, once per URL, from now on. `take()` answers the chunks
 * that arrived since the previous `take()` (the first: since recording began), bodies read in full.
 */
export function recordJs(page: Page) {
  const seen = new Set<string>();
  let pending: Array<Promise<JsChunk | null>> = [];
  page.on('response', (r) => {
    if (!isJs(r) || seen.has(r.url())) return;
    seen.add(r.url());
    pending.push(
      r.body().then(
        (b) => ({
          url: r.url(),
          name: new URL(r.url()).pathname.split('/').pop() ?? r.url(),
          raw: b.length,
          gzip: zlib.gzipSync(b).length,
          body: b.toString('utf8'),
        }),
        () => null,
      ),
    );
  });
  return {
    async take(): Promise<JsChunk[]> {
      const batch = pending;
      pending = [];
      const got = (await Promise.all(batch)).filter((c): c is JsChunk => !!c);
      return got.sort((a, b) => b.gzip - a.gzip);
    },
  };
}

/**
 * Resolves once no request of the page has been in flight for `quietMs` (hash navigations never fire
 * Playwright's load states, so this counts requests itself). Start it before the action that loads.
 */
export function networkIdle(page: Page, quietMs = 500, timeoutMs = 30_000): { wait(): Promise<void> } {
  const inFlight = new Set<Request>();
  const on = (r: Request) => inFlight.add(r);
  const off = (r: Request) => inFlight.delete(r);
  page.on('request', on);
  page.on('requestfinished', off);
  page.on('requestfailed', off);
  return {
    async wait() {
      const start = Date.now();
      let quietSince = Date.now();
      try {
        for (;;) {
          if (inFlight.size > 0) quietSince = Date.now();
          else if (Date.now() - quietSince >= quietMs) return;
          if (Date.now() - start > timeoutMs) throw new Error(`network not idle after ${timeoutMs} ms: ${[...inFlight].map((r) => r.url()).join(', ')}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        page.off('request', on);
        page.off('requestfinished', off);
        page.off('requestfailed', off);
      }
    },
  };
}

export const sum = (chunks: JsChunk[], key: 'raw' | 'gzip' = 'gzip') => chunks.reduce((n, c) => n + c[key], 0);
export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Opens /#/login signed out and answers the JS it downloaded until the form shows and the network is idle. */
export async function loginFirstLoad(page: Page, base: string): Promise<JsChunk[]> {
  const js = recordJs(page);
  const idle = networkIdle(page);
  await page.goto(`${base}/#/login`);
  await page.locator('input[name=email]').waitFor({ state: 'visible' });
  await idle.wait();
  return js.take();
}

/** Opens a screen by its hash path and waits for its code and data: no loading placeholder, network idle. */
export async function openScreen(page: Page, base: string, hashPath: string) {
  const idle = networkIdle(page);
  await page.goto(`${base}/#${hashPath}`);
  await idle.wait();
  await page.getByTestId('screen-loading').first().waitFor({ state: 'detached' });
}
