import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser } from './harness.js';

/**
 * Every sidebar screen of every role, in Italian, shows words: no message key left untranslated
 * ("resources.companies.fields.x", "text-rate-sheets", "tariffs.kind_remote"), no "undefined", "NaN" or
 * "[object Object]" where a value belongs. Keys are told from e-mail addresses and file names by their
 * namespace (the catalogues' top-level names) and by not following an "@". react-admin's encoded validation
 * messages (`@@react-admin@@"ra.validation.required"`, issue 35: under "Città") count as keys too.
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
  `@@react-admin@@|(?<![@\\w.-])(?:${NAMESPACES.join('|')})\\.[a-z][A-Za-z0-9_]*|(?<![\\w-])text-[a-z]|\\bundefined\\b|\\bNaN\\b|\\[object Object\\]`,
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

/**
 * Forms' messages (issue 35): each step of the company stepper sent empty shows its required fields'
 * messages in Italian, never the encoded key a custom input once printed under "Città".
 */
describeInBrowser('no message key under the inputs of a form sent empty, in Italian', (ctx) => {
  for (const who of ['admin', 'carrier']) {
    it(`${who}: the new company's steps`, { timeout: 120_000 }, async () => {
      const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
      await ctx.login(page, `${who}@portal.demo`, { at: '/companies/new' });
      await page.getByTestId('company-next').waitFor();
      const found: string[] = [];
      const read = async (step: string) => {
        const text = await page.locator(`[data-step=${step}]`).innerText();
        for (const m of text.match(RAW) ?? []) found.push(`${step}: ${m}`);
        return text;
      };
      // Step 1 sent empty: its required fields speak Italian.
      await page.getByTestId('company-next').click();
      await expect.poll(() => read('settings')).toContain('Obbligatorio');
      // Filled enough to reach step 2, which is sent empty too.
      for (const field of ['Categoria di prezzo', 'Lingua']) {
        const input = page.getByRole('combobox', { name: new RegExp(`^${field}\\s*\\*?$`) });
        await input.click();
        await page.getByRole('option').first().click();
      }
      if (who === 'admin') {
        await page.getByRole('combobox', { name: /^Ruolo\b/ }).click();
        await page.getByRole('option', { name: 'Vettore' }).click();
      }
      await page.getByTestId('company-next').click();
      await expect.poll(() => page.locator('[data-step=details]').getAttribute('data-active')).toBe('1');
      // A carrier company has two steps: the second one is sent by Save.
      await page.getByTestId('company-next').or(page.getByTestId('company-save')).click();
      const city = page.locator('[data-step=details] .MuiFormControl-root').filter({ has: page.getByRole('combobox', { name: /^Città/ }) });
      await expect.poll(() => city.locator('.MuiFormHelperText-root').textContent()).toBe('Obbligatorio');
      await read('details');
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});
