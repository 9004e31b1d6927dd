import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';

/**
 * Issue 37: the four public pages' first screens are prerendered into the built index.html (build/prerender.ts)
 * and shown, chosen by the address, before any script file arrives; React's first render replaces them.
 * These tests fail when the snapshots are missing or stale (another text, another layout than React's), when
 * one could be focused or found by a test id, or when one shows where it must not (a signed-in user, a
 * language other than Italian, another address).
 */
const PHONE = { width: 390, height: 844 };
const PAGES = ['/login', '/quote', '/track', '/access-request'];

/**
 * What is compared, snapshot against React, per page: the elements of the first screen, in document order
 * (at most the first `n` of each selector: the quote page's calculator and the access request's user fields
 * and pickers come after the first paint, below these).
 */
const COMPARED: Record<string, Array<[selector: string, n: number]>> = {
  '/login': [
    ['h1', 1],
    ['h1 + p', 1],
    ['img', 1],
    ['input', 3],
    ['button', 4],
    ['a', 4],
  ],
  '/quote': [
    ['header', 1],
    ['h1', 1],
    ['h1 + p', 1],
    ['img', 1],
    ['header button, header a', 5],
  ],
  '/track': [
    ['h1', 1],
    ['h1 + p', 1],
    ['img', 1],
    ['input', 2],
    ['button', 4],
    ['a', 2],
  ],
  '/access-request': [
    ['h1', 1],
    ['h1 + p', 1],
    ['img', 1],
    ['h2', 2],
    ['input', 8],
  ],
};

type Box = { selector: string; text: string; x: number; y: number; width: number; height: number };

/** The compared elements' text and box, under `scope` (the snapshot's container, or #root). */
const boxes = (page: Page, scope: string, route: string) =>
  page.evaluate(
    ({ scope, compared }) =>
      compared.flatMap(([selector, n]) =>
        [...document.querySelectorAll(`${scope} :is(${selector})`)].slice(0, n).map((el) => {
          const r = el.getBoundingClientRect();
          return { selector, text: (el as HTMLElement).innerText ?? '', x: r.x, y: r.y, width: r.width, height: r.height };
        }),
      ),
    { scope, compared: COMPARED[route]! },
  ) as Promise<Box[]>;

/** The page with its script files refused: what a phone shows before they arrive (index.html alone). */
async function htmlOnly(page: Page, url: string) {
  await page.route('**/assets/*.js', (r) => r.abort());
  await page.goto(url);
  await page.locator('body').waitFor({ state: 'attached' });
}

const snapshotShown = (page: Page) =>
  page.evaluate(() => ({
    chosen: document.documentElement.getAttribute('data-prerender'),
    visible: [...document.querySelectorAll<HTMLElement>('[data-prerender-page]')].filter((el) => el.offsetHeight > 0).map((el) => el.dataset.prerenderPage),
  }));

