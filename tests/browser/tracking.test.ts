import { expect, it } from 'vitest';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';
import { trackingPath } from '../../model/tracking.js';

const NOTE = 'Nota riservata del vettore per il cliente';

/**
 * Public tracking (issue 22 item 5, docs/tracking.md) in Chromium, in Italian, signed out: the login's link
 * to the page; the consignee's prefilled link shows the status and the timeline with Italian dates and
 * nothing private; a wrong number shows the one message of every mismatch; past the misses an address may
 * make, the wait.
 */
describeInBrowser('public tracking in Chromium, in Italian', (ctx) => {
  const api = async (method: 'GET' | 'POST', url: string, token?: string, body?: unknown) => {
    const res = await ctx.portal.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'x-api-password': API_PASSWORD, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: body as any,
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('a prefilled link shows the status and the timeline; a wrong number the message; too many misses the wait', async () => {
    // An open demo request with its delivery postal code, confirmed by the carrier with a note.
    const db = ctx.portal.db.db;
    const req = await db
      .selectFrom('transport_requests as tr')
      .innerJoin('shipments as s', 's.transport_request_id', 'tr.id')
      .innerJoin('shipment_addresses as sa', 'sa.shipment_id', 's.id')
      .innerJoin('companies as c', 'c.id', 'tr.carrier_id')
      .select(['tr.id', 'sa.postal_code'])
      .where('sa.kind', '=', 'delivery')
      .where('tr.transport_request_status_id', '=', 1)
      .where('c.legal_name', '=', 'Acme Trasporti S.r.l.')
      .orderBy('tr.id')
      .executeTakeFirstOrThrow();
    const token = (await api('POST', '/visitor/login', undefined, { email: 'carrier@portal.demo', password: 'demo1234' })).body.token as string;
    const confirmed = await api('POST', '/company/transport_requests/updateTransportRequestStatus', token, {
      id: req.id,
      transport_request_status_id: 3,
      note: NOTE,
    });
    expect(confirmed.status).toBe(200);

    const { page, errors } = await ctx.page({ viewport: { width: 1280, height: 900 } });
    // The login links to the page.
    await page.goto(`${ctx.portal.url}/#/login`);
    await page.getByTestId('login-track-link').click();
    await page.getByRole('heading', { name: 'Traccia la spedizione' }).waitFor();
    expect(await page.getByLabel('Numero della richiesta').inputValue()).toBe('');

    // The consignee's link: both fields filled, the result at once.
    await page.goto(`${ctx.portal.url}${trackingPath(String(req.id), ` ${req.postal_code.toLowerCase()} `)}`);
    const result = page.getByTestId('tracking-result');
    await result.waitFor();
    expect(await page.getByLabel('Numero della richiesta').inputValue()).toBe(String(req.id));
    expect(await page.getByLabel('CAP di destinazione').inputValue()).toBe(req.postal_code.toLowerCase());
    expect(await page.getByTestId('tracking-status').textContent()).toBe('Confermata');
    expect(await result.getByText(`Richiesta n. ${req.id}`).count()).toBe(1);
    const events = page.getByRole('list', { name: 'Cronologia della spedizione' }).getByRole('listitem');
    const texts = await events.allTextContents();
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(texts[0]).toMatch(/^Richiesta creata\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(texts.at(-1)).toMatch(/^Stato: Confermata\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    const body = (await page.locator('body').textContent()) ?? '';
    for (const secret of [NOTE, 'Acme', 'Rossi', '€']) expect(body).not.toContain(secret);
    expect(await axeProblems(page, 'tracking result', { landmarks: true })).toEqual([]);
    await shot(page, 'tracking-result');

    // A wrong number: one message, whichever half was wrong; the fields keep what was typed.
    await page.getByLabel('Numero della richiesta').fill('999999');
    await page.getByRole('button', { name: 'Traccia' }).click();
    const alert = page.getByTestId('tracking-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Nessuna spedizione corrisponde a questo numero di richiesta e CAP di destinazione. Controlla entrambi e riprova.');
    expect(await result.count()).toBe(0);
    expect(page.url()).toContain('code=999999');
    expect(await axeProblems(page, 'tracking mismatch', { landmarks: true })).toEqual([]);
    await shot(page, 'tracking-mismatch');

    // The address's misses used up (the browser and these calls are the same 127.0.0.1): even the right pair waits.
    for (let i = 0; i < 19; i++) expect((await api('GET', `/visitor/track?code=${req.id}&postal_code=0000${i}`)).status).toBe(404);
    expect((await api('GET', `/visitor/track?code=${req.id}&postal_code=${req.postal_code}`)).status).toBe(429);
    await page.getByLabel('Numero della richiesta').fill(String(req.id));
    await page.getByRole('button', { name: 'Traccia' }).click();
    await page.getByText('Troppi tentativi di tracciamento: riprova tra 15 minuti.').waitFor();
    await shot(page, 'tracking-wait');
    expect(errors).toEqual([]);
  });
});
