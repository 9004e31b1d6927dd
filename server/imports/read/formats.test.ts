// @vitest-environment node
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { STANDARD_RATE_ROWS } from '../../../model/tariffs.js';
import { detectDecimal, detectDelimiter, normaliseNumber, readCsv, splitCsv } from './csv.js';
import { ImportError } from '../errors.js';
import { readSpreadsheet, sniffSpreadsheet } from './sheet.js';
import { READ_LIMITS, type ReadLimits } from './types.js';
import { openZip } from './zip.js';
import { validateRows } from '../validate.js';

const HEAD = ['country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime', 'rate_code'];
const ROWS: unknown[][] = [
  ['IT', 'MI', 0, 0.5, 10.5, 'S', null, 1, null],
  ['IT', 'MI', 0.5, 100, 1234.25, 'S', 3, 2, 'R1'],
];
const EXPECTED = [
  { rate_code: null, country: 'IT', zone_code: 'MI', weight_from: '0', weight_to: '0.5', price: 1050, unit: 'S', minimum: null, leadtime: 1 },
  { rate_code: 'R1', country: 'IT', zone_code: 'MI', weight_from: '0.5', weight_to: '100', price: 123425, unit: 'S', minimum: 300, leadtime: 2 },
];

const workbook = (sheets: Array<[string, XLSX.WorkSheet]>, bookType: XLSX.BookType) => {
  const wb = XLSX.utils.book_new();
  for (const [name, ws] of sheets) XLSX.utils.book_append_sheet(wb, ws, name);
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
};
const book = (rows: unknown[][], bookType: XLSX.BookType = 'xlsx') => workbook([['data', XLSX.utils.aoa_to_sheet(rows)]], bookType);
const read = async (data: Buffer, name: string, limits: ReadLimits = READ_LIMITS) =>
  validateRows(STANDARD_RATE_ROWS, await readSpreadsheet(data, name, limits));
const refusal = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ImportError) return { status: e.status, key: e.key, params: e.params };
    throw e;
  }
  throw new Error('not refused');
};

describe('recognising the four formats', () => {
  it('sniffs .ods as a zip, then tells it apart from an .xlsx by its directory', async () => {
    const ods = book([HEAD, ...ROWS], 'ods');
    expect(sniffSpreadsheet(ods)).toBe('xlsx');
    expect(openZip(ods, READ_LIMITS).kind).toBe('ods');
    expect(openZip(book([HEAD]), READ_LIMITS).kind).toBe('xlsx');
    expect(sniffSpreadsheet(Buffer.from('a;b\n1;2'))).toBe('csv');
    expect(sniffSpreadsheet(Buffer.from([0, 1, 2, 3, 4]))).toBeNull();
  });

  it('reads the same rows from .xlsx, .xls, .ods and both CSV notations', async () => {
    const comma = [HEAD.join(','), 'IT,MI,0,0.5,10.5,S,,1,', 'IT,MI,0.5,100,1234.25,S,3,2,R1'].join('\r\n');
    const semi = '\ufeff' + [HEAD.join(';'), 'IT;MI;0;0,5;10,5;S;;1;', 'IT;MI;0,5;100;1.234,25;S;3;2;R1', ''].join('\n');
    expect(await read(book([HEAD, ...ROWS]), 't.xlsx')).toEqual(EXPECTED);
    expect(await read(book([HEAD, ...ROWS], 'biff8'), 't.xls')).toEqual(EXPECTED);
    expect(await read(book([HEAD, ...ROWS], 'ods'), 't.ods')).toEqual(EXPECTED);
    expect(await read(Buffer.from(comma), 't.csv')).toEqual(EXPECTED);
    expect(await read(Buffer.from(semi), 't.CSV')).toEqual(EXPECTED);
  });

  it('refuses a wrong extension, and content that is not what the name says', async () => {
    expect(await refusal(() => read(book([HEAD]), 't.pdf'))).toMatchObject({ status: 422, key: 'import.extension' });
    expect(await refusal(() => read(book([HEAD, ...ROWS]), 't.csv'))).toMatchObject({ key: 'import.contentMismatch', params: { extension: '.csv' } });
    expect(await refusal(() => read(book([HEAD, ...ROWS]), 't.ods'))).toMatchObject({ key: 'import.contentMismatch', params: { extension: '.ods' } });
    expect(await refusal(() => read(book([HEAD, ...ROWS], 'ods'), 't.xlsx'))).toMatchObject({ key: 'import.contentMismatch' });
    expect(await refusal(() => read(Buffer.from('a;b\n1;2'), 't.xlsx'))).toMatchObject({ key: 'import.contentMismatch' });
    expect(await refusal(() => read(Buffer.from([0xff, 0xfe, 0x41, 0x00]), 't.csv'))).toMatchObject({ key: 'import.notSpreadsheet' });
    expect(await refusal(() => read(Buffer.from('country;zone\nCittà\xe0;x', 'latin1'), 't.csv'))).toMatchObject({ key: 'import.csvEncoding' });
  });

  it('keeps the caps for .ods (unzipped size, lying sizes) and .csv (size, rows)', async () => {
    const ods = book([HEAD, ...ROWS], 'ods');
    expect(await refusal(() => read(ods, 't.ods', { ...READ_LIMITS, inflatedBytes: 500 }))).toMatchObject({ status: 413, key: 'import.unzippedTooLarge' });
    const csv = Buffer.from([HEAD.join(';'), ...Array.from({ length: 12 }, (_, i) => `IT;MI;${i};${i + 1};1;S;;1;`)].join('\n'));
    expect(await refusal(() => read(csv, 't.csv', { ...READ_LIMITS, rows: 10 }))).toMatchObject({
      status: 413,
      key: 'import.tooManyRows',
      params: { limit: '10' },
    });
    expect(await read(csv, 't.csv', { ...READ_LIMITS, rows: 12 })).toHaveLength(12);
    expect(await refusal(() => read(csv, 't.csv', { ...READ_LIMITS, fileBytes: 100 }))).toMatchObject({ status: 413, key: 'import.tooLarge' });
  });
});

