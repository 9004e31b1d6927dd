import { expect, it } from 'vitest';
import { axeProblems } from './axe.js';
import { API_PASSWORD, describeInBrowser, shot, animationsDone } from './harness.js';

/** The settings' "Chiavi API" card (issue 23): create, see the key once, copy, revoke — in Italian. */
describeInBrowser('API keys in Chromium, in Italian', (ctx) => {
  const statusOf = async (key: string) =>
    (await fetch(`${ctx.portal.url}/api/v1/enduser/transport_requests`, { headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${key}` } }))
      .status;

  it('creates a key shown once with copy, lists it without the key, and revokes it after a confirmation', async () => {
    const { page, context } = await ctx.page();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.portal.url });
    await ctx.login(page, 'enduser@portal.demo', { at: '/settings/api-keys' });
    const card = page.getByTestId('api-keys-card');
    await card.getByRole('heading', { name: 'Chiavi API' }).waitFor();
    await card.getByText('Nessuna chiave API.').waitFor();

    await card.getByTestId('api-key-create').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Nuova chiave API' }).waitFor();
    // nothing chosen: the form says what is missing, in Italian, and sends nothing
    await dialog.getByTestId('api-key-submit').click();
    await dialog.getByText('Il nome è obbligatorio.').waitFor();
    expect(await dialog.getByText('Scegli almeno un ambito.').count()).toBe(1);
    await dialog.getByLabel('Nome').fill('ERP magazzino');
    await dialog.getByRole('checkbox', { name: /Lettura richieste/ }).check();
    await animationsDone(page);
    await shot(page, 'api-keys-create');
    expect(await axeProblems(page, 'API key create dialog')).toEqual([]);
    await dialog.getByTestId('api-key-submit').click();

    await dialog.getByRole('heading', { name: 'La tua nuova chiave API' }).waitFor();
    const key = (await dialog.getByTestId('api-key-value').innerText()).trim();
    expect(key).toMatch(/^fpk_live_[A-Za-z0-9_-]{48}$/);
    expect(await dialog.getByText('non verrà più mostrata', { exact: false }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Copia', exact: true }).click();
    await dialog.getByText('Chiave copiata negli appunti.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(page, 'api-keys-shown');
    expect(await statusOf(key)).toBe(200);
    await dialog.getByRole('button', { name: 'Ho copiato la chiave' }).click();
    await dialog.waitFor({ state: 'detached' }); // gone, not fading out (axe reads a closing dialog too)

    // the list: name, prefix, scope in Italian, never the key
    const row = card.getByTestId('api-key-row');
    await expect.poll(() => row.count()).toBe(1);
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toBe('ERP magazzino');
    expect(cells[1]).toBe(`${key.slice(0, 13)}…`);
    expect(cells[2]).toBe('Lettura richieste');
    expect(cells[5]).toBe('Attiva');
    expect(await card.innerText()).not.toContain(key.slice(13));
    expect(await page.content()).not.toContain(key);
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'api-keys-list');
    expect(await axeProblems(page, 'settings with API keys')).toEqual([]);

    // revoke: cancelled first (still works), then confirmed (401 at once)
    await row.getByRole('button', { name: 'Revoca la chiave ERP magazzino' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Revocare la chiave?').waitFor();
    expect(await confirm.innerText()).toContain(key.slice(0, 13));
    await confirm.getByRole('button', { name: 'Annulla' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await statusOf(key)).toBe(200);
    await row.getByTestId('api-key-revoke').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoca', exact: true }).click();
    await page.getByText('Chiave API ERP magazzino revocata.').first().waitFor();
    await expect.poll(() => row.getAttribute('data-revoked')).toBe('true');
    expect(await row.locator('td').nth(5).innerText()).toBe('Revocata');
    expect(await row.getByTestId('api-key-revoke').count()).toBe(0);
    expect(await statusOf(key)).toBe(401);
    await shot(page, 'api-keys-revoked');
  });

  it('is not offered to admins', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo', { at: '/settings/api-keys' });
    // No API keys section for this role: the address shows the first section, and no index entry names it.
    await page.getByTestId('settings-section').and(page.locator('[data-section="profile"]')).waitFor();
    expect(await page.getByTestId('api-keys-card').count()).toBe(0);
    expect(await page.locator('[data-testid$="-api-keys"]').count()).toBe(0);
  });
});
