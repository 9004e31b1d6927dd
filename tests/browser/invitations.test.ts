import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeProblems } from './axe.js';
import { describeInBrowser, shot } from './harness.js';
import { fieldLabel as label, fillField as fill, pickAuto } from './pickers.js';

const PHONE = { width: 390, height: 844 };
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Invitations (issue 35 item 9) on a phone, in Italian: the admin creates a user without a password, the link sets it. */
describeInBrowser('invitations on a phone, in Italian', (ctx) => {
  /** The outbox's mail to `to` (the test portal has no SMTP: server/lib/mail.ts writes DATA_DIR/outbox). */
  async function mailTo(to: string): Promise<{ subject: string; text: string }> {
    const dir = path.join(ctx.portal.dataDir, 'outbox');
    let found: { subject: string; text: string } | undefined;
    await expect
      .poll(
        () => {
          const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
          found = files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))).find((m) => m.to === to);
          return !!found;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    return found!;
  }

  it('the admin creates a user without a password; the mailed link opens the set-password page; the user signs in', async () => {
    const email = `invitata${Date.now()}@rossi.example`;
    const admin = await ctx.page({ viewport: PHONE });
    const page = admin.page;
    await ctx.login(page, 'admin@portal.demo', { at: '/user-management/create' });
    await pickAuto(page, 'Azienda', 'Rossi', 'Rossi Logistica S.r.l.');
    await expect.poll(() => page.getByRole('combobox', { name: /^Ruolo\b/ }).textContent()).toBe('Cliente finale');
    // The language list holds the portal's three languages only.
    const language = page.getByRole('combobox', { name: label('Lingua') });
    await language.click();
    await expect.poll(() => page.getByRole('option').allInnerTexts()).toEqual(expect.arrayContaining(['Italiano', 'Inglese', 'Francese']));
    expect(await page.getByRole('option').count()).toBe(3);
    await page.getByRole('option', { name: 'Italiano' }).click();
    await page.getByTestId('user-next').click();
    await fill(page, 'Titolo', 'Sig.ra');
    await fill(page, 'Email', email);
    await fill(page, 'Nome', 'Ilaria');
    await fill(page, 'Cognome', 'Neri');
    await fill(page, 'Indirizzo', 'Via Po 3');
    await fill(page, 'Città', 'Torino');
    await fill(page, 'CAP', '10124');
    await pickAuto(page, 'Paese', 'Itali', 'Italia');
    // No password: the hint says what happens then.
    expect(await page.locator('[data-step=information]').textContent()).toContain('riceve un’email con un link per sceglierla (valido 72 ore)');
    await shot(page, 'invitation-create-phone');
    expect(await noSideScroll(page)).toBe(true);
    await page.getByTestId('user-next').click();
    await page.getByTestId('user-save').click();
    await page.waitForURL(/#\/user-management$/);
    await expect
      .poll(() => page.getByText(`Utente creato: abbiamo inviato a ${email} un link per scegliere la password (valido 72 ore).`).count())
      .toBeGreaterThan(0);

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Il tuo account sul portale trasporti: scegli la password');
    const link = /(http\S+#\/set-password\?token=\S+)/.exec(mail.text)![1]!;
    // The link names the portal's public address; the test opens it on the test portal.
    const hash = link.slice(link.indexOf('#'));

    const invited = await ctx.page({ viewport: PHONE });
    const p = invited.page;
    await p.goto(`${ctx.portal.url}/${hash}`);
    await p.getByRole('heading', { name: 'Scegli la tua password' }).waitFor();
    await p.getByText(`Ciao Ilaria, il tuo account ${email} è pronto`).waitFor();
    expect(await noSideScroll(p)).toBe(true);
    expect(await axeProblems(p, 'set-password page')).toEqual([]);
    // The password rule of every password form.
    await p.getByLabel(label('Password')).fill('corta');
    await p.getByLabel(label('Conferma password')).fill('corta');
    await p.getByTestId('invite-submit').click();
    await p.getByText('La password deve avere da 8 a 128 caratteri e contenere sia lettere sia numeri.').waitFor();
    await p.getByLabel(label('Password')).fill('Benvenuta1');
    await p.getByLabel(label('Conferma password')).fill('Benvenuta1');
    await shot(p, 'invitation-set-password-phone');
    await p.getByTestId('invite-submit').click();
    await p.waitForURL(/#\/login$/);
    await p.getByText('La password è impostata. Ora puoi accedere.').waitFor();
    // The user signs in with the chosen password (through the form).
    await p.fill('input[name=email]', email);
    await p.fill('input[name=password]', 'Benvenuta1');
    await p.getByTestId('login-submit').click();
    await p.getByTestId('user-menu').waitFor({ state: 'visible' });

    // The link works once: opened again, it says so.
    const again = await ctx.page({ viewport: PHONE });
    await again.page.goto(`${ctx.portal.url}/${hash}`);
    await expect
      .poll(() => again.page.getByTestId('invite-refused').textContent())
      .toBe('Questo link è già stato usato per impostare la password. Accedi con quella password, oppure usa “Password dimenticata?” se non la ricordi.');
    await again.page.getByRole('link', { name: 'Password dimenticata?' }).waitFor();
    await shot(again.page, 'invitation-used-phone');
    expect(await axeProblems(again.page, 'set-password page, used link')).toEqual([]);
    for (const b of [admin, invited, again]) expect(b.errors).toEqual([]);
  });
});
