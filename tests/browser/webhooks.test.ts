import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeProblems } from './axe.js';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';
import { startReceiver } from '../api/webhookReceiver.js';

/** The settings' "Webhook" card (issue 23, docs/webhooks.md): add, the secret once, a delivery, Resend, delete — in Italian. */
describeInBrowser('webhooks in Chromium, in Italian', (ctx) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.close());

  const api = async (path: string, token: string | null, body?: unknown) => {
    const r = await fetch(`${ctx.portal.url}/api/v1${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: await r.json() };
  };

  it('adds an endpoint, shows its secret once, lists a signed delivery with its code and duration, resends it, deletes the endpoint', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: '/settings/webhooks' });
    const card = page.getByTestId('webhooks-card');
    await card.getByRole('heading', { name: 'Webhook' }).waitFor();
    await card.getByText('Nessun webhook.').waitFor();

    await card.getByTestId('webhook-create').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Nuovo webhook' }).waitFor();
    await dialog.getByTestId('webhook-url').fill('');
    await dialog.getByTestId('webhook-submit').click();
    await dialog.getByText('L’URL è obbligatorio.').waitFor();
    await dialog.getByTestId('webhook-url').fill('ftp://esempio.it/hook');
    await dialog.getByTestId('webhook-submit').click();
    await dialog.getByText('L’indirizzo deve essere un URL http(s) completo, senza nome utente né password.').waitFor();
    await dialog.getByTestId('webhook-url').fill(receiver.url);
    await dialog.getByRole('checkbox', { name: /Richiesta creata/ }).uncheck();
    await shot(page, 'webhooks-create');
    expect(await axeProblems(page, 'webhook create dialog')).toEqual([]);
    await dialog.getByTestId('webhook-submit').click();

    await dialog.getByRole('heading', { name: 'Segreto di firma del webhook' }).waitFor();
    const secret = (await dialog.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await shot(page, 'webhooks-secret');
    await dialog.getByTestId('webhook-secret-done').click();
    await dialog.waitFor({ state: 'hidden' });
    const row = card.getByTestId('webhook-row');
    await expect.poll(() => row.count()).toBe(1);
    const cells = await row.locator('td').allInnerTexts();
    expect([cells[0], cells[1], cells[3]]).toEqual([receiver.url, 'Cambio di stato', 'Attivo']);
    expect(await page.content()).not.toContain(secret);

    // the carrier confirms one of its priced requests; the worker sends the event, signed with the secret shown
    const token = (await api('/visitor/login', null, { email: 'carrier@portal.demo', password: 'demo1234' })).body.token as string;
    const list = await api('/company/transport_requests?transport_request_status_id=1&per_page=50', token);
    const id = (list.body.transportRequests.data as Array<{ id: number; cost: number | null }>).find((r) => r.cost !== null)!.id;
    const changed = await api('/company/transport_requests/updateTransportRequestStatus', token, { id, transport_request_status_id: 3 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await ctx.portal.app.webhooks.drain();
    expect(receiver.received).toHaveLength(1);
    const msg = new Webhook(secret).verify(receiver.received[0].body, receiver.received[0].headers as Record<string, string>) as { data: { id: number } };
    expect(msg.data.id).toBe(id);

    await row.getByTestId('webhook-deliveries-open').click();
    const deliveries = page.getByRole('dialog');
    const delivery = deliveries.getByTestId('webhook-delivery-row');
    await expect.poll(() => delivery.count()).toBe(1);
    const d = await delivery.locator('td').allInnerTexts();
    expect(d.slice(0, 4)).toEqual(['Cambio di stato', `#${id}`, 'Consegnata', '204']);
    expect(d[4]).toMatch(/^\d+ ms$/);
    expect(d[6]).toBe('1');
    await shot(page, 'webhooks-deliveries');
    expect(await axeProblems(page, 'webhook deliveries')).toEqual([]);
    await delivery.getByTestId('webhook-resend').click();
    await page.getByText('La consegna verrà inviata di nuovo a breve.').first().waitFor();
    await expect.poll(() => delivery.count()).toBe(2);
    expect(await delivery.first().getAttribute('data-state')).toBe('pending');
    await ctx.portal.app.webhooks.drain();
    const firstId = receiver.received[0].headers['webhook-id'];
    expect(receiver.received.map((m) => m.headers['webhook-id'])).toEqual([firstId, firstId]);
    await deliveries.getByTestId('webhook-deliveries-close').click();
    await deliveries.waitFor({ state: 'hidden' });

    await row.getByTestId('webhook-delete').click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Eliminare il webhook?').waitFor();
    await confirm.getByRole('button', { name: 'Elimina', exact: true }).click();
    await page.getByText('Webhook eliminato: non gli verrà più inviato nulla.').first().waitFor();
    await card.getByText('Nessun webhook.').waitFor();
  });
});
