import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';

const rowTexts = async (page: Page) => (await page.locator('table tbody tr').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

/**
 * A resource that exists only as a declaration, a registry line and a migration (diesel prices,
 * model/resources/diesel-prices.ts): its menu entry, list and create screen in Italian for the admin,
 * and the read-only list its declaration gives the carrier.
 */
describeInBrowser('a declared resource in Chromium: diesel prices', (ctx) => {
  it('the admin finds it in the price manager group, adds a month and sees it in Italian', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    await page.locator('[data-menu="price-manager"]').click();
    await page.locator('[data-menu="diesel-prices"]').click();
    await page.getByTestId('page-title').waitFor();
    expect(await page.getByTestId('page-title').textContent()).toBe('Prezzi del gasolio');
    // Nothing yet: the declared empty text, with the add button.
    await expect.poll(() => page.locator('main').textContent()).toContain('Nessun prezzo del gasolio');
    await page.getByTestId('add').click();
    const dialog = page.getByTestId('dialog-create');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Nuovo prezzo del gasolio');
    // A wrong month is refused in the form, in Italian, before anything is sent.
    await page.fill('input[name=month]', '11/2026');
    await page.fill('input[name=price]', '1.587');
    await page.getByTestId('dialog-save').click();
    await expect.poll(() => dialog.textContent()).toContain('Scrivi il mese come AAAA-MM');
    await page.fill('input[name=month]', '2026-11');
    await page.fill('textarea[name=note]', 'MASE, media mensile');
    await shot(page, 'declared-diesel-create');
    await page.getByTestId('dialog-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain('Prezzo del gasolio salvato');
    await expect.poll(() => rowTexts(page)).toEqual(['novembre 20261,587MASE, media mensile']);
    const stored = await ctx.portal.db.db.selectFrom('diesel_prices').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ month: '2026-11', price: '1.587' });
    // The same month again: the server's unique check, shown under the input.
    await page.getByTestId('add').click();
    await page.getByTestId('dialog-create').waitFor();
    await page.fill('input[name=month]', '2026-11');
    await page.fill('input[name=price]', '1.6');
    await page.getByTestId('dialog-save').click();
    await expect.poll(() => page.getByTestId('dialog-create').textContent()).toMatch(/mese \(aaaa-mm\)/i);
    expect(await ctx.portal.db.db.selectFrom('diesel_prices').select('id').execute()).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('the carrier reads the list and is offered no add or edit', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo');
    await page.goto(`${ctx.portal.url}/#/diesel-prices`);
    await page.getByTestId('pager').waitFor();
    await expect.poll(() => rowTexts(page)).toEqual(['novembre 20261,587MASE, media mensile']);
    expect(await page.getByTestId('add').count()).toBe(0);
    expect(await page.getByTestId('row-actions').count()).toBe(0);
    await shot(page, 'declared-diesel-carrier');
    expect(errors).toEqual([]);
  });
});
