import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { buildPricingWorld, type PricingWorld } from '../api/pricingFixtures.js';
import { describeInBrowser, shot } from './harness.js';
import { fillCalcPlace, shownDay, typeInPicker } from './pickers.js';

/**
 * From a quote to a confirmed request, in Italian, on the worked example of pricing.md §6
 * (tests/api/pricingFixtures.ts): the end user quotes GOLD at 130,90 + 4,50 and books it, the carrier
 * confirms it, the end user sees it confirmed on the dashboard. A visitor books from /quote.
 */
const nbsp = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

async function quoteWorkedExample(page: Page) {
  await page.getByTestId('zone-national').click();
  await page.getByTestId('service-palletExpress').click();
  await page.getByTestId('calc-next').click();
  await page.getByTestId('calc-form').waitFor();
  await fillCalcPlace(page, 'origin', '20121', 'Milano', 'MI');
  await fillCalcPlace(page, 'destination', '00118', 'Roma', 'RM');
  const values = ['250', '120', '80', '90'];
  for (const [i, name] of ['palletWeight', 'palletWidth', 'palletLength', 'palletHeight'].entries()) await page.fill(`input[name="${name}[0]"]`, values[i]);
  await page.getByTestId('calc-submit').click();
  await page.getByTestId('calc-results').waitFor();
}

async function fillPickupAndDelivery(page: Page) {
  await page.getByTestId('s0.shipperref').fill('ORD-GOLD-1');
  await typeInPicker(page, 's0.pickup.date', shownDay(addDays(romeDate(), 1)));
  await typeInPicker(page, 's0.pickup.timeFrom', '09:00');
  await typeInPicker(page, 's0.pickup.timeTo', '13:00');
  await page.getByTestId('s0.delivery.locationName').fill('Cantiere Roma Est');
  await page.getByTestId('s0.delivery.address').fill('Via Prenestina 300');
}

describeInBrowser('a transport request from a quote, in Chromium', (ctx) => {
  let w: PricingWorld;
  let id = 0;
  beforeAll(async () => {
    w = await buildPricingWorld(ctx.portal.db.db, 'req');
  });

  it('an end user quotes the worked example and books GOLD: the cards show 130,90 + 4,50 = 135,40', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, w.logins.endUser, { at: '/calculate-cost' });
    await quoteWorkedExample(page);
    await page.getByTestId('request-gold').click();
    await page.getByTestId('quote-summary').waitFor();
    expect(nbsp(await page.getByTestId('card-price').textContent())).toBe('130,90 €');
    expect(nbsp(await page.getByTestId('card-fees').textContent())).toBe('4,50 €');
    expect(nbsp(await page.getByTestId('card-total').textContent())).toBe('135,40 €');
    expect(await page.getByTestId('card-leadtime').textContent()).toBe('1 giorno');
    expect(await page.getByTestId('pallet-table').locator('tbody tr').count()).toBe(1);
    // The weight band is named as in the calculator's results ("Fascia"), not "Tipo".
    expect(await page.getByTestId('pallet-table').locator('thead').innerText()).toContain('Fascia');
    // The quote's places, the company's name and address; no extra shipments with a quote.
    expect(await page.getByTestId('s0.pickup.postalCode').inputValue()).toBe('20121');
    expect(await page.getByTestId('s0.delivery.city').inputValue()).toBe('Roma');
    await expect.poll(() => page.getByTestId('s0.pickup.address').inputValue()).toBe('Via Torino 5');
    expect(await page.getByTestId('add-shipment').count()).toBe(0);
    await fillPickupAndDelivery(page);
    await shot(page, 'request-from-quote');
    await page.getByTestId('create-submit').click();
    // The new request opens, its number in the message (issue 35).
    await page.waitForURL(/#\/transport-requests-visuals\/\d+\/1$/);
    await page.getByTestId('request-detail').waitFor();
    const row = await ctx.portal.db.db
      .selectFrom('transport_requests')
      .select(['id', 'cost', 'admin_fees', 'carrier_id'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    id = row.id;
    await toast(page, `Richiesta di trasporto n. ${id} creata`);
    expect(row).toMatchObject({ cost: 13090, admin_fees: 450, carrier_id: w.carrier });
    expect(errors).toEqual([]);
  });

  it('the carrier confirms it from the detail, and stays on it', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, w.logins.carrier, { at: `/transport-requests-visuals/${id}/1` });
    await page.getByTestId('request-detail').waitFor();
    expect(nbsp(await page.getByTestId('detail-total').textContent())).toBe('135,40 €');
    // The edit form shows the amounts as an Italian types them (decimal comma), not 130.90.
    await page.getByTestId('detail-edit').click();
    await page.getByTestId('edit-request').waitFor();
    expect(await page.getByTestId('edit-price').inputValue()).toBe('130,90');
    expect(await page.getByTestId('edit-fee').inputValue()).toBe('4,50');
    await page.goBack();
    await page.getByTestId('request-detail').waitFor();
    await page.getByTestId('detail-confirm').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Conferma' }).click();
    await toast(page, `Richiesta n. ${id} confermata`);
    // Issue 35: the request stays open, in its new status, with its waybill.
    await expect.poll(() => page.getByTestId('request-header').getByTestId('request-status').textContent()).toBe('Confermata');
    expect(page.url()).toMatch(new RegExp(`#/transport-requests-visuals/${id}/1$`));
    await page.getByTestId('detail-waybill').waitFor();
    expect(errors).toEqual([]);
  });

  it('the end user sees it confirmed on the dashboard', async () => {
    const { page } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, w.logins.endUser);
    const row = page.getByTestId(`dashboard-row-${id}`);
    await row.waitFor();
    expect(await row.getByTestId('request-status').textContent()).toBe('Confermata');
    expect(nbsp(await page.getByTestId('stat-ytd_total-value').textContent())).toBe('135,40 €');
    await shot(page, 'request-from-quote-dashboard');
  });

  it('a visitor books from /quote with its contact details; the carrier finds it in its list', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${ctx.portal.url}/#/quote`);
    await quoteWorkedExample(page);
    await page.getByTestId('request-gold').click();
    await page.getByTestId('quote-summary').waitFor();
    // Visitor prices: 119,00 × 1,1 = 130,90 and the carrier's fee 3,00.
    expect(nbsp(await page.getByTestId('card-total').textContent())).toBe('133,90 €');
    await fillPickupAndDelivery(page);
    await page.getByTestId('s0.pickup.locationName').fill('Magazzino Verdi');
    await page.getByTestId('s0.pickup.address').fill('Via Padova 10');
    await page.getByTestId('create-submit').click();
    await toast(page, 'Controlla i campi evidenziati.');
    await page.getByTestId('contact.company').fill('Verdi Arredi');
    await page.getByTestId('contact.firstname').fill('Luca');
    await page.getByTestId('contact.lastname').fill('Verdi');
    await page.getByTestId('contact.email').fill('luca@verdi.example');
    await page.getByTestId('contact.phone').fill('+39 333 1234567');
    await shot(page, 'request-visitor');
    await page.getByTestId('create-submit').click();
    // A visitor has no request screens: back to /quote, the message naming the request's number.
    await page.waitForURL(/#\/quote$/);
    const row = await ctx.portal.db.db.selectFrom('transport_requests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    await toast(page, `Richiesta di trasporto n. ${row.id} creata`);
    expect(row).toMatchObject({
      carrier_id: w.carrier,
      enduser_company_id: null,
      cost: 13090,
      admin_fees: 300,
      visitor_company: 'Verdi Arredi',
      email: 'luca@verdi.example',
    });
    expect(errors).toEqual([]);
  });
});
