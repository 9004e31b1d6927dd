import fs from 'node:fs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { describeInBrowser, shot } from './harness.js';
import { bytesOf } from './files.js';
import { shownDay, typeInPicker } from './pickers.js';

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

describeInBrowser('transport requests in Chromium, in Italian', (ctx) => {
  let requestId = 0;

  it('an end user books a transport by hand, with a document; a file over 5 MB is refused with a clear message', async () => {
    const { page, errors, outside } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, 'enduser@portal.demo');
    await page.getByRole('link', { name: 'Nuova richiesta' }).click();
    await page.getByTestId('create-request').waitFor();
    // Pickup defaults from the end user's company.
    await expect.poll(() => page.getByTestId('s0.pickup.locationName').inputValue()).toBe('Rossi Logistica S.r.l.');
    expect(await page.getByTestId('s0.pickup.address').inputValue()).toBe('Via Emilia 120');
    // Sending empty: the required fields are marked, nothing leaves.
    await page.getByTestId('create-submit').click();
    await toast(page, 'Controlla i campi evidenziati.');
    expect(await page.getByText('Campo obbligatorio').count()).toBeGreaterThan(5);
    // On a desktop the form is sections with headings; the first wrong field is scrolled to and has the focus.
    expect(await page.getByTestId('create-request').getAttribute('data-layout')).toBe('sections');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('s0.shipperref');

    await page.getByTestId('s0.shipperref').fill('ORD-9001');
    await page.getByTestId('s0.units').fill('4');
    await page.getByTestId('s0.weight').fill('520,5');
    await page.getByTestId('s0.volume').fill('2,4');
    await page.getByTestId('s0.volumeType').locator('..').click();
    await page.getByRole('option', { name: 'Metri cubi (CBM)' }).click();
    await typeInPicker(page, 's0.pickup.date', shownDay(addDays(romeDate(), 2)));
    await typeInPicker(page, 's0.pickup.timeFrom', '08:00');
    await typeInPicker(page, 's0.pickup.timeTo', '12:00');
    await page.getByTestId('s0.delivery.locationName').fill('Ferramenta Colosseo');
    await page.getByTestId('s0.delivery.address').fill('Via Labicana 44');
    await page.getByTestId('s0.delivery.postalCode').fill('00184');
    await page.getByTestId('s0.delivery.city').fill('Roma');
    await page.getByTestId('s0.delivery.province').fill('RM');
    await page.getByTestId('notes').fill('Consegna al piano terra.');
    // A file over 5 MB is refused at once.
    await page.getByTestId('doc0.file').setInputFiles({ name: 'enorme.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 1) });
    await toast(page, 'Il file enorme.pdf supera i 5 MB: scegli un file più piccolo.');
    await page
      .getByTestId('doc0.file')
      .setInputFiles({ name: 'ddt-9001.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 documento di trasporto') });
    await page.getByTestId('doc0.type').locator('..').click();
    await page.getByRole('option').first().click();
    await shot(page, 'requests-create-filled');
    await page.getByTestId('create-submit').click();
    // The new request opens, its number in the message (issue 35).
    await page.waitForURL(/#\/transport-requests-visuals\/\d+\/1$/);
    const row = await ctx.portal.db.db.selectFrom('transport_requests').select(['id', 'cost']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    requestId = row.id;
    expect(page.url()).toMatch(new RegExp(`/transport-requests-visuals/${requestId}/1$`));
    await toast(page, `Richiesta di trasporto n. ${requestId} creata`);
    await page.getByTestId('request-detail').waitFor();
    // Weights as Italian writes them.
    expect(await page.getByTestId('shipment-card-1').textContent()).toContain('520,5');
    expect(row.cost).toBeNull();
    // The dashboard's five most recent show it, still to be quoted and open.
    await page.goto(`${ctx.portal.url}/#/`);
    await page.getByTestId('greeting').waitFor();
    const dashRow = page.getByTestId(`dashboard-row-${requestId}`);
    await dashRow.waitFor();
    expect(await dashRow.textContent()).toContain('Da quotare');
    expect(await dashRow.getByTestId('request-status').textContent()).toBe('Aperta');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('the carrier prices it, downloads its document, and confirms it from the list', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, 'carrier@portal.demo');
    await page.getByTestId('sidebar-menu').locator('[data-menu="transport-requests-visuals"]').click();
    const row = page.locator('tr', { has: page.getByText(String(requestId), { exact: true }) }).first();
    await row.waitFor();
    // To be quoted: no confirm until it has a price.
    expect(await row.getByTestId('row-confirm').count()).toBe(0);
    await row.getByTestId('row-view').click();
    await page.getByTestId('request-detail').waitFor();
    expect(await page.getByTestId('set-price-first').textContent()).toBe('Da quotare: indica il prezzo prima di confermare');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Scarica' }).click()]);
    expect(download.suggestedFilename()).toBe('ddt-9001.pdf');
    expect((await bytesOf(download)).toString()).toBe('%PDF-1.4 documento di trasporto');
    await shot(page, 'requests-detail-carrier');

    await page.getByTestId('detail-edit').click();
    await page.getByTestId('edit-request').waitFor();
    await page.getByTestId('edit-price').fill('250');
    await page.getByTestId('edit-fee').fill('4,5');
    await expect.poll(() => page.getByTestId('edit-total').inputValue()).toMatch(/^254,50\s€$/);
    await page.getByTestId('edit-reason').fill('Tariffa carico completo');
    await shot(page, 'requests-edit-carrier');
    await page.getByTestId('edit-submit').click();
    await toast(page, 'Richiesta di trasporto aggiornata con successo');
    const priced = page.locator('tr', { has: page.getByText(String(requestId), { exact: true }) }).first();
    await priced.getByTestId('row-confirm').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Conferma' }).click();
    await toast(page, `Richiesta n. ${requestId} confermata`);
    await expect.poll(() => priced.getByTestId('request-status').textContent()).toBe('Confermata');
    await expect.poll(() => priced.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(232, 245, 233)');
    await shot(page, 'requests-list-carrier');
    // Filters: refused only, then Clear.
    await page.getByTestId('filter-status').locator('..').click();
    await page.getByRole('option', { name: 'Rifiutata' }).click();
    await expect.poll(() => page.getByTestId('request-status').allTextContents()).toEqual(['Rifiutata']);
    await page.getByTestId('filter-clear').click();
    await expect.poll(async () => (await page.getByTestId('request-status').allTextContents()).length).toBeGreaterThan(5);
    expect(errors).toEqual([]);
  });

  it('the end user sees it confirmed on the dashboard, and the mail that told it', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, 'enduser@portal.demo');
    const dashRow = page.getByTestId(`dashboard-row-${requestId}`);
    await dashRow.waitFor();
    expect(await dashRow.getByTestId('request-status').textContent()).toBe('Confermata');
    expect(await dashRow.textContent()).toMatch(/254,50\s€/);
    await page.getByTestId('monthly-chart').waitFor();
    await shot(page, 'requests-dashboard-enduser');
    const outbox = `${ctx.portal.dataDir}/outbox`;
    const mails = fs.readdirSync(outbox).map((f) => JSON.parse(fs.readFileSync(`${outbox}/${f}`, 'utf8')));
    expect(mails.find((m) => m.subject === `Richiesta di trasporto n. ${requestId} confermata`)?.to).toBe('enduser@portal.demo');
    expect(errors).toEqual([]);
  });
});
