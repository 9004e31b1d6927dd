import { expect, it } from 'vitest';
import { HOSTILE_CASES } from '../fixtures/hostileSheets.js';
import { describeInBrowser, shot, animationsDone } from './harness.js';

/**
 * Issue 31 as a carrier sees it, on a phone in Italian: a file too large or too complex is refused in the
 * upload dialog in words that say what to do, nothing is published, and the screen stays usable.
 */
const file = (name: string) => HOSTILE_CASES.find((c) => c.name === name)!;

describeInBrowser('hostile uploads in Chromium (Italian, phone)', (ctx) => {
  it('refuses a repeated-cell .ods and a 150 MB cell with what to do, and publishes nothing', async () => {
    const { page, errors } = await ctx.page({ viewport: { width: 390, height: 844 } });
    await ctx.login(page, 'carrier@portal.demo', { at: '/postal-surcharges' });
    await page.getByTestId('upload-open').click();
    for (const [name, expected, shotName] of [
      [
        'ods-columns-repeated',
        'La riga 2 ha dati oltre la colonna 1\u00a0000: un foglio può usare al massimo 1\u00a0000 colonne. Elimina le colonne in più e riprova.',
        'hostile-ods',
      ],
      [
        'xlsx-one-150mb-cell',
        'Il file è troppo grande o troppo complesso: al massimo 200\u00a0000 righe e 1\u00a0000 colonne. Tieni solo il foglio con i dati, salvalo di nuovo e riprova.',
        'hostile-xlsx',
      ],
    ] as const) {
      const c = file(name);
      const started = Date.now();
      await page.getByTestId('upload-input').setInputFiles({ name: c.fileName, mimeType: 'application/octet-stream', buffer: c.make() });
      await expect
        .poll(
          () =>
            page
              .getByTestId('upload-errors')
              .innerText()
              .catch(() => ''),
          { timeout: 20_000 },
        )
        .toBe(expected);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await page.getByTestId('upload-publish').count()).toBe(0);
      await animationsDone(page);
      await shot(page, shotName);
      // The dialog fits the phone, its message wrapped inside it (the list behind it is issue 35's).
      const box = await page.getByTestId('upload-dialog').locator('.MuiDialog-paper').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      const alert = await page.getByTestId('upload-errors').boundingBox();
      expect(alert!.x + alert!.width).toBeLessThanOrEqual(390);
    }
    expect(errors).toEqual([]);
  });
});
