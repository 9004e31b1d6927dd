import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser } from './harness.js';

/**
 * Every sidebar screen of every role, in Italian, shows words: no message key left untranslated
 * ("resources.companies.fields.x", "text-rate-sheets", "tariffs.kind_remote"), no "undefined", "NaN" or
 * "[object Object]" where a value belongs. Keys are told from e-mail addresses and file names by their
 * namespace (the catalogues' top-level names) and by not following an "@".
 */
const NAMESPACES = [
  'resources',
  'ra',
  'portal',
  'calculator',
  'requests',
  'tariffs',
  'rate_sheets',
  'enduser_rate_sheets',
  'notifications',
  'support',
  'dashboard',
  'audit',
  'accounts',
  'portalSettings',
  'request_access',
  'tracking',
  'timeline',
  'validation',
];
const RAW = new RegExp(
  `(?<![@\\w.-])(?:${NAMESPACES.join('|')})\\.[a-z][A-Za-z0-9_]*|(?<![\\w-])text-[a-z]|\\bundefined\\b|\\bNaN\\b|\\[object Object\\]`,
  'g',
);

async function settled(page: Page) {
  await page.waitForTimeout(300);
  await expect
    .poll(() => page.locator('.MuiCircularProgress-root, .MuiLinearProgress-root, .MuiSkeleton-root').count(), { timeout: 8000 })
    .toBe(0)
    .catch(() => undefined); // a screen that keeps a spinner is still read
}

/** The sidebar's screens, every group opened. */
async function menuPaths(page: Page): Promise<string[]> {
  const menu = page.getByTestId('sidebar-menu');
  for (let i = 0; i < 8 && (await menu.locator('[aria-expanded=false]').count()); i++) await menu.locator('[aria-expanded=false]').first().click();
  return menu.locator('a[data-menu]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
}

describeInBrowser('no message key, undefined or NaN on any screen of the sidebar, in Italian', (ctx) => {
  for (const who of ['admin', 'carrier', 'enduser']) {
    it(`${who}: every menu entry`, { timeout: 120_000 }, async () => {
      const { page, errors } = await ctx.page({ viewport: { width: 1366, height: 768 } });
      await ctx.login(page, `${who}@portal.demo`);
      const paths = await menuPaths(page);
      expect(paths.length).toBeGreaterThan(3);
      const found: string[] = [];
      for (const href of paths) {
        await page.goto(`${ctx.portal.url}/${href}`);
        await settled(page);
        const text = await page.locator('body').innerText();
        for (const m of text.match(RAW) ?? []) found.push(`${href}: ${m}`);
      }
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});
