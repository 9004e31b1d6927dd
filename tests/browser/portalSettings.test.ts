import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, shot } from './harness.js';
import { bytesOf } from './files.js';
import { COMPANY_ROLE, makeCompany } from '../api/pricingFixtures.js';

/** The admin's portal settings in Italian: the visitors' carrier and a template file. */
describeInBrowser('portal settings in Chromium', (ctx) => {
  beforeAll(async () => {
    await makeCompany(ctx.portal.db.db, 'Vettore Online', COMPANY_ROLE.CARRIER);
  });

  it('chooses the carrier that prices visitors, uploads a template and downloads it', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    await page.getByTestId('sidebar-menu').getByText('Impostazioni', { exact: true }).click();
    await page.getByRole('link', { name: 'Impostazioni portale' }).click();
    await page.getByRole('heading', { name: 'Impostazioni portale' }).waitFor();
    // the demo set prices visitors with its carrier
    await expect.poll(() => page.getByRole('combobox', { name: /Vettore per i visitatori/ }).textContent()).toBe('Acme Trasporti S.r.l.');
    await page.getByRole('combobox', { name: /Vettore per i visitatori/ }).click();
    await page.getByRole('option', { name: 'Vettore Online' }).click();

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-')), 'costi-hub.xlsx');
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40, 7)]));
    await page.locator('input[type=file][name=cs_express_hub_costs]').setInputFiles(file);
    await page.getByText('Da caricare: costi-hub.xlsx').waitFor();
    await page.getByTestId('settings-save').click();
    await page.getByTestId('template-cs_express_hub_costs').getByRole('button', { name: 'costi-hub.xlsx' }).waitFor();
    await shot(page, 'portal-settings-admin');

    const pub = await (await fetch(`${ctx.portal.url}/api/v1/visitor/settings`, { headers: { 'x-api-password': 'browser-test-password' } })).json();
    expect(pub.data.visitor_company_id).toBe(
      (await ctx.portal.db.db.selectFrom('companies').select('id').where('legal_name', '=', 'Vettore Online').executeTakeFirstOrThrow()).id,
    );
    expect(pub.data.cs_express_hub_costs).toBe('/visitor/templates/cs_express_hub_costs');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('template-cs_express_hub_costs').getByRole('button', { name: 'costi-hub.xlsx' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('costi-hub.xlsx');
    expect((await bytesOf(download)).equals(fs.readFileSync(file))).toBe(true);

    // a file that is not a spreadsheet is refused under its row, and nothing changes
    const bad = path.join(path.dirname(file), 'note.xlsx');
    fs.writeFileSync(bad, 'not a spreadsheet');
    await page.locator('input[type=file][name=standard_rate_sheet]').setInputFiles(bad);
    await page.getByTestId('settings-save').click();
    await page.getByTestId('template-standard_rate_sheet').getByText('Il modello deve essere un foglio di calcolo .xls o .xlsx.').waitFor();
    expect(await page.getByTestId('settings-alert').textContent()).toBe('I dati inviati non sono validi.');
    expect(errors).toEqual([]);
  });
});
