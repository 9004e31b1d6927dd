import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rowsOf, saved, tableText, xlsx } from './files.js';
import { describeInBrowser, shot, animationsDone } from './harness.js';
import { axeProblems } from './axe.js';

/** The carrier's stored hub costs, as the Esporta button saves them (header first). */
async function exported(page: Page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  return rowsOf((await saved(dl)).data);
}

const cells = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).locator('tbody tr').allInnerTexts()).map((r) => r.split('\t').map((c) => c.trim()));

describeInBrowser('tariff upload checks in Chromium (Italian)', (ctx) => {
  it('a file with a bad cell shows the error table with row and column, offers no Pubblica, and changes nothing', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: '/express-hub-costs' });
    await expect.poll(() => tableText(page, 'tariff-table'), { timeout: 20_000 }).toMatch(/HUBNA\s+7,50\s€\s+12,50\s€/);
    const before = await tableText(page, 'tariff-table');
    const rows = await exported(page);
    const at = rows.findIndex((r) => r[0] === 'HUBNA');
    rows[at] = ['HUBNA', 7.5, '12,5O'];

    await page.getByTestId('upload-open').click();
    await page.getByTestId('upload-input').setInputFiles({ name: 'costi.xlsx', mimeType: 'application/octet-stream', buffer: xlsx(rows) });
    await page.getByTestId('check-errors').waitFor();
    expect(await page.getByTestId('check-errors').innerText()).toContain('Il file contiene un errore: non è stato salvato nulla.');
    const headers = await page.getByTestId('check-errors-table').locator('thead th').allInnerTexts();
    expect(headers).toEqual(['Riga', 'Colonna', 'Messaggio']);
    // The sheet's row as the user sees it (header = row 1), the column's name, the cell's message.
    expect(await cells(page, 'check-errors-table')).toEqual([[String(at + 1), 'gold', 'Non è un numero: "12,5O".']]);
    expect(await page.getByTestId('upload-publish').count()).toBe(0);
    expect(await page.getByTestId('upload-choose-again').isEnabled()).toBe(true);
    await animationsDone(page); // the dialog's growth
    await shot(page, 'tariff-check-errors');
    expect(await axeProblems(page, 'upload check with errors')).toEqual([]);

    await page.getByTestId('upload-cancel').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    await page.reload();
    await expect.poll(() => tableText(page, 'tariff-table'), { timeout: 20_000 }).toContain('HUBNA');
    expect(await tableText(page, 'tariff-table')).toBe(before);
    expect(errors).toEqual([]);
  });

  it('a carrier uploads a changed price: sees it before → after, Annulla keeps the old price, Pubblica stores the new one', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1366, height: 900 } });
    await ctx.login(page, 'carrier@portal.demo', { at: '/express-hub-costs' });
    await expect.poll(() => tableText(page, 'tariff-table'), { timeout: 20_000 }).toMatch(/HUBNA\s+7,50\s€\s+12,50\s€/);
    const rows = await exported(page);
    const at = rows.findIndex((r) => r[0] === 'HUBNA');
    rows[at] = ['HUBNA', 8.25, 12.5];
    const file = xlsx(rows);

    const check = async (shown = 'check-changes-table') => {
      await page.getByTestId('upload-open').click();
      await page.getByTestId('upload-input').setInputFiles({ name: 'costi.xlsx', mimeType: 'application/octet-stream', buffer: file });
      await page.getByTestId(shown).waitFor();
    };
    await check();
    expect(await page.getByTestId('summary-changed').innerText()).toBe('1 riga modificata');
    expect(await page.getByTestId('summary-unchanged').innerText()).toBe('5 righe invariate');
    expect(await page.getByTestId('summary-added').innerText()).toBe('0 righe nuove');
    expect(await page.getByTestId('check-changes-table').locator('thead th').allInnerTexts()).toEqual(['Cambio', 'Codice', 'Silver', 'Gold']);
    const [changed] = await cells(page, 'check-changes-table');
    expect(changed[0]).toBe('Modificata');
    expect(changed[1]).toBe('HUBNA');
    // Seen: "7,50 € → 8,25 €"; heard: "prima: 7,50 €, dopo: 8,25 €" (visually hidden words, the arrow hidden from readers).
    expect(changed[2].replace(/\s+/g, ' ')).toBe('prima: 7,50 € → , dopo: 8,25 €');
    expect(changed[3]).toMatch(/^12,50\s€$/);
    const cell = page.getByTestId('check-changes-table').locator('[data-changed="true"]');
    expect(await cell.locator('del').innerText()).toMatch(/^7,50\s€$/);
    expect(await cell.locator('ins').innerText()).toMatch(/^8,25\s€$/);
    await page.getByTestId('check-impact').waitFor(); // null or filled: the server's part decides, not asserted here
    await animationsDone(page);
    await shot(page, 'tariff-check-changes');
    expect(await axeProblems(page, 'upload check with changes')).toEqual([]);

    // Annulla stores nothing.
    await page.getByTestId('upload-cancel').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    await page.reload();
    await expect.poll(() => tableText(page, 'tariff-table'), { timeout: 20_000 }).toMatch(/HUBNA\s+7,50\s€\s+12,50\s€/);

    await check();
    await page.getByTestId('upload-publish').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => tableText(page, 'tariff-table'), { timeout: 20_000 }).toMatch(/HUBNA\s+8,25\s€\s+12,50\s€/);
    expect(await page.getByTestId('row-count').innerText()).toBe('6 righe');

    // The same file again changes nothing: the check says so and Pubblica stays offered (docs/tariff-checks.md).
    await check('check-no-change');
    expect(await page.getByTestId('check-no-change').innerText()).toBe('Il file è uguale ai dati salvati: pubblicarlo non cambia nessun prezzo.');
    expect(await page.getByTestId('check-changes-table').count()).toBe(0);
    expect(await page.getByTestId('upload-publish').isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('publishing one changed island row says so in the toast: "1 riga modificata, 37 invariate", the classes written as SILVER and GOLD', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1366, height: 900 } });
    await ctx.login(page, 'carrier@portal.demo', { at: '/express-island-zones' });
    await expect.poll(() => page.getByTestId('row-count').innerText(), { timeout: 20_000 }).toBe('38 righe');
    const rows = await exported(page);
    const typeCol = rows[0].indexOf('type_id');
    // The export writes the classes as the table shows them, and the file imports again.
    expect(new Set(rows.slice(1).map((r) => r[typeCol]))).toEqual(new Set(['SILVER', 'GOLD']));
    const at = rows.findIndex((r) => r[0] === 'Capri' && r[typeCol] === 'GOLD');
    const p150 = rows[0].indexOf('p150');
    rows[at] = rows[at].map((v, i) => (i === p150 ? 99 : i === typeCol ? 'gold' : v));

    await page.getByTestId('upload-open').click();
    await page.getByTestId('upload-input').setInputFiles({ name: 'isole.xlsx', mimeType: 'application/octet-stream', buffer: xlsx(rows) });
    await page.getByTestId('check-changes-table').waitFor();
    expect(await page.getByTestId('summary-changed').innerText()).toBe('1 riga modificata');
    expect(await page.getByTestId('summary-unchanged').innerText()).toBe('37 righe invariate');
    await page.getByTestId('upload-publish').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    // The toast names what changed, not "38 righe importate".
    await page.getByText('File pubblicato: 1 riga modificata, 37 invariate.').waitFor();
    expect(await page.getByText(/righe importate/).count()).toBe(0);
    await shot(page, 'tariff-publish-toast');
    expect(await page.getByTestId('row-count').innerText()).toBe('38 righe');
    expect(errors).toEqual([]);
  });
});
