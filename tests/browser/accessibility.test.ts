import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';

/**
 * Issue 18: axe-core on the portal's screens, in the three languages. A screen fails on any serious or
 * critical violation; the public screens (login, quote, access request, password) also on the landmark rules (one
 * `main`, all content in landmarks). Each role signs in once and switches language as users do (the
 * switcher in the top bar, or on the sign-in card for the public screens).
 */
const LANGS = ['it', 'en', 'fr'] as const;
type Lang = (typeof LANGS)[number];

const setLanguage = async (page: Page, lang: Lang) => {
  await page.getByTestId(`lang-${lang}`).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
};

/** Opens a hash route of the running app without reloading it. */
const open = async (page: Page, route: string) => {
  await page.evaluate((r) => {
    window.location.hash = r;
  }, route);
};

describeInBrowser('accessibility (axe-core) of the main screens in it/en/fr', (ctx) => {
  const ticketSubject = 'Ritiro da riprogrammare';

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

  // A support ticket with messages from both sides, so the chat shows a conversation; the customer has the
  // last word, so the carrier's list shows it as awaiting a reply.
  beforeAll(async () => {
    const enduser = await token('enduser@portal.demo');
    const categories = await api('GET', '/visitor/ticket_categories');
    const categoryId = (Array.isArray(categories) ? categories : categories.data)[0].id;
    const ticket = await api('POST', '/enduser/chats/newTicket', enduser, {
      ticket_category_id: categoryId,
      subject: ticketSubject,
      message: 'Buongiorno, possiamo spostare il ritiro a giovedì?',
    });
    const carrier = await token('carrier@portal.demo');
    await api('POST', '/company/chats/sendChatMessage', carrier, { chat_id: ticket.data.chat_id, message: 'Certo, giovedì mattina va bene.' });
    await api('POST', '/enduser/chats/sendChatMessage', enduser, { chat_id: ticket.data.chat_id, message: 'Grazie, a giovedì.' });
  });

  it('the public screens: sign-in, quote, access request, forgotten password', async () => {
    const { page, errors } = await ctx.page();
    const problems: string[] = [];
    await page.goto(`${ctx.portal.url}/#/login`);
    await page.locator('input[name=email]').waitFor();
    for (const lang of LANGS) {
      await open(page, '/login');
      await page.locator('input[name=email]').waitFor();
      await setLanguage(page, lang);
      problems.push(...(await axeProblems(page, `login [${lang}]`, { landmarks: true })));
      if (lang === 'en') await shot(page, 'a11y-login-en');
      await open(page, '/quote');
      await page.getByTestId('quote-signin').waitFor();
      problems.push(...(await axeProblems(page, `quote [${lang}]`, { landmarks: true })));
      // Step 2: the shipment form.
      await page.getByTestId('zone-national').click();
      await page.getByTestId('service-palletExpress').click();
      await page.getByTestId('calc-next').click();
      await page.locator('input[name=originPostalCode]').waitFor();
      problems.push(...(await axeProblems(page, `quote, step 2 [${lang}]`, { landmarks: true })));
      if (lang === 'fr') await shot(page, 'a11y-quote-fr');
      await open(page, '/access-request');
      await page.locator('input[name=carrier_name]').waitFor();
      problems.push(...(await axeProblems(page, `access request [${lang}]`, { landmarks: true })));
      await open(page, '/forget-password');
      await page.locator('input[name=email]').waitFor();
      problems.push(...(await axeProblems(page, `forgotten password [${lang}]`, { landmarks: true })));
    }
    expect(problems, `axe violations:\n${problems.join('\n\n')}`).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('end user: dashboard, request list, new request wizard, support chat', async () => {
    const { page, errors } = await ctx.page();
    const problems: string[] = [];
    await ctx.login(page, 'enduser@portal.demo');
    for (const lang of LANGS) {
      await open(page, '/');
      await page.getByTestId('greeting').waitFor();
      await setLanguage(page, lang);
      problems.push(...(await axeProblems(page, `end user dashboard [${lang}]`)));
      if (lang === 'it') await shot(page, 'a11y-dashboard-enduser-it');
      await open(page, '/transport-requests-visuals');
      await page.locator('table tbody tr').first().waitFor();
      problems.push(...(await axeProblems(page, `end user request list [${lang}]`)));
      if (lang === 'en') await shot(page, 'a11y-requests-enduser-en');
      await open(page, '/transport-requests');
      await page.getByTestId('create-request').waitFor();
      problems.push(...(await axeProblems(page, `end user new request [${lang}]`)));
      await open(page, '/support');
      await page.getByTestId('ticket-list').getByTestId('ticket-row').first().click();
      await page.getByTestId('message-body').nth(1).waitFor();
      problems.push(...(await axeProblems(page, `end user support chat [${lang}]`)));
      if (lang === 'fr') await shot(page, 'a11y-support-enduser-fr');
    }
    expect(problems, `axe violations:\n${problems.join('\n\n')}`).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('carrier: dashboard, request list, request edit form, support chat', async () => {
    const { page, errors } = await ctx.page();
    const problems: string[] = [];
    await ctx.login(page, 'carrier@portal.demo');
    for (const lang of LANGS) {
      await open(page, '/');
      await page.getByTestId('greeting').waitFor();
      await setLanguage(page, lang);
      problems.push(...(await axeProblems(page, `carrier dashboard [${lang}]`)));
      await open(page, '/transport-requests-visuals');
      await page.locator('table tbody tr').first().waitFor();
      problems.push(...(await axeProblems(page, `carrier request list [${lang}]`)));
      await page.getByTestId('row-edit').first().click();
      await page.getByTestId('edit-total').waitFor();
      problems.push(...(await axeProblems(page, `carrier request edit [${lang}]`)));
      if (lang === 'en') await shot(page, 'a11y-request-edit-carrier-en');
      await open(page, '/support');
      await page.getByTestId('ticket-list').getByTestId('ticket-row').filter({ hasText: ticketSubject }).click();
      await page.getByTestId('message-body').nth(1).waitFor();
      problems.push(...(await axeProblems(page, `carrier support chat [${lang}]`)));
      if (lang === 'it') await shot(page, 'a11y-support-carrier-it');
    }
    expect(problems, `axe violations:\n${problems.join('\n\n')}`).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('admin: dashboard, countries list, country edit form, companies list', async () => {
    const { page, errors } = await ctx.page();
    const problems: string[] = [];
    await ctx.login(page, 'admin@portal.demo');
    for (const lang of LANGS) {
      await open(page, '/');
      await page.getByTestId('greeting').waitFor();
      await setLanguage(page, lang);
      problems.push(...(await axeProblems(page, `admin dashboard [${lang}]`)));
      if (lang === 'en') await shot(page, 'a11y-dashboard-admin-en');
      await open(page, '/countries');
      await page.getByTestId('pager').waitFor();
      await page.locator('table tbody tr').first().waitFor();
      problems.push(...(await axeProblems(page, `admin countries list [${lang}]`)));
      await page.locator('table tbody tr').first().getByTestId('row-actions').click();
      await page.getByTestId('row-edit').click();
      const dialog = page.getByTestId('dialog-edit');
      await dialog.waitFor();
      await expect.poll(() => page.inputValue('input[name=name]')).not.toBe('');
      problems.push(...(await axeProblems(page, `admin country edit [${lang}]`)));
      if (lang === 'fr') await shot(page, 'a11y-country-edit-fr');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await open(page, '/companies');
      await page.locator('table tbody tr').first().waitFor();
      problems.push(...(await axeProblems(page, `admin companies list [${lang}]`)));
    }
    expect(problems, `axe violations:\n${problems.join('\n\n')}`).toEqual([]);
    expect(errors).toEqual([]);
  });
});
