import { expect, it } from 'vitest';
import { tableText } from './files.js';
import { describeInBrowser, animationsDone } from './harness.js';

describeInBrowser('tariff file formats in Chromium (Italian)', (ctx) => {
  it('the upload dialog offers .xlsx, .xls, .ods and .csv, and a semicolon CSV with decimal commas lands', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: '/express-hub-costs' });
    await expect.poll(() => tableText(page, 'tariff-table')).toContain('HUBMI');
    await page.getByTestId('delete-set').click();
    await animationsDone(page); // the dialog's fade
    await page.getByRole('button', { name: 'Elimina' }).last().click();
    await expect.poll(() => page.getByTestId('empty').innerText()).toBe('Nessun dato disponibile, aggiungi dati');

    await page.getByTestId('upload-open').click();
    const accept = (await page.getByTestId('upload-input').getAttribute('accept'))!.split(',');
    for (const a of ['.xlsx', '.xls', '.ods', '.csv', 'application/vnd.oasis.opendocument.spreadsheet', 'text/csv']) expect(accept).toContain(a);
    expect(await page.getByTestId('upload-dialog').innerText()).toContain('Foglio di calcolo .xlsx, .xls, .ods o .csv');

    const csv = Buffer.from('\ufeffcode;silver;gold\r\nHUBTO;7,2;12,50\r\nHUBBO;1.234,5;9\r\n');
    await page.getByTestId('upload-input').setInputFiles({ name: 'costi.csv', mimeType: 'text/csv', buffer: csv });
    await page.getByTestId('upload-publish').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('row-count').innerText()).toBe('2 righe');
    const text = await tableText(page, 'tariff-table');
    expect(text).toMatch(/HUBTO\s+7,20\s€\s+12,50\s€/);
    expect(text).toMatch(/HUBBO\s+1\.234,50\s€\s+9,00\s€/);
    expect(errors).toEqual([]);
  });
});
