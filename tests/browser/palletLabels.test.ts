import { expect, it } from 'vitest';
import { animationsDone, describeInBrowser, shot } from './harness.js';
import { bytesOf } from './files.js';
import { axeProblems } from './axe.js';
import { isSscc } from '../../model/sscc.js';

const PHONE = { width: 390, height: 844 };

describeInBrowser('pallet labels on a phone, in Italian', (ctx) => {
  it('the carrier sets its GS1 prefix in the settings, then prints a confirmed request’s labels from its screen', async () => {
    const db = ctx.portal.db.db;
    const acme = await db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow();
    // a confirmed request of the demo carrier with pallets
    const r = await db
      .selectFrom('transport_requests as tr')
      .innerJoin('shipments as s', 's.transport_request_id', 'tr.id')
      .innerJoin('shipment_details as d', 'd.shipment_id', 's.id')
      .select('tr.id')
      .where('tr.carrier_id', '=', acme.id)
      .where('tr.transport_request_status_id', '=', 3)
      .where('d.shipment_type_id', '=', 1)
      .executeTakeFirstOrThrow();
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'carrier@portal.demo', { at: '/settings/labels' });
    const prefix = page.getByTestId('label-prefix');
    await prefix.waitFor();
    await expect.poll(() => page.getByTestId('label-serials').innerText()).toContain('Nessun prefisso impostato');
    await prefix.fill('12345');
    await page.getByTestId('label-prefix-save').click();
    await page.getByText('Il prefisso è di 7-10 cifre, senza spazi né altri caratteri.').waitFor();
    await prefix.fill('8012345');
    await page.getByTestId('label-prefix-save').click();
    await page.getByText('Impostazioni delle etichette salvate.').waitFor();
    await expect.poll(() => page.getByTestId('label-serials').innerText()).toContain('0 su 999.999.999');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await animationsDone(page);
    await shot(page, 'pallet-labels-settings-phone');
    expect(await axeProblems(page, 'settings, pallet labels (phone)')).toEqual([]);

    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals/${r.id}/1`);
    await page.getByTestId('detail-labels').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('detail-labels-pdf').click()]);
    expect(download.suggestedFilename()).toBe(`etichette-${r.id}.pdf`);
    expect((await bytesOf(download)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const stored = await db
      .selectFrom('shipment_details as d')
      .innerJoin('shipments as s', 's.id', 'd.shipment_id')
      .select('d.sscc')
      .where('s.transport_request_id', '=', r.id)
      .where('d.shipment_type_id', '=', 1)
      .execute();
    for (const s of stored) expect(isSscc(s.sscc ?? '')).toBe(true);
    await page.getByTestId('detail-labels').click();
    const [zpl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('detail-labels-zpl').click()]);
    expect(zpl.suggestedFilename()).toBe(`etichette-${r.id}.zpl`);
    expect((await bytesOf(zpl)).toString('utf8')).toContain(`>;>800${stored[0].sscc}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('the admin sets a carrier’s GS1 prefix on the company’s screen', async () => {
    const db = ctx.portal.db.db;
    const acme = await db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow();
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'admin@portal.demo', { at: `/companies/${acme.id}` });
    const prefix = page.getByTestId('company-label-prefix');
    await prefix.waitFor();
    await prefix.fill('80123a5');
    await page.getByTestId('company-label-prefix-save').click();
    await page.getByText('Il prefisso è di 7-10 cifre, senza spazi né altri caratteri.').waitFor();
    await prefix.fill('801234599');
    await page.getByTestId('company-label-prefix-save').click();
    await page.getByText('Impostazioni delle etichette salvate.').waitFor();
    await expect
      .poll(
        async () =>
          (await db.selectFrom('label_settings').select('gs1_company_prefix').where('company_id', '=', acme.id).executeTakeFirst())?.gs1_company_prefix,
      )
      .toBe('801234599');
    await expect.poll(() => page.getByTestId('company-label-serials').innerText()).toMatch(/su 9\.999\.999\.$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByTestId('company-label-card').scrollIntoViewIfNeeded();
    await animationsDone(page);
    await shot(page, 'pallet-labels-admin-company-phone');
    expect(errors).toEqual([]);
  });
});
