import { expect, it } from 'vitest';
import { generate } from 'otplib';
import { API_PASSWORD, animationsDone, describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';

/** The app's code for `secret`, `steps` time steps (30 s) from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/**
 * Two-step verification in Italian (docs/two-factor.md): enrolment from the settings (the secret read
 * from the page, the code computed here as the phone's app would), the recovery codes shown once, sign
 * out, then the login's second step: a wrong code, the right one, and a recovery code.
 */
describeInBrowser('two-step verification', (ctx) => {
  it('enrols from the settings, then signs in with the second step', async () => {
    const { page, errors } = await ctx.page();
    const email = 'enduser@portal.demo';
    await ctx.login(page, email, { at: '/settings/two-step' });
    const card = page.getByTestId('mfa-card');
    await card.getByRole('heading', { name: 'Verifica in due passaggi' }).waitFor();
    expect(await card.getByTestId('mfa-status').textContent()).toBe('Non attiva');
    await card.getByTestId('mfa-enable').click();

    // The QR code (an image the browser shows) and the secret as text.
    const qr = card.getByRole('img', { name: 'Codice QR da inquadrare con l’app di autenticazione' });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const secret = (await card.getByTestId('mfa-secret').getAttribute('data-secret'))!;
    expect((await card.getByTestId('mfa-secret').textContent())!.replace(/ /g, '')).toBe(secret);
    await card.getByTestId('mfa-secret').scrollIntoViewIfNeeded();
    await shot(page, 'two-factor-enrol');
    // The e-mail card's own finding (its disabled hint) is its own, not this card's.
    const others = { exclude: ['section[aria-labelledby=email-title]'] };
    expect(await axeProblems(page, 'settings, enrolment', others)).toEqual([]);

    // A wrong code first: said under the field, nothing turned on.
    const right = await codeAt(secret);
    await card.getByTestId('mfa-enrol-code').fill(right === '000000' ? '111111' : '000000');
    await card.getByTestId('mfa-enrol-confirm').click();
    expect(await card.getByTestId('mfa-enrol-error').textContent()).toBe('Il codice è errato, scaduto o già usato.');
    await card.getByTestId('mfa-enrol-code').fill(right);
    await card.getByTestId('mfa-enrol-confirm').click();

    // The ten recovery codes, once.
    const codes = card.getByTestId('mfa-recovery-code');
    await codes.first().waitFor();
    const recovery = await codes.allTextContents();
    expect(recovery).toHaveLength(10);
    await card.getByTestId('mfa-recovery-codes').scrollIntoViewIfNeeded();
    await shot(page, 'two-factor-recovery-codes');
    expect(await axeProblems(page, 'settings, recovery codes', others)).toEqual([]);
    await card.getByTestId('mfa-codes-done').click();
    await card.getByTestId('mfa-regenerate').waitFor();
    expect(await card.getByTestId('mfa-status').textContent()).toMatch(/^Attiva dal \d{2}\/\d{2}\/\d{4}$/);
    expect(await card.textContent()).toContain('Codici di recupero non usati: 10.');
    expect(await card.getByTestId('mfa-recovery-code').count()).toBe(0);
    await shot(page, 'two-factor-on');

    // Sign out; the password alone no longer opens the portal.
    await page.getByTestId('user-menu').click();
    await Promise.all([page.waitForEvent('load'), page.getByTestId('logout').click()]);
    await page.locator('input[name=email]').waitFor();
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'demo1234');
    await page.getByTestId('login-submit').click();
    const step = page.getByTestId('mfa-step');
    await step.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Verifica in due passaggi');
    expect((await page.context().cookies()).find((c) => c.name === 'userToken')).toBeUndefined();
    await shot(page, 'two-factor-login-step');
    expect(await axeProblems(page, 'login, second step', { landmarks: true })).toEqual([]);

    // A wrong code, then the app's next code.
    const next = await codeAt(secret, 1);
    await page.getByTestId('mfa-code').fill(next === '000000' ? '111111' : '000000');
    await page.getByTestId('mfa-submit').click();
    expect(await page.getByTestId('mfa-error').textContent()).toBe('Il codice è errato, scaduto o già usato.');
    await animationsDone(page); // the label's animation
    await shot(page, 'two-factor-login-wrong');
    await page.getByTestId('mfa-code').fill(next);
    await page.getByTestId('mfa-submit').click();
    await page.getByTestId('user-menu').waitFor({ state: 'visible' });

    // Once more with a recovery code ("Usa un codice di recupero").
    await page.getByTestId('user-menu').click();
    await Promise.all([page.waitForEvent('load'), page.getByTestId('logout').click()]);
    await page.locator('input[name=email]').waitFor();
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'demo1234');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('mfa-toggle-recovery').click();
    await page.getByLabel('Codice di recupero').waitFor();
    await animationsDone(page);
    await shot(page, 'two-factor-login-recovery');
    await page.getByTestId('mfa-code').fill(recovery[0]);
    await page.getByTestId('mfa-submit').click();
    await page.getByTestId('user-menu').waitFor({ state: 'visible' });
    await page.goto(`${ctx.portal.url}/#/settings/two-step`);
    await page.getByTestId('mfa-regenerate').waitFor();
    expect(await page.getByTestId('mfa-card').textContent()).toContain('Codici di recupero non usati: 9.');

    // Turn it off with the password.
    await page.getByTestId('mfa-disable').click();
    const dialog = page.getByRole('dialog', { name: 'Disattivare la verifica in due passaggi?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Usa la password' }).click();
    await dialog.getByLabel('Password').fill('wrong-pass1');
    await dialog.getByTestId('mfa-proof-submit').click();
    await dialog.getByText('Il codice o la password non sono corretti.').waitFor();
    await dialog.getByLabel('Password').fill('demo1234');
    await animationsDone(page);
    await shot(page, 'two-factor-disable');
    await dialog.getByTestId('mfa-proof-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('mfa-enable').waitFor();
    expect(await page.getByTestId('mfa-status').textContent()).toBe('Non attiva');
    expect(await page.getByTestId('mfa-notice').textContent()).toBe('La verifica in due passaggi è disattivata.');
    expect(errors).toEqual([]);
  });

  it('walks an admin without TOTP through enrolment at sign-in when REQUIRE_ADMIN_MFA=1', async () => {
    const config = ctx.portal.app.config;
    config.requireAdminMfa = true;
    try {
      const { page, errors } = await ctx.page();
      await page.goto(`${ctx.portal.url}/#/login`);
      await page.fill('input[name=email]', 'admin@portal.demo');
      await page.fill('input[name=password]', 'demo1234');
      await page.getByTestId('login-submit').click();
      await page.getByTestId('mfa-enrolment').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Attiva la verifica in due passaggi');
      expect(await page.getByText('Per gli amministratori la verifica in due passaggi è obbligatoria: attivala ora per accedere.').count()).toBe(1);
      const secret = (await page.getByTestId('mfa-secret').getAttribute('data-secret'))!;
      await page.getByRole('img', { name: 'Codice QR da inquadrare con l’app di autenticazione' }).waitFor();
      await shot(page, 'two-factor-admin-enrol');
      expect(await axeProblems(page, 'login, admin enrolment', { landmarks: true })).toEqual([]);
      expect((await page.context().cookies()).find((c) => c.name === 'userToken')).toBeUndefined();
      await page.getByTestId('mfa-enrol-code').fill(await codeAt(secret));
      await page.getByTestId('mfa-enrol-confirm').click();
      await page.getByTestId('mfa-recovery-code').first().waitFor();
      expect(await page.getByTestId('mfa-recovery-code').count()).toBe(10);
      await shot(page, 'two-factor-admin-codes');
      await page.getByRole('button', { name: 'Continua' }).click();
      await page.getByTestId('user-menu').waitFor({ state: 'visible' });
      await page.goto(`${ctx.portal.url}/#/settings/two-step`);
      await page.getByTestId('mfa-regenerate').waitFor();
      // Required: no way to turn it off from the card.
      expect(await page.getByTestId('mfa-disable').count()).toBe(0);
      expect(await page.getByTestId('mfa-card').textContent()).toContain('Obbligatoria per gli amministratori.');

      // The carrier lost phone and codes: the admin turns it off from the user's page.
      const inject = (url: string, payload: object, token?: string) =>
        ctx.portal.app.inject({
          method: 'POST',
          url: `/api/v1${url}`,
          headers: { 'x-api-password': API_PASSWORD, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          payload,
        });
      const carrier = (await inject('/visitor/login', { email: 'carrier@portal.demo', password: 'demo1234' })).json();
      const carrierSecret = (await inject('/visitor/mfa/setup', {}, carrier.token)).json().data.secret;
      expect((await inject('/visitor/mfa/enable', { code: await codeAt(carrierSecret) }, carrier.token)).statusCode).toBe(200);
      await page.goto(`${ctx.portal.url}/#/user-management/${carrier.user.id}`);
      const box = page.getByTestId('user-mfa');
      await box.getByTestId('user-mfa-reset').waitFor();
      expect(await box.getByTestId('user-mfa-status').textContent()).toBe('Attiva');
      await box.getByTestId('user-mfa-reset').click();
      const confirm = page.getByRole('dialog', { name: 'Disattivare la verifica in due passaggi di questo utente?' });
      await confirm.waitFor();
      await animationsDone(page);
      await shot(page, 'two-factor-admin-reset');
      await confirm.getByTestId('user-mfa-reset-confirm').click();
      await page.getByText('La verifica in due passaggi dell’utente è disattivata: accede con la password e può riattivarla.').waitFor();
      await box.getByText('Non attiva').waitFor();
      expect(await box.getByTestId('user-mfa-reset').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      config.requireAdminMfa = false;
    }
  });
});
