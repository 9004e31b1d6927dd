import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { fillCalcPlace } from './pickers.js';
import { axeProblems } from './axe.js';
import { buildPricingWorld, type PricingWorld } from '../api/pricingFixtures.js';
import { romeToday } from '../../server/lib/romeDate.js';

/**
 * A calculator quote with the fuel surcharge (pricing.md §7) and a ZTL (§8), in Italian: the world of
 * tests/api/pricingFixtures.ts (the worked example of §6, Milano → Roma 00118, one pallet 250 kg) with a
 * fuel plan (base 1.500, step 0.020, 0.5 %) and diesel 1.587 this month → 2 %, and a ZTL 00118 at
 * delivery of 7.00. GOLD: (119.00 + 2.38 + 7.00) × 1.1 = 141.22, + 4.50 = 145.72.
 */
const nbsp = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();
const month = romeToday().slice(0, 7);
const monthIt = new Intl.DateTimeFormat('it-IT', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

describeInBrowser('a quote with the fuel surcharge and a ZTL', (ctx) => {
  let w: PricingWorld;
  beforeAll(async () => {
    const db = ctx.portal.db.db;
    w = await buildPricingWorld(db, 'fuel');
    await db
      .updateTable('companies')
      .set({ fuel_base_price: '1.500', fuel_step: '0.020', fuel_step_percent: '0.5', fuel_max_percent: '8' })
      .where('id', '=', w.carrier)
      .execute();
    await db.deleteFrom('diesel_prices').execute();
    await db.insertInto('diesel_prices').values({ month, price: '1.587', note: 'test', created_at: new Date().toISOString() }).execute();
    await db
      .insertInto('postal_surcharges')
      .values({ company_id: w.carrier, country: 'IT', postal_code: '00118', kind: 'ztl', flow: 'OUT', fixed: 700, percent: null })
      .execute();
  });

  async function quote(page: Page) {
    await page.goto(`${ctx.portal.url}/#/calculate-cost`);
    await page.getByTestId('zone-national').click();
    await page.getByTestId('service-palletExpress').click();
    await page.getByTestId('calc-next').click();
    await page.getByTestId('calc-form').waitFor();
    await fillCalcPlace(page, 'origin', '20121', 'Milano', 'MI');
    await fillCalcPlace(page, 'destination', '00118', 'Roma', 'RM');
    const names = ['palletWeight', 'palletWidth', 'palletLength', 'palletHeight'];
    const values = ['250', '120', '80', '90'];
    for (let i = 0; i < 4; i++) await page.fill(`input[name="${names[i]}[0]"]`, values[i]!);
    await page.getByTestId('calc-submit').click();
    await page.getByTestId('calc-results').waitFor();
    await page.getByTestId('breakdown-toggle').click();
  }

  it('the end user sees the fuel month and percent and the ZTL, in Italian, without their amounts', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, w.logins.endUser);
    await quote(page);
    expect(nbsp(await page.getByTestId('gold-total').textContent())).toBe('145,72 €');
    const table = page.getByTestId('breakdown');
    await expect.poll(async () => nbsp(await table.textContent())).toContain(`Adeguamento gasolio ${monthIt}: 2 %`);
    const text = nbsp(await table.textContent());
    expect(text).toContain('ZTL 00118, consegna');
    expect(text).not.toContain('(vendita)');
    await shot(page, 'fuel-quote-enduser');
    expect(await axeProblems(page, 'fuel quote (end user)')).toEqual([]);
  });

  it('the carrier sees the amounts: fuel 2 % and ZTL 7,00 € on the GOLD freight', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, w.logins.carrier);
    await quote(page);
    const table = page.getByTestId('breakdown');
    await expect.poll(async () => nbsp(await table.textContent())).toContain('Adeguamento gasolio 2 % GOLD (vendita)2,38 €');
    expect(nbsp(await table.textContent())).toContain('ZTL 00118, consegna GOLD (vendita)7,00 €');
    await shot(page, 'fuel-quote-carrier');
  });

  it('the request detail shows the fuel a request was priced with', async () => {
    const db = ctx.portal.db.db;
    const acme = await db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow();
    const req = await db.selectFrom('transport_requests').select('id').where('carrier_id', '=', acme.id).orderBy('id').executeTakeFirstOrThrow();
    await db.updateTable('transport_requests').set({ fuel_month: '2026-11', fuel_price: '1.587', fuel_percent: '2.5' }).where('id', '=', req.id).execute();
    const { page } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: `/transport-requests-visuals/${req.id}/1` });
    await expect.poll(async () => nbsp(await page.getByTestId('detail-fuel').textContent())).toBe('novembre 2026: 2,5 %');
    expect(await page.getByText('Adeguamento gasolio', { exact: true }).count()).toBe(1);
    await shot(page, 'fuel-request-detail');
  });
});
