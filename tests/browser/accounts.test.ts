import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../server/lib/passwords.js';
import { describeInBrowser, shot } from './harness.js';

/** A real 1×1 PNG, padded to a size when asked. */
const png = (size = 0) => {
  const base = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  return size > base.length ? Buffer.concat([base, Buffer.alloc(size - base.length)]) : base;
};

describeInBrowser('accounts in Chromium, in Italian', (ctx) => {
  let n = 0;
  /** A fresh end user, so each test owns its password and its throttling counters. */
  async function freshUser(first = 'Giulia') {
    const db = ctx.portal.db.db;
    const email = `browser${++n}-${Date.now()}@example.test`;
    const company = await db.selectFrom('users').select('company_id').where('email', '=', 'enduser@portal.demo').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db
      .insertInto('users')
      .values({
        role_id: 6,
        company_id: company.company_id,
        first_name: first,
        last_name: 'Bianchi',
        email,
        password_hash: await hashPassword('Vecchia123'),
        status_id: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return email;
  }

  /** The newest message to `to` in DATA_DIR/outbox (no SMTP_URL in the browser tests). */
  async function mailTo(to: string, after = 0): Promise<{ subject: string; text: string }> {
    const dir = path.join(ctx.portal.dataDir, 'outbox');
    let found: any[] = [];
    await expect
      .poll(
        () => {
          found = fs.existsSync(dir)
            ? fs
                .readdirSync(dir)
                .filter((f) => f.endsWith('.json'))
                .sort()
                .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
                .filter((m) => m.to === to)
            : [];
          return found.length;
        },
        { timeout: 5000 },
      )
      .toBeGreaterThan(after);
    return found[found.length - 1];
  }
  const codeOf = (text: string) => /\b(\d{4})\b/.exec(text)![1];
  /**
   * How long an element (by test id) stays on the page, measured by the page itself: a MutationObserver notes
   * when it appears and when it goes (the page's performance.now()). Measured from the test process, the time
   * also held the round trips to the browser, which grow with the machine's load (the file then had to run
   * alone); the page's own clock holds only the page's timers (and, with `page.clock` installed, counts the time
   * run through by `runFor`). Call before the action that shows it; the answer resolves the milliseconds between
   * the two once it has gone.
   */
  async function watchLifetime(page: Page, testId: string): Promise<() => Promise<number>> {
    await page.evaluate((id) => {
      const w = window as unknown as { __lifetime?: Record<string, { shown?: number; gone?: number }> };
      const times: { shown?: number; gone?: number } = {};
      (w.__lifetime ??= {})[id] = times;
      const present = () => !!document.querySelector(`[data-testid="${id}"]`);
      const observer = new MutationObserver(() => {
        if (times.shown === undefined && present()) times.shown = performance.now();
        else if (times.shown !== undefined && !present()) {
          times.gone = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
    }, testId);
    return async () => {
      const times = await page.evaluate(
        (id) => (window as unknown as { __lifetime: Record<string, { shown?: number; gone?: number }> }).__lifetime[id],
        testId,
      );
      expect(times.shown, `${testId} was never shown`).toBeDefined();
      expect(times.gone, `${testId} never went`).toBeDefined();
      return times.gone! - times.shown!;
    };
  }
  const otpValue = (page: Page) =>
    page.evaluate(() => [0, 1, 2, 3].map((i) => (document.querySelector(`[data-testid=otp-${i}]`) as HTMLInputElement).value).join(''));

  it('forgotten password: code from the outbox, reset with the 2-second messages, sign-in with the new password', async () => {
    const email = await freshUser();
    const { page, errors, outside } = await ctx.page();
    // The page's clock flows as usual; the messages' seconds are run through (runFor) instead of waited for.
    await page.clock.install();
    await page.goto(`${ctx.portal.url}/#/login`);
    await page.getByRole('link', { name: 'Password dimenticata?' }).click();
    await page.waitForURL(/#\/forget-password/);
    await page.getByTestId('forget-submit').click();
    await expect.poll(() => page.getByText('Campo obbligatorio').count()).toBe(1);
    await page.fill('input[name=email]', email);
    await shot(page, 'accounts-forget');
    await page.getByTestId('forget-submit').click();
    await page.waitForURL(/#\/reset-password\?email=/);
    expect(await page.getByTestId('reset-sent').textContent()).toBe(
      'Se esiste un account con questa email, gli abbiamo inviato un codice di 4 cifre. Il codice è valido 10 minuti.',
    );
    expect(await page.inputValue('input[name=email]')).toBe(email);
    const mail = await mailTo(email);
    expect(mail.subject).toBe('Il tuo codice per reimpostare la password');
    const code = codeOf(mail.text);

    // Without a code: the document's message, gone after 2 seconds.
    await page.fill('input[name=password]', 'Nuova2024x');
    await page.fill('input[name=password_confirmation]', 'Nuova2024x');
    // The clock stands still from before the click (the message is the page's own check: no request, no
    // timer before it shows), then goes 1.5 s (the message is still there) and 1.9 s more (it has gone).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const lifetime = await watchLifetime(page, 'reset-error');
    await page.getByTestId('reset-submit').click();
    expect(await page.getByTestId('reset-error').textContent()).toBe('Inserisci il codice OTP');
    await page.clock.runFor(1500);
    expect(await page.getByTestId('reset-error').count()).toBe(1);
    await page.clock.runFor(1900);
    await page.getByTestId('reset-error').waitFor({ state: 'detached', timeout: 4000 });
    const lasted = await lifetime();
    expect(lasted).toBeGreaterThan(1500);
    expect(lasted).toBeLessThan(3500);
    await page.clock.resume();

    // Digits only, one per box, advancing by itself.
    await page.getByTestId('otp-0').click();
    await page.keyboard.type(`x${code[0]}-${code.slice(1)}`);
    expect(await otpValue(page)).toBe(code);
    // Backspace walks back over the boxes.
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect((await otpValue(page)).length).toBe(2);
    await page.keyboard.type(code.slice(2));
    expect(await otpValue(page)).toBe(code);

    await page.fill('input[name=password_confirmation]', 'Diversa2024');
    await page.getByTestId('reset-submit').click();
    expect(await page.getByTestId('reset-error').textContent()).toBe('La conferma non corrisponde alla nuova password');
    await shot(page, 'accounts-reset-mismatch');
    await page.clock.runFor(2100);
    await page.getByTestId('reset-error').waitFor({ state: 'detached', timeout: 4000 });

    await page.fill('input[name=password_confirmation]', 'Nuova2024x');
    await page.getByTestId('reset-submit').click();
    await page.waitForURL(/#\/login/);
    await page.getByText('La password è stata reimpostata. Ora puoi accedere con la nuova password.').waitFor();
    await ctx.login(page, email, 'Nuova2024x');
    await page.getByTestId('greeting').waitFor();
    expect(await page.getByTestId('greeting').textContent()).toBe('Buongiorno, Giulia');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('shows the server message under the boxes for a wrong code', async () => {
    const email = await freshUser();
    const { page } = await ctx.page();
    await page.goto(`${ctx.portal.url}/#/forget-password`);
    await page.fill('input[name=email]', email);
    await page.getByTestId('forget-submit').click();
    await page.waitForURL(/#\/reset-password/);
    const code = codeOf((await mailTo(email)).text);
    const wrong = String((Number(code) + 1) % 10000).padStart(4, '0');
    await page.getByTestId('otp-0').click();
    await page.keyboard.type(wrong);
    await page.fill('input[name=password]', 'Nuova2024x');
    await page.fill('input[name=password_confirmation]', 'Nuova2024x');
    await page.getByTestId('reset-submit').click();
    await expect.poll(() => page.getByTestId('otp-error').textContent()).toBe('Il codice non è valido o è scaduto. Richiedi un nuovo codice.');
    await shot(page, 'accounts-reset-wrong-code');
  });

  it('code-entry screen: send enabled at 4 digits, a pasted code fills the boxes, resend after 10 → 0', async () => {
    const email = await freshUser();
    const { page } = await ctx.page();
    // The page's clock flows as usual; the countdown's ten seconds are then run through second by second
    // (below) instead of waited for.
    await page.clock.install();
    await page.goto(`${ctx.portal.url}/#/reset-password-otp?email=${encodeURIComponent(email)}`);
    await expect.poll(() => page.getByTestId('resend-countdown').textContent()).toMatch(/^Potrai richiedere un nuovo codice tra (10|9) s$/);
    expect(await page.getByTestId('otp-resend').count()).toBe(0);
    expect(await page.getByTestId('otp-send').isDisabled()).toBe(true);
    await page.getByTestId('otp-0').click();
    await page.keyboard.type('12');
    expect(await page.getByTestId('otp-send').isDisabled()).toBe(true);
    // A pasted code (any box) spreads over the four boxes.
    await page.getByTestId('otp-1').evaluate((el) => {
      const data = new DataTransfer();
      data.setData('text/plain', ' 4 8-1 5 ');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    expect(await otpValue(page)).toBe('4815');
    expect(await page.getByTestId('otp-send').isDisabled()).toBe(false);
    await shot(page, 'accounts-otp');
    // The countdown reaches 0 and resend becomes active; it sends a new code and starts again. The clock stands
    // still, then goes a second at a time: each second is a timer the page sets when the last one has fired (a
    // React effect), so the seconds it shows are the steps it takes (one more if a render came after a step).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const left = Number(/tra (\d+) s$/.exec((await page.getByTestId('resend-countdown').textContent()) ?? '')?.[1]);
    expect(left).toBeGreaterThanOrEqual(7);
    let steps = 0;
    while (!(await page.getByTestId('otp-resend').count()) && steps < left + 3) {
      await page.clock.runFor(1000);
      steps++;
    }
    expect(steps).toBeGreaterThanOrEqual(left);
    expect(steps).toBeLessThanOrEqual(left + 1);
    await page.clock.resume();
    await page.getByTestId('otp-resend').waitFor({ timeout: 2000 });
    await page.getByTestId('otp-resend').click();
    await expect.poll(() => page.getByTestId('otp-notice').textContent()).toMatch(/^Se esiste un account/);
    await mailTo(email);
    await expect.poll(() => page.getByTestId('resend-countdown').textContent()).toMatch(/tra (10|9) s/);
    await page.getByTestId('otp-0').click();
    await page.keyboard.type('4815');
    await page.getByTestId('otp-send').click();
    await page.waitForURL(/#\/reset-password\?email=.*&otp=4815/);
    // The reset screen's code loads on demand (issue 11): wait for the screen itself, not just the
    // address (the code-entry screen it replaces has the same four boxes).
    await page.getByTestId('reset-submit').waitFor();
    expect(await otpValue(page)).toBe('4815');
  });

  it('settings: a new picture and name reach the user menu at once; the 1 MB limit; password change messages; read-only email', async () => {
    const email = await freshUser('Marta');
    const { page, errors } = await ctx.page();
    await ctx.login(page, email, 'Vecchia123');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Impostazioni account' }).click();
    await page.waitForURL(/#\/settings/);
    await expect.poll(() => page.inputValue('input[name=first_name]')).toBe('Marta');
    expect(await page.getByTestId('settings-email').inputValue()).toBe(email);
    expect(await page.getByTestId('settings-email').isDisabled()).toBe(true);

    // Over 1 MB: the hint turns into the refusal and nothing is kept.
    await page.getByTestId('profile-image-input').setInputFiles({ name: 'grande.png', mimeType: 'image/png', buffer: png(1024 * 1024 + 10) });
    expect(await page.getByTestId('image-hint').textContent()).toBe('L’immagine supera 1 MB e non è stata accettata.');
    await page.getByTestId('profile-image-input').setInputFiles({ name: 'io.png', mimeType: 'image/png', buffer: png() });
    expect(await page.getByTestId('image-hint').textContent()).toBe('PNG, JPEG o WebP, al massimo 1 MB.');
    await page.fill('input[name=first_name]', 'Martina');
    await page.fill('input[name=city]', 'Genova');
    const lifetime = await watchLifetime(page, 'profile-notice');
    await page.getByTestId('profile-save').click();
    await page.getByTestId('profile-notice').waitFor();
    expect(await page.getByTestId('profile-notice').textContent()).toBe('Profilo aggiornato con successo');
    // The top bar follows at once: new name, new picture (served from /media).
    await expect.poll(() => page.getByTestId('user-name').textContent()).toBe('Martina Bianchi');
    const avatar = page.getByTestId('user-menu').locator('img');
    await expect.poll(() => avatar.getAttribute('src')).toMatch(/^\/media\/[a-f0-9]{32}\.png$/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await shot(page, 'accounts-settings-saved');
    await page.getByTestId('profile-notice').waitFor({ state: 'detached', timeout: 5000 });
    expect(await lifetime()).toBeGreaterThan(2500);
    // Still there after a reload (it came from the server).
    await page.reload();
    await expect.poll(() => page.getByTestId('user-name').textContent()).toBe('Martina Bianchi');
    await expect.poll(() => page.inputValue('input[name=city]')).toBe('Genova');

    // Change password (its own settings section): the document's messages, then the server's success message.
    await page.locator('[data-testid=settings-index-password], [data-testid=settings-tab-password]').click();
    await page.getByTestId('password-save').click();
    await expect.poll(() => page.getByText('La vecchia password è obbligatoria').count()).toBe(1);
    await page.fill('input[name=oldPassword]', 'Vecchia123');
    await page.fill('input[name=password]', 'Nuovissima1');
    await page.fill('input[name=password_confirmation]', 'Nuovissima2');
    await page.getByTestId('password-save').click();
    await expect.poll(() => page.getByText('La conferma deve essere uguale alla nuova password').count()).toBe(1);
    await page.fill('input[name=oldPassword]', 'Sbagliata1');
    await page.fill('input[name=password_confirmation]', 'Nuovissima1');
    await page.getByTestId('password-save').click();
    await expect.poll(() => page.getByText('La vecchia password non è corretta.').count()).toBe(1);
    await page.fill('input[name=oldPassword]', 'Vecchia123');
    await page.getByTestId('password-save').click();
    await expect.poll(() => page.getByTestId('password-notice').textContent()).toBe('Password modificata con successo');
    await shot(page, 'accounts-settings-password');
    // This session stays; the new password signs in elsewhere.
    await page.reload();
    await page.getByTestId('user-name').waitFor();
    const other = await ctx.page();
    await ctx.login(other.page, email, 'Nuovissima1');
    await other.context.close();
    expect(errors).toEqual([]);
  });

  it('an access request by invitation: sent, confirmed by its carrier, and the new account signs in', async () => {
    const acme = (await ctx.portal.db.db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow()).id;
    const email = `cliente${Date.now()}@bianchi.example`;
    const visitor = await ctx.page();
    const page = visitor.page;
    await page.goto(`${ctx.portal.url}/#/login`);
    await page.getByRole('link', { name: 'Richiedi un accesso' }).click();
    await page.waitForURL(/#\/access-request$/);
    await page.getByRole('heading', { name: 'Dati del vettore' }).waitFor();
    await page.goto(`${ctx.portal.url}/#/access-request?carrier=${acme}`);
    await expect.poll(() => page.getByTestId('invited-by').textContent()).toBe('Richiesta di accesso come cliente di Acme Trasporti S.r.l.');
    await page.getByTestId('access-submit').click();
    // every field but the website (optional, issue 35)
    await expect.poll(() => page.getByText('Campo obbligatorio').count()).toBe(13);
    const fill = async (name: string, value: string) => page.fill(`input[name=${name}]`, value);
    await fill('carrier_name', 'Bianchi Ricambi S.n.c.');
    await fill('carrier_email', 'non-una-email');
    await fill('carrier_phone', '+39 010 555 0303');
    await fill('carrier_website_url', 'www.bianchi.example');
    await fill('carrier_address', 'Via XX Settembre 5');
    await fill('carrier_city', 'Genova');
    await fill('carrier_postal_code', '16121');
    await fill('carrier_province', 'GE');
    await fill('user_first_name', 'Bruno');
    await fill('user_last_name', 'Bianchi');
    await fill('user_email', email);
    await fill('user_phone', '+39 333 555 0303');
    await fill('user_password', 'Ricambi2024');
    await fill('user_password_confirmation', 'Ricambi2024');
    await page.getByTestId('access-submit').click();
    await expect.poll(() => page.getByText('Inserisci un indirizzo email valido').count()).toBe(1);
    await fill('carrier_email', 'info@bianchi.example');
    await expect.poll(() => page.inputValue('input[name=carrier_country_id]')).toBe('Italia');
    await shot(page, 'accounts-access-request');
    await page.getByTestId('access-submit').click();
    await page.waitForURL(/#\/login/);
    await page.getByText('La tua richiesta di accesso è stata inviata. Riceverai un’email quando sarà stata esaminata.').waitFor();
    // Not yet: the request waits for review.
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'Ricambi2024');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-error').waitFor();
    await visitor.context.close();

    // The carrier reviews it from its sidebar entry.
    const reviewer = await ctx.page();
    const r = reviewer.page;
    await ctx.login(r, 'carrier@portal.demo');
    await r.getByTestId('sidebar-menu').locator('[data-menu=request-access]').click();
    await r.waitForURL(/#\/request-access/);
    const row = r.locator('tr', { hasText: 'Bianchi Ricambi S.n.c.' });
    await row.waitFor();
    expect(await row.getByTestId('status-chip').textContent()).toBe('Aperta');
    expect(await r.getByTestId('invitation-link').textContent()).toBe(`${ctx.portal.url}/#/access-request?carrier=${acme}`);
    await shot(r, 'accounts-review-carrier');
    await row.getByRole('button', { name: 'Conferma' }).click();
    await r.getByRole('dialog').getByRole('button', { name: 'Conferma' }).click();
    await r.getByText('Stato modificato con successo').waitFor();
    await expect.poll(() => row.getByTestId('status-chip').textContent()).toBe('Confermata');
    expect(await row.getByRole('button').count()).toBe(0);
    // Filters: status, and Clear.
    await r.getByRole('combobox', { name: 'Stato' }).click();
    await r.getByRole('option', { name: 'Aperta' }).click();
    await expect.poll(() => r.locator('tr', { hasText: 'Bianchi Ricambi S.n.c.' }).count()).toBe(0);
    await r.getByTestId('clear-filters').click();
    await expect.poll(() => r.locator('tr', { hasText: 'Bianchi Ricambi S.n.c.' }).count()).toBe(1);
    await reviewer.context.close();

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Il tuo accesso al portale trasporti è pronto');
    const customer = await ctx.page();
    await ctx.login(customer.page, email, 'Ricambi2024');
    expect(await customer.page.getByTestId('greeting').textContent()).toBe('Buongiorno, Bruno');
    expect(customer.errors).toEqual([]);
  });

  it('an admin reaches the review from the dashboard and refuses a request for a new carrier', async () => {
    const db = ctx.portal.db.db;
    const now = new Date().toISOString();
    const it = (await db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirstOrThrow()).id;
    const lang = (await db.selectFrom('languages').select('id').where('code', '=', 'it').executeTakeFirstOrThrow()).id;
    await db
      .insertInto('access_requests')
      .values({
        status: 'OP',
        carrier_name: 'Veloci Trasporti S.r.l.',
        carrier_email: 'info@veloci.example',
        carrier_phone: '+39 06 555 0404',
        carrier_city: 'Roma',
        carrier_country_id: it,
        carrier_language_id: lang,
        carrier_postal_code: '00184',
        carrier_province: 'RM',
        carrier_website_url: 'veloci.example',
        carrier_address: 'Via Cavour 1',
        user_first_name: 'Vera',
        user_last_name: 'Veloci',
        user_email: `vera${Date.now()}@veloci.example`,
        user_phone: '+39 333 555 0404',
        user_password_hash: await hashPassword('Veloce2024'),
        carrier_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    await expect.poll(() => page.getByTestId('access-requests-open').textContent()).toBe('Richieste in attesa di revisione: 1');
    await shot(page, 'accounts-dashboard-admin');
    await page.getByTestId('access-requests-link').click();
    const row = page.locator('tr', { hasText: 'Veloci Trasporti S.r.l.' });
    await row.waitFor();
    await shot(page, 'accounts-review-admin');
    await row.getByRole('button', { name: 'Rifiuta' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rifiuta' }).click();
    await page.getByText('Stato modificato con successo').waitFor();
    await expect.poll(() => row.getByTestId('status-chip').textContent()).toBe('Rifiutata');
    expect(await row.getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
