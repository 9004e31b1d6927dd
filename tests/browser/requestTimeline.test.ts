import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { fillCalcPlace } from './pickers.js';
import { bytesOf } from './files.js';
import { axeProblems } from './axe.js';
import { buildPricingWorld } from '../api/pricingFixtures.js';

const NOTE = 'Ritiro confermato giovedì mattina, città: Bologna';

/** The seeded open, priced requests of Acme for Rossi (server/seed/requests.ts). */
async function openPriced(db: any): Promise<number[]> {
  const rows = await db
    .selectFrom('transport_requests as tr')
    .innerJoin('companies as c', 'c.id', 'tr.carrier_id')
    .innerJoin('companies as e', 'e.id', 'tr.enduser_company_id')
    .select('tr.id')
    .where('c.legal_name', '=', 'Acme Trasporti S.r.l.')
    .where('e.legal_name', '=', 'Rossi Logistica S.r.l.')
    .where('tr.transport_request_status_id', '=', 1)
    .where('tr.cost', 'is not', null)
    .orderBy('tr.id')
    .execute();
  return rows.map((r: { id: number }) => r.id);
}

const download = async (page: Page, testId: string) => {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: d.suggestedFilename(), bytes: await bytesOf(d) };
};

describeInBrowser('the request timeline and the PDFs in Chromium, in Italian', (ctx) => {
  let id = 0;

  it('the carrier confirms with a note; a refusal without a note is stopped in the dialog', async () => {
    const ids = await openPriced(ctx.portal.db.db);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    id = ids[0];
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, 'carrier@portal.demo');
    // Refusing without a note: the field says why, the dialog stays, nothing is sent.
    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals/${ids[1]}/1`);
    await page.getByTestId('detail-refuse').click();
    const dialog = page.getByRole('dialog');
    // "Rifiuta" carries the refuse icon (as on the row), not a tick that reads as a confirmation.
    const iconOf = (button: Locator) => button.locator('svg').first().innerHTML();
    await dialog.getByRole('button', { name: 'Rifiuta' }).waitFor();
    expect(await iconOf(dialog.getByRole('button', { name: 'Rifiuta' }))).toBe(await iconOf(page.getByTestId('detail-refuse')));
    await dialog.getByRole('button', { name: 'Rifiuta' }).click();
    await dialog.getByText('Scrivi il motivo del rifiuto.').waitFor();
    await shot(page, 'timeline-refuse-needs-note');
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    const still = await ctx.portal.db.db
      .selectFrom('transport_requests')
      .select('transport_request_status_id')
      .where('id', '=', ids[1])
      .executeTakeFirstOrThrow();
    expect(still.transport_request_status_id).toBe(1);

    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals/${id}/1`);
    await page.getByTestId('detail-confirm').click();
    await page.getByTestId('status-note').fill(NOTE);
    await shot(page, 'timeline-confirm-with-note');
    await page.getByRole('dialog').getByRole('button', { name: 'Conferma' }).click();
    await page.getByText(`Richiesta n. ${id} confermata`, { exact: true }).first().waitFor();
    const row = await ctx.portal.db.db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.transport_request_status_id).toBe(3);
    expect(errors).toEqual([]);
  });

  it('the end user sees the timeline with the note and downloads the consignment note', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, 'enduser@portal.demo', { at: `/transport-requests-visuals/${id}/1` });
    const timeline = page.getByRole('list', { name: 'Cronologia della richiesta' });
    await timeline.waitFor();
    const entries = timeline.getByTestId('timeline-entry');
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(2);
    expect(await entries.first().getAttribute('data-event')).toBe('created');
    const last = entries.last();
    expect(await last.getAttribute('data-event')).toBe('status_changed');
    expect(await last.textContent()).toContain('Stato: Confermata');
    expect(await last.getByTestId('timeline-note').textContent()).toBe(NOTE);
    // Italian dates: dd/mm/yyyy.
    expect(await last.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4}/);
    expect(await last.textContent()).toContain('(vettore)');
    await last.scrollIntoViewIfNeeded();
    await shot(page, 'timeline-enduser');
    expect(await axeProblems(page, 'request detail with timeline (end user)')).toEqual([]);

    const waybill = await download(page, 'detail-waybill');
    expect(waybill.name).toBe(`lettera-di-vettura-${id}.pdf`);
    expect(waybill.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(errors).toEqual([]);
  });

  it("the calculator's Scarica PDF downloads the quote", async () => {
    const w = await buildPricingWorld(ctx.portal.db.db, 'pdf');
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    await ctx.login(page, w.logins.endUser, { at: '/calculate-cost' });
    await page.getByTestId('zone-national').click();
    await page.getByTestId('service-palletExpress').click();
    await page.getByTestId('calc-next').click();
    await page.getByTestId('calc-form').waitFor();
    await fillCalcPlace(page, 'destination', '00118', 'Roma', 'RM');
    const names = ['palletWeight', 'palletWidth', 'palletLength', 'palletHeight'];
    const values = ['250', '120', '80', '90'];
    for (let i = 0; i < 4; i++) await page.fill(`input[name="${names[i]}[0]"]`, values[i]);
    await page.getByTestId('calc-submit').click();
    await page.getByTestId('calc-results').waitFor();
    const pdf = await download(page, 'quote-pdf');
    // Named by the server after the quote's number (issue 36: preventivo-P-<year>-<seq>.pdf), the number printed inside.
    expect(pdf.name).toMatch(/^preventivo-P-\d{4}-\d{6,}\.pdf$/);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await shot(page, 'calculator-quote-pdf');
    expect(errors).toEqual([]);
  });
});
