import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { pdfText } from '../api/pdfText.js';
import { buildPricingWorld, type PricingWorld } from '../api/pricingFixtures.js';
import { axeProblems } from './axe.js';
import { bytesOf } from './files.js';
import { describeInBrowser, shot } from './harness.js';
import { shownDay, typeInPicker } from './pickers.js';

/**
 * Issue 35, in Italian on a 390 × 844 phone: the booking form as steps (shipment, pickup, delivery, notes and
 * documents, review); a send with a missing field opens its step with the field focused; a complete booking
 * opens the new request, its number in the message. Then the carrier's review of that request: a request to be
 * quoted says to set the price first and offers no confirm; once priced, confirming stays on the request, which
 * shows its new status and its waybill (weights in Italian: 350,5), the message naming it.
 */
const PHONE = { width: 390, height: 844 };
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
/** The `data-testid` of the field holding the focus (the focused element's own, or its field's root). */
const focusedField = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (
      el?.closest('[data-testid]')?.getAttribute('data-testid') ??
      el?.closest('.MuiFormControl-root')?.querySelector('[data-testid]')?.getAttribute('data-testid') ??
      null
    );
  });
const step = (page: Page) => page.getByTestId('create-request').getAttribute('data-step');

describeInBrowser('booking as steps on a phone, and the carrier review, in Italian', (ctx) => {
  let id = 0;

  it('an end user books on a 390 px phone: a missing field opens its step and takes the focus; the new request opens with its number', async () => {
    const { page, errors, outside } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'enduser@portal.demo', { at: '/transport-requests' });
    await page.getByTestId('create-request').waitFor();
    expect(await page.getByTestId('create-request').getAttribute('data-layout')).toBe('steps');
    expect(await step(page)).toBe('shipment');
    expect(await page.getByRole('heading', { name: 'Passo 1 di 5: Spedizione' }).count()).toBe(1);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);

    // "Avanti" with the reference missing: the step stays and its first missing field has the focus.
    await page.getByTestId('step-next').click();
    await expect.poll(() => focusedField(page)).toBe('s0.shipperref');
    expect(await step(page)).toBe('shipment');
    await page.getByTestId('s0.shipperref').fill('ORD-PHONE-1');
    await page.getByTestId('s0.units').fill('3');
    // The Italian decimal mark, and a thousands dot (1.500 is fifteen hundred).
    await page.getByTestId('s0.weight').fill('350,5');
    await page.getByTestId('s0.volume').fill('2,4');
    await page.getByTestId('s0.volumeType').locator('..').click();
    await page.getByRole('option', { name: 'Metri cubi (CBM)' }).click();
    expect(await axeProblems(page, 'booking step 1 on a phone')).toEqual([]);
    await shot(page, 'booking-steps-shipment');
    await page.getByTestId('step-next').click();
    await expect.poll(() => step(page)).toBe('pickup');
    // The company's place is the default pickup; the date and window are left empty on purpose.
    await expect.poll(() => page.getByTestId('s0.pickup.locationName').inputValue()).toBe('Rossi Logistica S.r.l.');

    // Straight to the review by its step, then send: the pickup step opens with its date focused.
    await page.getByTestId('step-review').click();
    await expect.poll(() => step(page)).toBe('review');
    expect(await page.getByTestId('review-goods-0').textContent()).toContain('350,5 kg');
    await page.getByTestId('create-submit').click();
    await page.getByText('Controlla i campi evidenziati.', { exact: true }).first().waitFor();
    await expect.poll(() => step(page)).toBe('pickup');
    await expect.poll(() => focusedField(page)).toBe('s0.pickup.date');
    // The steps with errors say so (a warning icon in place of the number, and the words for a screen reader).
    expect(await page.getByTestId('step-pickup').textContent()).toBe('Ritiro (Da correggere)');
    expect(await page.getByTestId('step-shipment').textContent()).toBe('1Spedizione');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'booking-steps-pickup-error');
    expect(await axeProblems(page, 'booking step 2 with errors on a phone')).toEqual([]);

    await typeInPicker(page, 's0.pickup.date', shownDay(addDays(romeDate(), 2)));
    await typeInPicker(page, 's0.pickup.timeFrom', '08:00');
    await typeInPicker(page, 's0.pickup.timeTo', '12:00');
    await page.getByTestId('step-next').click();
    await expect.poll(() => step(page)).toBe('delivery');
    // The pickup is right now; the delivery, still empty, keeps its mark until it is filled.
    expect(await page.getByTestId('step-pickup').textContent()).toBe('2Ritiro');
    expect(await page.getByTestId('step-delivery').textContent()).toBe('Consegna (Da correggere)');
    await page.getByTestId('s0.delivery.locationName').fill('Ferramenta Colosseo');
    await page.getByTestId('s0.delivery.address').fill('Via Labicana 44');
    await page.getByTestId('s0.delivery.postalCode').fill('00184');
    await page.getByTestId('s0.delivery.city').fill('Roma');
    await page.getByTestId('step-next').click();
    await expect.poll(() => step(page)).toBe('notes');
    expect(await page.getByTestId('step-delivery').textContent()).toBe('3Consegna');
    await page.getByTestId('notes').fill('Citofonare al magazzino.');
    await page.getByTestId('step-next').click();
    await expect.poll(() => step(page)).toBe('review');
    expect(await page.getByTestId('review-delivery-0').textContent()).toContain('Via Labicana 44');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    expect(await axeProblems(page, 'booking review on a phone')).toEqual([]);
    await shot(page, 'booking-steps-review');

    await page.getByTestId('create-submit').click();
    await page.waitForURL(/#\/transport-requests-visuals\/\d+\/1$/);
    id = Number(/visuals\/(\d+)\//.exec(page.url())![1]);
    const row = await ctx.portal.db.db.selectFrom('transport_requests').select(['id', 'notes']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toEqual({ id, notes: 'Citofonare al magazzino.' });
    await page.getByText(`Richiesta di trasporto n. ${id} creata`, { exact: true }).first().waitFor();
    await page.getByTestId('request-detail').waitFor();
    // The detail writes the weight as Italian does.
    expect(await page.getByTestId('shipment-card-1').textContent()).toContain('350,5');
    const detail = await ctx.portal.db.db.selectFrom('shipment_details').select('gross_weight').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(Number(detail.gross_weight)).toBe(350.5);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('the carrier reviews it on a phone: set the price first, then a confirm that stays on the request and offers its waybill', async () => {
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'carrier@portal.demo', { at: `/transport-requests-visuals/${id}/1` });
    await page.getByTestId('request-detail').waitFor();
    // To be quoted: what to do first, and no confirm that the server would refuse.
    expect(await page.getByTestId('set-price-first').textContent()).toBe('Da quotare: indica il prezzo prima di confermare');
    expect(await page.getByTestId('detail-confirm').count()).toBe(0);
    expect(await page.getByTestId('detail-waybill').count()).toBe(0);
    await page.getByTestId('set-price-action').click();
    await page.getByTestId('edit-request').waitFor();
    await page.getByTestId('edit-price').fill('180,5');
    await page.getByTestId('edit-fee').fill('4,5');
    await page.getByTestId('edit-reason').fill('Tariffa a collo');
    await page.getByTestId('edit-submit').click();
    await page.getByText('Richiesta di trasporto aggiornata con successo', { exact: true }).first().waitFor();

    // Saved, the edit form goes back to the list; the request is opened again from there.
    await page.waitForURL(/#\/transport-requests-visuals(\?.*)?$/);
    await page.getByTestId('request-filters').waitFor();
    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals/${id}/1`);
    await page.getByTestId('detail-confirm').waitFor();
    expect(await page.getByTestId('set-price-first').count()).toBe(0);
    const at = page.url();
    await page.getByTestId('detail-confirm').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Conferma' }).click();
    await page.getByText(`Richiesta n. ${id} confermata`, { exact: true }).first().waitFor();
    // Still on the request: its new status, no more confirm, and its waybill to download.
    await expect.poll(() => page.getByTestId('request-header').getByTestId('request-status').textContent()).toBe('Confermata');
    expect(page.url()).toBe(at);
    expect(await page.getByTestId('detail-confirm').count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'carrier-confirmed-stays');
    expect(await axeProblems(page, 'carrier request detail after confirming, on a phone')).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('detail-waybill').click()]);
    const pdf = await bytesOf(download);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The waybill in the language of who downloads it: the weight with the Italian comma.
    expect(pdfText(pdf)).toContain('350,5');
    const row = await ctx.portal.db.db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.transport_request_status_id).toBe(3);
    expect(errors).toEqual([]);
  });

  it('a booking from a quote on a phone: each pallet is a card (no cut "Misure"), the quote on the first step', async () => {
    const w: PricingWorld = await buildPricingWorld(ctx.portal.db.db, 'steps');
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, w.logins.endUser, { at: '/calculate-cost' });
    await page.getByTestId('zone-national').click();
    await page.getByTestId('service-palletExpress').click();
    await page.getByTestId('calc-next').click();
    await page.getByTestId('calc-form').waitFor();
    for (const [name, value] of [
      ['originPostalCode', '20121'],
      ['originLocality', 'Milano'],
      ['originProvince', 'MI'],
      ['destinationPostalCode', '00118'],
      ['destinationLocality', 'Roma'],
      ['destinationProvince', 'RM'],
      ['palletWeight[0]', '250,5'],
      ['palletWidth[0]', '120'],
      ['palletLength[0]', '80'],
      ['palletHeight[0]', '90'],
    ])
      await page.fill(`input[name="${name}"]`, value);
    await page.getByTestId('calc-submit').click();
    // (A confirmation before calculating, when the calculator still asks one.)
    const ok = page.getByTestId('calc-confirm-ok');
    const results = page.getByTestId('calc-results');
    await ok.or(results).first().waitFor();
    if (await ok.isVisible()) await ok.click();
    await results.waitFor();
    await page.getByTestId('request-gold').click();
    await page.getByTestId('quote-summary').waitFor();
    expect(await page.getByTestId('create-request').getAttribute('data-step')).toBe('shipment');
    expect(await page.getByTestId('pallet-table').count()).toBe(0);
    const card = page.getByTestId('pallet-card-1');
    expect(await card.innerText()).toContain('250,5');
    expect(await card.innerText()).toContain('120 × 80 × 90');
    expect(await card.innerText()).toContain('Misure (cm)');
    // The card shows whole, inside the phone's width.
    const box = (await card.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'booking-steps-from-quote');
    expect(await axeProblems(page, 'booking from a quote on a phone')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the carrier refuses a request on a phone and stays on it; a confirm that comes too late names the request and shows its status', async () => {
    const open = await ctx.portal.db.db
      .selectFrom('transport_requests as tr')
      .innerJoin('companies as c', 'c.id', 'tr.carrier_id')
      .select('tr.id')
      .where('c.legal_name', '=', 'Acme Trasporti S.r.l.')
      .where('tr.transport_request_status_id', '=', 1)
      .where('tr.cost', 'is not', null)
      .orderBy('tr.id')
      .execute();
    expect(open.length).toBeGreaterThanOrEqual(2);
    const [first, second] = open.map((r) => r.id);
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'carrier@portal.demo', { at: `/transport-requests-visuals/${first}/1` });
    await page.getByTestId('detail-refuse').click();
    await page.getByTestId('status-note').fill('Nessun mezzo disponibile quel giorno');
    await page.getByRole('dialog').getByRole('button', { name: 'Rifiuta' }).click();
    await page.getByText(`Richiesta n. ${first} rifiutata`, { exact: true }).first().waitFor();
    await expect.poll(() => page.getByTestId('request-header').getByTestId('request-status').textContent()).toBe('Rifiutata');
    expect(page.url()).toMatch(new RegExp(`#/transport-requests-visuals/${first}/1$`));
    expect(await page.getByTestId('detail-refuse').count()).toBe(0);
    expect(await page.getByTestId('detail-waybill').count()).toBe(0);

    // Someone else confirms the second request while this screen still shows it open.
    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals/${second}/1`);
    await page.getByTestId('detail-confirm').waitFor();
    await ctx.portal.db.db.updateTable('transport_requests').set({ transport_request_status_id: 3 }).where('id', '=', second).execute();
    await page.getByTestId('detail-confirm').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Conferma' }).click();
    await page
      .getByText(new RegExp(`^Richiesta n\\. ${second} non aggiornata: `))
      .first()
      .waitFor();
    // The screen reads it again: confirmed, with its waybill, on the same request.
    await expect.poll(() => page.getByTestId('request-header').getByTestId('request-status').textContent()).toBe('Confermata');
    await page.getByTestId('detail-waybill').waitFor();
    expect(page.url()).toMatch(new RegExp(`#/transport-requests-visuals/${second}/1$`));
    expect(errors).toEqual([]);
  });
});
