import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { fieldLabel as label, fillField as fill, pickAuto, pickSelect, typeInPicker } from './pickers.js';
import { axeProblems } from './axe.js';
import { nowIso } from '../../server/lib/tokens.js';

/**
 * Issue 35 item 13, "forms say what to fix, once", in Italian: the company stepper starts from the
 * documents' ratios and shows each step's errors (opening the first wrong one on save); no raw message key;
 * a duplicate country code said once, at its field, without an internal id; decimals typed with the user's
 * mark (1,634 in Italian, 1.634 in English); the access request without a website.
 */
/** How many times a text appears on the whole page (fields, banners and toasts alike). */
const timesOnPage = (page: Page, text: string) => page.evaluate((t) => document.body.innerText.split(t).length - 1, text);
/** The toasts shown (none expected for a field's problem). */
const toasts = (page: Page) => page.getByTestId('toast').allTextContents();

describeInBrowser('forms say what to fix, once (issue 35), in Italian', (ctx) => {
  beforeAll(async () => {
    const db = ctx.portal.db.db;
    const acme = (await db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow()).id;
    await db
      .insertInto('categories')
      .values([{ company_id: acme, code: 'FE-EXP-NAT', rate_type: 'EXP', zone: 'NAT', description: 'Express Italia', created_at: nowIso() }])
      .execute();
    if (!(await db.selectFrom('price_categories').select('id').executeTakeFirst()))
      await db.insertInto('price_categories').values({ name: 'Standard' }).execute();
  });

  it('an admin completes a new end-user company with the default ratios; each step shows its own errors; no raw key', { timeout: 120_000 }, async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'admin@portal.demo', { at: '/companies/new' });
    await pickSelect(page, 'Ruolo', 'Cliente finale');
    await pickAuto(page, 'Vettore', 'Acme', 'Acme Trasporti S.r.l.');
    await pickAuto(page, 'Categoria di prezzo', '', /./);
    await pickAuto(page, 'Lingua', 'Ital', 'Italiano');
    await page.getByTestId('company-next').click();
    await expect.poll(() => page.locator('[data-step=details]').getAttribute('data-active')).toBe('1');
    // Step 2 sent empty: each required field says so in Italian under it; never the encoded key (issue 35: "Città").
    await page.getByTestId('company-next').click();
    const city = page
      .locator('[data-step=details]')
      .locator('.MuiFormControl-root')
      .filter({ has: page.getByRole('combobox', { name: label('Città') }) });
    await expect.poll(() => city.locator('.MuiFormHelperText-root').textContent()).toBe('Obbligatorio');
    const step2 = (await page.locator('[data-step=details]').innerText()).replace(/\s+/g, ' ');
    expect(step2).not.toMatch(/@@react-admin@@|ra\.validation|"ra\./);
    // No "the form is not valid" toast: the fields say it.
    expect(await toasts(page)).toEqual([]);
    await fill(page, 'Ragione sociale', 'Ferri Ricambi S.r.l.');
    await fill(page, 'Email amministrazione', 'amministrazione@ferri.test');
    await fill(page, 'Indirizzo', 'Via Emilia 12');
    await page.getByRole('combobox', { name: label('Città') }).fill('Modena');
    await fill(page, 'CAP', '41121');
    await pickAuto(page, 'Paese', 'Itali', 'Italia');
    await fill(page, 'Telefono', '+39 059 555 0101');
    // A website the server refuses (it checks the address's form): the wizard comes back here on save.
    await fill(page, 'Sito web', 'ferri ricambi');
    await page.getByTestId('company-next').click();
    await expect.poll(() => page.locator('[data-step=enduser]').getAttribute('data-active')).toBe('1');
    // Step 3 starts from the documents' ratios (pricing.md §3.1: 250 CBM, 1750 LM), each with a hint.
    const enduser = page.locator('[data-step=enduser]');
    expect(await page.getByRole('combobox', { name: /^Rapporto CBM/ }).textContent()).toBe('250 kg');
    expect(await page.getByRole('combobox', { name: /^Rapporto LM/ }).textContent()).toBe('1750 kg');
    expect(await enduser.innerText()).toContain('Kg per metro cubo nel peso volumetrico del groupage');
    expect(await enduser.innerText()).toContain('Kg per metro lineare nel peso volumetrico del groupage');
    await fill(page, 'Diritti amministrativi nazionali', '4,5');
    await page.getByTestId('company-save').click();
    // The server's refusal of the website: step 2 opens, its label counts one field, the message is under the input, once.
    await expect.poll(() => page.locator('[data-step=details]').getAttribute('data-active')).toBe('1');
    await expect.poll(() => page.getByTestId('company-step-errors-details').textContent()).toBe('1 campo da correggere');
    expect(await page.getByTestId('company-step-errors-enduser').count()).toBe(0);
    const website = page.locator('.ra-input-website_url .MuiFormHelperText-root');
    await expect.poll(() => website.textContent()).toMatch(/\S/);
    const message = (await website.textContent())!;
    expect(message).not.toMatch(/^[a-z_]+\.[a-z_.]+$/);
    await page.waitForTimeout(500); // a toast would be on the page by now
    expect(await timesOnPage(page, message)).toBe(1);
    expect(await toasts(page)).toEqual([]);
    expect(await page.getByTestId('form-error').count()).toBe(0);
    await shot(page, 'form-errors-company-step2');
    expect(await axeProblems(page, 'company create, a step with an error')).toEqual([]);
    await fill(page, 'Sito web', 'www.ferri-ricambi.example');
    // Saved from step 2 (every step was opened): the steps can be reached from their labels now.
    await page.getByTestId('company-step-enduser').click();
    await expect.poll(() => page.locator('[data-step=enduser]').getAttribute('data-active')).toBe('1');
    await page.getByTestId('company-save').click();
    await page.waitForURL(/#\/companies$/);
    const stored = await ctx.portal.db.db
      .selectFrom('companies')
      .select(['combo_cbm_ratio', 'combo_lm_ratio', 'national_admin_fee', 'website_url'])
      .where('legal_name', '=', 'Ferri Ricambi S.r.l.')
      .executeTakeFirstOrThrow();
    expect({ ...stored, combo_cbm_ratio: Number(stored.combo_cbm_ratio), combo_lm_ratio: Number(stored.combo_lm_ratio) }).toMatchObject({
      combo_cbm_ratio: 250,
      combo_lm_ratio: 1750,
      website_url: 'https://www.ferri-ricambi.example', // the server writes the scheme
    });
    expect(Number(stored.national_admin_fee)).toBe(450); // cents: 4,50 €
    expect(errors).toEqual([]);
  });

  it('a duplicate country code is said once, under the code, without an internal id', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'admin@portal.demo', { at: '/countries' });
    await page.getByTestId('add').click();
    const dialog = page.getByTestId('dialog-create');
    await dialog.waitFor();
    await page.fill('input[name=name]', 'Italia bis');
    await page.fill('input[name=code_alpha]', 'IT');
    await page.getByTestId('dialog-save').click();
    const helper = dialog.locator('.ra-input-code_alpha .MuiFormHelperText-root');
    await expect.poll(() => helper.textContent()).toBe('Il valore di codice è già in uso (IT).');
    await page.waitForTimeout(500); // a toast or a banner would be on the page by now
    expect(await timesOnPage(page, 'già in uso')).toBe(1);
    expect(await toasts(page)).toEqual([]);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(await page.getByTestId('form-error').count()).toBe(0);
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/#\s?\d+|riga n/);
    // The wrong input has the focus, to fix it at once.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('code_alpha');
    await shot(page, 'form-errors-country-duplicate');
    expect(await axeProblems(page, 'country create, duplicate code')).toEqual([]);
    expect(await ctx.portal.db.db.selectFrom('countries').select('id').where('name', '=', 'Italia bis').execute()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it(
    "a new user with an e-mail already in use: the server's refusal reopens step 2, said once under the e-mail, with no toast",
    { timeout: 120_000 },
    async () => {
      const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
      await ctx.login(page, 'admin@portal.demo', { at: '/user-management/create' });
      // an end-user company: the role follows (Cliente finale)
      await pickAuto(page, 'Azienda', 'Rossi', /^Rossi Logistica/);
      await expect.poll(() => page.getByRole('combobox', { name: /^Ruolo\b/ }).textContent()).toBe('Cliente finale');
      await pickAuto(page, 'Lingua', 'Ital', 'Italiano');
      await page.getByTestId('user-next').click();
      // "Avanti" on an empty step says where: its first wrong input comes into sight (the button is at the bottom)
      await page.mouse.wheel(0, 2000);
      await page.getByTestId('user-next').click();
      await expect
        .poll(async () => {
          const box = await page.locator('input[name=title]').boundingBox();
          return !!box && box.y >= 0 && box.y + box.height <= 844;
        })
        .toBe(true);
      await fill(page, 'Titolo', 'Sig.');
      await fill(page, 'Email', 'carrier@portal.demo');
      await fill(page, 'Nome', 'Doppio');
      await fill(page, 'Cognome', 'Indirizzo');
      await fill(page, 'Indirizzo', 'Via Roma 1');
      await fill(page, 'Città', 'Bologna');
      await fill(page, 'CAP', '40100');
      await pickAuto(page, 'Paese', 'Itali', 'Italia');
      await page.getByTestId('user-next').click();
      await expect.poll(() => page.locator('[data-step=notes]').getAttribute('data-active')).toBe('1');
      await page.getByTestId('user-save').click();
      // the step with the server's message opens, its label counts it, its input has the focus
      await expect.poll(() => page.locator('[data-step=information]').getAttribute('data-active')).toBe('1');
      await expect.poll(() => page.getByTestId('user-step-errors-information').textContent()).toBe('1 campo da correggere');
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('email');
      await page.waitForTimeout(500); // a toast or a banner would be on the page by now
      expect(await timesOnPage(page, 'già usato da un altro utente')).toBe(1);
      expect(await toasts(page)).toEqual([]);
      expect(await page.getByTestId('form-error').count()).toBe(0);
      await shot(page, 'form-errors-user-email-taken');
      expect(await axeProblems(page, 'user create, e-mail in use')).toEqual([]);
      expect(await ctx.portal.db.db.selectFrom('users').select('id').where('first_name', '=', 'Doppio').execute()).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  async function dieselPrice(page: Page, month: string, typed: string) {
    await page.goto(`${ctx.portal.url}/#/diesel-prices`);
    await page.getByTestId('add').click();
    const dialog = page.getByTestId('dialog-create');
    await dialog.waitFor();
    await typeInPicker(dialog, 'month', `${month.slice(5)}/${month.slice(0, 4)}`);
    await page.fill('input[name=price]', typed);
    return dialog;
  }
  const storedPrice = async (month: string) =>
    (await ctx.portal.db.db.selectFrom('diesel_prices').select('price').where('month', '=', month).executeTakeFirst())?.price;

  it('the diesel price takes 1,634 in Italian and stores 1.634; a text that is no number is said in Italian, not by the browser', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'admin@portal.demo');
    const dialog = await dieselPrice(page, '2030-01', '1,6,34');
    // A text box with a decimal keypad, not the browser's number box (its English bubble).
    expect(await page.locator('input[name=price]').getAttribute('type')).toBe('text');
    expect(await page.locator('input[name=price]').getAttribute('inputmode')).toBe('decimal');
    await page.getByTestId('dialog-save').click();
    await expect
      .poll(() => dialog.locator('.ra-input-price .MuiFormHelperText-root').textContent())
      .toBe('Numero non valido: scrivilo con la virgola per i decimali (es. 1,634)');
    expect(await page.inputValue('input[name=price]')).toBe('1,6,34'); // kept as typed, never silently changed
    expect(await toasts(page)).toEqual([]);
    await page.fill('input[name=price]', '1,634');
    await page.getByTestId('dialog-save').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await storedPrice('2030-01')).toBe('1.634');
    // Read back in Italian in the edit form: with the comma.
    await page.locator('table tbody tr').filter({ hasText: '1,634' }).first().waitFor();
    expect(errors).toEqual([]);
  });

  it('the diesel price takes 1.634 in English', async () => {
    const { page, context, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => localStorage.setItem('Portal.locale', JSON.stringify('en')));
    await ctx.login(page, 'admin@portal.demo');
    const dialog = await dieselPrice(page, '2030-02', '1.634');
    await page.getByTestId('dialog-save').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await storedPrice('2030-02')).toBe('1.634');
    // A comma that groups no thousands is refused in English, in English.
    const again = await dieselPrice(page, '2030-03', '1,6');
    await page.getByTestId('dialog-save').click();
    await expect
      .poll(() => again.locator('.ra-input-price .MuiFormHelperText-root').textContent())
      .toBe('Not a valid number: write it with a point for decimals (e.g. 1.634)');
    expect(await storedPrice('2030-03')).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('an access request without a website is sent; a website given must be a web address', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await page.goto(`${ctx.portal.url}/#/access-request`);
    await page.getByRole('heading', { name: 'Dati del vettore' }).waitFor();
    // The website is not required: no asterisk, and "Facoltativo" under it.
    expect(
      await page
        .locator('label[for]')
        .filter({ hasText: /^Sito web/ })
        .textContent(),
    ).toBe('Sito web');
    const email = `ferri${Date.now()}@ferri.example`;
    const values: Record<string, string> = {
      carrier_name: 'Autotrasporti Ferri',
      carrier_email: 'info@ferri.example',
      carrier_phone: '+39 059 555 0202',
      carrier_website_url: 'non è un sito',
      carrier_address: 'Via Emilia 40',
      carrier_city: 'Modena',
      carrier_postal_code: '41121',
      carrier_province: 'MO',
      user_first_name: 'Franco',
      user_last_name: 'Ferri',
      user_email: email,
      user_phone: '+39 333 555 0202',
      user_password: 'Ferri2026x',
      user_password_confirmation: 'Ferri2026x',
    };
    for (const [name, value] of Object.entries(values)) await page.fill(`input[name=${name}]`, value);
    await expect.poll(() => page.inputValue('input[name=carrier_country_id]')).toBe('Italia');
    await page.getByTestId('access-submit').click();
    await expect.poll(() => page.getByText('Inserisci un indirizzo web valido, per esempio www.esempio.it').count()).toBe(1);
    await page.fill('input[name=carrier_website_url]', '');
    await shot(page, 'form-errors-access-request');
    expect(await axeProblems(page, 'access request', { landmarks: true })).toEqual([]);
    await page.getByTestId('access-submit').click();
    await page.waitForURL(/#\/login/);
    const row = await ctx.portal.db.db
      .selectFrom('access_requests')
      .select(['carrier_website_url', 'status'])
      .where('user_email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ carrier_website_url: '', status: 'OP' });
    expect(errors).toEqual([]);
  });
});
