import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { canAccess } from '../../model/permissions';
import { MENU, leafPaths, visibleMenu } from '../../src/layout/menuConfig';
import { describeInBrowser, shot } from './harness.js';
import { axeProblems, waitForSettled } from './axe.js';

/**
 * Issue 35 item 1: every screen fits a 390 × 844 phone in Italian, with no page-wide sideways scroll (and a 360 px one).
 * The screens are the sidebar's, read from the code that builds it (src/layout/menuConfig.ts: every entry
 * the role may list), so a new entry is walked as soon as it is added; the test also checks that the
 * drawer shows exactly those. Beyond the sidebar: the booking form and a request's detail (its goods table).
 * Each screen is also checked with axe (0 serious findings at this width).
 */
const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 780 };
const ROLES = ['admin', 'carrier', 'enduser'] as const;

/** The sidebar's leaves a kind sees, as the code builds them (every entry has its screen: menuConfig.test.ts). */
const sidebarPaths = (kind: (typeof ROLES)[number]) => leafPaths(visibleMenu(kind, new Set(leafPaths(MENU)), (k, r) => canAccess(k, r, 'list')));

/** Opens every group of the phone's drawer and answers its links' paths, in order. */
async function drawerPaths(page: Page): Promise<string[]> {
  await page.getByTestId('menu-toggle').click();
  const menu = page.getByTestId('sidebar-drawer').getByTestId('sidebar-menu');
  await menu.waitFor({ state: 'visible' });
  // Groups nest (price manager > accessories > express): open the closed ones until none is left.
  for (let closed = menu.locator('[aria-expanded=false]'); await closed.count();) await closed.first().click();
  const hrefs = await menu.locator('a[href]').evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  return hrefs.map((h) => h.replace(/^#/, ''));
}

/** How much wider than the window the page is (0: it fits), for the document and for the body. */
const overflow = (page: Page) =>
  page.evaluate(() => ({
    html: document.documentElement.scrollWidth - window.innerWidth,
    body: document.body.scrollWidth - window.innerWidth,
    // the widest offender, to name in the failure
    widest: (() => {
      let worst: { what: string; right: number } | null = null;
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right > window.innerWidth + 1 && (!worst || r.right > worst.right)) {
          // the outermost element past the edge whose parent still fits (where the problem starts)
          const parent = el.parentElement?.getBoundingClientRect();
          if (parent && parent.right > window.innerWidth + 1) continue;
          const cls = typeof el.className === 'string' ? el.className.split(' ').find((c) => c && !c.startsWith('css-')) : '';
          worst = {
            what: `${el.tagName.toLowerCase()}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ''}${cls ? `.${cls}` : ''}`,
            right: Math.round(r.right),
          };
        }
      }
      return worst;
    })(),
  }));

/** Waits for two frames: what a change of the window's size sets off (media queries, resize observers) is drawn. */
const nextFrames = (page: Page) => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

