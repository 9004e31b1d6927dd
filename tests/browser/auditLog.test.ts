import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import { auditLogRepo } from '../../server/repositories/auditLog.js';
import { COMPANY_ROLE, USER_ROLE } from '../../model/roles.js';
import { shownDay, typeInPicker } from './pickers.js';

const label = (text: string) => new RegExp(`^${text.replace(/[()]/g, '\\$&')}\\s*\\*?$`);

async function rowAction(page: Page, rowText: string, action: string) {
  await page.getByRole('row').filter({ hasText: rowText }).getByTestId('row-actions').click();
  await page.getByTestId(action).click();
}

/** Edits one field of a company in the list's modal. */
async function editCompany(page: Page, base: string, company: string, field: string, value: string) {
  await page.goto(`${base}/#/companies`);
  await rowAction(page, company, 'row-edit');
  const dialog = page.getByTestId('dialog-edit');
  // The form is loaded once the company's name is in it.
  await expect.poll(() => dialog.getByLabel(label('Ragione sociale')).first().inputValue()).not.toBe('');
  await dialog.getByLabel(label(field)).first().fill(value);
  await dialog
    .getByTestId('dialog-save')
    .click({ timeout: 8000 })
    .catch(async (e) => {
      await shot(page, `audit-save-failed-${company.split(' ')[0]}`);
      throw e;
    });
  await dialog.waitFor({ state: 'detached', timeout: 8000 }).catch(async (e) => {
    await shot(page, `audit-edit-failed-${company.split(' ')[0]}`);
    throw e;
  });
}

/** The text of the audit table's rows (header aside). */
const rowsOf = (page: Page) => page.getByTestId('audit-table').locator('tbody tr').allTextContents();