describeInBrowser(
  'Prerendered public pages (issue 37, Chromium)',
  (ctx) => {
    it('the built index.html holds the four snapshots, inert, hidden from assistive technology, without test ids, ids or autofocus', () => {
      const html = fs.readFileSync(path.resolve('dist', 'index.html'), 'utf8');
      const snapshots = [...html.matchAll(/<div data-prerender-page="([^"]+)"([^>]*)>/g)];
      expect(snapshots.map((m) => m[1])).toEqual(PAGES);
      for (const m of snapshots) expect(m[2]).toBe(' inert aria-hidden="true"');
      const root = html.slice(html.indexOf('<div id="root">') + '<div id="root">'.length, html.indexOf('</body>'));
      expect(root).not.toMatch(/ (data-testid|id|for|autofocus|name)="/);
      // the chooser is the page's only inline script (the server allows it by its hash)
      expect([...html.matchAll(/<script>/g)]).toHaveLength(1);
    });

    it('before any script file arrives, each page shows its own snapshot, in Italian, and nothing in it takes focus', async () => {
      for (const route of PAGES) {
        const { page } = await ctx.page({ viewport: PHONE });
        await htmlOnly(page, `${ctx.portal.url}/#${route}`);
        expect(await snapshotShown(page), route).toEqual({ chosen: route, visible: [route] });
        expect(await page.locator('h1').filter({ visible: true }).count(), route).toBe(1);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('it');
        for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.tagName), route).toBe('BODY');
        // axe and screen readers: nothing of it is exposed (the snapshot is aria-hidden and inert)
        expect(await page.locator('h1').filter({ visible: true }).getAttribute('aria-hidden')).toBeNull();
        expect(await page.getByRole('heading').count(), route).toBe(0);
        await page.context().close();
      }
    });

    it("React's render has the snapshot's texts and layout at 390 px, and the snapshot is gone from the page", async () => {
      for (const route of PAGES) {
        const { page, errors } = await ctx.page({ viewport: PHONE });
        await htmlOnly(page, `${ctx.portal.url}/#${route}`);
        const before = await boxes(page, `[data-prerender-page="${route}"]`, route);
        await shot(page, `prerender-${route.slice(1)}-snapshot`);
        await page.context().close();

        const { page: live } = await ctx.page({ viewport: PHONE });
        await live.goto(`${ctx.portal.url}/#${route}`);
        await expect.poll(() => live.evaluate(() => document.querySelectorAll('[data-prerender-page]').length)).toBe(0);
        // the snapshot's rules stay, adopted by emotion (its server-rendering hydration marks them `data-s`): not compiled again
        expect(await live.evaluate(() => ['media', 'data-s'].map((a) => document.getElementById('prerender-css')?.hasAttribute(a)))).toEqual([false, true]);
        expect(await live.evaluate(() => document.documentElement.hasAttribute('data-prerender'))).toBe(false);
        const after = await boxes(live, '#root', route);
        await shot(live, `prerender-${route.slice(1)}-react`);
        expect(errors).toEqual([]);
        expect(after.length, route).toBe(before.length);
        for (const [selector] of COMPARED[route]!) expect(before.filter((b) => b.selector === selector).length, `${route} ${selector}`).toBeGreaterThan(0);
        for (const [i, b] of before.entries()) {
          const a = after[i]!;
          expect(a.text, `${route} ${b.selector} #${i}`).toBe(b.text);
          for (const k of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(a[k] - b[k]), `${route} ${b.selector} #${i} ${k}`).toBeLessThanOrEqual(1);
        }
        // one of each test id: the snapshot left none behind
        const ids = await live.evaluate(() => [...document.querySelectorAll('[data-testid]')].map((e) => e.getAttribute('data-testid')));
        expect(ids.length).toBe(new Set(ids).size);
      }
    });

    it('no snapshot for a signed-in user, another language, another address or an address with a query', async () => {
      const cases: Array<{ name: string; hash: string; setup?: (page: Page) => Promise<unknown> }> = [
        { name: 'signed in, private page', hash: '/', setup: (p) => p.context().addCookies([{ name: 'userToken', value: 'x', url: ctx.portal.url }]) },
        { name: 'signed in, login', hash: '/login', setup: (p) => p.context().addCookies([{ name: 'userToken', value: 'x', url: ctx.portal.url }]) },
        { name: 'English', hash: '/login', setup: (p) => p.addInitScript(() => localStorage.setItem('Portal.locale', '"en"')) },
        { name: 'French', hash: '/quote', setup: (p) => p.addInitScript(() => localStorage.setItem('Portal.locale', '"fr"')) },
        { name: 'root', hash: '/' },
        { name: 'another public page', hash: '/forget-password' },
        { name: 'an invitation', hash: '/access-request?carrier=1' },
        { name: 'a tracking link', hash: '/track?code=X&postal_code=1' },
      ];
      for (const c of cases) {
        const { page } = await ctx.page({ viewport: PHONE });
        await c.setup?.(page);
        await htmlOnly(page, `${ctx.portal.url}/#${c.hash}`);
        expect(await snapshotShown(page), c.name).toEqual({ chosen: null, visible: [] });
        // and its rules are gone: they style nothing else
        expect(await page.locator('#prerender-css').count(), c.name).toBe(0);
        await page.context().close();
      }
      // Italian chosen explicitly: the snapshot shows
      const { page } = await ctx.page({ viewport: PHONE });
      await page.addInitScript(() => localStorage.setItem('Portal.locale', '"it"'));
      await htmlOnly(page, `${ctx.portal.url}/#/track`);
      expect(await snapshotShown(page)).toEqual({ chosen: '/track', visible: ['/track'] });
    });
  },
  { reuseContexts: false },
); // each test measures a first visit: a new context, nothing cached
