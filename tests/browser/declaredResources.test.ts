import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { pickerText, typeInPicker } from './pickers.js';

/** This month in Europe/Rome as `YYYY-MM`, and as Italian writes it ("novembre 2026"): the test works in any month. */
const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7);
const monthName = new Intl.DateTimeFormat('it', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
  Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)) - 1, 1),
);

const rowTexts = async (page: Page) => (await page.locator('table tbody tr').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

/**
 * A resource that exists only as a declaration, a registry line and a migration (diesel prices,
 * model/resources/diesel-prices.ts): its menu entry, list and create screen in Italian for the admin,
 * and the read-only list its declaration gives the carrier.
 */
describeInBrowser('a declared resource in Chromium: diesel prices', (ctx) => {
  it('the admin finds it in the price manager group, adds a month and sees it in Italian', async () => {
    // The demo seeds the last months' prices (server/seed/tariffs.ts): this test starts from none.
    await ctx.portal.db.db.deleteFrom('diesel_prices').execute();
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    // No price for this month yet: the admin's dashboard says so, in Italian, with the way to add it.
    expect(await page.getByTestId('diesel-missing').textContent()).toContain(`Manca il prezzo di riferimento del gasolio di ${monthName}.`);
    await shot(page, 'dashboard-diesel-missing');
    await page.locator('[data-menu="price-manager"]').click();
    await page.locator('[data-menu="diesel-prices"]').click();
    await page.getByTestId('page-title').waitFor();
    expect(await page.getByTestId('page-title').textContent()).toBe('Prezzi del gasolio');
    // Nothing yet: the declared empty text, with the add button.
    await expect.poll(() => page.locator('main').textContent()).toContain('Nessun prezzo del gasolio');
    await page.getByTestId('add').click();
    const dialog = page.getByTestId('dialog-create');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Nuovo prezzo del gasolio');
    // The month is a month and year picker written MM/AAAA; an unfinished one (no year) is refused in the
    // form, in Italian, before anything is sent.
    await typeInPicker(dialog, 'month', month.slice(5));
    await page.fill('input[name=price]', '1.587');
    await page.getByTestId('dialog-save').click();
    await expect.poll(() => dialog.textContent()).toContain('Mese non valido: scrivilo come MM/AAAA');
    await typeInPicker(dialog, 'month', `${month.slice(5)}/${month.slice(0, 4)}`);
    expect(await pickerText(dialog, 'month')).toBe(`${month.slice(5)}/${month.slice(0, 4)}`);
    await page.fill('textarea[name=note]', 'MASE, media mensile');
    await shot(page, 'declared-diesel-create');
    await page.getByTestId('dialog-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContain('Prezzo del gasolio salvato');
    await expect.poll(() => rowTexts(page)).toEqual([`${monthName}1,587MASE, media mensile`]);
    const stored = await ctx.portal.db.db.selectFrom('diesel_prices').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ month, price: '1.587' });
    // The same month again: the server's unique check, shown under the input.
    await page.getByTestId('add').click();
    await page.getByTestId('dialog-create').waitFor();
    await typeInPicker(page.getByTestId('dialog-create'), 'month', `${month.slice(5)}/${month.slice(0, 4)}`);
    await page.fill('input[name=price]', '1.6');
    await page.getByTestId('dialog-save').click();
    await expect.poll(() => page.getByTestId('dialog-create').textContent()).toMatch(/il valore di mese è già in uso/i);
    expect(await ctx.portal.db.db.selectFrom('diesel_prices').select('id').execute()).toHaveLength(1);
    // With this month's price the dashboard has nothing to remind.
    await page.keyboard.press('Escape');
    await page.goto(`${ctx.portal.url}/#/`);
    await page.getByTestId('greeting').waitFor();
    await expect.poll(() => page.getByTestId('diesel-missing').count(), { timeout: 3000 }).toBe(0);
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('diesel-missing').count()).toBe(0);
    // With this month's price the dashboard has nothing to remind.
    await page.keyboard.press('Escape');
    await page.goto(`${ctx.portal.url}/#/`);
    await page.getByTestId('greeting').waitFor();
    await page
      .getByTestId('stat-daily_total')
      .waitFor()
      .catch(() => undefined);
    expect(await page.getByTestId('diesel-missing').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the carrier reads the list and is offered no add or edit', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: '/diesel-prices' });
    await page.getByTestId('pager').waitFor();
    await expect.poll(() => rowTexts(page)).toEqual([`${monthName}1,587MASE, media mensile`]);
    expect(await page.getByTestId('add').count()).toBe(0);
    expect(await page.getByTestId('row-actions').count()).toBe(0);
    await shot(page, 'declared-diesel-carrier');
    expect(errors).toEqual([]);
  });
});

