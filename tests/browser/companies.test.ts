import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot, visibleWhereItIs, type BrowserSuite } from './harness.js';
import { nowIso } from '../../server/lib/tokens.js';
import { fieldLabel as label, fillField as fill, pickAuto, pickSelect } from './pickers.js';

/** The smallest valid PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
async function rowAction(page: Page, rowText: string, action: string) {
  await page.getByRole('row').filter({ hasText: rowText }).getByTestId('row-actions').click();
  await page.getByTestId(action).click();
}
/** The sign-in error a user gets, on a fresh page. */
async function signInError(ctx: BrowserSuite, email: string, password: string) {
  const { page, context } = await ctx.page();
  await page.goto(`${ctx.portal.url}/#/login`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.getByTestId('login-submit').click();
  const text = await page.getByTestId('login-error').textContent();
  await context.close();
  return text;
}

describeInBrowser('companies and users in Chromium, in Italian', (ctx) => {
  beforeAll(async () => {
    const db = ctx.portal.db.db;
    // The carrier's tariff categories the end-user step picks from; a price category when none is seeded.
    const acme = (await db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow()).id;
    await db
      .insertInto('categories')
      .values([
        { company_id: acme, code: 'AC-EXP-NAT', rate_type: 'EXP', zone: 'NAT', description: 'Express Italia', created_at: nowIso() },
        { company_id: acme, code: 'AC-STD-NAT', rate_type: 'STD', zone: 'NAT', description: 'Groupage Italia', created_at: nowIso() },
      ])
      .execute();
    if (!(await db.selectFrom('price_categories').select('id').executeTakeFirst()))
      await db.insertInto('price_categories').values({ name: 'Standard' }).execute();
  });

  async function createEndUserCompany(page: Page, name: string, asAdmin: boolean) {
    await page.goto(`${ctx.portal.url}/#/companies`);
    await page.getByTestId('add').click();
    await page.waitForURL(/#\/companies\/new$/);
    // The page names itself (the top bar shows no title).
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Nuova azienda');
    const steps = page.getByTestId('company-steps');
    if (asAdmin) {
      await expect.poll(() => steps.locator('.MuiStep-root').count()).toBe(2);
      await pickSelect(page, 'Ruolo', 'Cliente finale');
      // Step 3 appears for an end-user company, and the carrier becomes required.
      await expect.poll(() => steps.locator('.MuiStep-root').count()).toBe(3);
      await pickAuto(page, 'Vettore', 'Acme', 'Acme Trasporti S.r.l.');
    } else {
      await expect.poll(() => steps.locator('.MuiStep-root').count()).toBe(3);
      expect(await page.getByRole('combobox', { name: label('Ruolo') }).count()).toBe(0);
      await pickSelect(page, 'Tipo', 'Fornitore');
    }
    await page.getByTestId('company-next').click();
    // Required fields keep the step: price category and language are missing.
    expect(await page.locator('[data-step=settings]').getAttribute('data-active')).toBe('1');
    expect(await page.locator('[data-step=settings]').textContent()).toContain('Obbligatorio');
    await pickAuto(page, 'Categoria di prezzo', '', /./);
    await pickAuto(page, 'Lingua', 'Ital', 'Italiano');
    await page.locator('[data-step=settings] input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await shot(page, `company-new-step1-${asAdmin ? 'admin' : 'carrier'}`);
    await page.getByTestId('company-next').click();
    await expect.poll(() => page.locator('[data-step=details]').getAttribute('data-active')).toBe('1');
    await fill(page, 'Ragione sociale', name);
    await fill(page, 'Email amministrazione', `amministrazione@${name.split(' ')[0].toLowerCase()}.test`);
    await fill(page, 'Indirizzo', 'Corso Francia 10');
    // A new city is allowed; one equal to an existing one but for case takes the existing spelling.
    const city = page.getByRole('combobox', { name: label('Città') });
    await city.fill('torino');
    await fill(page, 'CAP', '10143');
    await pickAuto(page, 'Paese', 'Itali', 'Italia');
    await fill(page, 'Telefono', '+39 011 555 0303');
    await expect.poll(() => city.inputValue()).toBe('Torino');
    await shot(page, `company-new-step2-${asAdmin ? 'admin' : 'carrier'}`);
    await page.getByTestId('company-next').click();
    await expect.poll(() => page.locator('[data-step=enduser]').getAttribute('data-active')).toBe('1');
    await pickAuto(page, 'Categoria express', 'AC', /AC-EXP-NAT/);
    await pickAuto(page, 'Categoria standard', 'AC', /AC-STD-NAT/);
    await fill(page, 'Aumento (%)', '150');
    await page.getByTestId('company-save').click();
    await expect.poll(() => page.locator('[data-step=enduser]').textContent()).toContain('La percentuale di aumento deve essere compresa tra 0 e 100');
    await fill(page, 'Aumento (%)', '10');
    await fill(page, 'Diritti amministrativi nazionali', '4.5');
    await pickSelect(page, 'Rapporto CBM', '300 kg');
    await pickSelect(page, 'Rapporto LM', '1750 kg');
    await shot(page, `company-new-step3-${asAdmin ? 'admin' : 'carrier'}`);
    await page.getByTestId('company-save').click();
    await page.waitForURL(/#\/companies$/);
    await page.getByRole('row').filter({ hasText: name }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: name }).textContent()).toMatch(
      /Cliente finale.*Standard.*Acme Trasporti S\.r\.l\..*Italiano.*Torino.*Attiva/,
    );
  }

  async function createUser(page: Page, company: string, email: string, first: string) {
    await page.goto(`${ctx.portal.url}/#/user-management`);
    await page.getByTestId('add').click();
    await page.waitForURL(/#\/user-management\/create$/);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Nuovo utente');
    await pickAuto(page, 'Azienda', company.slice(0, 6), company);
    // An end-user company takes the Enduser role.
    await expect.poll(() => page.getByRole('combobox', { name: /^Ruolo\b/ }).textContent()).toBe('Cliente finale');
    await pickAuto(page, 'Lingua', 'Ital', 'Italiano');
    await page.getByTestId('user-next').click();
    await fill(page, 'Titolo', 'Sig.ra');
    await fill(page, 'Email', email);
    await fill(page, 'Nome', first);
    await fill(page, 'Cognome', 'Verdi');
    await fill(page, 'Indirizzo', 'Corso Francia 10');
    await fill(page, 'Città', 'Torino');
    await fill(page, 'CAP', '10143');
    await pickAuto(page, 'Paese', 'Itali', 'Italia');
    await fill(page, 'Password', 'corta');
    await fill(page, 'Conferma password', 'corta');
    await page.getByTestId('user-next').click();
    expect(await page.locator('[data-step=information]').textContent()).toMatch(/almeno 8 caratteri/i);
    await fill(page, 'Password', 'Segreta123');
    await fill(page, 'Conferma password', 'Segreta123');
    await page.getByTestId('user-next').click();
    await fill(page, 'Note', 'Referente spedizioni');
    await shot(page, `create-user-${email.split('@')[0]}`);
    await page.getByTestId('user-save').click();
    await page.waitForURL(/#\/user-management$/);
    await page.getByRole('row').filter({ hasText: email }).waitFor();
  }

  async function editDeactivateView(page: Page, company: string, email: string) {
    // Edit the company in the modal.
    await page.goto(`${ctx.portal.url}/#/companies`);
    await rowAction(page, company, 'row-edit');
    const dialog = page.getByTestId('dialog-edit');
    await dialog.getByLabel(label('Telefono')).first().waitFor();
    await dialog.getByLabel(label('Indirizzo (riga 2)')).fill('Scala B');
    await shot(page, `company-edit-${company.split(' ')[0]}`);
    await dialog.getByTestId('dialog-save').click();
    await dialog.waitFor({ state: 'detached' });
    // Edit the user: phone spaces are stripped.
    await page.goto(`${ctx.portal.url}/#/user-management`);
    // eleven columns are wider than a 1280 px window: the row's actions stay in sight
    await page.getByRole('row').filter({ hasText: email }).waitFor();
    expect(await visibleWhereItIs(page.getByRole('row').filter({ hasText: email }).getByTestId('row-actions'))).toBe(true);
    // The sticky actions cell of a striped row has the row's colour, not a white box at the edge.
    const [rowBg, cellBg] = await page
      .locator('tbody tr')
      .nth(1)
      .evaluate((tr) => [getComputedStyle(tr).backgroundColor, getComputedStyle(tr.lastElementChild!).backgroundColor]);
    expect(cellBg).toBe(rowBg);
    await rowAction(page, email, 'row-edit');
    const userDialog = page.getByTestId('dialog-edit');
    await userDialog.getByLabel(label('Telefono')).first().fill('+39 333 12 34 567');
    await userDialog.getByTestId('dialog-save').click();
    await userDialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('row').filter({ hasText: email }).textContent()).toContain('+393331234567');
    // Deactivate: the user can no longer sign in.
    await rowAction(page, email, 'row-status');
    await expect.poll(() => signInError(ctx, email, 'Segreta123')).toBe('Il tuo account è disattivato. Contatta il tuo amministratore.');
    // View the user and the company.
    await rowAction(page, email, 'row-view');
    await page.getByTestId('user-show').waitFor();
    await expect.poll(() => page.getByTestId('user-status').textContent()).toContain('Inattivo');
    expect(await page.getByTestId('user-status').locator('[data-active]').getAttribute('data-active')).toBe('0');
    expect(await page.getByTestId('section-information').textContent()).toContain('N/A');
    // Whose page it is: the user's name as the page's heading.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^\S+ Verdi$/);
    await shot(page, `user-show-${email.split('@')[0]}`);
    await page.goto(`${ctx.portal.url}/#/companies`);
    await rowAction(page, company, 'row-view');
    await page.getByTestId('company-show').waitFor();
    for (const s of ['settings', 'details', 'enduser']) await page.getByTestId(`section-${s}`).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(company);
    expect(await page.getByTestId('section-details').textContent()).toContain('Scala B');
    expect(await page.getByTestId('section-enduser').textContent()).toMatch(/AC-EXP-NAT.*AC-STD-NAT.*10 %.*4,50\s€.*300 kg.*1750 kg/);
    await shot(page, `company-show-${company.split(' ')[0]}`);
  }

  it('an admin creates a carrier’s end-user company in three steps and a user in it, edits, deactivates, views', async () => {
    const { page, errors, outside } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    await createEndUserCompany(page, 'Verdi Alimentari S.r.l.', true);
    await shot(page, 'companies-admin');
    await createUser(page, 'Verdi Alimentari S.r.l.', 'giulia@verdi.test', 'Giulia');
    await shot(page, 'users-admin');
    // The new user signs in before being deactivated.
    expect(await signInError(ctx, 'giulia@verdi.test', 'Sbagliata1')).toBe('Le credenziali non corrispondono ai nostri dati.');
    await editDeactivateView(page, 'Verdi Alimentari S.r.l.', 'giulia@verdi.test');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('a carrier does the same inside its own tenant and sees none of the admin’s records', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: '/companies' });
    await page.getByRole('cell', { name: 'Acme Trasporti S.r.l.', exact: true }).first().waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Portale Trasporti' }).count()).toBe(0);
    await createEndUserCompany(page, 'Neri Ceramiche S.r.l.', false);
    await createUser(page, 'Neri Ceramiche S.r.l.', 'luca@neri.test', 'Luca');
    expect(await page.getByRole('row').filter({ hasText: 'admin@portal.demo' }).count()).toBe(0);
    await shot(page, 'users-carrier');
    await editDeactivateView(page, 'Neri Ceramiche S.r.l.', 'luca@neri.test');
    // The admin's company is not reachable by its address either.
    const adminCompany = (await ctx.portal.db.db.selectFrom('companies').select('id').where('legal_name', '=', 'Portale Trasporti').executeTakeFirstOrThrow())
      .id;
    await page.goto(`${ctx.portal.url}/#/companies/${adminCompany}`);
    await page.waitForTimeout(500);
    expect(await page.getByTestId('company-show').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the empty lists’ texts', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo', { at: '/companies' });
    // screens load on demand: search in this screen's list, not in the one being replaced
    await page.getByTestId('companies-table').waitFor();
    await page.getByPlaceholder('Cerca', { exact: true }).fill('nessuna-azienda-così');
    await expect.poll(() => page.getByTestId('empty').textContent()).toContain('Nessuna azienda');
    await page.goto(`${ctx.portal.url}/#/user-management`);
    await page.getByTestId('users-table').waitFor();
    await page.getByPlaceholder('Cerca', { exact: true }).fill('nessun-utente-così');
    await expect.poll(() => page.getByTestId('empty').textContent()).toContain('Nessun utente');
    await shot(page, 'users-empty');
  });

  it('keeps an end user out of company and user management', async () => {
    const { page } = await ctx.page();
    await ctx.login(page, 'enduser@portal.demo');
    for (const path of ['companies', 'companies/new', 'user-management', 'create-user']) {
      await page.goto(`${ctx.portal.url}/#/${path}`);
      await page.waitForURL(/#\/access-denied$/);
      await page.getByText('Accesso negato').waitFor();
    }
  });
});
