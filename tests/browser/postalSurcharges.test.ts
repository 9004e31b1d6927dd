import { expect, it } from 'vitest';
import { tableText } from './files.js';
import { describeInBrowser, shot, animationsDone } from './harness.js';

/** The seventh tariff table's screen (pricing.md §8), from the same schema as the other six, in Italian. */
describeInBrowser('postal surcharges in Chromium (Italian)', (ctx) => {
  it('the carrier sees its own surcharges in euros, the admin the same screen with the carrier selector', async () => {
    const db = ctx.portal.db.db;
    const user = await db.selectFrom('users').select('company_id').where('email', '=', 'carrier@portal.demo').executeTakeFirstOrThrow();
    // The demo's own rows (server/seed/tariffs.ts) give way to the two this test reads back.
    await db.deleteFrom('postal_surcharges').where('company_id', '=', user.company_id!).execute();
    await db
      .insertInto('postal_surcharges')
      .values([
        { company_id: user.company_id!, country: 'IT', postal_code: '20121', kind: 'ztl', flow: 'OUT', fixed: 1500, percent: null },
        { company_id: user.company_id!, country: 'IT', postal_code: '301*', kind: 'remote', flow: null, fixed: 2000, percent: '2.5' },
      ])
      .execute();

    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 900 } });
    await ctx.login(page, 'carrier@portal.demo', { at: '/postal-surcharges' });
    await expect.poll(() => tableText(page, 'tariff-table')).toContain('301*');
    const text = await tableText(page, 'tariff-table');
    // The kind in words (not the file's code), an empty flow as "both ends", the percentage with its sign.
    expect(text).toMatch(/20121\s+ZTL\s+OUT\s+15,00\s€/);
    expect(text).toMatch(/301\*\s+Località disagiata\s+Entrambi\s+20,00\s€\s+2,5\s%/);
    expect(await page.getByTestId('row-count').innerText()).toBe('2 righe');
    expect(await page.locator('body').innerText()).toContain('Supplementi CAP');
    await shot(page, 'postal-surcharges-carrier');
    expect(errors).toEqual([]);

    const admin = await ctx.page({ viewport: { width: 1400, height: 900 } });
    await ctx.login(admin.page, 'admin@portal.demo');
    await admin.page.goto(`${ctx.portal.url}/#/postal-surcharges`);
    await admin.page.getByTestId('company-select').waitFor();
    expect(await admin.page.locator('body').innerText()).toContain('Supplementi CAP');
    await animationsDone(admin.page);
    await shot(admin.page, 'postal-surcharges-admin');
    expect(admin.errors).toEqual([]);
  });
});
