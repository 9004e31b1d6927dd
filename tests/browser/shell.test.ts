import { expect, it } from 'vitest';
import { describeInBrowser, shot, visibleWhereItIs } from './harness.js';

const menuTexts = async (page: import('playwright-core').Page) => {
  const menu = page.getByTestId('sidebar-menu');
  await menu.waitFor();
  return (await menu.locator('[data-menu]').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu')))) as string[];
};

describeInBrowser('the shell in Chromium', (ctx) => {
  // The entries whose screens exist today; each later screen adds its entry here and in the app.
  const expected: Record<string, string[]> = {
    'admin@portal.demo': [
      'dashboard',
      'calculate-cost',
      'transport-requests-visuals',
      'address-book',
      'price-manager',
      'settings-group',
      'companies',
      'user-management',
      'request-access',
      'settings',
    ],
    'carrier@portal.demo': [
      'dashboard',
      'calculate-cost',
      'transport-requests-visuals',
      'address-book',
      'price-manager',
      // (its audit log, docs/audit-log.md)
      'settings-group',
      'companies',
      'user-management',
      'request-access',
      'support',
      'settings',
    ],
    'enduser@portal.demo': ['dashboard', 'calculate-cost', 'transport-requests-visuals', 'address-book', 'enduser-rate-sheets', 'support', 'settings'],
  };

  for (const [email, entries] of Object.entries(expected)) {
    it(`${email} signs in, sees exactly its sidebar entries, and signs out`, async () => {
      const { page, context, outside, errors } = await ctx.page();
      await ctx.login(page, email);
      await page.getByTestId('greeting').waitFor();
      expect(await page.getByTestId('greeting').textContent()).toMatch(/^Buongiorno, /);
      // an admin has no shipments of its own: the dashboard is the whole portal's
      expect(await page.getByTestId('greeting-subtitle').textContent()).toBe(
        email.startsWith('admin') ? 'Ecco la situazione del portale: tutti i vettori e i loro clienti.' : 'Ecco la situazione delle tue spedizioni.',
      );
      expect(await menuTexts(page)).toEqual(entries);
      await shot(page, `shell-${email.split('@')[0]}`);
      await page.getByTestId('user-menu').click();
      await Promise.all([page.waitForEvent('load'), page.getByTestId('logout').click()]);
      expect(page.url()).toMatch(/#\/login$/);
      await page.locator('input[name=email]').waitFor();
      expect((await context.cookies()).find((c) => c.name === 'userToken')).toBeUndefined();
      // After logout, the app sends a signed-out user back to /login.
      await page.goto(`${ctx.portal.url}/#/`);
      await page.locator('input[name=email]').waitFor();
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  it('admin: the settings group opens on the reference data screens', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    await page.getByTestId('sidebar-menu').locator('[data-menu=settings-group]').click();
    expect(await menuTexts(page)).toEqual([
      'dashboard',
      'calculate-cost',
      'transport-requests-visuals',
      'address-book',
      'price-manager',
      'settings-group',
      'countries',
      'currencies',
      'document-types',
      'shipment-types',
      'transport-classes',
      'portal-settings',
      'audit-log',
      'companies',
      'user-management',
      'request-access',
      'settings',
    ]);
    await page.getByTestId('sidebar-menu').locator('[data-menu=document-types]').click();
    await page.waitForURL(/#\/document-types/);
    expect(await page.getByTestId('page-title').textContent()).toBe('Tipi di documento');
  });

  it('switches language to English and French, keeps it across a reload, and back to Italian', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo');
    await page.getByTestId('greeting').waitFor();
    await page.getByTestId('lang-en').click();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/^Hello, Carlo/);
    await page.reload();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/^Hello, Carlo/);
    await page.getByTestId('lang-fr').click();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/^Bonjour, Carlo/);
    expect(await page.getByRole('link', { name: 'Tableau de bord' }).count()).toBe(1);
    await page.getByTestId('lang-it').click();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/^Buongiorno, Carlo/);
  });

  it('shows the error under the form for a wrong password, in Italian', async () => {
    const { page } = await ctx.page();
    await page.goto(`${ctx.portal.url}/#/login`);
    await page.fill('input[name=email]', 'admin@portal.demo');
    await page.fill('input[name=password]', 'wrong-password1');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toBe('Le credenziali non corrispondono ai nostri dati.');
    await shot(page, 'login-error');
  });

  it('opens the dashboard at /#/dashboard; the admin reaches the access requests from the sidebar; the special zones have two names', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo', { at: '/dashboard' });
    await page.getByTestId('greeting').waitFor();
    expect(await page.getByTestId('not-found').count()).toBe(0);
    await expect.poll(() => new URL(page.url()).hash).toBe('#/');
    await page.getByTestId('sidebar-menu').locator('[data-menu=request-access]').click();
    await page.waitForURL(/#\/request-access/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Richieste di accesso');
    const menu = page.getByTestId('sidebar-menu');
    await menu.locator('[data-menu=price-manager]').click();
    await menu.locator('[data-menu=accessories-exp-express-hub-costs]').click();
    await menu.locator('[data-menu=express]').click();
    await menu.locator('[data-menu=standard]').click();
    expect(await menu.locator('[data-menu=express-special-zones]').textContent()).toBe('Zone speciali express');
    expect(await menu.locator('[data-menu=standard-special-zones]').textContent()).toBe('Zone speciali standard');
  });

  it('shows Page Not Found with a link home for an unknown route', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'enduser@portal.demo', { at: '/no/such/page' });
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('not-found').textContent()).toContain('Pagina non trovata');
    await page.getByRole('link', { name: 'Torna alla home' }).click();
    await page.getByTestId('greeting').waitFor();
  });

  it('sends a user whose session was ended on the server back to the login screen', async () => {
    const { page, context } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo');
    await page.getByTestId('greeting').waitFor();
    await ctx.portal.db.db.deleteFrom('auth_tokens').execute();
    const started = Date.now();
    // Reloaded from the page: a request of the dashboard answered 401 may send it to the login screen first,
    // which aborts a reload Playwright waits on (net::ERR_ABORTED); either way it must land there.
    await page.evaluate(() => location.reload());
    await page.locator('input[name=email]').waitFor();
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await context.cookies()).find((c) => c.name === 'userToken')).toBeUndefined();
  });

  it('gives a phone-sized viewport the slide-in drawer', async () => {
    const { page } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'admin@portal.demo');
    await page.getByTestId('greeting').waitFor();
    expect(await page.getByTestId('sidebar-menu').isVisible()).toBe(false);
    await page.getByTestId('menu-toggle').click();
    await page.getByTestId('sidebar-drawer').getByTestId('sidebar-menu').waitFor({ state: 'visible' });
    await shot(page, 'mobile-drawer');
    await page.getByTestId('sidebar-menu').locator('[data-menu=dashboard]').click();
    await expect.poll(() => page.getByTestId('sidebar-menu').isVisible()).toBe(false);
    // The requests table keeps the status in the phone's width (no sideways scroll needed to see it).
    const status = page.locator('[data-testid^=dashboard-row-]').first().getByTestId('request-status');
    await status.waitFor();
    expect(await status.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    // So does the request list.
    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals`);
    const listStatus = page.getByTestId('request-status').first();
    await listStatus.waitFor();
    expect(await visibleWhereItIs(listStatus)).toBe(true);
  });
});
