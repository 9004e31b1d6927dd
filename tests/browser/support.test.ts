import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';

/** Waits until `check` holds, polling every 50 ms; answers the milliseconds it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within ${ms} ms`);
}

const bodies = (page: Page) => page.getByTestId('message-body').allTextContents();
const badge = (page: Page) => page.getByTestId('sidebar-menu').locator('[data-menu=support] [data-testid=menu-badge]');

describeInBrowser('support chat in Chromium, live between an end user and its carrier', (ctx) => {
  it('opens a ticket, chats live both ways in Italian, and the carrier closes it', async () => {
    const enduser = await ctx.page();
    const carrier = await ctx.page();
    const eu = enduser.page;
    const ca = carrier.page;

    // The end user opens a ticket.
    await ctx.login(eu, 'enduser@portal.demo');
    await eu.getByTestId('sidebar-menu').locator('[data-menu=support]').click();
    await eu.getByTestId('tickets-empty').waitFor();
    expect(await eu.getByTestId('tickets-empty').textContent()).toBe('Nessun ticket aperto. Apri un ticket per scrivere al tuo vettore.');
    await eu.getByTestId('new-ticket').click();
    const dialog = eu.getByTestId('new-ticket-dialog');
    await dialog.getByRole('heading', { name: 'Nuovo ticket' }).waitFor();
    await dialog.getByTestId('create-ticket').click();
    expect(await dialog.getByText('Campo obbligatorio').count()).toBe(3); // nothing sent yet
    await dialog.getByTestId('ticket-category').click();
    await eu.getByRole('option', { name: 'Ritiro', exact: true }).click();
    await dialog.locator('input[name=subject]').fill('Ritiro non avvenuto');
    await dialog.locator('textarea[name=message]').fill('Buongiorno, il ritiro di ieri a Bologna non è avvenuto.');
    await dialog.getByTestId('create-ticket').click();
    await eu.getByTestId('conversation-subject').filter({ hasText: 'Ritiro non avvenuto' }).waitFor();
    await expect.poll(() => bodies(eu)).toEqual(['Buongiorno, il ritiro di ieri a Bologna non è avvenuto.']);
    expect(await eu.getByTestId('ticket-list').getByTestId('status-chip').first().textContent()).toBe('Aperto');
    await shot(eu, 'support-enduser-new-ticket');

    // The carrier sees it unread in the sidebar and in its list, and opens it.
    await ctx.login(ca, 'carrier@portal.demo');
    await expect.poll(() => badge(ca).textContent(), { timeout: 12_000 }).toBe('1');
    await shot(ca, 'support-carrier-badge');
    await ca.getByTestId('sidebar-menu').locator('[data-menu=support]').click();
    const row = ca.getByTestId('ticket-list').getByTestId('ticket-row').filter({ hasText: 'Ritiro non avvenuto' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Rossi Logistica S.r.l.');
    expect(await row.getByTestId('ticket-unread').textContent()).toBe('1');
    expect(await row.textContent()).toContain('Da rispondere');
    await row.click();
    await expect.poll(() => bodies(ca)).toEqual(['Buongiorno, il ritiro di ieri a Bologna non è avvenuto.']);
    await expect.poll(() => badge(ca).count(), { timeout: 3000 }).toBe(0);

    // Carrier → end user, Enter sends; it shows on the other side within 3 s without a reload.
    const reply = 'Buongiorno Elena, verifico subito con l’autista.';
    await ca.getByTestId('composer').fill(reply);
    await ca.getByTestId('composer').press('Enter');
    await expect.poll(() => ca.getByTestId('composer').inputValue()).toBe('');
    const toEnduser = await within(3000, async () => (await bodies(eu)).includes(reply));
    console.log(`carrier → end user: ${toEnduser} ms`);
    expect(await eu.locator('[data-testid=message][data-side=carrier] [data-testid=message-sender]').first().textContent()).toBe('Carlo Corriere');

    // End user → carrier: Shift+Enter makes a new line; markup stays literal text.
    const composer = eu.getByTestId('composer');
    await composer.click();
    await composer.pressSequentially('Grazie! <b>Urgente</b>');
    await composer.press('Shift+Enter');
    await composer.pressSequentially('Il cliente aspetta.');
    expect(await composer.inputValue()).toBe('Grazie! <b>Urgente</b>\nIl cliente aspetta.');
    expect(await eu.getByTestId('composer-counter').textContent()).toBe('42 / 4000');
    await eu.getByTestId('send').click();
    const toCarrier = await within(3000, async () => (await bodies(ca)).includes('Grazie! <b>Urgente</b>\nIl cliente aspetta.'));
    console.log(`end user → carrier: ${toCarrier} ms`);
    expect(await ca.getByTestId('messages').locator('b').count()).toBe(0);
    expect(await ca.locator('[data-testid=message][data-side=enduser]').count()).toBe(2);
    // The carrier has read the end user's messages: the end user sees the read mark.
    await expect.poll(() => eu.locator('[data-testid=message][data-side=enduser] [data-testid=read-mark]').count(), { timeout: 4000 }).toBe(2);
    await shot(eu, 'support-enduser-chat');
    await shot(ca, 'support-carrier-chat');

    // The counter stops at 4 000 characters.
    await ca.getByTestId('composer').fill('x'.repeat(4001));
    expect(await ca.getByTestId('send').isDisabled()).toBe(true);
    expect(await ca.getByText('Il messaggio supera i 4000 caratteri.').count()).toBe(1);
    await ca.getByTestId('composer').fill('');

    // Away from the chat, the end user's sidebar shows the carrier's new message.
    await eu.getByTestId('sidebar-menu').locator('[data-menu=dashboard]').click();
    await eu.getByTestId('greeting').waitFor();
    await ca.getByTestId('composer').fill('Il ritiro è riprogrammato per domani mattina.');
    await ca.getByTestId('composer').press('Enter');
    await expect.poll(() => badge(eu).textContent(), { timeout: 12_000 }).toBe('1');
    await eu.getByTestId('sidebar-menu').locator('[data-menu=support]').click();
    await eu.getByTestId('ticket-list').getByText('Ritiro non avvenuto').click();
    await expect.poll(() => bodies(eu)).toContain('Il ritiro è riprogrammato per domani mattina.');
    await expect.poll(() => badge(eu).count(), { timeout: 3000 }).toBe(0);

    // The carrier closes the chat after confirming; the end user sees it closed without a reload.
    await ca.getByTestId('close-chat').click();
    await ca.getByRole('heading', { name: 'Chiudere questa chat?' }).waitFor();
    await shot(ca, 'support-carrier-close-confirm');
    await ca.getByTestId('confirm-close').click();
    await ca.getByTestId('closed-banner').waitFor();
    expect(await ca.getByTestId('composer').count()).toBe(0);
    const closedSeen = await within(3000, async () => (await eu.getByTestId('closed-banner').count()) === 1);
    console.log(`close → end user: ${closedSeen} ms`);
    expect(await eu.getByTestId('closed-banner').textContent()).toMatch(
      /^Chat chiusa da Carlo Corriere il .*: non si possono più inviare messaggi\. Per un’altra richiesta apri un nuovo ticket\./,
    );
    expect(await eu.getByTestId('composer').count()).toBe(0);
    expect(await eu.getByTestId('conversation').getByTestId('status-chip').textContent()).toBe('Chiuso');
    await shot(eu, 'support-enduser-closed');
    // The open filter no longer lists it; the closed one does.
    await expect.poll(() => eu.getByTestId('ticket-list').getByText('Ritiro non avvenuto').count(), { timeout: 7000 }).toBe(0);
    // …and does not read as if there had never been a ticket.
    expect(await eu.getByTestId('tickets-empty').textContent()).toBe('Nessun ticket aperto. Apri un ticket per scrivere al tuo vettore.');
    await eu.getByTestId('filter-closed').click();
    await eu.getByTestId('ticket-list').getByText('Ritiro non avvenuto').waitFor();

    for (const side of [enduser, carrier]) {
      expect(side.outside).toEqual([]);
      expect(side.errors).toEqual([]);
    }
  });

  it('shows the list and the conversation as two views on a phone', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'enduser@portal.demo', { at: '/support' });
    await page.getByTestId('filter-all').click();
    await page.getByTestId('ticket-list').getByText('Ritiro non avvenuto').click();
    await page.getByTestId('conversation').waitFor();
    expect(await page.getByTestId('ticket-list').count()).toBe(0);
    await shot(page, 'support-phone-chat');
    await page.getByTestId('back').click();
    await page.getByTestId('ticket-list').waitFor();
    expect(await page.getByTestId('conversation').count()).toBe(0);
    await shot(page, 'support-phone-list');
    expect(errors).toEqual([]);
  });
});
