// @vitest-environment node
import * as XLSX from '@e965/xlsx';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../model/tariffs.js';
import { ImportError } from '../errors.js';
import { exportXlsx } from '../export.js';
import { templateXlsx } from '../template.js';
import { readSpreadsheet } from './sheet.js';
import { READ_LIMITS, type RawSheet, type ReadLimits, type Rows } from './types.js';
import { readXlsx } from './xlsx.js';
import { openZip } from './zip.js';
import { oracleSheet, writeBook } from '../../../tests/fixtures/sheetjsOracle.js';

/**
 * The .xlsx reader must give the importer exactly the cells SheetJS gives (type and value of every
 * cell, the same rows, the same merges): each case is read both ways and compared. SheetJS is the
 * oracle here only; the portal never runs it on an upload.
 */
function sheetjs(data: Buffer): RawSheet | null {
  return oracleSheet(data) as RawSheet | null;
}
const lean = (data: Buffer, limits: ReadLimits = READ_LIMITS) => readXlsx(openZip(data, limits), limits);
const cells = (rows: Rows) => rows.map((row) => (row ? Array.from(row, (c) => (c ? { t: c.t, v: c.v } : undefined)) : undefined));
async function bothWays(data: Buffer) {
  const ours = await lean(data);
  const theirs = sheetjs(data);
  expect(ours && { rows: cells(ours.rows), merges: ours.merges }).toEqual(theirs && { rows: cells(theirs.rows), merges: theirs.merges });
  return ours;
}
async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (e instanceof ImportError) return { status: e.status, key: e.key, params: e.params };
    throw e;
  }
  throw new Error('not refused');
}
const write = (sheets: Array<[string, XLSX.WorkSheet]>, opts: Partial<XLSX.WritingOptions> = {}) => writeBook(sheets, { bookType: 'xlsx', ...opts });
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
const workbookXml = (pr: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${pr}<sheets><sheet name="data" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const sheetXml = (body: string, after = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>${body}</sheetData>${after}</worksheet>`;

const HEAD = ['country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime', 'rate_code'];
const TRICKY = [
  HEAD,
  ['IT ', ' MI', '0', '0,5', '10,50 ', 'S', null, 1, ''],
  ['IT', '00184', 0.5, 1e-7, 1234.25, true, false, -3, 'R&D <1> "x" \'y\''],
  ['città', 'Zürich 🚚', 12.300000000000001, 2 ** 40, '1.234,50', 'a\r\nb', '_x000D_', '\t x \t', 'é'],
];

describe('the .xlsx reader gives the cells SheetJS gives', () => {
  it('reads every template and an export of its examples the same way', async () => {
    for (const spec of Object.values(TEMPLATES)) {
      await bothWays(await templateXlsx(spec));
      const parts: Buffer[] = [];
      for await (const c of exportXlsx(
        spec,
        (async function* () {
          yield spec.examples as Array<Record<string, unknown>>;
        })(),
      ))
        parts.push(c);
      await bothWays(Buffer.concat(parts));
    }
  });

  it('reads shared strings, inline strings, numbers as text, trailing spaces, booleans, unicode and escapes the same way', async () => {
    for (const bookSST of [true, false]) {
      const ours = (await bothWays(write([['data', aoa(TRICKY)]], { bookSST, compression: bookSST })))!;
      expect(ours.rows[1]![0]).toEqual({ t: 's', v: 'IT ' });
      expect(ours.rows[3]![1]).toEqual({ t: 's', v: 'Zürich 🚚' });
    }
    const errors = aoa([['a'], [1]]);
    errors.A2 = { t: 'e', v: 0x07 };
    await bothWays(write([['data', errors]]));
  });

  it('skips an empty first sheet and keeps merged header cells', async () => {
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
    const ours = (await bothWays(data))!;
    expect(ours.merges).toHaveLength(2);
    expect(ours.rows[2]![0]).toEqual({ t: 's', v: 'MI' });
    const long = write([['data', aoa([HEAD, ...Array.from({ length: 30 }, (_, i) => ['IT', `Z${i}`, i])], { origin: 'B3' } as XLSX.AOA2SheetOpts)]]);
    expect((await bothWays(long))!.rows).toHaveLength(33);
    expect(await bothWays(write([['a', aoa([])]]))).toBeNull();
  });

  it('reads hand-written XML the same way: prefixes, rows and cells without r, rich text, CDATA, self-closed rows', async () => {
    const base = write([['data', aoa([['x', 'y']])]], { bookSST: true });
    const sst =
      '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">' +
      '<si><t xml:space="preserve"> code </t></si><si><r><rPr><b/></rPr><t>pr</t></r><r><t>ice</t></r><rPh sb="0" eb="1"><t>ホ</t></rPh></si>' +
      '<si><t/></si><si><t>a &amp;amp; b &#233; &#x41;</t></si></sst>';
    const withSst = withPart(base, 'xl/sharedStrings.xml', sst);
    await bothWays(
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
    expect((await bothWays(withPart(withSst, 'xl/worksheets/sheet1.xml', prefixed)))!.rows[0]![1]).toEqual({ t: 'n', v: 7 });
  });

  it('reads self-closed cells the same way, with or without attributes and types', async () => {
    const base = write([['data', aoa([['x']])]]);
    await bothWays(
      withPart(
        base,
        'xl/worksheets/sheet1.xml',
        sheetXml(
          '<row r="1"><c/><c r="C1" s="2"/><c><v>5</v></c><c r="E1" t="b"/><c r="F1" t="str"/><c r="G1" t="inlineStr"/><c r="H1" t="s"/><c/><c><v>9</v></c></row>',
        ),
      ),
    );
  });

  it('reads date cells as the serial numbers SheetJS gives, in both date systems', async () => {
    const dated = write(
      [
        [
          'data',
          aoa(
            [
              ['d', 't'],
              [new Date(Date.UTC(2025, 0, 2)), new Date(Date.UTC(1900, 0, 1, 12))],
            ],
            { cellDates: true },
          ),
        ],
      ],
      { cellDates: true },
    );
    const ours = (await bothWays(dated))!;
    expect(ours.rows[1]![0]).toEqual({ t: 'n', v: 45659 });
    const base = write([['data', aoa([['x']])]]);
    for (const v of ['2025-01-02', '2025-01-02T12:30:00', '13:45', '2025-01-02 08:00:05.25']) {
      await bothWays(withPart(base, 'xl/worksheets/sheet1.xml', sheetXml(`<row r="1"><c r="A1" t="d"><v>${v}</v></c></row>`)));
    }
    const wb1904 = withPart(base, 'xl/workbook.xml', workbookXml('<workbookPr date1904="1"/>'));
    await bothWays(withPart(wb1904, 'xl/worksheets/sheet1.xml', sheetXml('<row r="1"><c r="A1" t="d"><v>2025-01-02</v></c></row>')));
  });

  it('refuses a shared-string index past the table as a damaged file, as SheetJS fails on it', async () => {
    const base = write([['data', aoa([['x']])]], { bookSST: true });
    const outOfRange = withPart(base, 'xl/worksheets/sheet1.xml', sheetXml('<row r="1"><c r="A1" t="s"><v>9</v></c></row>'));
    expect(() => sheetjs(outOfRange)).toThrow();
    expect(await refusal(lean(outOfRange))).toMatchObject({ status: 422, key: 'import.unreadable' });
  });

  it('agrees with SheetJS on generated sheets of any text and numbers', { timeout: 60_000 }, async () => {
    const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { maxLength: 6 }), { minLength: 1, maxLength: 8 }), fc.boolean(), async (rows, bookSST) => {
        await bothWays(write([['data', aoa(rows)]], { bookSST }));
      }),
      { numRuns: 150 },
    );
  });

  it('is what readSpreadsheet uses for .xlsx content', async () => {
    const data = write([['data', aoa(TRICKY)]], { bookSST: true });
    expect((await readSpreadsheet(data, 'x.xlsx')).rows.map((r) => r?.length)).toEqual(sheetjs(data)!.rows.map((r) => r?.length));
  });
});

describe('the .xlsx reader counts its limits while it reads', () => {
  const limits = (l: Partial<ReadLimits>): ReadLimits => ({ ...READ_LIMITS, ...l });

  it('refuses a sheet entry inflating past its declared size (413)', async () => {
    const data = write([['data', aoa([HEAD, ...Array.from({ length: 200 }, (_, i) => ['IT', `Z${i}`, i])])]], { bookSST: true, compression: true });
    // The central directory's unzipped size of the sheet, lowered: the entry now lies about its size.
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    let p = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    p = data.readUInt32LE(p + 16);
    while (!data.subarray(p + 46, p + 46 + name.length).equals(name))
      p += 46 + data.readUInt16LE(p + 28) + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    data.writeUInt32LE(100, p + 24);
    expect(await refusal(readSpreadsheet(data, 'x.xlsx'))).toMatchObject({ status: 413, key: 'import.unzippedTooLarge' });
  });

  it('refuses rows past the cap at the first one holding data, and ignores empty rows past it', async () => {
    const rows = [['code'], ...Array.from({ length: 70 }, (_, i) => [`H${i}`])];
    expect(await refusal(lean(write([['s', aoa(rows)]]), limits({ rows: 10 })))).toMatchObject({
      status: 413,
      key: 'import.tooManyRows',
      params: { limit: '10' },
    });
    // 10 data rows, then empty rows far below (formatting only): read.
    const base = write([['s', aoa(rows.slice(0, 11))]]);
    const emptyBelow = sheetXml(
      rows
        .slice(0, 11)
        .map((r, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${r[0]}</t></is></c></row>`)
        .join('') + '<row r="900000" ht="20"><c r="A900000" s="1"/></row><row r="1048576"/>',
    );
    expect((await lean(withPart(base, 'xl/worksheets/sheet1.xml', emptyBelow), limits({ rows: 10 })))!.rows).toHaveLength(11);
  });

  it('refuses a cell past the last column and a cell longer than a cell may be, naming them', async () => {
    const base = write([['s', aoa([['x']])]]);
    const far = withPart(base, 'xl/worksheets/sheet1.xml', sheetXml('<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="ALM2"><v>1</v></c></row>'));
    expect(await refusal(lean(far))).toMatchObject({ status: 413, key: 'import.tooManyColumns', params: { row: 2, limit: '1\u00a0000' } });
    const long = withPart(base, 'xl/worksheets/sheet1.xml', sheetXml(`<row r="3"><c r="B3" t="inlineStr"><is><t>${'x'.repeat(40_000)}</t></is></c></row>`));
    expect(await refusal(lean(long))).toMatchObject({ status: 413, key: 'import.cellTooLong', params: { cell: 'B3', limit: '32\u00a0767' } });
  });

  it('refuses too many shared strings, or too many characters in them, before reading the sheet', async () => {
    const base = write([['s', aoa([['x']])]], { bookSST: true });
    const many = withPart(base, 'xl/sharedStrings.xml', `<sst>${'<si><t>a</t></si>'.repeat(5000)}</sst>`);
    expect(await refusal(lean(many, limits({ sharedStrings: 1000 })))).toMatchObject({ status: 413, key: 'import.tooComplex' });
    const big = withPart(base, 'xl/sharedStrings.xml', `<sst>${`<si><t>${'b'.repeat(1000)}</t></si>`.repeat(200)}</sst>`);
    expect(await refusal(lean(big, limits({ sharedStringChars: 100_000 })))).toMatchObject({ status: 413, key: 'import.tooComplex' });
  });

  it('refuses a sheet whose rows would hold too many cell slots: a value at a far column on every row', async () => {
    const base = write([['s', aoa([['x']])]]);
    const far = withPart(
      base,
      'xl/worksheets/sheet1.xml',
      sheetXml(Array.from({ length: 60 }, () => `<row>${'<c/>'.repeat(99)}<c><v>1</v></c></row>`).join('')),
    );
    expect(await refusal(lean(far, limits({ cells: 5000 })))).toMatchObject({ status: 413, key: 'import.tooComplex' });
    expect((await lean(far, limits({ cells: 6000 })))!.rows).toHaveLength(60);
  });

  it('refuses a row whose XML passes the row limit without holding it whole', async () => {
    const base = write([['s', aoa([['x']])]]);
    const huge = withPart(base, 'xl/worksheets/sheet1.xml', sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'y'.repeat(3_000_000)}</t></is></c></row>`));
    expect(await refusal(lean(huge, limits({ rowBytes: 1024 * 1024 })))).toMatchObject({ status: 413, key: 'import.tooComplex' });
  });
});