/** Opens a screen by its address (as a link would) and waits for its heading and its data. */
async function openScreen(page: Page, path: string) {
  await page.evaluate((p) => {
    window.location.hash = p;
  }, path);
  await expect.poll(() => page.evaluate(() => window.location.hash.replace(/^#/, ''))).toBe(path);
  await page.locator('main h1').first().waitFor({ state: 'visible' });
  await waitForSettled(page);
}

describeInBrowser('every screen fits a 390 px phone (issue 35)', (ctx) => {
  for (const kind of ROLES) {
    it(`${kind}: every sidebar screen, the booking form and a request's detail fit 390 px`, { timeout: 360_000 }, async () => {
      const { page, errors } = await ctx.page({ viewport: PHONE });
      await ctx.login(page, `${kind}@portal.demo`);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('it');
      const paths = sidebarPaths(kind);
      expect(paths.length).toBeGreaterThan(5);
      expect(await drawerPaths(page)).toEqual(paths);

      const wide: string[] = [];
      const axe: string[] = [];
      const check = async (name: string) => {
        const o = await overflow(page);
        // Every screen's picture (test-results/): fitting is not enough, it must be readable.
        await shot(page, `phone-fit-${kind}-${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`);
        if (o.html > 0 || o.body > 0)
          wide.push(`${name}: ${PHONE.width + Math.max(o.html, o.body)} px${o.widest ? ` (from ${o.widest.what}, right edge ${o.widest.right} px)` : ''}`);
        axe.push(...(await axeProblems(page, `${name} [${kind}, 390 px]`)));
        // The narrowest phones the issue names (360 px): the same screen, its width only. The window is narrowed
        // on the open screen, as a phone turned or a split screen does, instead of opening every screen again
        // (both widths are below the theme's first breakpoint, 600 px: the same layout, laid out again).
        await page.setViewportSize(NARROW);
        await nextFrames(page);
        const n = await overflow(page);
        if (n.html > 0 || n.body > 0)
          wide.push(`${name} at ${NARROW.width} px: ${NARROW.width + Math.max(n.html, n.body)} px${n.widest ? ` (from ${n.widest.what})` : ''}`);
        await page.setViewportSize(PHONE);
        await nextFrames(page);
      };
      for (const path of paths) {
        await openScreen(page, path);
        await check(path);
      }
      // The booking form (not in the sidebar: the dashboard's and the list's "new request").
      if (canAccess(kind, 'transport-requests-visuals', 'create')) {
        await openScreen(page, '/transport-requests');
        await check('/transport-requests (booking form)');
      }
      // A request's detail, opened from the list as a user does: its goods table must fit too.
      await openScreen(page, '/transport-requests-visuals');
      await page.getByTestId('row-view').first().click();
      await page.waitForURL(/#\/transport-requests-visuals\/\d+\/\d+/);
      await page.getByTestId('request-detail').waitFor({ state: 'visible' });
      await waitForSettled(page);
      await check('/transport-requests-visuals/:id (request detail)');

      // Dialogs are full-screen on a phone (the theme's default, brandTheme.ts): a tariff table's upload dialog.
      if (canAccess(kind, 'express-hub-costs', 'create')) {
        await openScreen(page, '/express-hub-costs');
        await page.getByTestId('upload-open').click();
        const paper = page.getByTestId('upload-dialog').locator('.MuiDialog-paper');
        await paper.waitFor({ state: 'visible' });
        await expect
          .poll(() => paper.evaluate((el) => JSON.stringify(el.getBoundingClientRect())))
          .toBe(JSON.stringify({ x: 0, y: 0, width: PHONE.width, height: PHONE.height, top: 0, right: PHONE.width, bottom: PHONE.height, left: 0 }));
        await shot(page, `phone-fit-${kind}-upload-dialog`);
        await page.keyboard.press('Escape');
        await paper.waitFor({ state: 'detached' });
      }

      expect(wide, `screens wider than the phone:\n${wide.join('\n')}`).toEqual([]);
      expect(axe, `axe violations:\n${axe.join('\n\n')}`).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  it('a desktop keeps its tables: the tariff table and the countries have their header row and table rows at 1280 px', async () => {
    const { page } = await ctx.page({ viewport: { width: 1280, height: 800 } });
    await ctx.login(page, 'admin@portal.demo');
    for (const path of ['/countries', '/express-island-zones', '/rate-sheets']) {
      await openScreen(page, path);
      const table = page.locator('main table').first();
      await table.waitFor();
      expect(await table.locator('thead').first().isVisible(), path).toBe(true);
      expect(
        await table
          .locator('tbody tr')
          .first()
          .evaluate((tr) => getComputedStyle(tr).display),
        path,
      ).toBe('table-row');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
    }
    // and a phone does not: each row is a card, its values labelled
    await page.setViewportSize(PHONE);
    await openScreen(page, '/countries');
    const row = page.locator('main table tbody tr').first();
    await expect.poll(() => row.evaluate((tr) => getComputedStyle(tr).display)).toBe('flex');
    expect(await page.locator('main table thead').first().isVisible()).toBe(false);
    expect(await row.locator('td[data-label="Codice"]').evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Codice"');
  });
});
