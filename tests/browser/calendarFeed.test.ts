import { expect, it } from 'vitest';
import { axeProblems } from './axe.js';
import { animationsDone, describeInBrowser, shot } from './harness.js';

const PHONE = { width: 390, height: 844 };

/** The settings' "Calendario" card (issue 36 item 4, docs/calendar-feed.md) on a phone, in Italian. */
describeInBrowser('Calendar feed card in Chromium, on a phone, in Italian', (ctx) => {
  /** The feed as a calendar app reads it: the address alone, no header. */
  const feed = (url: string) => fetch(`${ctx.portal.url}${new URL(url).pathname}`);

  it('turns the feed on, shows the address once with copy, makes a new one after a confirmation, turns it off', async () => {
    const { page, context } = await ctx.page({ viewport: PHONE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.portal.url });
    await ctx.login(page, 'carrier@portal.demo', { at: '/settings/calendar' });
    const card = page.getByTestId('calendar-feed-card');
    await card.getByRole('heading', { name: 'Calendario di ritiri e consegne' }).waitFor();
    await card.getByText('Il calendario non è attivo.').waitFor();
    // the instructions, in Italian
    expect(await card.innerText()).toContain('Altri calendari → + → Da URL');

    await card.getByTestId('calendar-feed-enable').click();
    const field = card.getByTestId('calendar-feed-url');
    await field.waitFor();
    const url = await field.inputValue();
    expect(url).toMatch(/\/ical\/[A-Za-z0-9_-]{43}\.ics$/);
    await card.getByText(/^Attivo: indirizzo creato il /).waitFor();
    const first = await feed(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await first.text()).toContain('BEGIN:VEVENT');

    await card.getByTestId('calendar-feed-copy').click();
    await card.getByText('Indirizzo copiato negli appunti.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    // no page-wide sideways scroll with the long address on a 390 px phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await animationsDone(page);
    await shot(page, 'calendar-feed-phone-on');
    expect(await axeProblems(page, 'calendar feed card')).toEqual([]);

    // a new address: asked first; cancelled, the address still works
    await card.getByTestId('calendar-feed-regenerate').click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Creare un nuovo indirizzo?').waitFor();
    await confirm.getByRole('button', { name: 'Annulla' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await feed(url)).status).toBe(200);
    await card.getByTestId('calendar-feed-regenerate').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Nuovo indirizzo' }).click();
    await expect.poll(() => field.inputValue()).not.toBe(url);
    const next = await field.inputValue();
    expect(next).toMatch(/\/ical\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await feed(url)).status).toBe(404);
    expect((await feed(next)).status).toBe(200);

    // leaving and coming back: the address is not shown again
    await page.goto(`${ctx.portal.url}/#/settings/profile`);
    await page.goto(`${ctx.portal.url}/#/settings/calendar`);
    await card.getByText('Per sicurezza l’indirizzo viene mostrato una sola volta.', { exact: false }).waitFor();
    expect(await field.count()).toBe(0);
    expect(await page.content()).not.toContain(new URL(next).pathname);

    await card.getByTestId('calendar-feed-disable').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disattiva' }).click();
    await card.getByText('Il calendario non è attivo.').waitFor();
    expect((await feed(next)).status).toBe(404);
    await shot(page, 'calendar-feed-phone-off');
  });
});