describeInBrowser('the audit log and the Attività sections in Chromium, in Italian', (ctx) => {
  let rossi = 0;
  let bianchi = 0;

  beforeAll(async () => {
    // A second carrier with its user: its entries are another tenant's for the demo carrier.
    const db = ctx.portal.db.db;
    const now = nowIso();
    // What the edit form requires of a carrier: a language and a price category.
    const lang = await db.selectFrom('languages').select('id').where('code', '=', 'it').executeTakeFirstOrThrow();
    const category = await db.selectFrom('price_categories').select('id').executeTakeFirstOrThrow();
    const country = await db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirst();
    bianchi = (
      await db
        .insertInto('companies')
        .values({
          legal_name: 'Bianchi Spedizioni S.r.l.',
          company_role_id: COMPANY_ROLE.CARRIER,
          address: 'Via Nizza 10',
          city: 'Torino',
          province: 'TO',
          postal_code: '10125',
          phone: '+39 011 555 0303',
          fax: 'bianchi@portal.demo',
          language_id: lang.id,
          price_category_id: category.id,
          country_id: country?.id ?? null,
          status_id: 1,
          is_inbound: 1,
          type: 'Customer',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('users')
      .values({
        role_id: USER_ROLE.CARRIER,
        company_id: bianchi,
        language_id: lang.id,
        title: 'Sig.',
        first_name: 'Bruno',
        last_name: 'Bianchi',
        email: 'bianchi@portal.demo',
        password_hash: await hashPassword('demo1234'),
        status_id: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    rossi = (await db.selectFrom('companies').select('id').where('legal_name', '=', 'Rossi Logistica S.r.l.').executeTakeFirstOrThrow()).id;
  });

  it('an admin changes a company, then reads the change in its Attività section and in the audit log', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    await editCompany(page, ctx.portal.url, 'Rossi Logistica S.r.l.', 'Ragione sociale', 'Rossi Logistica S.p.A.');
    await editCompany(page, ctx.portal.url, 'Bianchi Spedizioni S.r.l.', 'Telefono', '+39 011 555 0404');

    // The company's detail: its Attività section, newest first.
    await page.goto(`${ctx.portal.url}/#/companies/${rossi}`);
    const activity = page.getByTestId('activity');
    await activity.getByRole('heading', { name: 'Attività' }).waitFor();
    await activity.getByTestId('audit-changes').first().waitFor();
    const first = await activity.locator('tbody tr').first().textContent();
    expect(first).toContain('Modifica');
    expect(first).toContain('Anna Amministratrice');
    expect(first).toContain('Amministratore');
    expect(first).toContain('Ragione sociale: «Rossi Logistica S.r.l.» → «Rossi Logistica S.p.A.»');
    // Only this company's entries: the other company's change is not here.
    expect((await activity.locator('tbody tr').allTextContents()).join('\n')).not.toContain('Telefono: «+39 011 555 0303»');
    await activity.scrollIntoViewIfNeeded();
    await shot(page, 'audit-company-activity-admin');
    const problems = await axeProblems(page, 'admin company detail with Attività');

    // The audit log: the menu entry, both changes, the resource by its label, the id a link to the company.
    await page.goto(`${ctx.portal.url}/#/`);
    await page.getByTestId('sidebar-menu').getByText('Impostazioni', { exact: true }).click();
    await page.getByRole('link', { name: 'Registro attività' }).click();
    await page.waitForURL(/#\/audit-log/);
    await page.getByTestId('audit-table').waitFor();
    await expect.poll(async () => (await rowsOf(page)).join('\n')).toContain('Rossi Logistica S.p.A.');
    const rows = await rowsOf(page);
    const rossiRow = rows.find((r) => r.includes('Ragione sociale: «Rossi Logistica S.r.l.»'))!;
    expect(rossiRow).toContain('Aziende');
    expect(rossiRow).toContain('Modifica');
    expect(rossiRow).toContain('Portale Trasporti');
    expect(rows.join('\n')).toContain('Telefono: «+39 011 555 0303» → «+39 011 555 0404»');
    await shot(page, 'audit-log-admin');
    problems.push(...(await axeProblems(page, 'admin audit log')));
    expect(problems, `axe violations:\n${problems.join('\n\n')}`).toEqual([]);
    await page.getByRole('row').filter({ hasText: 'Ragione sociale: «Rossi' }).getByTestId('audit-link').click();
    await page.waitForURL(new RegExp(`#/companies/${rossi}$`));
    await page.getByTestId('company-show').waitFor();

    // The id filter keeps one company's entries.
    await page.goto(`${ctx.portal.url}/#/audit-log`);
    await page.getByLabel('ID risorsa').fill(String(bianchi));
    await expect.poll(async () => (await rowsOf(page)).join('\n')).not.toContain('Rossi');
    expect((await rowsOf(page)).join('\n')).toContain('Telefono: «+39 011 555 0303»');
    // A user's detail has its section: the admin deactivates the demo end user, the change reads in words.
    await page.goto(`${ctx.portal.url}/#/user-management`);
    await rowAction(page, 'enduser@portal.demo', 'row-status');
    await rowAction(page, 'enduser@portal.demo', 'row-view');
    await page.getByTestId('user-show').waitFor();
    const userActivity = page.getByTestId('activity');
    await expect.poll(() => userActivity.locator('tbody tr').first().textContent()).toContain('Cambio di stato');
    expect(await userActivity.locator('tbody tr').first().textContent()).toContain('Stato: Attivo → Inattivo');
    await page.goto(`${ctx.portal.url}/#/audit-log`);
    // The dates (Rome days): from tomorrow nothing; an end before the start is refused with the server's words.
    const romeDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(d);
    const today = romeDay(new Date());
    await typeInPicker(page, 'input-from', shownDay(romeDay(new Date(Date.now() + 86_400_000))));
    await page.getByTestId('empty').waitFor();
    await typeInPicker(page, 'input-to', shownDay(today));
    await expect.poll(() => page.getByTestId('list-error').textContent()).toContain('La data finale non può precedere quella iniziale.');
    await typeInPicker(page, 'input-from', shownDay(today));
    await expect.poll(async () => (await rowsOf(page)).join('\n')).toContain('Telefono: «+39 011 555 0303»');
    expect(errors).toEqual([]);
  });

  it('a carrier sees its own tenant’s entries and not another carrier’s', async () => {
    // The other carrier changes its own company.
    {
      const { page } = await ctx.page();
      await ctx.login(page, 'bianchi@portal.demo');
      await editCompany(page, ctx.portal.url, 'Bianchi Spedizioni S.r.l.', 'Telefono 2', '+39 011 555 0505');
    }
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'carrier@portal.demo');
    await editCompany(page, ctx.portal.url, 'Rossi Logistica S.p.A.', 'Telefono', '+39 051 555 0909');
    await page.goto(`${ctx.portal.url}/#/audit-log`);
    await page.getByTestId('audit-table').waitFor();
    await expect.poll(async () => (await rowsOf(page)).join('\n')).toContain('Telefono: «+39 051 555 0202» → «+39 051 555 0909»');
    const all = (await rowsOf(page)).join('\n');
    // Its customer's changes, the admin's included; none of the other carrier's.
    expect(all).toContain('Carlo Corriere');
    expect(all).toContain('Ragione sociale: «Rossi Logistica S.r.l.» → «Rossi Logistica S.p.A.»');
    expect(all).not.toContain('Bianchi');
    expect(all).not.toContain('0505');
    expect(all).not.toContain('+39 011 555');
    await shot(page, 'audit-log-carrier');
    // The user filter (the carrier's own users to pick from): only what Carlo did.
    const user = page.getByRole('combobox', { name: label('Utente') });
    await user.click();
    await user.fill('Carlo');
    await page.getByRole('option', { name: 'Carlo Corriere' }).click();
    await expect.poll(async () => (await rowsOf(page)).join('\n')).not.toContain('Anna Amministratrice');
    expect((await rowsOf(page)).join('\n')).toContain('Telefono: «+39 051 555 0202» → «+39 051 555 0909»');
    // The customer's detail: its Attività section has the carrier's change on top.
    await page.goto(`${ctx.portal.url}/#/companies/${rossi}`);
    const activity = page.getByTestId('activity');
    await activity.getByTestId('audit-changes').first().waitFor();
    expect(await activity.locator('tbody tr').first().textContent()).toContain('Telefono: «+39 051 555 0202» → «+39 051 555 0909»');
    expect(await activity.locator('tbody tr').first().textContent()).toContain('Vettore');
    await activity.scrollIntoViewIfNeeded();
    await shot(page, 'audit-company-activity-carrier');
    // The other carrier's company is out of reach, its history too.
    await page.goto(`${ctx.portal.url}/#/audit-log`);
    await page.getByLabel('ID risorsa').fill(String(bianchi));
    await page.getByTestId('empty').waitFor();
    // A request's detail has its section too; the demo requests were written without the API: nothing yet.
    const request = await ctx.portal.db.db.selectFrom('transport_requests').select('id').orderBy('id').executeTakeFirstOrThrow();
    await page.goto(`${ctx.portal.url}/#/transport-requests-visuals/${request.id}/1`);
    await page.getByTestId('request-detail').waitFor();
    expect(await page.getByTestId('activity').getByTestId('empty').textContent()).toContain('Nessuna attività registrata');
    // A tariff set's history: the carrier empties its hub costs, and the table's section shows it at once.
    await page.goto(`${ctx.portal.url}/#/express-hub-costs`);
    const tariffActivity = page.getByTestId('activity');
    await tariffActivity.getByTestId('empty').waitFor();
    await page.getByTestId('delete-set').click();
    await page
      .getByRole('dialog')
      .getByText(/Verranno eliminate tutte le 6 righe/)
      .waitFor();
    await page.getByRole('button', { name: 'Elimina' }).last().click();
    await expect.poll(() => tariffActivity.locator('tbody tr').first().textContent()).toContain('Eliminazione');
    expect(await tariffActivity.locator('tbody tr').first().textContent()).toContain('Righe: 6');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await shot(page, 'audit-tariff-activity-carrier');
    // The same in French.
    await page.getByTestId('lang-fr').click();
    await expect.poll(() => tariffActivity.getByRole('heading').textContent()).toBe('Activité');
    expect(await tariffActivity.locator('tbody tr').first().textContent()).toMatch(/Suppression.*Lignes: 6/);
    expect(errors).toEqual([]);
  });

  it('a change of country reads as the country’s name, not its id', async () => {
    const db = ctx.portal.db.db;
    const user = await db.selectFrom('users').select(['id', 'company_id']).where('email', '=', 'enduser@portal.demo').executeTakeFirstOrThrow();
    const it = await db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirstOrThrow();
    const fr = await db.selectFrom('countries').select('id').where('code_alpha', '=', 'FR').executeTakeFirstOrThrow();
    await auditLogRepo(db).insert({ user_id: user.id, ip: null }, [
      { action: 'update', resource: 'users', resource_id: user.id, company_id: user.company_id, changes: { country_id: { before: it.id, after: fr.id } } },
    ]);
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo', { at: `/user-management/${user.id}` });
    const activity = page.getByTestId('activity');
    await expect.poll(() => activity.locator('tbody tr').first().textContent()).toContain('Paese: Italia → Francia');
    expect(errors).toEqual([]);
  });
});
