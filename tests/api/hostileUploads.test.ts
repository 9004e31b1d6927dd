import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { HOSTILE_CASES, xlsxOf } from '../fixtures/hostileSheets.js';
import { describeEachDb } from './helpers.js';
import { sharedReadPool } from '../../server/imports/read/pool.js';
import { filesState } from './fileHelpers.js';
import { createCarrier, form } from './tariffs.helpers.js';

/**
 * Issue 31: every hostile spreadsheet of the review, uploaded as a carrier to the tariff check
 * (`POST /company/postal_surcharges/store`, dry_run=1) and to the publish: answered 413/422 with a
 * message in the caller's language (or a check listing errors), the answer small, nothing stored, no
 * file left behind, and the portal still answering afterwards.
 */

const SEEDED = new Map<string, Buffer>();
const file = (name: string, make: () => Buffer) => {
  let data = SEEDED.get(name);
  if (!data) SEEDED.set(name, (data = make()));
  return data;
};

const listFiles = (dir: string): string[] => {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((e) => (e.isFile() ? [path.join(e.parentPath, e.name)] : []));
};

describeEachDb('hostile uploads', (p) => {
  let carrier: Awaited<ReturnType<typeof createCarrier>>;
  beforeAll(async () => {
    carrier = await createCarrier(p(), 'Ostile Trasporti');
  });
  const store = (data: Buffer, name: string, fields: Record<string, string | number>, lang = 'it') =>
    p().api('POST', '/company/postal_surcharges/store', { token: carrier.token, lang, payload: form(fields, { field: 'postal_surcharges', name, data }) });
  const stored = async () =>
    Number(
      (
        await (p().db.db as any)
          .selectFrom('postal_surcharges')
          .select((eb: any) => eb.fn.countAll().as('n'))
          .where('company_id', '=', carrier.id)
          .executeTakeFirst()
      ).n,
    );

  for (const c of HOSTILE_CASES) {
    it(`${c.name}: ${c.was}`, async () => {
      const data = file(c.name, c.make);
      // DATA_DIR whole (the SQLite files too) and the portal's file store, wherever it keeps files.
      const filesBefore = [...listFiles(p().config.dataDir), ...(await filesState(p()))];
      for (const fields of [{ dry_run: 1 }, {}] as Array<Record<string, number>>) {
        const started = Date.now();
        const res = await store(data, c.fileName, fields);
        const size = Buffer.byteLength(JSON.stringify(res.body));
        expect(size, `${c.name}: answer of ${size} bytes`).toBeLessThan(64 * 1024);
        expect(Date.now() - started, `${c.name} took ${Date.now() - started} ms`).toBeLessThan(20_000);
        if (c.status === 200) {
          // Harmless once read (entities never expanded, entries never unpacked): a check listing the row's errors.
          if (fields.dry_run) {
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            expect(res.body.data.errors.length).toBeGreaterThan(0);
            expect(JSON.stringify(res.body)).not.toContain('root:x');
          } else expect(res.status).toBe(422);
        } else {
          expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(c.status);
          expect(res.body.errors.postal_surcharges?.[0] ?? res.body.message).toBeTruthy();
          // In Italian, saying what to do: no message key, no English.
          expect(res.body.message).not.toMatch(/import\.|^The /);
        }
      }
      expect(await stored()).toBe(0);
      expect([...listFiles(p().config.dataDir), ...(await filesState(p()))]).toEqual(filesBefore);
      const ping = await p().api('GET', '/visitor/ping');
      expect(ping.status).toBe(200);
    });
  }

  it('says in the caller language what to do when a file is too large or too complex', async () => {
    const data = file('xlsx-one-150mb-cell', HOSTILE_CASES.find((c) => c.name === 'xlsx-one-150mb-cell')!.make);
    const it_ = await store(data, 'cell.xlsx', { dry_run: 1 }, 'it');
    expect(it_.body.message).toBe(
      'Il file è troppo grande o troppo complesso: al massimo 200\u00a0000 righe e 1\u00a0000 colonne. Tieni solo il foglio con i dati, salvalo di nuovo e riprova.',
    );
    const fr = await store(data, 'cell.xlsx', { dry_run: 1 }, 'fr');
    expect(fr.body.message).toMatch(/^Le fichier est trop volumineux ou trop complexe : au plus 200\u00a0000 lignes et 1\u00a0000 colonnes/);
  });

  it('quotes at most 80 characters of a value in every message, however long the cell', async () => {
    const long = '9x'.repeat(16_000);
    const data = xlsxOf({
      head:
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
        '<row r="1">' +
        ['country', 'postal_code', 'kind', 'flow', 'fixed', 'percent']
          .map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${h}</t></is></c>`)
          .join('') +
        '</row>' +
        Array.from(
          { length: 50 },
          (_, i) =>
            `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>${long}</t></is></c><c r="B${i + 2}" t="inlineStr"><is><t>20121</t></is></c>` +
            `<c r="C${i + 2}" t="inlineStr"><is><t>ztl</t></is></c><c r="E${i + 2}" t="inlineStr"><is><t>${long}</t></is></c></row>`,
        ).join(''),
      tail: '</sheetData></worksheet>',
    });
    for (const fields of [{ dry_run: 1 }, {}] as Array<Record<string, number>>) {
      const res = await store(data, 'long.xlsx', fields, 'it');
      expect(res.status).toBe(fields.dry_run ? 200 : 422);
      const errors: Array<{ message: string }> = res.body.data.errors;
      expect(errors.length).toBe(100);
      for (const e of errors) expect(e.message.length, e.message).toBeLessThan(200);
      // The value quoted: its first 79 characters and an ellipsis.
      expect(errors.find((e) => e.message.includes('9x9x'))?.message).toContain(`"${'9x'.repeat(39)}9…"`);
      expect(Buffer.byteLength(JSON.stringify(res.body))).toBeLessThan(100 * 1024);
    }
    expect(await stored()).toBe(0);
  });

  it('reads at most two files of one company at once (as many as there are threads), queues two more, and answers the next 429 with Retry-After', async () => {
    const rows = xlsxOf({
      head:
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">' +
        ['country', 'postal_code', 'kind', 'flow', 'fixed', 'percent']
          .map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${h}</t></is></c>`)
          .join('') +
        '</row>',
      unit: '<row><c t="inlineStr"><is><t>IT</t></is></c><c t="inlineStr"><is><t>20121</t></is></c><c t="inlineStr"><is><t>ztl</t></is></c><c/><c><v>15</v></c></row>',
      times: 40_000,
      tail: '</sheetData></worksheet>',
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => store(rows, 'many.xlsx', { dry_run: 1 }, 'it')));
    const statuses = answers.map((a) => a.status).sort();
    // Reading: as many as the pool has threads, two at most; waiting: two more. The rest: 429.
    const accepted = Math.min(2, sharedReadPool().options.size) + 2;
    expect(statuses).toEqual([...Array(accepted).fill(200), ...Array(5 - accepted).fill(429)]);
    const busy = answers.find((a) => a.status === 429)!;
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(busy.body.message).toMatch(/^Troppi file in lettura in questo momento: riprova tra \d+ secondi\.$/);
    expect(await stored()).toBe(0);
  });
});
