// @vitest-environment node
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { STANDARD_RATE_ROWS, type ColumnSpec } from '../../../model/tariffs.js';
import { readCell } from '../cells.js';
import { ImportError } from '../errors.js';
import { readSpreadsheet, sniffSpreadsheet } from './sheet.js';
import { READ_LIMITS, type Cell } from './types.js';
import { validateRows } from '../validate.js';

const book = (rows: unknown[][], type: 'xlsx' | 'biff8' = 'xlsx') => {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 's');
  return XLSX.write(wb, { type: 'buffer', bookType: type }) as Buffer;
};
const refusal = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ImportError) return { status: e.status, key: e.key, params: e.params, rows: e.rowErrors };
    throw e;
  }
  throw new Error('not refused');
};

describe('reading a spreadsheet', () => {
  it('recognises xlsx, xls and csv by their bytes', async () => {
    expect(sniffSpreadsheet(book([['a']]))).toBe('xlsx');
    expect(sniffSpreadsheet(book([['a']], 'biff8'))).toBe('xls');
    expect(sniffSpreadsheet(Buffer.from('a,b\n1,2'))).toBe('csv');
    expect(sniffSpreadsheet(Buffer.from('%PDF-1.4 not a sheet'))).toBeNull();
  });

  it('refuses more rows than the cap without reading the rest, and a larger file than the cap', async () => {
    const rows = [['code'], ...Array.from({ length: 12 }, (_, i) => [`H${i}`])];
    expect(await refusal(() => readSpreadsheet(book(rows), 'x.xlsx', { ...READ_LIMITS, rows: 10 }))).toMatchObject({
      status: 413,
      key: 'import.tooManyRows',
      params: { limit: '10' },
    });
    expect((await readSpreadsheet(book(rows), 'x.xlsx', { ...READ_LIMITS, rows: 12 })).headers).toEqual(['code']);
    expect(await refusal(() => readSpreadsheet(book(rows), 'x.xlsx', { ...READ_LIMITS, fileBytes: 100 }))).toMatchObject({
      status: 413,
      key: 'import.tooLarge',
    });
    expect(await refusal(() => readSpreadsheet(book(rows), 'x.xlsx', { ...READ_LIMITS, inflatedBytes: 1000 }))).toMatchObject({
      status: 413,
      key: 'import.unzippedTooLarge',
    });
  });

  it('takes the first non-empty row as the header, wherever the table starts', async () => {
    const ws = XLSX.utils.aoa_to_sheet(
      [
        ['country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime', 'rate_code'],
        ['IT', 'MI', 0, 100, 10, 'S', null, 1, null],
      ],
      { origin: 'C3' } as XLSX.AOA2SheetOpts,
    );
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 's');
    const sheet = await readSpreadsheet(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer, 'x.xlsx');
    const rows = validateRows(STANDARD_RATE_ROWS, sheet);
    expect(rows).toEqual([
      { rate_code: null, country: 'IT', zone_code: 'MI', weight_from: '0', weight_to: '100', price: 1000, unit: 'S', minimum: null, leadtime: 1 },
    ]);
  });
});

describe('reading a cell', () => {
  const cell = (v: unknown) => (v === undefined ? undefined : ({ t: typeof v === 'number' ? 'n' : 's', v } as Cell));
  const money: ColumnSpec = { name: 'price', kind: 'money' };
  const weight: ColumnSpec = { name: 'weight_to', kind: 'decimal', scale: 3, min: 0 };
  const postal: ColumnSpec = { name: 'postal_code', kind: 'text', norm: 'postal' };
  it.each([
    [money, 12.345, 1235],
    [money, '12,5', 1250],
    [money, '€ 7', 700],
    [money, 0.1 + 0.2, 30],
    [money, '', null],
    [weight, 1000.0004, '1000'],
    [weight, '2.5', '2.5'],
    [weight, 0.30000000000000004, '0.3'],
    [postal, 184, '00184'],
    [postal, ' 20 121 ', '20121'],
    [postal, 'sw1a-1aa', 'SW1A1AA'],
  ])('%o %o → %o', (col, v, out) => {
    expect(readCell(col as ColumnSpec, cell(v), {})).toEqual({ ok: true, value: out });
  });
  it('refuses what would price wrongly', async () => {
    expect(readCell(money, cell(-1), {})).toMatchObject({ ok: false, key: 'import.negative' });
    expect(readCell(money, cell('12.50 EUR'), {})).toMatchObject({ ok: false, key: 'import.number' });
    expect(readCell({ name: 'leadtime', kind: 'int', min: 0 }, cell(1.5), {})).toMatchObject({ ok: false, key: 'import.integer' });
    expect(readCell({ name: 'country', kind: 'text', norm: 'country' }, cell('ZZ'), { countries: new Set(['IT']) })).toMatchObject({
      ok: false,
      key: 'import.country',
    });
    expect(readCell({ name: 'x', kind: 'money' }, { t: 'e', v: 7 } as Cell, {})).toMatchObject({ ok: false, key: 'import.cellError' });
    // a name disguised by a right-to-left override or a zero-width space (issue 31)
    for (const v of ['Milano\u202Eonaliм', 'Ro\u200Bma', '\u2066MI\u2069'])
      expect(readCell({ name: 'city', kind: 'text' }, cell(v), {})).toMatchObject({ ok: false, key: 'import.invisible' });
    expect(readCell({ name: 'city', kind: 'text' }, cell('Zürich 🚚 ❤️‍🔥'), {})).toMatchObject({ ok: true });
  });
});

describe('the fast path of number cells', () => {
  it('agrees with the exact reader on every plain decimal', async () => {
    const fc = await import('fast-check');
    const { exactNumber, plainNumber } = await import('../cells.js');
    const cols: ColumnSpec[] = [
      { name: 'm', kind: 'money' },
      { name: 'i', kind: 'int', min: 0 },
      { name: 'd', kind: 'decimal', scale: 3, min: 0 },
      { name: 'e', kind: 'decimal', scale: 4 },
    ];
    const text = fc
      .tuple(fc.boolean(), fc.stringMatching(/^\d{1,12}$/), fc.option(fc.stringMatching(/^\d{0,12}$/)))
      .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === null ? '' : `.${f}`}`);
    fc.assert(
      fc.property(text, fc.constantFrom(...cols), (t, col) => {
        const m = /^(-?)(\d{1,12})(?:\.(\d{0,12}))?$/.exec(t)!;
        expect(plainNumber(col, m, t)).toEqual(exactNumber(col, t, t));
      }),
      { numRuns: 3000 },
    );
  });
});
