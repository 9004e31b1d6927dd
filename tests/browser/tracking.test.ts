import { expect, it } from 'vitest';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';
import { trackingPath } from '../../model/tracking.js';

const NOTE = 'Nota riservata del vettore per il cliente';

/**
 * Public tracking (issue 22 item 5, docs/tracking.md) in Chromium, in Italian, signed out: the login's link
 * to the page; the consignee's prefilled link shows the status and the timeline with Italian dates, the
 * route's cities, the carrier's name and the expected delivery day (issue 35), and nothing private; a wrong number shows the one message of every mismatch; past the misses an address may
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

  // First: the test below uses up this address's misses.
  it('on a phone, the consignee reads the route’s cities, the carrier and the expected delivery day, and no street, name, note or price', async () => {
    const db = ctx.portal.db.db;
    const req = await db
      .selectFrom('transport_requests as tr')
      .innerJoin('companies as c', 'c.id', 'tr.carrier_id')
      .select(['tr.id'])
      .where('c.legal_name', '=', 'Acme Trasporti S.r.l.')
      .where('tr.transport_request_status_id', '=', 1)
      .orderBy('tr.id', 'desc')
      .executeTakeFirstOrThrow();
    const shipment = await db
      .selectFrom('shipments')
      .select(['id'])
      .where('transport_request_id', '=', req.id)
      .orderBy('position')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const places = await db
      .selectFrom('shipment_addresses')
      .select(['kind', 'city', 'postal_code', 'address', 'location_name'])
      .where('shipment_id', '=', shipment.id)
      .execute();
    const pickup = places.find((p) => p.kind === 'pickup')!;
    const delivery = places.find((p) => p.kind === 'delivery')!;
    // Two working days from Friday 4 December 2026, over the 8 December holiday: Wednesday the 9th.
    await db.updateTable('transport_requests').set({ lead_time: 2 }).where('id', '=', req.id).execute();
    await db.updateTable('shipments').set({ pickup_date: '2026-12-04' }).where('id', '=', shipment.id).execute();
    const notes = await db.selectFrom('transport_requests').select(['notes', 'cost']).where('id', '=', req.id).executeTakeFirstOrThrow();
    const people = await db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('email', 'in', ['enduser@portal.demo', 'carrier@portal.demo'])
      .execute();

    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await page.goto(`${ctx.portal.url}${trackingPath(String(req.id), delivery.postal_code)}`);
    const details = page.getByTestId('tracking-details');
    await details.waitFor();
    expect(await page.getByTestId('tracking-route').textContent()).toBe(`da ${pickup.city}, Italia a ${delivery.city}, Italia`);
    expect(await page.getByTestId('tracking-carrier').textContent()).toBe('Acme Trasporti S.r.l.');
    expect(await page.getByTestId('tracking-expected').textContent()).toBe('mercoledì 9 dicembre 2026ritiro più 2 giorni lavorativi');
    expect((await details.innerText()).replace(/\s+/g, ' ')).toMatch(
      /^Percorso da .+ Vettore Acme Trasporti S\.r\.l\. Consegna prevista mercoledì 9 dicembre 2026/,
    );
    const body = (await page.locator('body').innerText()) ?? '';
    const secrets = [pickup.address, pickup.location_name, delivery.address, delivery.location_name, notes.notes, '€', 'Rossi'];
    for (const u of people) secrets.push(u.first_name, u.last_name);
    for (const secret of secrets.filter((x): x is string => !!x && x.length > 2)) expect(body, secret).not.toContain(secret);
    // The phone shows it all without sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeProblems(page, 'tracking details on a phone', { landmarks: true })).toEqual([]);
    await shot(page, 'tracking-details-phone');
    expect(errors).toEqual([]);
  });

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
    // The carrier's company name is shown (issue 35); its note, the end user and prices are not.
    for (const secret of [NOTE, 'Rossi', '€']) expect(body).not.toContain(secret);
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