describe('the CSV reader counts its limits while it splits', () => {
  it('refuses a field longer than a cell may be, naming it', async () => {
    const csv = Buffer.from(`${HEAD.join(';')}\nIT;MI;0;1;${'9'.repeat(40_000)};S;;1;`);
    expect(await refusal(() => read(csv, 't.csv'))).toMatchObject({ status: 413, key: 'import.cellTooLong', params: { cell: 'E2', limit: '32\u00a0767' } });
  });

  it('refuses a record with more fields than columns, and a non-empty record past the last row; blank lines below cost nothing', async () => {
    const limits = { ...READ_LIMITS, columns: 12, rows: 5 };
    expect(await refusal(() => read(Buffer.from(`${HEAD.join(';')}\n${'1;'.repeat(20)}`), 't.csv', limits))).toMatchObject({
      status: 413,
      key: 'import.tooManyColumns',
      params: { row: 2, limit: '12' },
    });
    const rows = Array.from({ length: 60 }, (_, i) => `IT;MI;${i};${i + 1};1;S;;1;`);
    expect(await refusal(() => read(Buffer.from([HEAD.join(';'), ...rows].join('\n')), 't.csv', limits))).toMatchObject({
      status: 413,
      key: 'import.tooManyRows',
    });
    const blank = Buffer.from([HEAD.join(';'), ...rows.slice(0, 5), ...Array(5000).fill('')].join('\n'));
    expect(await read(blank, 't.csv', limits)).toHaveLength(5);
  });
});

describe('detecting the CSV notation', () => {
  it('splits quoted fields holding separators, quotes and line breaks, and keeps blank lines as rows', async () => {
    expect(splitCsv('a,"b,c","say ""hi""\nthere"\r\n\r\nx,,\n', ',')).toEqual([['a', 'b,c', 'say "hi"\nthere'], [], ['x', '', '']]);
  });

  it('finds the separator from the header row and refuses mixed or unknowable ones', async () => {
    expect(detectDelimiter('a;b;c\n1,5;2;3')).toBe(';');
    expect(detectDelimiter('a,b,c\n"1,5",2,3')).toBe(',');
    expect(await refusal(() => detectDelimiter('a,b;c\n1,2;3'))).toMatchObject({ key: 'import.csvDelimiter' });
    expect(await refusal(() => detectDelimiter('abc\n123'))).toMatchObject({ key: 'import.csvDelimiter' });
    expect(await refusal(() => detectDelimiter('a;b;c\n1;2;3\n1,2,3'))).toMatchObject({
      key: 'import.csvMixed',
      params: { row: 3, expected: ';', found: ',' },
    });
    expect(await refusal(() => detectDelimiter('a,b,c\n1;2;3'))).toMatchObject({ key: 'import.csvMixed', params: { row: 2 } });
    expect(await refusal(() => detectDelimiter(`a;b\n1;2\n${';'.repeat(5000)}`))).toMatchObject({
      status: 413,
      key: 'import.tooManyColumns',
      params: { row: 3, limit: '1\u00a0000' },
    });
    expect(detectDelimiter(`a;b\n${';'.repeat(999)}`)).toBe(';');
  });

  it('finds the decimal mark from the numbers and refuses a file that uses both or cannot tell', async () => {
    const recs = (s: string, d: ',' | ';' = ';') => splitCsv(s, d);
    expect(detectDecimal(recs('a;b\n12,5;1.500'), ';')).toBe(',');
    expect(detectDecimal(recs('a;b\n0.500;1,500'), ';')).toBe('.');
    expect(detectDecimal(recs('a;b\n12;7'), ';')).toBe('.');
    expect(detectDecimal(recs('a,b\n1.500,2', ','), ',')).toBe('.');
    expect(await refusal(() => detectDecimal(recs('a;b\n12,5;3\n7.25;1'), ';'))).toMatchObject({
      key: 'import.csvDecimalMixed',
      params: { row: 2, value: '12,5', other_row: 3, other_value: '7.25' },
    });
    expect(await refusal(() => detectDecimal(recs('a;b\n1.500;2'), ';'))).toMatchObject({
      key: 'import.csvDecimalAmbiguous',
      params: { row: 2, value: '1.500' },
    });
    expect(await refusal(() => detectDecimal(recs('a;b\n1,500;2'), ';'))).toMatchObject({ key: 'import.csvDecimalAmbiguous' });
  });

  it('writes numbers with a decimal point and no grouping; text stays as typed', async () => {
    expect(normaliseNumber('1.234,5', ',')).toBe('1234.5');
    expect(normaliseNumber('-12,50', ',')).toBe('-12.50');
    expect(normaliseNumber('1,234.5', '.')).toBe('1234.5');
    expect(normaliseNumber('Reggio, Emilia', ',')).toBe('Reggio, Emilia');
    expect(readCsv(Buffer.from('postal_code;x\n00184;1'), READ_LIMITS).rows[1]?.[0]).toEqual({ t: 's', v: '00184' });
  });
});