/** The page is no wider than the window: nothing makes a phone scroll sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The ids and names of a company's places, from the database (what the screens must show). */
async function placesOf(ctx: { portal: { db: { db: any } } }, email: string) {
  const db = ctx.portal.db.db;
  const user = await db.selectFrom('users').select('company_id').where('email', '=', email).executeTakeFirstOrThrow();
  const rows: Array<{ id: number; name: string; kind: string; country_id: number; company_id: number }> = await db
    .selectFrom('address_book')
    .select(['id', 'name', 'kind', 'country_id', 'company_id'])
    .where('company_id', '=', user.company_id)
    .orderBy('name')
    .execute();
  return { companyId: user.company_id as number, rows };
}

/**
 * The generated screens of a company-tenancy resource (issue 34), driven on the real address book
 * (model/resources/address-book.ts) in Italian: the list shows the countries by name and offers the
 * declared filters; a row opens the show page (fields in words, Attività); rows are deleted in bulk; a
 * spreadsheet is checked, then published. On a 1280 px desktop and on a 390 × 844 phone.
 */
describeInBrowser('a generated company resource in Chromium: the address book', (ctx) => {
  it('the end user reads its places with country names, filters them by kind and opens one', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'enduser@portal.demo');
    const { rows } = await placesOf(ctx, 'enduser@portal.demo');
    expect(rows.length).toBeGreaterThan(2);
    await page.goto(`${ctx.portal.url}/#/address-book`);
    await page.getByTestId('pager').waitFor();
    expect(await page.getByTestId('page-title').textContent()).toBe('Luoghi della rubrica');
    // Countries by name in the user's language, never an id; no company column (its own rows only).
    await expect.poll(async () => (await rowTexts(page)).length).toBe(rows.length);
    const texts = await rowTexts(page);
    expect(texts.some((t) => t.includes('Italia'))).toBe(true);
    expect(texts.some((t) => t.includes('Francia'))).toBe(true);
    expect(await page.locator('thead').textContent()).not.toContain('Azienda');
    for (const r of rows) expect(texts.join('\n')).not.toMatch(new RegExp(`\\b${r.country_id}\\b`));
    // A declared filter: Tipo = Ritiro, from react-admin's "Aggiungi filtro".
    await page.getByRole('button', { name: 'Aggiungi filtro' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Tipo' }).click();
    await page.locator('[data-source=kind] [role=combobox]').click();
    await page.getByRole('option', { name: 'Ritiro', exact: true }).click();
    const pickups = rows.filter((r) => r.kind === 'pickup').map((r) => r.name);
    await expect.poll(async () => (await rowTexts(page)).length).toBe(pickups.length);
    for (const name of pickups) expect((await rowTexts(page)).join('\n')).toContain(name);
    expect(page.url()).toContain('kind');
    await shot(page, 'declared-book-filter');
    // A row opens its show page: every field in words.
    const first = rows.find((r) => r.kind === 'pickup')!;
    await page.locator('table tbody tr', { hasText: first.name }).locator('td').nth(1).click();
    await page.waitForURL(`**/#/address-book/${first.id}/show`);
    const fields = page.getByTestId('show-fields');
    await fields.waitFor();
    expect(await fields.locator('[data-field=name] dd').textContent()).toBe(first.name);
    expect(await fields.locator('[data-field=kind] dd').textContent()).toBe('Ritiro');
    expect(await fields.locator('[data-field=country_id] dd').textContent()).toBe('Italia');
    // End users do not read the audit log: no Attività section, edit and delete are there.
    expect(await page.getByTestId('activity').count()).toBe(0);
    expect(await page.getByTestId('show-edit').count()).toBe(1);
    expect(await page.getByTestId('show-delete').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('the carrier, on a 390 px phone: the list fits, a show page with its Attività after an edit, a delete asked first', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'carrier@portal.demo');
    const { rows } = await placesOf(ctx, 'carrier@portal.demo');
    await page.goto(`${ctx.portal.url}/#/address-book`);
    await page.getByTestId('pager').waitFor();
    await expect.poll(async () => (await rowTexts(page)).length).toBe(rows.length);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'declared-book-phone-list');
    // The filters on a phone: the country filter added, the page still 390 px wide.
    await page.getByRole('button', { name: 'Aggiungi filtro' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Paese' }).click();
    await page.locator('[data-source=country_id] input').fill('Ital');
    await page.getByRole('option', { name: 'Italia' }).click();
    await expect.poll(() => page.url()).toContain('country_id');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'declared-book-phone-filter');
    // The show page of a place, then an edit in the modal: the Attività lists it.
    const place = rows[0];
    await page.goto(`${ctx.portal.url}/#/address-book/${place.id}/show`);
    await page.getByTestId('show-fields').waitFor();
    const activity = page.getByTestId('activity');
    await activity.waitFor();
    expect(await activity.getByRole('heading').first().textContent()).toBe('Attività');
    await page.getByTestId('show-edit').click();
    const dialog = page.getByTestId('dialog-edit');
    await dialog.waitFor();
    await dialog.locator('input[name=contact]').fill('Giulia Ferri');
    await page.getByTestId('dialog-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('show-fields').locator('[data-field=contact] dd').textContent()).toBe('Giulia Ferri');
    await expect.poll(() => activity.textContent()).toContain('Giulia Ferri');
    expect(await activity.textContent()).toContain('Modifica');
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'declared-book-phone-show');
    // Delete, asked first; the list follows without the place.
    await page.getByTestId('show-delete').click();
    const confirm = page.getByRole('dialog');
    expect(await confirm.textContent()).toContain(`Eliminare «${place.name}»?`);
    await shot(page, 'declared-book-phone-delete');
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await page.waitForURL(/#\/address-book(\?.*)?$/);
    await expect.poll(async () => (await rowTexts(page)).some((t) => t.includes(place.name))).toBe(false);
    expect(await ctx.portal.db.db.selectFrom('address_book').select('id').where('id', '=', place.id).executeTakeFirst()).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('the admin sees every company’s places with the company column and filter, and deletes two in bulk', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    const enduser = await placesOf(ctx, 'enduser@portal.demo');
    await page.goto(`${ctx.portal.url}/#/address-book`);
    await page.getByTestId('pager').waitFor();
    expect(await page.locator('thead').textContent()).toContain('Azienda');
    // The company filter: only the end user's company's places.
    await page.getByRole('button', { name: 'Aggiungi filtro' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Azienda' }).click();
    const company = await ctx.portal.db.db.selectFrom('companies').select('legal_name').where('id', '=', enduser.companyId).executeTakeFirstOrThrow();
    await page.locator('[data-source=company_id] input').fill(company.legal_name.slice(0, 6));
    await page.getByRole('option', { name: company.legal_name }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain(`"company_id":${enduser.companyId}`);
    await expect.poll(async () => (await rowTexts(page)).length, { timeout: 5000 }).toBe(Math.min(enduser.rows.length, 15));
    for (const t of await rowTexts(page)) expect(t).toContain(company.legal_name);
    // Two rows selected: "Esporta selezionati" and "Elimina"; the delete is asked first, then counted.
    const doomed = enduser.rows.slice(0, 2);
    for (const r of doomed) await page.locator('table tbody tr', { hasText: r.name }).locator('input[type=checkbox]').check();
    await page.getByTestId('bulk-export').waitFor();
    await shot(page, 'declared-book-bulk');
    await page.getByTestId('bulk-delete').click();
    const confirm = page.getByRole('dialog');
    expect(await confirm.textContent()).toContain('Eliminare i 2 elementi selezionati?');
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/2/)]));
    await expect.poll(async () => (await rowTexts(page)).length).toBe(Math.min(enduser.rows.length - 2, 15));
    const left = await placesOf(ctx, 'enduser@portal.demo');
    expect(left.rows.map((r) => r.id)).not.toContain(doomed[0].id);
    expect(left.rows.map((r) => r.id)).not.toContain(doomed[1].id);
    expect(errors).toEqual([]);
  });

  it('the end user imports places on a 390 px phone: the template, a file with errors, then a file checked and published', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'enduser@portal.demo');
    const before = await placesOf(ctx, 'enduser@portal.demo');
    const shop = before.rows.find((r) => r.name === 'Ferramenta Colosseo')!;
    expect(shop).toBeDefined();
    await page.goto(`${ctx.portal.url}/#/address-book`);
    await page.getByTestId('pager').waitFor();
    await page.getByTestId('import').click();
    const dialog = page.getByTestId('upload-dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').first().textContent()).toBe('Importa: Luoghi della rubrica');
    // "Scarica modello": the header row the server reads, as a spreadsheet.
    const download = page.waitForEvent('download');
    await page.getByTestId('import-template').click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    await shot(page, 'declared-book-import-open');
    // A file with mistakes: checked, the bad cells listed by row and column, nothing stored, no Pubblica.
    const header = 'Nome luogo;Tipo;Indirizzo;CAP;Città;Provincia;Paese';
    const csv = (lines: string[]) => ({ name: 'luoghi.csv', mimeType: 'text/csv', buffer: Buffer.from([header, ...lines].join('\n') + '\n', 'utf8') });
    await page
      .getByTestId('upload-input')
      .setInputFiles(
        csv([
          'Magazzino Modena Nord;Ritiro;Via Emilia Est 1000;41122;;MO;Italy',
          'Deposito Atlantide;Ritiro;Via Perduta 1;00000;Atlantide;;Atlantide',
          'Deposito Sempre;Sempre;Via Sempre 1;40100;Bologna;BO;Italy',
        ]),
      );
    const errorsTable = page.getByTestId('check-errors-table');
    await errorsTable.waitFor();
    const errorRows = (await errorsTable.locator('tbody tr').allTextContents()).join('\n');
    expect(errorRows).toContain('Città');
    expect(errorRows).toContain('Tipo');
    expect(errorRows).toContain('Paese');
    expect(await page.getByTestId('upload-publish').count()).toBe(0);
    expect(await page.getByTestId('upload-choose-again').count()).toBe(1);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'declared-book-import-errors');
    expect((await placesOf(ctx, 'enduser@portal.demo')).rows).toHaveLength(before.rows.length);
    // A good file: one new place, one changed (matched by its name), the rest unchanged; then Pubblica.
    await page
      .getByTestId('upload-input')
      .setInputFiles(
        csv(['Magazzino Modena Nord;Ritiro;Via Emilia Est 1000;41122;Modena;MO;Italy', 'Ferramenta Colosseo;Consegna;Via Labicana 46;00184;Roma;RM;Italy']),
      );
    await page.getByTestId('import-check').waitFor();
    expect(await page.getByTestId('summary-added').textContent()).toBe('1 riga nuova');
    expect(await page.getByTestId('summary-changed').textContent()).toBe('1 riga modificata');
    const changes = (await page.getByTestId('check-changes-table').locator('tbody tr').allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    expect(changes.find((t) => t.includes('Nuova'))).toContain('Magazzino Modena Nord');
    expect(changes.find((t) => t.includes('Modificata'))).toMatch(/Indirizzo: .*Via Labicana 44.*Via Labicana 46/);
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await shot(page, 'declared-book-import-check');
    // Nothing stored by the check.
    expect((await placesOf(ctx, 'enduser@portal.demo')).rows).toHaveLength(before.rows.length);
    await page.getByTestId('upload-publish').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/1.*1/)]));
    await expect.poll(async () => (await rowTexts(page)).some((t) => t.includes('Magazzino Modena Nord'))).toBe(true);
    await shot(page, 'declared-book-import-published');
    const after = await placesOf(ctx, 'enduser@portal.demo');
    expect(after.rows).toHaveLength(before.rows.length + 1);
    const changed = await ctx.portal.db.db.selectFrom('address_book').select(['address']).where('id', '=', shop.id).executeTakeFirstOrThrow();
    expect(changed.address).toBe('Via Labicana 46');
    expect(errors).toEqual([]);
  });
});
