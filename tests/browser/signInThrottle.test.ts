import { expect, it } from 'vitest';
import { API_PASSWORD, describeInBrowser, shot } from './harness.js';

/**
 * Sign-in throttling on the login screen (docs/sign-in-throttling.md): after 10 wrong passwords from
 * elsewhere, a fresh browser is told in Italian how long to wait (from Retry-After), while the browser
 * the user signed in from before (its deviceToken cookie) still signs in.
 */
describeInBrowser('sign-in throttle on the login screen', (ctx) => {
  it('tells a fresh browser how long to wait, and lets the trusted browser in', async () => {
    const email = 'carrier@portal.demo';
    // The user's own browser signed in once: it holds a device token (HttpOnly cookie on /api).
    const trusted = await ctx.page();
    await ctx.login(trusted.page, email);
    const cookies = await trusted.context.cookies();
    expect(cookies.find((c) => c.name === 'deviceToken')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api', secure: false });
    await trusted.page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });

    // Another "browser" guesses 10 wrong passwords.
    for (let i = 0; i < 10; i++) {
      const r = await ctx.portal.app.inject({
        method: 'POST',
        url: '/api/v1/visitor/login',
        headers: { 'x-api-password': API_PASSWORD },
        payload: { email, password: `wrong-pass${i}` },
      });
      expect(r.statusCode).toBe(401);
    }

    // A fresh browser, even with the right password: the wait, in Italian.
    const fresh = await ctx.page();
    await fresh.page.goto(`${ctx.portal.url}/#/login`);
    await fresh.page.fill('input[name=email]', email);
    await fresh.page.fill('input[name=password]', 'demo1234');
    await fresh.page.getByTestId('login-submit').click();
    const alert = fresh.page.getByTestId('login-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Troppi tentativi. Riprova tra 15 minuti.');
    await shot(fresh.page, 'sign-in-throttle-wait');

    // The trusted browser signs in at once.
    await ctx.login(trusted.page, email);
    expect(fresh.errors).toEqual([]);
    expect(trusted.errors).toEqual([]);
  });
});
