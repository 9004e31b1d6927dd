import { expect, it } from 'vitest';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS } from '../../model/tariffs.js';
import { rowsOf, saved, tableText } from './files.js';
import { describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';

describeInBrowser('tariff export in Chromium (Italian)', (ctx) => {
  it('a carrier clicks Esporta on a tariff table and gets the stored rows as an .xlsx', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: '/express-hub-costs' });
    await expect.poll(() => tableText(page, 'tariff-table')).toContain('HUBMI');
    const button = page.getByTestId('export');
    expect(await button.innerText()).toBe('ESPORTA');
    await shot(page, 'tariff-export-carrier');
    expect(await axeProblems(page, 'hub costs with Esporta')).toEqual([]);

    const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const file = await saved(dl);
    expect(file.name).toMatch(/^costi-hub-\d+-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const rows = rowsOf(file.data);
    expect(rows[0]).toEqual(['code', 'silver', 'gold']);
    expect(rows).toHaveLength(7); // the demo's 6 rows under the header
    // The prices the screen shows (HUBNA 7,50 € and 12,50 €), in euros.
    expect(await tableText(page, 'tariff-table')).toMatch(/HUBNA\s+7,50\s€\s+12,50\s€/);
    expect(rows.find((r) => r[0] === 'HUBNA')).toEqual(['HUBNA', 7.5, 12.5]);
    expect(errors).toEqual([]);
  });

  it('an admin clicks Esporta on a rate sheet and gets its rows in the template columns', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 900 } });
    await ctx.login(page, 'admin@portal.demo', { at: '/rate-sheets' });
    const viewButton = page.locator('[data-testid^=view-]').first();
    await viewButton.waitFor();
    await viewButton.click();
    await page.waitForURL(/#\/rate-sheets\/\d+\/\d+$/);
    const summary = page.getByTestId('sheet-summary');
    await expect.poll(() => summary.innerText()).toMatch(/([\d.]+) righe/);
    const count = Number(/([\d.]+) righe/.exec(await summary.innerText())![1].replace(/\./g, ''));
    const code = (await page.getByRole('heading', { level: 1 }).innerText()).match(/[A-Z]{2}(?:STD|EXP)(?:NAT|INT)\d{8}\w*/)![0];
    await shot(page, 'tariff-export-rate-sheet');
    expect(await axeProblems(page, 'rate sheet rows with Esporta')).toEqual([]);

    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    const file = await saved(dl);
    expect(file.name).toBe(`listino-${code}.xlsx`); // the portal-written rows, named in Italian (lib/downloadNames.ts)
    const rows = rowsOf(file.data);
    const spec = code.includes('EXP') ? EXPRESS_RATE_ROWS : STANDARD_RATE_ROWS;
    expect(rows[0]).toEqual(spec.columns.map((c) => c.name));
    expect(rows).toHaveLength(count + 1);
    expect(errors).toEqual([]);
  });
});
