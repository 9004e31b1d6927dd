import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { TEST_CHROMIUM_FLAGS, chromiumPath, describeInBrowser, login, shot } from './harness.js';
import { axeProblems } from './axe.js';
import { pickerText, shownDay, typeInPicker } from './pickers.js';
import { xlsx } from './files.js';

/**
 * Issue 24: dates and times follow the portal's language, not the browser's. Chromium runs in American
 * English (`--lang=en-US`, context locale en-US, where a native date input shows mm/dd/yyyy and AM/PM);
 * the portal is in Italian (then French): the pickers show dd/MM/yyyy and 24 h, take the keyboard, and
 * send `YYYY-MM-DD` / `HH:mm` as before.
 */
describeInBrowser('date and time pickers in the portal language on an American English browser', (ctx) => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const outside: string[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath()!, args: [...TEST_CHROMIUM_FLAGS, '--lang=en-US'] });
  });
  afterAll(async () => {
    await browser?.close();
    expect(outside, 'requests that left the machine').toEqual([]);
  });
  const englishPage = async (portalLocale?: 'fr') => {
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'Europe/Rome', viewport: { width: 1400, height: 1000 } });
    contexts.push(context);
    await context.route('**/*', (route) => {
      const u = new URL(route.request().url());
      if (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.protocol === 'data:' || u.protocol === 'blob:') return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    if (portalLocale) await context.addInitScript((l) => localStorage.setItem('Portal.locale', JSON.stringify(l)), portalLocale);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  };
  const sections = (page: Page, testId: string) => page.getByTestId(testId).locator('[role="spinbutton"]').allTextContents();

  it('the browser really is American English (a native date input would be mm/dd/yyyy)', async () => {
    const { page } = await englishPage();
    await page.goto(`${ctx.portal.url}/#/login`);
    expect(await page.evaluate(() => [navigator.language, new Date(2026, 10, 25, 14, 30).toLocaleString()])).toEqual(['en-US', '11/25/2026, 2:30:00 PM']);
  });

  it('Italian portal: the wizard shows GG/MM/AAAA and 24 h, takes dates from the keyboard and sends YYYY-MM-DD and HH:mm', async () => {
    const { page, errors } = await englishPage();
    await login(page, ctx.portal.url, 'enduser@portal.demo');
    await page.getByRole('link', { name: 'Nuova richiesta' }).click();
    await page.getByTestId('create-request').waitFor();
    // Empty: the Italian placeholders, day first; the times have hours and minutes, no AM/PM part.
    expect(await sections(page, 's0.pickup.date')).toEqual(['GG', 'MM', 'AAAA']);
    expect(await sections(page, 's0.pickup.timeFrom')).toEqual(['hh', 'mm']);
    const day = addDays(romeDate(), 3);
    await typeInPicker(page, 's0.pickup.date', shownDay(day));
    expect(await pickerText(page, 's0.pickup.date')).toBe(shownDay(day));
    await typeInPicker(page, 's0.pickup.timeFrom', '14:30');
    await typeInPicker(page, 's0.pickup.timeTo', '18:00');
    expect(await pickerText(page, 's0.pickup.timeFrom')).toBe('14:30');
    expect(await pickerText(page, 's0.pickup.timeTo')).toBe('18:00');
    // An impossible date is refused in Italian once the field is left.
    await typeInPicker(page, 's0.delivery.date', '31/02/2027');
    await page.getByTestId('s0.delivery.locationName').click();
    await expect.poll(() => page.getByTestId('s0.delivery.date').textContent()).toContain('Data non valida: scrivila come GG/MM/AAAA');
    await typeInPicker(page, 's0.delivery.date', shownDay(addDays(romeDate(), 4)));
    // The calendar speaks Italian too: its button and the month's name.
    await page
      .getByTestId('s0.pickup.date')
      .getByRole('button', { name: /^Scegli la data/ })
      .click();
    const calendar = page.getByRole('dialog');
    await calendar.waitFor();
    const [y, m] = day.split('-').map(Number);
    const monthName = new Intl.DateTimeFormat('it', { month: 'long', year: 'numeric' }).format(new Date(y, m - 1, 15));
    expect((await calendar.textContent())?.toLowerCase()).toContain(monthName);
    await shot(page, 'dates-wizard-calendar-it');
    await page.keyboard.press('Escape');
    await calendar.waitFor({ state: 'detached' });
    expect(await axeProblems(page, 'wizard with pickers')).toEqual([]);

    await page.getByTestId('s0.shipperref').fill('ORD-DATE-1');
    await page.getByTestId('s0.units').fill('2');
    await page.getByTestId('s0.weight').fill('100');
    await page.getByTestId('s0.volume').fill('1');
    await page.getByTestId('s0.volumeType').locator('..').click();
    await page.getByRole('option', { name: 'Metri cubi (CBM)' }).click();
    await page.getByTestId('s0.delivery.locationName').fill('Magazzino Verona');
    await page.getByTestId('s0.delivery.address').fill('Via Roma 1');
    await page.getByTestId('s0.delivery.postalCode').fill('37121');
    await page.getByTestId('s0.delivery.city').fill('Verona');
    await page.getByTestId('s0.delivery.province').fill('VR');
    await shot(page, 'dates-wizard-it');
    await page.getByTestId('create-submit').click();
    await page
      .getByText(/^Richiesta di trasporto n\. \d+ creata$/)
      .first()
      .waitFor();
    const shipment = await ctx.portal.db.db
      .selectFrom('shipments')
      .select(['pickup_date', 'pickup_time_from', 'pickup_time_to', 'delivery_date'])
      .where('shipper_reference', '=', 'ORD-DATE-1')
      .executeTakeFirstOrThrow();
    expect(shipment).toEqual({ pickup_date: day, pickup_time_from: '14:30', pickup_time_to: '18:00', delivery_date: addDays(romeDate(), 4) });

    // The request filter: today's date typed in Italian goes out as YYYY-MM-DD and finds the request.
    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals`);
    await page.getByTestId('request-filters').waitFor();
    const asked = page.waitForRequest((r) => r.url().includes('/transport_requests') && r.url().includes(`date=${romeDate()}`));
    await typeInPicker(page, 'filter-date', shownDay(romeDate()));
    await asked;
    expect(await pickerText(page, 'filter-date')).toBe(shownDay(romeDate()));
    await expect.poll(() => page.locator('main').textContent()).toContain('Verona');
    await typeInPicker(page, 'filter-date', '01/01/2020');
    await expect.poll(() => page.locator('main').textContent()).not.toContain('Verona');
    await shot(page, 'dates-filter-it');
    await page.getByTestId('filter-clear').click();
    await expect.poll(() => sections(page, 'filter-date')).toEqual(['GG', 'MM', 'AAAA']);
    expect(errors).toEqual([]);
  });

  it('Italian portal: the rate sheet dialog takes its validity dates from the keyboard and stores them as YYYY-MM-DD', async () => {
    const { page, errors } = await englishPage();
    await login(page, ctx.portal.url, 'carrier@portal.demo');
    await page.goto(`${ctx.portal.url}/#/rate-sheets`);
    await page.getByTestId('new-sheet').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Tipo tariffa' }).click();
    await page.getByRole('option', { name: 'Standard (STD)' }).click();
    await page.getByTestId('sheet-description').fill('Listino date');
    await typeInPicker(page, 'sheet-from', '01/03/2027');
    await typeInPicker(page, 'sheet-to', '28/02/2027');
    await expect.poll(() => dialog.innerText()).toContain('La data di fine validità deve essere successiva alla data di inizio validità');
    expect(await page.getByTestId('upload-submit').isDisabled()).toBe(true);
    await typeInPicker(page, 'sheet-to', '29/02/2028');
    expect(await pickerText(page, 'sheet-to')).toBe('29/02/2028');
    const file = xlsx([
      ['rate_code', 'country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime'],
      ['DATE', 'IT', 'TO', 0, 100, 30, 'S', null, 2],
    ]);
    await page.getByTestId('upload-input').setInputFiles({ name: 'date.xlsx', mimeType: 'application/octet-stream', buffer: file });
    // The file is checked first (issue 20's screens), then published.
    await page.getByTestId('summary-added').waitFor();
    await shot(page, 'dates-rate-sheet-it');
    await page.getByTestId('upload-publish').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    const sheet = await ctx.portal.db.db
      .selectFrom('rate_sheets')
      .select(['validate_from', 'validate_to'])
      .where('description', '=', 'Listino date')
      .executeTakeFirstOrThrow();
    expect([String(sheet.validate_from).slice(0, 10), String(sheet.validate_to).slice(0, 10)]).toEqual(['2027-03-01', '2028-02-29']);
    expect(errors).toEqual([]);
  });

  it('French portal: JJ/MM/AAAA and 24 h on the same American browser', async () => {
    const { page, errors } = await englishPage('fr');
    await login(page, ctx.portal.url, 'enduser@portal.demo');
    await page.goto(`${ctx.portal.url}/#/transport-requests`);
    await page.getByTestId('create-request').waitFor();
    expect(await sections(page, 's0.pickup.date')).toEqual(['JJ', 'MM', 'AAAA']);
    expect(await sections(page, 's0.pickup.timeFrom')).toEqual(['hh', 'mm']);
    await typeInPicker(page, 's0.pickup.date', '25/11/2027');
    await typeInPicker(page, 's0.pickup.timeFrom', '07:45');
    expect(await pickerText(page, 's0.pickup.date')).toBe('25/11/2027');
    expect(await pickerText(page, 's0.pickup.timeFrom')).toBe('07:45');
    await page
      .getByTestId('s0.pickup.date')
      .getByRole('button', { name: /^Choisir la date/ })
      .click();
    await expect.poll(async () => (await page.getByRole('dialog').textContent())?.toLowerCase()).toContain('novembre 2027');
    await shot(page, 'dates-wizard-calendar-fr');
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });
});