describe('reading as a person would', () => {
  it('reads numbers stored as text and trailing spaces', async () => {
    const rows = [
      HEAD.map((h) => `${h}  `),
      ['IT ', ' MI', '0', '0.5 ', '10,50', 'S ', '', ' 1', ''],
      ['IT', 'MI', '0.5', '100', '1234.25', 'S', '3', '2', 'R1 '],
    ];
    expect(await read(book(rows), 't.xlsx')).toEqual(EXPECTED);
    expect(await read(book(rows, 'ods'), 't.ods')).toEqual(EXPECTED);
  });

  it('reads grouped thousands in numbers stored as text, with either decimal mark', async () => {
    const rows = [HEAD, ['IT', 'MI', '0', '0,5', '10,50', 'S', '', '1', ''], ['IT', 'MI', '0.5', '100', '1.234,25', 'S', '3', '2', 'R1']];
    expect(await read(book(rows), 't.xlsx')).toEqual(EXPECTED);
    rows[2][4] = '1,234.25';
    expect(await read(book(rows), 't.xlsx')).toEqual(EXPECTED);
    rows[2][4] = '1.234.25';
    expect(await refusal(() => read(book(rows), 't.xlsx'))).toMatchObject({ key: 'import.badRows' });
  });

  it('skips an empty first sheet before the data sheet', async () => {
    const data = (t: XLSX.BookType) =>
      workbook(
        [
          ['Copertina', XLSX.utils.aoa_to_sheet([])],
          ['Tariffa', XLSX.utils.aoa_to_sheet([HEAD, ...ROWS])],
        ],
        t,
      );
    expect(await read(data('xlsx'), 't.xlsx')).toEqual(EXPECTED);
    expect(await read(data('ods'), 't.ods')).toEqual(EXPECTED);
  });

  it('reads a header under a title line and a two-row header with cells merged downwards', async () => {
    const titled = XLSX.utils.aoa_to_sheet([['Listino 2026 – Milano'], [], HEAD, ...ROWS]);
    titled['!merges'] = [XLSX.utils.decode_range('A1:I1')];
    const sheet = await readSpreadsheet(workbook([['s', titled]], 'xlsx'), 't.xlsx');
    expect(sheet.headerRow).toBe(2);
    expect(validateRows(STANDARD_RATE_ROWS, sheet)).toEqual(EXPECTED);

    // row 1: country and zone_code merged over rows 1-2, a group title "Peso (kg)" over C1:D1; row 2: the rest
    const twoRow = XLSX.utils.aoa_to_sheet([
      ['country', 'zone_code', 'Peso (kg)', null, 'price', 'unit', 'minimum', 'leadtime', 'rate_code'],
      [null, null, 'weight_from', 'weight_to', null, null, null, null, null],
      ...ROWS,
    ]);
    twoRow['!merges'] = ['A1:A2', 'B1:B2', 'C1:D1', 'E1:E2', 'F1:F2', 'G1:G2', 'H1:H2', 'I1:I2'].map((r) => XLSX.utils.decode_range(r));
    for (const t of ['xlsx', 'ods'] as const) {
      const s = await readSpreadsheet(workbook([['s', twoRow]], t), `t.${t}`);
      expect(s.headerRow).toBe(1);
      expect(validateRows(STANDARD_RATE_ROWS, s)).toEqual(EXPECTED);
    }
  });

  it('says "no header row" when the sheet starts with data', async () => {
    expect(await refusal(() => read(book(ROWS), 't.xlsx'))).toMatchObject({ key: 'import.noHeader' });
    expect(await refusal(() => read(Buffer.from('IT;MI;0;1;5;S;;1;\nIT;MI;1;2;5;S;;1;'), 't.csv'))).toMatchObject({ key: 'import.noHeader' });
  });
});
