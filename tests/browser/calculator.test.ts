import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';
import { buildPricingWorld, type PricingWorld } from '../api/pricingFixtures.js';

/**
 * The calculator in Chromium, in Italian, for each kind of caller, on tariffs seeded through the
 * database (the world of tests/api/pricingFixtures.ts: the worked example of pricing.md §6).
 * Expected figures: see tests/api/costRequest.test.ts.
 */
/** A screenshot of the page from its top (the flow scrolls it). */
const topShot = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
};
const nbsp = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();
const text = async (page: Page, testId: string) => nbsp(await page.getByTestId(testId).textContent());

async function step1(page: Page, zone: 'national' | 'international', service: 'palletExpress' | 'standard') {
  await page.getByTestId(`zone-${zone}`).click();
  if (service === 'palletExpress' || zone === 'national') await page.getByTestId(`service-${service}`).click();
  await page.getByTestId('calc-next').click();
  await page.getByTestId('calc-form').waitFor();
}

async function place(page: Page, end: 'origin' | 'destination', postal: string, locality?: string, province?: string) {
  await page.fill(`input[name=${end}PostalCode]`, postal);
  if (locality !== undefined) await page.fill(`input[name=${end}Locality]`, locality);
  if (province !== undefined) await page.fill(`input[name=${end}Province]`, province);
}

async function pallet(page: Page, row: number, values: [string, string, string, string]) {
  const names = ['palletWeight', 'palletWidth', 'palletLength', 'palletHeight'];
  for (let i = 0; i < 4; i++) await page.fill(`input[name="${names[i]}[${row}]"]`, values[i]);
}

