import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';

const bodies = (page: Page) => page.getByTestId('message-body').allTextContents();
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeInBrowser('live events in Chromium: pushed, not polled', (ctx) => {
  it('shows a message the carrier posts without any polling request, and a request’s new status in the list', async () => {
    const api = async (method: 'GET' | 'POST', path: string, token?: string, body?: unknown) => {
      const r = await fetch(`${ctx.portal.url}/api/v1${path}`, {
        method,
        headers: {
          'x-api-password': API_PASSWORD,
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await r.json()) as any;
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
      return json;
    };
    const signIn = async (email: string) => (await api('POST', '/visitor/login', undefined, { email, password: 'demo1234' })).token as string;
    const carrier = await signIn('carrier@portal.demo');
    const enduser = await signIn('enduser@portal.demo');
    const category = (await api('GET', '/visitor/ticket_categories')).data[0].id;
    const ticket = (
      await api('POST', '/enduser/chats/newTicket', enduser, { ticket_category_id: category, subject: 'Consegna in ritardo', message: 'Dove è il camion?' })
    ).data.id as number;

    const { page } = await ctx.page({ viewport: { width: 1400, height: 1000 } });
    // The page's clock flows as usual, and the quiet period below is run through at once (every timer due in
    // it fires) instead of waited for.
    await page.clock.install();
    const requests: string[] = [];
    let streams = 0;
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.endsWith('/events')) streams++;
      else if (u.pathname.startsWith('/api/')) requests.push(`${r.method()} ${u.pathname}${u.search}`);
    });
    await ctx.login(page, 'enduser@portal.demo');
    await page.getByTestId('sidebar-menu').locator('[data-menu=support]').click();
    await page.getByTestId('ticket-list').getByText('Consegna in ritardo').click();
    await expect.poll(() => bodies(page)).toEqual(['Dove è il camion?']);
    await expect.poll(() => streams).toBeGreaterThan(0);

    // Quiet: longer than every former polling period (2 s messages, 5 s tickets, 10 s badge) — no call at all.
    // The page's timers of the next 12.5 s run now (a poll would fire and be seen); what the opening itself
    // asked for has answered before (a real 300 ms).
    await pause(300);
    requests.length = 0;
    await page.clock.runFor(12_500);
    await pause(300);
    expect(requests, 'no polling while the stream is open').toEqual([]);

    const sent = Date.now();
    await api('POST', '/company/chats/sendChatMessage', carrier, { chat_id: ticket, message: 'Arriva alle 15, scusate il ritardo.' });
    await expect.poll(() => bodies(page), { timeout: 3000, interval: 25 }).toContain('Arriva alle 15, scusate il ritardo.');
    console.log(`carrier → end user through the stream: ${Date.now() - sent} ms`);
    // What the event caused: the new messages after the last id (and the list and badge), nothing periodic.
    expect(requests.some((r) => r.includes('/enduser/chats/getChatMessages') && r.includes('after='))).toBe(true);
    await shot(page, 'live-enduser-chat');

    // The request list: the carrier confirms one of this customer's open requests; its status changes in place.
    const open = (await api('GET', '/enduser/transport_requests?transport_request_status_id=1', enduser)).transportRequests.data[0];
    expect(open, 'the demo customer has an open request').toBeTruthy();
    await page.getByTestId('sidebar-menu').locator('[data-menu="transport-requests-visuals"]').click();
    const row = page.locator('tr', { has: page.getByText(String(open.id), { exact: true }) }).first();
    await row.waitFor();
    expect(await row.getByTestId('request-status').textContent()).toBe('Aperta');
    await pause(500);
    requests.length = 0;
    await api('POST', '/company/transport_requests/updateTransportRequestStatus', carrier, { id: open.id, transport_request_status_id: 3 });
    await expect.poll(() => row.getByTestId('request-status').textContent(), { timeout: 3000 }).toBe('Confermata');
    expect(requests.filter((r) => r.includes('/transport_requests')).length).toBeGreaterThan(0);
    await shot(page, 'live-enduser-requests');
  });
});
