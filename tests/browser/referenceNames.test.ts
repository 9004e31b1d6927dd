import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, shot } from './harness.js';
import { axeProblems } from './axe.js';
import { auditLogRepo } from '../../server/repositories/auditLog.js';

type Lang = 'en' | 'fr';
const setLanguage = async (page: Page, lang: Lang) => {
  await page.getByTestId(`lang-${lang}`).first().click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
};
const open = async (page: Page, route: string) => {
  await page.evaluate((r) => {
    window.location.hash = r;
  }, route);
};
const rowTexts = async (page: Page) => (await page.locator('table tbody tr').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

/**
 * Reference data and the audit log in the user's words (issue 35, items 6 and 11), in English and French: the
 * countries' list names Italy in the user's language, the document types' list and the booking form's
 * document type select too, and the audit log shows statuses and companies by name in the language's quotes,
 * sign-ins hidden until the switch shows them.
 */
describeInBrowser('reference names and the audit log in English and French', (ctx) => {
  const WORDS: Record<Lang, { italy: string; ddt: string; refused: string; signIn: string; quote: [string, string] }> = {
    en: { italy: 'Italy', ddt: 'Delivery note (DDT)', refused: 'Status: Open → Refused', signIn: 'Show sign-ins', quote: ['“', '”'] },
    fr: {
      italy: 'Italie',
      ddt: 'Bon de livraison (DDT)',
      refused: 'Statut: Ouverte → Refusée',
      signIn: 'Afficher les connexions',
      quote: ['«\u00a0', '\u00a0»'],
    },
  };

  it('the countries, the document types and the audit log of an admin', async () => {
    const db = ctx.portal.db.db;
    const company = await db.selectFrom('companies').select(['id', 'legal_name']).where('legal_name', '=', 'Rossi Logistica S.r.l.').executeTakeFirstOrThrow();
    await auditLogRepo(db).insert({ user_id: null, ip: null }, [
      {
        action: 'status',
        resource: 'transport_requests',
        resource_id: 4242,
        company_id: company.id,
        changes: { transport_request_status_id: { before: 1, after: 4 }, enduser_company_id: { before: null, after: company.id } },
      },
      {
        action: 'update',
        resource: 'webhook_endpoints',
        resource_id: 77,
        company_id: company.id,
        changes: { url: { before: 'https://a.test/x', after: 'https://b.test/y' } },
      },
    ]);
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'admin@portal.demo');
    const problems: string[] = [];
    for (const lang of ['en', 'fr'] as const) {
      const w = WORDS[lang];
      await setLanguage(page, lang);
      await open(page, '/countries');
      await page.getByTestId('pager').waitFor();
      await page.fill('input[name=q]', 'ital');
      await expect.poll(() => rowTexts(page)).toEqual([expect.stringMatching(new RegExp(`^${w.italy}IT`))]);
      problems.push(...(await axeProblems(page, `countries [${lang}]`)));

      await open(page, '/document-types');
      await page.getByTestId('pager').waitFor();
      await expect.poll(async () => (await rowTexts(page)).some((t) => t.startsWith(w.ddt))).toBe(true);
      expect((await rowTexts(page)).join('\n')).not.toContain('Fattura commerciale');

      await open(page, '/audit-log');
      const table = page.getByTestId('audit-table');
      await table.waitFor();
      await page.fill('input[name=resource_id]', '4242');
      await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).join('\n')).toContain(w.refused);
      await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
      const row = (await table.locator('tbody tr').first().textContent()) ?? '';
      expect(row).toContain(company.legal_name);
      expect(row).not.toMatch(/: 1 → 4|#\d+ →/);
      await page.fill('input[name=resource_id]', '77');
      await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).join('\n')).not.toContain(w.refused);
      await expect.poll(async () => (await table.locator('tbody tr').first().textContent()) ?? '').toContain(`${w.quote[0]}https://a.test/x${w.quote[1]}`);
      expect((await table.locator('tbody tr').first().textContent()) ?? '').toContain('Webhook');
      expect((await table.locator('tbody tr').first().textContent()) ?? '').not.toContain('webhook_endpoints');
      await page.fill('input[name=resource_id]', '');
      // Sign-ins are hidden until the switch shows them.
      const toggle = page.getByLabel(w.signIn);
      expect(await toggle.isChecked(), `switch off at first [${lang}]`).toBe(false);
      await expect.poll(async () => (await table.locator('tbody tr').count()) > 0).toBe(true);
      problems.push(...(await axeProblems(page, `audit log [${lang}]`)));
      if (lang === 'fr') await shot(page, 'audit-log-words-fr');
      await toggle.check();
      await expect.poll(() => toggle.isChecked()).toBe(true);
      await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).join('\n')).toContain(lang === 'en' ? 'Sign-in' : 'Connexion');
      await toggle.uncheck();
      await expect.poll(() => toggle.isChecked()).toBe(false);
      // the list follows once the filter's change is applied (react-admin debounces it)
      await expect.poll(async () => (await table.locator('tbody tr').allTextContents()).join('\n')).not.toContain(lang === 'en' ? 'Sign-in' : 'Connexion');
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the booking form’s document type select in the user’s language', async () => {
    const { page, errors } = await ctx.page();
    await ctx.login(page, 'enduser@portal.demo');
    for (const lang of ['en', 'fr'] as const) {
      await setLanguage(page, lang);
      await open(page, '/transport-requests');
      const select = page.getByTestId('doc-row-0').getByRole('combobox');
      await select.waitFor();
      await select.click();
      const options = page.getByRole('option');
      await expect.poll(async () => options.allTextContents()).toContain(WORDS[lang].ddt);
      await page.keyboard.press('Escape');
    }
    expect(errors).toEqual([]);
  });
});