async function choose(page: Page, label: RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

async function goods(page: Page, units: string, weight: string, volume: string, ratio?: string) {
  await page.fill('input[name=standardunits]', units);
  await page.fill('input[name=standardweight]', weight);
  await choose(page, /^Tipo di volume/, 'CBM – metri cubi');
  await page.fill('input[name=standardvolume]', volume);
  if (ratio) await choose(page, /^Rapporto di calcolo/, new RegExp(`^${ratio}:`));
}

async function calculate(page: Page) {
  await page.getByTestId('calc-submit').click();
  await page.locator('[data-testid=calc-results], [data-testid=calc-alert]').first().waitFor();
}

describeInBrowser('the cost calculator in Chromium', (ctx) => {
  let w: PricingWorld;
  beforeAll(async () => {
    w = await buildPricingWorld(ctx.portal.db.db, 'web');
  });

  it('step 1: Next waits for zone and service, international forces standard, Next disappears once pressed', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, w.logins.endUser, { at: '/calculate-cost' });
    await expect.poll(() => page.getByTestId('calc-next').isDisabled()).toBe(true);
    await page.getByTestId('zone-national').click();
    expect(await page.getByTestId('calc-next').isDisabled()).toBe(true);
    await page.getByTestId('service-palletExpress').click();
    expect(await page.getByTestId('calc-next').isDisabled()).toBe(false);
    await page.getByTestId('zone-international').click();
    expect(await page.getByTestId('service-palletExpress').isDisabled()).toBe(true);
    expect(await page.getByTestId('service-standard').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('calc-next').click();
    await page.getByTestId('calc-form').waitFor();
    expect(await page.getByTestId('calc-next').count()).toBe(0);
    // international: the end user's origin (its company in Milano) keeps locality and province; abroad they are not asked
    expect(await page.inputValue('input[name=originLocality]')).toBe('Milano');
    const country = page.locator('input[name=destinationCountry]');
    await country.fill('Germania');
    await page.getByRole('option', { name: 'Germania (DE)' }).click();
    expect(await page.locator('input[name=destinationLocality]').count()).toBe(0);
    expect(await page.locator('input[name=destinationProvince]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('end user: the worked example as pallet express, its own price only, then a GOLD request hand-over', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, w.logins.endUser, { at: '/calculate-cost' });
    await step1(page, 'national', 'palletExpress');
    expect(await page.inputValue('input[name=originPostalCode]')).toBe('20121');
    expect(await page.inputValue('input[name=originProvince]')).toBe('MI');
    await place(page, 'destination', '00118', 'Roma', 'rm');
    await pallet(page, 0, ['250', '120', '80', '90']);
    await calculate(page);
    expect(await text(page, 'silver-total')).toBe('98,00 €');
    expect(await text(page, 'gold-total')).toBe('135,40 €');
    expect(await text(page, 'silver-admin-fee')).toBe('4,50 €');
    expect(await text(page, 'silver-lead-time')).toBe('2 giorni');
    expect(await text(page, 'gold-lead-time')).toBe('1 giorno');
    expect(await page.getByTestId('silver-buy').count()).toBe(0);
    await page.getByTestId('breakdown-toggle').click();
    await expect.poll(async () => nbsp(await page.getByTestId('breakdown').textContent())).toContain('Totale GOLD135,40 €');
    await topShot(page, 'calculator-enduser-express');
    await page.getByTestId('request-gold').click();
    await page.waitForURL(/#\/transport-requests\?shipmentType=palletExpress&shipmentClass=GOLD$/);
    const state = await page.evaluate(() => (window.history.state as any)?.usr);
    expect(state.priceList.x_total_gold_sell).toBe(130.9);
    expect(state.palletData[0].type).toBe('p300');
    expect(state.costRequest).toMatchObject({ zone: 'national', service: 'palletExpress', destinationProvince: 'RM', palletWeight: [250] });
    expect(errors).toEqual([]);
  });

  it('end user: a standard quote with its company ratio, then the standard request hand-over', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, w.logins.endUser, { at: '/calculate-cost' });
    await step1(page, 'national', 'standard');
    expect(await page.getByRole('combobox', { name: /^Rapporto di calcolo/ }).count()).toBe(0);
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await goods(page, '2', '250', '1,2');
    await calculate(page);
    expect(await text(page, 'standard-cost')).toBe('59,40 €');
    expect(await text(page, 'standard-admin-fee')).toBe('4,50 €');
    expect(await text(page, 'standard-total')).toBe('63,90 €');
    expect(await text(page, 'standard-lead-time')).toBe('3 giorni');
    expect(await text(page, 'standard-chargeable')).toBe('360 kg (Rapporto 300)');
    expect(await page.getByTestId('standard-lane-one').count()).toBe(0);
    await topShot(page, 'calculator-enduser-standard');
    await page.getByTestId('request-standard').click();
    await page.waitForURL(/#\/transport-requests\?shipmentType=standard$/);
    const state = await page.evaluate(() => (window.history.state as any)?.usr);
    expect(state.standardPriceList.totla).toBe(63.9);
    expect(state.units.chargeable_weight).toBe(360);
  });

  it('carrier: list, offer and buy prices of pallet express; a standard quote with the ratio it chooses', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, w.logins.carrier, { at: '/calculate-cost' });
    await step1(page, 'national', 'palletExpress');
    await place(page, 'origin', '20121', 'Milano', 'MI');
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await pallet(page, 0, ['250', '120', '80', '90']);
    await calculate(page);
    expect(await text(page, 'silver-total')).toBe('88,00 €');
    expect(await text(page, 'gold-total')).toBe('122,00 €');
    expect(await text(page, 'silver-list')).toBe('85,00 €');
    expect(await text(page, 'silver-offer')).toBe('85,00 €');
    expect(await text(page, 'silver-buy')).toBe('65,00 €');
    expect(await text(page, 'gold-buy')).toBe('99,00 €');
    expect(await text(page, 'gold-margin')).toBe('20,00 €');
    expect(await page.getByTestId('request-silver').count()).toBe(0);
    await topShot(page, 'calculator-carrier-express');
    // the same shipment for its end user: the customer's offer, the carrier still sees its buy price
    await choose(page, /^Cliente/, /^Edilizia Esempio web/);
    await calculate(page);
    await expect.poll(() => text(page, 'silver-offer')).toBe('93,50 €');
    expect(await text(page, 'silver-total')).toBe('98,00 €');

    await page.getByTestId('service-standard').click();
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await choose(page, /^Cliente/, /^Nessun cliente/);
    await goods(page, '2', '250', '1,2', 'CBM250');
    await calculate(page);
    expect(await text(page, 'standard-cost')).toBe('45,00 €');
    expect(await text(page, 'standard-admin-fee')).toBe('3,00 €');
    expect(await text(page, 'standard-total')).toBe('48,00 €');
    expect(await text(page, 'standard-lane-one')).toBe('37,50 €');
    expect(await text(page, 'standard-lane-two')).toBe('45,00 €');
    await topShot(page, 'calculator-carrier-standard');
    expect(errors).toEqual([]);
  });

  it('admin: chooses the carrier and its end user, for pallet express and standard', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo', { at: '/calculate-cost' });
    await step1(page, 'national', 'palletExpress');
    await place(page, 'origin', '20121', 'Milano', 'MI');
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await pallet(page, 0, ['250', '120', '80', '90']);
    await page.getByTestId('calc-submit').click();
    await expect.poll(async () => nbsp(await page.getByTestId('calc-form').textContent())).toContain('Campo obbligatorio');
    await choose(page, /^Vettore/, /^Corriere Centrale web/);
    await choose(page, /^Cliente/, /^Edilizia Esempio web/);
    await calculate(page);
    expect(await text(page, 'silver-total')).toBe('98,00 €');
    expect(await text(page, 'gold-total')).toBe('135,40 €');
    expect(await text(page, 'silver-list')).toBe('85,00 €');
    expect(await text(page, 'gold-offer')).toBe('130,90 €');
    expect(await text(page, 'silver-buy')).toBe('65,00 €');
    await topShot(page, 'calculator-admin-express');

    await page.getByTestId('service-standard').click();
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await goods(page, '2', '250', '1,2', 'CBM350');
    await calculate(page);
    expect(await text(page, 'standard-cost')).toBe('69,30 €');
    expect(await text(page, 'standard-admin-fee')).toBe('4,50 €');
    expect(await text(page, 'standard-total')).toBe('73,80 €');
    expect(await text(page, 'standard-lead-time')).toBe('3 giorni');
    await topShot(page, 'calculator-admin-standard');
    expect(errors).toEqual([]);
  });

  it('visitor on a phone: the CAP fills locality and province, a CAP of several places offers the choice, the quote needs no confirmation', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await page.goto(`${ctx.portal.url}/#/quote`);
    await step1(page, 'national', 'palletExpress');
    // One place: both filled from the comuni data.
    await page.fill('input[name=originPostalCode]', '20121');
    await expect.poll(() => page.inputValue('input[name=originLocality]')).toBe('Milano');
    expect(await page.inputValue('input[name=originProvince]')).toBe('MI');
    // Several places: the shared province filled, the locality left to choose from the list.
    await page.fill('input[name=destinationPostalCode]', '00040');
    const destination = page.getByTestId('calc-destination');
    await expect.poll(async () => nbsp(await destination.textContent())).toContain('Il CAP 00040 è di 2 località: scegli la tua dall’elenco');
    expect(await page.inputValue('input[name=destinationLocality]')).toBe('');
    expect(await page.inputValue('input[name=destinationProvince]')).toBe('RM');
    await page.getByTestId('destination-locality').click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['Ardea (RM)', 'Rocca di Papa (RM)']);
    await topShot(page, 'calculator-cap-choice-phone');
    expect(await axeProblems(page, 'quote: the CAP choice')).toEqual([]);
    await page.getByRole('option', { name: 'Rocca di Papa (RM)' }).click();
    expect(await page.inputValue('input[name=destinationLocality]')).toBe('Rocca di Papa');
    expect(await page.inputValue('input[name=destinationProvince]')).toBe('RM');
    expect(nbsp(await destination.textContent())).not.toContain('scegli la tua');
    // A new CAP of one place replaces the choice.
    await page.fill('input[name=destinationPostalCode]', '00118');
    await expect.poll(() => page.inputValue('input[name=destinationLocality]')).toBe('Roma');

    // Calculated at once: no "Confermi la richiesta?" dialog before a free quote.
    await pallet(page, 0, ['250', '120', '80', '90']);
    await page.getByTestId('calc-submit').click();
    await page.getByTestId('calc-results').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByText('Confermi la richiesta?').count()).toBe(0);
    expect(await text(page, 'silver-total')).toBe('96,50 €');
    expect(errors).toEqual([]);
  });

  it('visitor: from the login screen to /quote, visitor prices for pallet express and standard', async () => {
    const { page, errors } = await ctx.page();
    await page.goto(`${ctx.portal.url}/#/login`);
    await page.getByTestId('login-quote-link').click();
    await page.waitForURL(/#\/quote$/);
    await step1(page, 'national', 'palletExpress');
    await place(page, 'origin', '20121', 'Milano', 'MI');
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await pallet(page, 0, ['250', '120', '80', '90']);
    await calculate(page);
    // 85.00 × 1.1 = 93.50 and 119.00 × 1.1 = 130.90, plus the carrier's fee 3.00
    expect(await text(page, 'silver-total')).toBe('96,50 €');
    expect(await text(page, 'gold-total')).toBe('133,90 €');
    expect(await text(page, 'gold-admin-fee')).toBe('3,00 €');
    expect(await page.getByTestId('silver-buy').count()).toBe(0);
    // Visitors book from here too, with their contact details (tests/browser/requestFromQuote.test.ts).
    expect(await page.getByTestId('request-silver').count()).toBe(1);
    await topShot(page, 'calculator-visitor-express');

    await page.getByTestId('service-standard').click();
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await goods(page, '2', '250', '1,2');
    await calculate(page);
    expect(await text(page, 'standard-cost')).toBe('49,50 €');
    expect(await text(page, 'standard-total')).toBe('52,50 €');
    await topShot(page, 'calculator-visitor-standard');
    expect(errors).toEqual([]);
  });

  it('shows the server’s refusal in a red alert, a wrong city under its field, and adds and removes pallet rows', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, w.logins.endUser, { at: '/calculate-cost' });
    await step1(page, 'national', 'palletExpress');
    await place(page, 'destination', '00118', 'Roma', 'RM');
    await pallet(page, 0, ['250', '120', '80', '90']);
    await page.getByTestId('pallet-add').click();
    await page.getByTestId('pallet-add').click();
    expect(await page.getByTestId('pallet-remove-3').count()).toBe(1);
    expect(await page.getByTestId('pallet-remove-1').count()).toBe(0);
    await page.getByTestId('pallet-remove-3').click();
    expect(await page.getByTestId('pallet-row-3').count()).toBe(0);
    await pallet(page, 1, ['1200', '120', '80', '90']);
    await calculate(page);
    expect(await text(page, 'calc-alert')).toBe('Il pallet 2 pesa 1.200 kg: il limite è 1.000 kg per pallet. Alleggeriscilo o dividi il carico.');
    const [r, g, b] = (await page.getByTestId('calc-alert').evaluate((el) => getComputedStyle(el).backgroundColor)).match(/\d+/g)!.map(Number);
    expect(r > 150 && g < 80 && b < 80, `red alert background rgb(${r}, ${g}, ${b})`).toBe(true);
    await topShot(page, 'calculator-refusal');

    await page.getByTestId('pallet-remove-2').click();
    await place(page, 'destination', '00118', 'Roma', 'MI');
    await calculate(page);
    await expect.poll(async () => nbsp(await page.getByTestId('calc-destination').textContent())).toContain('Roma è in provincia di RM.');
    expect(await text(page, 'calc-alert')).toBe('Correggi i campi evidenziati.');
    await topShot(page, 'calculator-field-error');
  });
});
