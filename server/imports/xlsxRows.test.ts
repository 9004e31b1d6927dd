// @vitest-environment node
import * as XLSX from '@e965/xlsx';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../model/tariffs.js';
import { readSheetsWithSheetJS, readXlsxSheet } from './sheets.js';
import { readSpreadsheet } from './spreadsheet.js';
import { exportXlsx } from './export.js';
import { templateXlsx } from './template.js';
import { NotStreamable, readXlsxDataSheet } from './xlsxRows.js';

/**
 * The lean .xlsx reader must give the importer exactly the cells SheetJS gives (type and value of every
 * cell, the same rows, the same merges): each case is read both ways and compared.
 */
const CAP = 200_002;
const cells = (rows: Array<Array<XLSX.CellObject | undefined> | undefined>) =>
  rows.map((row) => (row ? Array.from(row, (c) => (c ? { t: c.t, v: c.v } : undefined)) : undefined));
function bothWays(data: Buffer, cap = CAP) {
  const lean = readXlsxDataSheet(data, cap);
  const sheetjs = readSheetsWithSheetJS(data, cap);
  expect(lean && { rows: cells(lean.rows), merges: lean.merges }).toEqual(sheetjs && { rows: cells(sheetjs.rows), merges: sheetjs.merges });
  return lean;
}
const write = (sheets: Array<[string, XLSX.WorkSheet]>, opts: Partial<XLSX.WritingOptions> = {}) => {
  const wb = XLSX.utils.book_new();
  for (const [name, ws] of sheets) XLSX.utils.book_append_sheet(wb, ws, name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', ...opts }) as Buffer;
};
const aoa = (rows: unknown[][], opts?: XLSX.AOA2SheetOpts) => XLSX.utils.aoa_to_sheet(rows, opts);

/** The same workbook with one part's XML replaced (hand-written cases SheetJS's writer never makes). */
function withPart(data: Buffer, part: string, xml: string): Buffer {
  const zip = XLSX.CFB.read(data, { type: 'buffer' });
  const i = zip.FullPaths.findIndex((p: string) => p.endsWith(`/${part}`));
  if (i < 0) throw new Error(`no ${part} in ${zip.FullPaths.join(', ')}`);
  const entry = zip.FileIndex[i];
  entry.content = Buffer.from(xml, 'utf8');
  entry.size = entry.content.length;
  return Buffer.from(XLSX.CFB.write(zip, { fileType: 'zip', type: 'buffer', compression: true }) as Buffer);
}
const sheetXml = (body: string, after = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>${body}</sheetData>${after}</worksheet>`;

const HEAD = ['country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime', 'rate_code'];
const TRICKY = [
  HEAD,
  ['IT ', ' MI', '0', '0,5', '10,50 ', 'S', null, 1, ''],
  ['IT', '00184', 0.5, 1e-7, 1234.25, true, false, -3, 'R&D <1> "x" \'y\''],
  ['città', 'Zürich 🚚', 12.300000000000001, 2 ** 40, '1.234,50', 'a\r\nb', '_x000D_', '\t x \t', 'é'],
];

describe('the lean .xlsx reader gives the cells SheetJS gives', () => {
  it('reads every template and an export of its examples the same way', async () => {
    for (const spec of Object.values(TEMPLATES)) {
      bothWays(await templateXlsx(spec));
      const parts: Buffer[] = [];
      for await (const c of exportXlsx(
        spec,
        (async function* () {
          yield spec.examples as Array<Record<string, unknown>>;
        })(),
      ))
        parts.push(c);
      bothWays(Buffer.concat(parts));
    }
  });

  it('reads shared strings, inline strings, numbers as text, trailing spaces, booleans, unicode and escapes the same way', () => {
    for (const bookSST of [true, false]) {
      const lean = bothWays(write([['data', aoa(TRICKY)]], { bookSST, compression: bookSST }))!;
      expect(lean.rows[1]![0]).toEqual({ t: 's', v: 'IT ' });
      expect(lean.rows[3]![1]).toEqual({ t: 's', v: 'Zürich 🚚' });
    }
    const errors = aoa([['a'], [1]]);
    errors.A2 = { t: 'e', v: 0x07 };
    bothWays(write([['data', errors]]));
  });

  it('skips an empty first sheet, keeps merged header cells, and honours the row cap', () => {
    const merged = aoa([
      ['Zona', 'price', null],
      [null, 'da', 'a'],
      ['MI', 1, 2],
    ]);
    merged['!merges'] = [XLSX.utils.decode_range('A1:A2'), XLSX.utils.decode_range('B1:C1')];
    const data = write([
      ['copertina', aoa([])],
      ['vuoto', aoa([[null, '  ']])],
      ['dati', merged],
    ]);
    const lean = bothWays(data)!;
    expect(lean.merges).toHaveLength(2);
    expect(readXlsxSheet(data, CAP)!.rows[2]![0]).toEqual({ t: 's', v: 'MI' });
    const long = write([['data', aoa([HEAD, ...Array.from({ length: 30 }, (_, i) => ['IT', `Z${i}`, i])], { origin: 'B3' } as XLSX.AOA2SheetOpts)]]);
    expect(bothWays(long, 12)!.rows).toHaveLength(12);
    expect(bothWays(long)!.rows).toHaveLength(33);
    expect(bothWays(write([['a', aoa([])]]))).toBeNull();
  });

  it('reads hand-written XML the same way: prefixes, rows and cells without r, rich text, CDATA, self-closed rows', () => {
    const base = write([['data', aoa([['x', 'y']])]], { bookSST: true });
    const sst =
      '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">' +
      '<si><t xml:space="preserve"> code </t></si><si><r><rPr><b/></rPr><t>pr</t></r><r><t>ice</t></r><rPh sb="0" eb="1"><t>ホ</t></rPh></si>' +
      '<si><t/></si><si><t>a &amp;amp; b &#233; &#x41;</t></si></sst>';
    const withSst = withPart(base, 'xl/sharedStrings.xml', sst);
    bothWays(
      withPart(
        withSst,
        'xl/worksheets/sheet1.xml',
        sheetXml(
          '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c t="s"><v>3</v></c></row>' +
            '<row r="2" spans="1:4"/><row><c t="inlineStr"><is><r><t>in</t></r><r><t xml:space="preserve">line </t></r></is></c><c t="str"><v>f &amp;amp; g</v></c>' +
            '<c r="D3" t="b"><v>1</v></c><c r="E3" t="e"><v>#N/A</v></c><c r="F3" s="1"/><c r="G3"><v></v></c><c r="H3"><v>1.5E3</v></c>' +
            '<c r="I3" t="inlineStr"><is><t><![CDATA[<b>&amp;</b>]]></t></is></c></row>' +
            '<row r="5"><c r="AA5"><f>1+1</f><v>2</v></c><c r="AB5" t="str"><f>"a"</f><v>a</v></c><c r="AC5"><f>NA()</f></c></row>',
          '<mergeCells count="1"><mergeCell ref="A1:A2"/></mergeCells>',
        ),
      ),
    );
    const prefixed =
      '<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
      '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1"><x:v>7</x:v></x:c></x:row><x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>z</x:t></x:is></x:c></x:row>' +
      '</x:sheetData></x:worksheet>';
    expect(bothWays(withPart(withSst, 'xl/worksheets/sheet1.xml', prefixed))!.rows[0]![1]).toEqual({ t: 'n', v: 7 });
  });

  it('leaves date cells and damaged parts to SheetJS, which reads them as before', () => {
    const dated = write([['data', aoa([['d'], [new Date(Date.UTC(2025, 0, 2))]], { cellDates: true })]], { cellDates: true });
    expect(() => readXlsxDataSheet(dated, CAP)).toThrow(NotStreamable);
    expect(cells(readXlsxSheet(dated, CAP)!.rows)).toEqual(cells(readSheetsWithSheetJS(dated, CAP)!.rows));
    const base = write([['data', aoa([['x']])]], { bookSST: true });
    const outOfRange = withPart(base, 'xl/worksheets/sheet1.xml', sheetXml('<row r="1"><c r="A1" t="s"><v>9</v></c></row>'));
    expect(() => readXlsxDataSheet(outOfRange, CAP)).toThrow(NotStreamable);
    expect(readXlsxSheet(outOfRange, CAP)).toEqual(readSheetsWithSheetJS(outOfRange, CAP));
  });

  it('agrees with SheetJS on generated sheets of any text and numbers', () => {
    const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 6 }), { minLength: 1, maxLength: 8 }), fc.boolean(), (rows, bookSST) => {
        bothWays(write([['data', aoa(rows)]], { bookSST }));
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a sheet entry inflating past its declared size (413), as the zip check did before', () => {
    const data = write([['data', aoa([HEAD, ...Array.from({ length: 200 }, (_, i) => ['IT', `Z${i}`, i])])]], { bookSST: true, compression: true });
    // The central directory's unzipped size of the sheet, lowered: the entry now lies about its size.
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    let p = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    p = data.readUInt32LE(p + 16);
    while (!data.subarray(p + 46, p + 46 + name.length).equals(name))
      p += 46 + data.readUInt16LE(p + 28) + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    data.writeUInt32LE(100, p + 24);
    expect(() => readXlsxDataSheet(data, CAP)).toThrow();
    try {
      readSpreadsheet(data, 'x.xlsx');
      throw new Error('read');
    } catch (e) {
      expect(e).toMatchObject({ status: 413, key: 'import.unzippedTooLarge' });
    }
  });

  it('is what readSpreadsheet uses for .xlsx content', () => {
    const data = write([['data', aoa(TRICKY)]], { bookSST: true });
    expect(readSpreadsheet(data, 'x.xlsx').rows.map((r) => r?.length)).toEqual(readSheetsWithSheetJS(data, CAP)!.rows.map((r) => r?.length));
  });
});
