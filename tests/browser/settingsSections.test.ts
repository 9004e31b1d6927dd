import { expect, it } from 'vitest';
import { axeProblems } from './axe.js';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';

const PHONE = { width: 390, height: 844 };

/** The settings in sections (issue 35 item 10), in Italian: tabs on a phone, a side index on a desktop, paged sessions. */
describeInBrowser('settings sections, in Italian', (ctx) => {
  /** Signs `email` in through the API `n` times (other browsers' sessions). */
  async function moreSessions(email: string, n: number) {
    for (let i = 0; i < n; i++) {
      const r = await fetch(`${ctx.portal.url}/api/v1/visitor/login`, {
        method: 'POST',
        headers: { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
        body: JSON.stringify({ email, password: 'demo1234' }),
      });
      expect(r.status).toBe(200);
    }
  }

  it('phone: tabs jump to a section, which has its own address; the sessions list is paged', async () => {
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'carrier@portal.demo');
    await moreSessions('carrier@portal.demo', 12);
    await page.goto(`${ctx.portal.url}/#/settings`);
    const tabs = page.getByTestId('settings-tabs');
    await tabs.waitFor();
    // The carrier's sections, the profile first and shown.
    expect(await tabs.getByRole('tab').allInnerTexts()).toEqual([
      'PROFILO',
      'PASSWORD',
      'VERIFICA IN DUE PASSAGGI',
      'SESSIONI ATTIVE',
      'CHIAVI API',
      'WEBHOOK',
      'E-MAIL AI DESTINATARI',
      'CALENDARIO',
      'ETICHETTE BANCALI',
    ]);
    await page.locator('[data-testid=settings-section][data-section=profile]').waitFor();
    expect(await page.getByTestId('sessions-card').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await tabs.getByRole('tab', { name: 'Sessioni attive' }).click();
    await page.waitForURL(/#\/settings\/sessions$/);
    const card = page.getByTestId('sessions-card');
    await card.getByRole('heading', { name: 'Sessioni attive' }).waitFor();
    expect(await page.getByTestId('profile-save').count()).toBe(0);
    expect(await tabs.getByRole('tab', { name: 'Sessioni attive' }).getAttribute('aria-selected')).toBe('true');
    // 13 sessions: 10 on the first page (this one first), 3 on the second.
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(10);
    expect(await page.getByTestId('session-row').first().getAttribute('data-current')).toBe('true');
    expect(await page.getByTestId('sessions-total').textContent()).toBe('13 sessioni attive');
    const firstIds = await page.getByTestId('session-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session')));
    await page.getByRole('button', { name: 'Pagina 2' }).click();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(3);
    const secondIds = await page.getByTestId('session-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session')));
    expect(secondIds.some((id) => firstIds.includes(id))).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'settings-sessions-phone');
    expect(await axeProblems(page, 'settings, sessions section (phone)')).toEqual([]);

    // The address alone opens a section (a link, a bookmark, a reload).
    await page.goto(`${ctx.portal.url}/#/settings/api-keys`);
    await page.getByTestId('api-keys-card').waitFor();
    await page.reload();
    await page.getByTestId('api-keys-card').waitFor();
    expect(errors).toEqual([]);
  });

  it('desktop: the side index jumps to a section; ?section= works too', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'enduser@portal.demo', { at: '/settings?section=password' });
    const index = page.getByRole('navigation', { name: 'Sezioni delle impostazioni' });
    await index.waitFor();
    await page.locator('[data-testid=settings-section][data-section=password]').waitFor();
    expect(await index.getByRole('link', { name: 'Password' }).getAttribute('aria-current')).toBe('page');
    await index.getByRole('link', { name: 'Verifica in due passaggi' }).click();
    await page.waitForURL(/#\/settings\/two-step$/);
    await page.getByTestId('mfa-card').waitFor();
    expect(await page.getByTestId('password-save').count()).toBe(0);
    await index.getByRole('link', { name: 'Profilo' }).click();
    await page.getByTestId('settings-email').waitFor();
    // Back returns to the section before.
    await page.goBack();
    await page.getByTestId('mfa-card').waitFor();
    await shot(page, 'settings-index-desktop');
    expect(await axeProblems(page, 'settings, two-step section (desktop)')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
