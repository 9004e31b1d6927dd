import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { pickerText, typeInPicker } from './pickers.js';

/** This month in Europe/Rome as `YYYY-MM`, and as Italian writes it ("novembre 2026"): the test works in any month. */
const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7);
const monthName = new Intl.DateTimeFormat('it', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
  Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)) - 1, 1),
);

const rowTexts = async (page: Page) => (await page.locator('table tbody tr').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

/**
 * A resource that exists only as a declaration, a registry line and a migration (diesel prices,
 * model/resources/diesel-prices.ts): its menu entry, list and create screen in Italian for the admin,
 * and the read-only list its declaration gives the carrier.
 */
describeInBrowser('a declared resource in Chromium: diesel prices', (ctx) => {
  it('the admin finds it in the price manager group, adds a month and sees it in Italian', async () => {
    // The demo seeds the last months' prices (server/seed/tariffs.ts): this test starts from none.
    await ctx.portal.db.db.deleteFrom('diesel_prices').execute();
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    // No price for this month yet: the admin's dashboard says so, in Italian, with the way to add it.
    expect(await page.getByTestId('diesel-missing').textContent()).toContain(`Manca il prezzo di riferimento del gasolio di ${monthName}.`);
    await shot(page, 'dashboard-diesel-missing');
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
    // The month is a month and year picker written MM/AAAA; an unfinished one (no year) is refused in the
    // form, in Italian, before anything is sent.
    await typeInPicker(dialog, 'month', month.slice(5));
    await page.fill('input[name=price]', '1.587');
    await page.getByTestId('dialog-save').click();
    await expect.poll(() => dialog.textContent()).toContain('Mese non valido: scrivilo come MM/AAAA');
    await typeInPicker(dialog, 'month', `${month.slice(5)}/${month.slice(0, 4)}`);
    expect(await pickerText(dialog, 'month')).toBe(`${month.slice(5)}/${month.slice(0, 4)}`);
    await page.fill('textarea[name=note]', 'MASE, media mensile');
    await shot(page, 'declared-diesel-create');
    await page.getByTestId('dialog-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain('Prezzo del gasolio salvato');
    await expect.poll(() => rowTexts(page)).toEqual([`${monthName}1,587MASE, media mensile`]);
    const stored = await ctx.portal.db.db.selectFrom('diesel_prices').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ month, price: '1.587' });
    // The same month again: the server's unique check, shown under the input.
    await page.getByTestId('add').click();
    await page.getByTestId('dialog-create').waitFor();
    await typeInPicker(page.getByTestId('dialog-create'), 'month', `${month.slice(5)}/${month.slice(0, 4)}`);
    await page.fill('input[name=price]', '1.6');
    await page.getByTestId('dialog-save').click();
    await expect.poll(() => page.getByTestId('dialog-create').textContent()).toMatch(/il valore di mese è già in uso/i);
    expect(await ctx.portal.db.db.selectFrom('diesel_prices').select('id').execute()).toHaveLength(1);
    // With this month's price the dashboard has nothing to remind.
    await page.keyboard.press('Escape');
    await page.goto(`${ctx.portal.url}/#/`);
    await page.getByTestId('greeting').waitFor();
    await expect.poll(() => page.getByTestId('diesel-missing').count(), { timeout: 3000 }).toBe(0);
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('diesel-missing').count()).toBe(0);
    // With this month's price the dashboard has nothing to remind.
    await page.keyboard.press('Escape');
    await page.goto(`${ctx.portal.url}/#/`);
    await page.getByTestId('greeting').waitFor();
    await page
      .getByTestId('stat-daily_total')
      .waitFor()
      .catch(() => undefined);
    expect(await page.getByTestId('diesel-missing').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the carrier reads the list and is offered no add or edit', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo');
    await page.goto(`${ctx.portal.url}/#/diesel-prices`);
    await page.getByTestId('pager').waitFor();
    await expect.poll(() => rowTexts(page)).toEqual([`${monthName}1,587MASE, media mensile`]);
    expect(await page.getByTestId('add').count()).toBe(0);
    expect(await page.getByTestId('row-actions').count()).toBe(0);
    await shot(page, 'declared-diesel-carrier');
    expect(errors).toEqual([]);
  });
});
