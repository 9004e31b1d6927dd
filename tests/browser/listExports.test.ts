import * as XLSX from '@e965/xlsx';
import { expect, it } from 'vitest';
import { saved } from './files.js';
import { describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';

describeInBrowser('list exports in Chromium (Italian)', (ctx) => {
  it('a carrier exports its requests (with the list’s filter) as .xlsx and a declared list as CSV', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 900 } });
    await ctx.login(page, 'carrier@portal.demo');

    // The request list, filtered on the open requests through the list's own filter state.
    const filter = encodeURIComponent(JSON.stringify({ transport_request_status_id: '1' }));
    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals?filter=${filter}`);
    await page.locator('tbody tr').first().waitFor();
    const menu = page.getByTestId('export-menu');
    expect(await menu.innerText()).toMatch(/ESPORTA/i);
    await menu.click();
    await page.getByTestId('export-xlsx').waitFor();
    await shot(page, 'list-export-menu');
    expect(await axeProblems(page, 'request list with the Esporta menu')).toEqual([]);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
    const file = await saved(dl);
    expect(file.name).toMatch(/^richieste-di-trasporto-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = XLSX.read(file.data, { type: 'buffer', cellDates: true, cellNF: true });
    const ws = wb.Sheets[wb.SheetNames[0]];
    const rows = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: null });
    expect(rows[0]).toEqual(['N.', 'Data', 'Cliente', 'Tratta', 'Servizio', 'Costo', 'Diritti amministrativi', 'Totale', 'Stato']);
    expect(rows.length).toBeGreaterThan(1);
    // every row is an open request (the list's filter), its date a real date
    expect(new Set(rows.slice(1).map((r) => r[8]))).toEqual(new Set(['Aperta']));
    expect(ws.B2.v).toBeInstanceOf(Date);
    const priced = rows.slice(1).find((r) => typeof r[7] === 'number');
    if (priced) expect(ws[`H${rows.indexOf(priced) + 1}`].z).toBe('#,##0.00');
    // the button is back once the file has come
    await expect.poll(() => menu.isEnabled()).toBe(true);

    // A declared list (diesel prices, read-only for carriers): CSV, Italian separators.
    await page.goto(`${ctx.portal.url}/#/diesel-prices`);
    await page.locator('tbody tr').first().waitFor();
    await page.getByTestId('export-menu').click();
    const [csvDl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const csv = await saved(csvDl);
    expect(csv.name).toMatch(/^prezzi-del-gasolio-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...csv.data.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.data.toString('utf8').slice(1).split('\r\n').filter(Boolean);
    expect(lines[0].split(';')).toHaveLength(3);
    // Every field holding a comma is quoted in every language (issue 31): the Italian amount is "1,587".
    expect(lines[1]).toMatch(/^\d{2}\/\d{4};"\d+,\d+";/);
    expect(errors).toEqual([]);
  });
});
