import { expect, it } from 'vitest';
import { rowsOf, saved, tableText, xlsx } from './files.js';
import { describeInBrowser, shot, visibleWhereItIs, animationsDone } from './harness.js';
import { typeInPicker } from './pickers.js';

describeInBrowser('tariffs in Chromium (Italian)', (ctx) => {
  it('a carrier downloads, deletes and uploads a tariff table, seeing every bad row in red', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo', { at: '/express-hub-costs' });
    await expect.poll(() => tableText(page, 'tariff-table')).toContain('HUBMI');
    expect(await page.getByTestId('row-count').innerText()).toBe('6 righe');
    expect(await page.getByTestId('company-select').count()).toBe(0);

    const [tpl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('template-download').click()]);
    const template = await saved(tpl);
    expect(template.name).toBe('modello-costi-hub.xlsx'); // in the user's language (lib/downloadNames.ts)
    expect(rowsOf(template.data)[0]).toEqual(['code', 'silver', 'gold']);

    // The button says it empties the whole table, not one row.
    expect(await page.getByTestId('delete-set').textContent()).toBe('Elimina tutto');
    await page.getByTestId('delete-set').click();
    await page
      .getByRole('dialog')
      .getByText('Verranno eliminate tutte le 6 righe di "Costi hub" (Acme Trasporti S.r.l.): i preventivi non le useranno più.')
      .waitFor();
    await animationsDone(page); // the dialog's fade
    await shot(page, 'tariffs-delete-confirm');
    await page.getByRole('button', { name: 'Elimina' }).last().click();
    await expect.poll(() => page.getByTestId('empty').innerText()).toBe('Nessun dato disponibile, aggiungi dati');

    await page.getByTestId('upload-open').click();
    const bad = xlsx([
      ['code', 'silver', 'gold'],
      ['HUBMI', 5, 9],
      ['HUBRM', 'sei', -1],
      ['HUBMI', 1, 1],
    ]);
    // Choosing the file checks it at once: the bad cells as a table (row, column, message), nothing saved, no Pubblica.
    await page.getByTestId('upload-input').setInputFiles({ name: 'costi.xlsx', mimeType: 'application/octet-stream', buffer: bad });
    const errorsBox = page.getByTestId('check-errors');
    await errorsBox.waitFor();
    expect(await errorsBox.innerText()).toContain('Il file contiene 3 errori: non è stato salvato nulla.');
    const errorRows = await page.getByTestId('check-errors-table').locator('tbody tr').allInnerTexts();
    expect(errorRows.map((r) => r.split('\t'))).toEqual([
      ['3', 'silver', 'Non è un numero: "sei".'],
      ['3', 'gold', 'Non può essere negativo.'],
      ['4', 'code', 'Già presente alla riga 2 (code HUBMI).'],
    ]);
    expect(await page.getByTestId('upload-publish').count()).toBe(0);
    await shot(page, 'tariffs-upload-errors');

    await page.getByTestId('upload-input').setInputFiles({ name: 'express_hub_costs.xlsx', mimeType: 'application/octet-stream', buffer: template.data });
    await page.getByTestId('upload-publish').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('row-count').innerText()).toBe('3 righe');
    const text = await tableText(page, 'tariff-table');
    expect(text).toContain('HUBNA');
    expect(text).toMatch(/HUBNA\s+7,20\s€\s+12,50\s€/);
    await shot(page, 'tariffs-hub-costs-carrier');

    // A new file over a stored set replaces it at once, and the dialog says so before anything is sent.
    await page.getByTestId('upload-open').click();
    expect(await page.getByTestId('upload-replaces').innerText()).toBe(
      'Il file sostituirà le 3 righe attuali di "Costi hub" (Acme Trasporti S.r.l.), tutte insieme: se contiene errori non cambia nulla.',
    );
    const replacement = xlsx([
      ['code', 'silver', 'gold'],
      ['HUBTO', 4, 8],
    ]);
    await page.getByTestId('upload-input').setInputFiles({ name: 'torino.xlsx', mimeType: 'application/octet-stream', buffer: replacement });
    await page.getByTestId('upload-publish').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('row-count').innerText()).toBe('1 riga');
    expect(await tableText(page, 'tariff-table')).not.toContain('HUBNA');
    expect(errors).toEqual([]);
  });

  it('an admin sees the first carrier preselected and the documented columns of each table', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 900 } });
    await ctx.login(page, 'admin@portal.demo', { at: '/express-island-zones' });
    await expect.poll(() => tableText(page, 'tariff-table'), { timeout: 20_000 }).toContain('Sicilia');
    expect(await page.getByRole('combobox', { name: 'Azienda' }).innerText()).toBe('Acme Trasporti S.r.l.');
    const headers = await page
      .getByTestId('tariff-table')
      .locator('thead th')
      .evaluateAll((ths) => ths.map((t) => t.getAttribute('title')));
    // The documented columns, plus the class (two rows per island would otherwise look alike).
    expect(headers).toEqual(['island', 'special_zone', 'quintal_cost', 'multiplier', 'p150', 'p300', 'p550', 'ps550', 'p1000', 'type_id']);
    await shot(page, 'tariffs-island-zones-admin');
    await page.goto(`${ctx.portal.url}/#/standard_no_passage`);
    await expect.poll(() => tableText(page, 'tariff-table')).toContain('Venezia');
    const np = await page
      .getByTestId('tariff-table')
      .locator('thead th')
      .evaluateAll((ths) => ths.map((t) => t.getAttribute('title')));
    expect(np).toEqual(['postal_code', 'city', 'cost', 'province', 'flow', 'special_zone', 'code', 'rate_code', 'cost2', 'col_11']);
    expect(errors).toEqual([]);
  });

  it('a carrier searches a tariff table and a rate sheet’s rows: by place and by class', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1366, height: 900 } });
    await ctx.login(page, 'carrier@portal.demo', { at: '/express-island-zones' });
    await expect.poll(() => page.getByTestId('row-count').innerText(), { timeout: 20_000 }).toBe('38 righe');
    const body = page.getByTestId('tariff-table').locator('tbody tr');
    const search = page.getByTestId('tariff-search');
    expect(await page.getByLabel('Cerca').count()).toBe(1);

    await search.fill('capri');
    await expect.poll(() => body.allInnerTexts()).toHaveLength(2);
    const capri = await body.allInnerTexts();
    expect(capri.every((r) => r.startsWith('Capri\t'))).toBe(true);
    expect(capri.map((r) => r.split('\t').at(-1)!.trim())).toEqual(['SILVER', 'GOLD']);
    expect(await page.getByText('2 righe trovate').count()).toBe(1);
    // The set's own size stays in the header (what Elimina tutto and an upload would replace).
    expect(await page.getByTestId('row-count').innerText()).toBe('38 righe');
    await shot(page, 'tariffs-search');

    // A class word finds its class: 19 GOLD rows, the first page of 15 shown.
    await search.fill('gold');
    await page.getByText('19 righe trovate').waitFor();
    const gold = await body.allInnerTexts();
    expect(gold).toHaveLength(15);
    expect(gold.every((r) => r.trim().endsWith('GOLD'))).toBe(true);
    await search.fill('zzz');
    await expect.poll(() => page.getByTestId('empty').count()).toBe(1);
    await search.fill('');
    await expect.poll(() => page.getByText(/righe trovate/).count()).toBe(0);
    await expect.poll(() => body.count()).toBe(15);
    expect((await body.allInnerTexts())[0]).toMatch(/^Sicilia\t/);

    // A sheet's rows: the search narrows them to the province looked for.
    // The demo carrier's express price list (a row per province and class).
    const sheet = await (ctx.portal.db.db as any)
      .selectFrom('rate_sheets')
      .select(['id', 'company_id'])
      .where('rate_type', '=', 'EXP')
      .where('area', '=', 'Customer')
      .where('description', '=', 'Listino Pallet Express clienti 2025')
      .executeTakeFirstOrThrow();
    await page.goto(`${ctx.portal.url}/#/rate-sheets/${sheet.id}/${sheet.company_id}`);
    await page.getByTestId('rate-rows-table').waitFor();
    const rateRows = page.getByTestId('rate-rows-table').locator('tbody tr');
    await expect.poll(() => rateRows.count()).toBe(25);
    await page.getByTestId('tariff-search').fill('vda');
    await page.getByText('2 righe trovate').waitFor();
    const found = await rateRows.allInnerTexts();
    // Aosta's two rows (SILVER and GOLD), found by its region's code (the department column).
    expect(found.map((r) => r.split('\t').map((c) => c.trim())).map((r) => [r[5], r.at(-1)])).toEqual([
      ['AO', 'SILVER'],
      ['AO', 'GOLD'],
    ]);
    expect(errors).toEqual([]);
  });

  it('a carrier creates a rate sheet, sees its rows, downloads it and deletes it', async () => {
    // a common laptop screen: the table is wider than its box, its actions must stay in sight
    const { page, errors } = await ctx.page({ viewport: { width: 1366, height: 768 } });
    await ctx.login(page, 'carrier@portal.demo', { at: '/rate-sheets' });
    await expect.poll(() => tableText(page, 'rate-sheet-table'), { timeout: 20_000 }).toContain('ACEXPNAT20250101');
    for (const action of ['view-', 'download-', 'delete-']) expect(await visibleWhereItIs(page.locator(`[data-testid^=${action}]`).first())).toBe(true);
    await shot(page, 'rate-sheets-carrier');

    const [tpl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('template-STD').click()]);
    expect(rowsOf((await saved(tpl)).data)[0]).toEqual([
      'rate_code',
      'country',
      'zone_code',
      'weight_from',
      'weight_to',
      'price',
      'unit',
      'minimum',
      'leadtime',
    ]);

    const file = xlsx([
      ['rate_code', 'country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime'],
      ['TEST', 'IT', 'TO', 0, 100, 31.5, 'S', null, 2],
      ['TEST', 'IT', 'TO', 100, 500, 22, 'Q', 35, 2],
    ]);
    await page.getByTestId('new-sheet').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Tipo tariffa' }).click();
    await page.getByRole('option', { name: 'Standard (STD)' }).click();
    await page.getByTestId('sheet-description').fill('Listino Torino prova');
    await typeInPicker(page, 'sheet-from', '01/01/2026');
    await typeInPicker(page, 'sheet-to', '30/06/2025');
    expect(await dialog.innerText()).toContain('La data di fine validità deve essere successiva alla data di inizio validità');
    expect(await page.getByTestId('upload-submit').isDisabled()).toBe(true);
    await typeInPicker(page, 'sheet-to', '31/12/2026');
    await page.getByTestId('upload-input').setInputFiles({ name: 'torino.xlsx', mimeType: 'application/octet-stream', buffer: file });
    await page.getByTestId('summary-added').waitFor();
    await shot(page, 'rate-sheets-new');
    await page.getByTestId('upload-publish').click();
    await page.getByTestId('upload-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => tableText(page, 'rate-sheet-table')).toContain('Listino Torino prova');
    expect(await page.getByRole('combobox', { name: /^Categoria AC/ }).innerText()).toMatch(/^ACSTDNAT\d{8} · STD NAT$/);

    const viewButton = page.locator('[data-testid^=view-]').first();
    const id = (await viewButton.getAttribute('data-testid'))!.slice(5);
    await viewButton.click();
    await page.waitForURL(new RegExp(`#/rate-sheets/${id}/\\d+$`));
    await expect.poll(() => tableText(page, 'rate-rows-table')).toMatch(/31,50\s€/);
    expect(await page.getByTestId('sheet-summary').innerText()).toContain('2 righe');
    await shot(page, 'rate-sheet-rows');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-sheet').click()]);
    const original = await saved(dl);
    expect(original.name).toBe('torino.xlsx');
    expect(Buffer.compare(original.data, file)).toBe(0);

    await page.getByRole('link', { name: 'Torna ai listini' }).click();
    await expect.poll(() => tableText(page, 'rate-sheet-table')).toContain('Listino Torino prova');
    expect(await visibleWhereItIs(page.getByTestId(`delete-${id}`))).toBe(true);
    await page.getByTestId(`delete-${id}`).click();
    await page.getByRole('button', { name: 'Elimina' }).last().click();
    await expect.poll(() => page.getByTestId('empty').first().innerText()).toBe('Nessun listino disponibile');
    expect(errors).toEqual([]);
  });

  it('an end user sees and downloads its standard and express sheets with its own prices', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 1400, height: 900 } });
    await ctx.login(page, 'enduser@portal.demo', { at: '/enduser-rate-sheets' });
    await expect.poll(() => page.getByTestId('my-sheet-summary').innerText()).toContain('ACSTDNAT20250101');
    expect(await page.getByRole('combobox', { name: 'Tipo tariffa' }).innerText()).toBe('Standard (STD)');
    await shot(page, 'enduser-rate-sheets-std');
    await page.getByRole('combobox', { name: 'Tipo tariffa' }).click();
    await page.getByRole('option', { name: 'Pallet Express (EXP)' }).click();
    await expect.poll(() => page.getByTestId('my-sheet-summary').innerText()).toContain('ACEXPNAT20250101');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-my-sheet').click()]);
    const mine = await saved(dl);
    expect(mine.name).toBe('listino-ACEXPNAT20250101.xlsx');
    expect(rowsOf(mine.data).length).toBe(215);
    await page.goto(`${ctx.portal.url}/#/express-hub-costs`);
    await page.getByTestId('not-found').waitFor();
    expect(errors).toEqual([]);
  });
});
