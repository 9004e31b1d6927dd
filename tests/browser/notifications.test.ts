import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeProblems } from './axe.js';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';

/** The app bar's bell and the carrier's consignee mail switches (issue 22 item 4), in Italian. */
describeInBrowser('notifications in Chromium, in Italian', (ctx) => {
  const api = async (method: 'GET' | 'POST', url: string, token?: string, body?: unknown) => {
    const res = await ctx.portal.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'x-api-password': API_PASSWORD, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: body as any,
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const token = async (email: string) => (await api('POST', '/visitor/login', undefined, { email, password: 'demo1234' })).token as string;
  const userId = async (email: string) =>
    Number((await ctx.portal.db.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);
  const unreadInDb = async (email: string) =>
    (
      await ctx.portal.db.db
        .selectFrom('notifications')
        .select('id')
        .where('user_id', '=', await userId(email))
        .where('read_at', 'is', null)
        .execute()
    ).length;
  /** The badge's number as shown; '' when the badge is hidden (nothing unread). */
  const badge = async (page: Page) => {
    const b = page.locator('[data-testid=notification-count] .MuiBadge-badge');
    return (await b.getAttribute('class'))?.includes('MuiBadge-invisible') ? '' : (await b.innerText()).trim();
  };
  /** What the browser does when the page regains focus: the count is asked again at once. */
  const refocus = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));

  it('counts, lists in Italian, opens the request and marks read; the carrier switches a consignee mail off', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'enduser@portal.demo');
    const bell = page.getByTestId('notification-bell');
    await bell.waitFor();
    expect(await unreadInDb('enduser@portal.demo')).toBe(0);
    expect(await badge(page)).toBe('');
    expect(await bell.getAttribute('aria-label')).toBe('Notifiche');

    // The carrier confirms request 1 with a note: the end user's bell shows it once the page regains focus.
    await api('POST', '/company/transport_requests/updateTransportRequestStatus', await token('carrier@portal.demo'), {
      id: 1,
      transport_request_status_id: 3,
      note: 'Ritiro giovedì mattina',
    });
    await refocus(page);
    await expect.poll(() => badge(page)).toBe('1');
    expect(await bell.getAttribute('aria-label')).toBe('Notifiche: 1 non letta');
    await bell.click();
    const menu = page.getByTestId('notification-menu');
    await menu.getByRole('heading', { name: 'Notifiche' }).waitFor();
    const item = menu.getByTestId('notification-item').first();
    await item.waitFor();
    expect(await item.innerText()).toContain('Richiesta n. 1 confermata da Acme Trasporti S.r.l.');
    expect(await item.getAttribute('data-read')).toBe('false');
    expect(await item.innerText()).toContain('non letta');
    await shot(page, 'notifications-menu');
    expect(await axeProblems(page, 'notifications menu')).toEqual([]);

    // A click opens the request and marks it read.
    await item.click();
    await page.waitForURL(/#\/transport-requests-visuals\/1\/1$/);
    await expect.poll(() => badge(page)).toBe('');
    expect(await unreadInDb('enduser@portal.demo')).toBe(0);
    await page.getByText('Ritiro giovedì mattina').first().waitFor();

    // Two more changes by the admin; "Segna tutte come lette" clears them both.
    const admin = await token('admin@portal.demo');
    await api('POST', '/company/transport_requests/updateTransportRequestStatus', admin, { id: 1, transport_request_status_id: 5 });
    await api('POST', '/company/transport_requests/updateTransportRequestStatus', admin, { id: 1, transport_request_status_id: 6 });
    await refocus(page);
    await expect.poll(() => badge(page)).toBe('2');
    await bell.click();
    const items = menu.getByTestId('notification-item');
    // the three of this test on top (once the list is asked again); the demo's history (already read) below them
    await expect.poll(() => items.first().innerText()).toMatch(/^Richiesta n. 1 consegnata da /);
    const texts = await items.allInnerTexts();
    expect(texts[0]).toMatch(/^Richiesta n. 1 consegnata da /);
    expect(texts[1]).toMatch(/^Richiesta n. 1 in transito con /);
    expect(texts[2]).toContain('Richiesta n. 1 confermata da Acme Trasporti S.r.l.');
    expect(await items.nth(2).getAttribute('data-read')).toBe('true');
    await menu.getByRole('button', { name: 'Segna tutte come lette' }).click();
    await expect.poll(() => badge(page)).toBe('');
    expect(await unreadInDb('enduser@portal.demo')).toBe(0);
    await expect.poll(() => menu.locator('[data-testid=notification-item][data-read=false]').count()).toBe(0);
    await page.keyboard.press('Escape');

    // The carrier: its bell (the demo's bookings), and the consignee mail card of its settings.
    const carrier = (await ctx.page()).page;
    await ctx.login(carrier, 'carrier@portal.demo');
    const unread = await unreadInDb('carrier@portal.demo');
    expect(unread).toBeGreaterThan(0);
    await expect.poll(() => badge(carrier)).toBe(String(unread));
    await carrier.goto(`${ctx.portal.url}/#/settings/mails`);
    const card = carrier.getByTestId('consignee-mail-card');
    await card.getByRole('heading', { name: 'E-mail ai destinatari' }).waitFor();
    const transit = card.getByRole('switch', { name: 'In transito' });
    expect(await transit.isChecked()).toBe(true);
    await transit.click();
    await carrier.getByText('Impostazioni delle e-mail ai destinatari salvate.').first().waitFor();
    await expect.poll(() => transit.isChecked()).toBe(false);
    const acme = await ctx.portal.db.db.selectFrom('users').select('company_id').where('email', '=', 'carrier@portal.demo').executeTakeFirstOrThrow();
    const off = await ctx.portal.db.db.selectFrom('consignee_mail_off').select('status_id').where('company_id', '=', acme.company_id).execute();
    expect(off.map((r) => r.status_id)).toEqual([5]);
    await card.scrollIntoViewIfNeeded();
    await shot(carrier, 'notifications-consignee-card');
    expect(await axeProblems(carrier, 'settings with the consignee mail card')).toEqual([]);
  });
});
