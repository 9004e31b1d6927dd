// @vitest-environment node
import * as XLSX from '@e965/xlsx';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../errors.js';
import { readOds, unescapeXml } from './ods.js';
import { HEADER_ROOM, READ_LIMITS, type RawSheet, type ReadLimits } from './types.js';
import { openZip } from './zip.js';
import { zipParts } from '../../../tests/fixtures/hostileSheets.js';
import { oracleSheet, writeBook } from '../../../tests/fixtures/sheetjsOracle.js';

/**
 * The .ods reader must give the cells SheetJS gives with the importer's options (type and value of
 * every cell, the same rows, the same merges), and refuse hostile files quickly: each ordinary case is
 * read both ways and compared; the deliberate differences (ods.ts) are checked on their own.
 */

type Plain = { rows: Array<Array<{ t: string; v: unknown } | undefined> | undefined>; merges: XLSX.Range[] };
const plainRows = (rows: ArrayLike<ArrayLike<XLSX.CellObject | { t: string; v: unknown } | undefined> | undefined>) =>
  Array.from(rows, (row) => (row ? Array.from(row, (c) => (c ? { t: c.t, v: c.v } : undefined)) : undefined));

/** SheetJS's reading: the first sheet with a non-blank cell, its cells and merges. */
function sheetjs(data: Buffer): Plain | null {
  const sheet = oracleSheet(data);
  return sheet && { rows: plainRows(sheet.rows as XLSX.CellObject[][]), merges: sheet.merges };
}

const small = (over: Partial<ReadLimits>): ReadLimits => ({ ...READ_LIMITS, ...over });
async function lean(data: Buffer, limits: ReadLimits = READ_LIMITS): Promise<RawSheet | null> {
  return readOds(openZip(data, limits), limits);
}
const plain = (sheet: RawSheet | null): Plain | null => sheet && { rows: plainRows(sheet.rows), merges: sheet.merges };

/** Reads the file both ways and expects the same cells and merges. */
async function bothWays(data: Buffer): Promise<Plain | null> {
  const ours = plain(await lean(data));
  expect(ours).toEqual(sheetjs(data));
  return ours;
}

/** The ImportError a read throws (or a failure when it reads). */
async function refusal(data: Buffer, limits: ReadLimits = READ_LIMITS): Promise<ImportError> {
  try {
    await lean(data, limits);
  } catch (err) {
    if (err instanceof ImportError) return err;
    throw err;
  }
  throw new Error('read without refusal');
}

const write = (sheets: Array<[string, XLSX.WorkSheet]>) => writeBook(sheets, { bookType: 'ods' });
const aoa = (rows: unknown[][]) => XLSX.utils.aoa_to_sheet(rows);

/** A zip of the parts: the mimetype stored, the other parts deflated; `declare` overrides a part's declared size. */
const zip = (files: Array<{ name: string; data: Buffer | string; store?: boolean; declare?: number }>) =>
  zipParts(files.map((f) => ({ name: f.name, content: { head: f.data }, method: f.store ? 0 : 8, declare: f.declare })));

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
/** content.xml around the given tables (and what comes before them in office:spreadsheet). */
const content = (tables: string, before = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${NS} office:version="1.3"><office:body><office:spreadsheet>${before}${tables}</office:spreadsheet></office:body></office:document-content>`;
const table = (rows: string, name = 'Sheet1') =>
  `<table:table table:name="${name}"><table:table-column table:number-columns-repeated="3"/>${rows}</table:table>`;
const row = (cells: string, attrs = '') => `<table:table-row${attrs}>${cells}</table:table-row>`;
const text = (s: string, attrs = '') =>
  `<table:table-cell office:value-type="string" calcext:value-type="string"${attrs}><text:p>${s}</text:p></table:table-cell>`;
const num = (v: number | string, attrs = '') =>
  `<table:table-cell office:value-type="float" office:value="${v}" calcext:value-type="float"${attrs}><text:p>${v}</text:p></table:table-cell>`;
/** LibreOffice's trailing empty cells and rows. */
const TRAIL_CELLS = '<table:table-cell table:number-columns-repeated="16381"/>';
const TRAIL_ROWS = '<table:table-row table:number-rows-repeated="1048553"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>';
const MANIFEST =
  '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
  '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>' +
  '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>';
const STYLES = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ${NS} office:version="1.3"><office:styles/></office:document-styles>`;
/** An .ods holding the given content.xml (SheetJS needs the manifest and styles.xml too). */
const ods = (xml: string, declare?: number) =>
  zip([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', store: true },
    { name: 'content.xml', data: xml, declare },
    { name: 'styles.xml', data: STYLES },
    { name: 'META-INF/manifest.xml', data: MANIFEST },
  ]);

const HEAD = ['country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime', 'rate_code'];
const TRICKY = [
  HEAD,
  ['IT ', ' MI', '0', '0,5', '10,50 ', 'S', null, 1, ''],
  ['IT', '00184', 0.5, 1e-7, 1234.25, true, false, -3, 'R&D <1> "x" \'y\''],
  ['città', 'Zürich 🚚', 12.300000000000001, 2 ** 40, '1.234,50', 'a\nb', '  two  spaces', '\t x \t', 'é'],
  ['a\n\nb', '\nlead', 'trail\n', 'x'.repeat(30_000), -0, 1e300, -1e-300, 'tab\there', '&amp; &#233;'],
];

describe('the .ods reader gives the cells SheetJS gives', () => {
  it('reads what SheetJS writes: text, unicode, numbers, booleans, long strings, white space', async () => {
    const ours = (await bothWays(write([['data', aoa(TRICKY)]])))!;
    expect(ours.rows[3]![1]).toEqual({ t: 's', v: 'Zürich 🚚' });
    expect(ours.rows[2]![5]).toEqual({ t: 'b', v: true });
    expect(ours.rows[4]![3]).toEqual({ t: 's', v: 'x'.repeat(30_000) });
  });

  it('skips an empty first sheet and a blank one, and keeps merged header cells', async () => {
    const merged = aoa([
      ['Zona', 'price', null],
      [null, 'da', 'a'],
      ['MI', 1, 2],
    ]);
    merged['!merges'] = [XLSX.utils.decode_range('A1:A2'), XLSX.utils.decode_range('B1:C1')];
    const ours = (await bothWays(
      write([
        ['copertina', aoa([])],
        ['vuoto', aoa([[null, '  ']])],
        ['dati', merged],
      ]),
    ))!;
    expect(ours.merges).toEqual([
      { s: { r: 0, c: 0 }, e: { r: 1, c: 0 } },
      { s: { r: 0, c: 1 }, e: { r: 0, c: 2 } },
    ]);
    expect(await bothWays(write([['a', aoa([])]]))).toBeNull();
    expect(await bothWays(write([['a', aoa([[' ', '']])]]))).toBeNull();
  });

  it('reads error cells as SheetJS writes them (NaN, infinities)', async () => {
    const ws = aoa([['a', 1, 2, 3]]);
    ws.B1 = { t: 'n', v: NaN };
    ws.C1 = { t: 'n', v: Infinity };
    ws.D1 = { t: 'n', v: -Infinity };
    const ours = (await bothWays(write([['data', ws]])))!;
    expect(ours.rows[0]!.slice(1)).toEqual([
      { t: 'e', v: 0x24 },
      { t: 'e', v: 0x07 },
      { t: 'e', v: 0x07 },
    ]);
  });

  it('agrees with SheetJS on generated sheets of any text and numbers', { timeout: 60_000 }, async () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: fc.constantFrom(' ', '\n', '\t', 'a', '&', '<', 'é', '🚚'), maxLength: 8 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { maxLength: 6 }), { minLength: 1, maxLength: 8 }), async (rows) => {
        await bothWays(write([['data', aoa(rows)]]));
      }),
      { numRuns: 150 },
    );
  });
});

/** A content.xml as LibreOffice writes it: styles first, header rows, trailing repeated cells and rows. */
const LIBREOFFICE = content(
  table(
    '<table:table-header-rows>' +
      row(text('country') + text('zone_code') + text('price') + TRAIL_CELLS, ' table:style-name="ro1"') +
      '</table:table-header-rows>' +
      row(text('IT') + text('MI') + num('10.5') + TRAIL_CELLS, ' table:style-name="ro1"') +
      '<table:table-row-group>' +
      row(text('IT') + text('RM') + num('11.25') + TRAIL_CELLS, ' table:style-name="ro1"') +
      row(text('FR') + `<table:table-cell table:number-columns-repeated="2"/>` + TRAIL_CELLS, ' table:style-name="ro1"') +
      '</table:table-row-group>' +
      '<table:table-rows>' +
      row(`<table:table-cell table:number-columns-repeated="2"/>` + num(7) + TRAIL_CELLS) +
      '</table:table-rows>' +
      row('<table:table-cell table:number-columns-repeated="16384"/>', ' table:number-rows-repeated="3"') +
      row(text('DE') + num(3, ' table:number-columns-repeated="2"') + TRAIL_CELLS, ' table:number-rows-repeated="2"') +
      TRAIL_ROWS,
  ) +
    '<table:named-expressions/>' +
    table(row(text('second sheet')), 'Sheet2'),
  '<table:calculation-settings table:automatic-find-labels="false" table:use-regular-expressions="false"/>',
).replace(
  '<office:body>',
  '<office:automatic-styles><style:style style:name="ro1" style:family="table-row"><style:table-row-properties style:row-height="0.178in"/></style:style>' +
    '<number:date-style style:name="N37" number:automatic-order="true"><number:day number:style="long"/><number:text>/</number:text><number:month number:style="long"/></number:date-style>' +
    '<style:style style:name="ce1" style:family="table-cell" style:parent-style-name="Default" style:data-style-name="N37"/></office:automatic-styles><office:body>',
);

describe('the .ods reader reads hand-written content.xml as SheetJS does', () => {
  it('reads LibreOffice’s layout: header rows, row groups, trailing repeated cells and rows, repeated content', async () => {
    const ours = (await bothWays(ods(LIBREOFFICE)))!;
    expect(ours.rows).toHaveLength(10);
    expect(ours.rows[0]).toEqual([
      { t: 's', v: 'country' },
      { t: 's', v: 'zone_code' },
      { t: 's', v: 'price' },
    ]);
    expect(ours.rows[4]).toEqual([undefined, undefined, { t: 'n', v: 7 }]);
    expect(ours.rows[8]).toEqual(ours.rows[9]);
    expect(ours.rows[9]![2]).toEqual({ t: 'n', v: 3 });
  });

  it('reads paragraphs: text:s, tabs, line breaks, spans, links, several and empty paragraphs, annotations, entities', async () => {
    const cells = [
      text('a<text:s/>b<text:s text:c="3"/>c<text:tab/>d<text:line-break/>e'),
      text('<text:s text:c="2"/>lead and trail<text:s/>'),
      text('  collapsed \n\t  white   space  '),
      text('<text:span text:style-name="T1">bold</text:span> and <text:a xlink:href="https://x.example/?a=1&amp;b=2">a link</text:a>'),
      '<table:table-cell office:value-type="string"><text:p>one</text:p><text:p>two</text:p><text:p/><text:p>four</text:p></table:table-cell>',
      '<table:table-cell office:value-type="string"><text:p></text:p><text:p>after an empty first</text:p></table:table-cell>',
      '<table:table-cell office:value-type="string"><text:p>trailing empty</text:p><text:p></text:p></table:table-cell>',
      '<table:table-cell office:value-type="string"><office:annotation office:display="true"><dc:creator>Ann</dc:creator><dc:date>2024-01-01T00:00:00</dc:date><text:p>a comment</text:p></office:annotation><text:p>annotated</text:p></table:table-cell>',
      '<table:table-cell office:value-type="string"><office:annotation><text:p>only a comment</text:p></office:annotation></table:table-cell>',
      text('&lt;tag&gt; &amp; &quot;q&quot; &apos;a&apos; &#233;&#xE8; &#x41;'),
      '<table:table-cell office:value-type="string" office:string-value="from the attribute &amp; more"><text:p>shown text</text:p></table:table-cell>',
      '<table:table-cell office:value-type="string"><text:p/></table:table-cell>',
      '<table:table-cell office:value-type="string"><text:p></text:p></table:table-cell>',
      '<table:table-cell><text:p>no value type</text:p></table:table-cell>',
      '<table:table-cell office:value-type="string"><draw:frame draw:name="Image 1"><draw:image xlink:href="Pictures/1.png"/></draw:frame><text:p>with an image</text:p></table:table-cell>',
      text('<!-- a comment -->commented'),
    ];
    const ours = (await bothWays(ods(content(table(row(cells.join('')) + row(text('next row')))))))!;
    expect(ours.rows[0]!.slice(0, 5)).toEqual([
      { t: 's', v: 'a b   c\td\ne' },
      { t: 's', v: '  lead and trail ' },
      { t: 's', v: 'collapsed white space' },
      { t: 's', v: 'bold and a link' },
      { t: 's', v: 'one\ntwo\n\nfour' },
    ]);
    expect(ours.rows[0]![7]).toEqual({ t: 's', v: 'annotated' });
    expect(ours.rows[0]![8]).toBeUndefined();
    expect(ours.rows[0]![9]).toEqual({ t: 's', v: '<tag> & "q" \'a\' éè A' });
    expect(ours.rows[0]![10]).toEqual({ t: 's', v: 'from the attribute & more' });
  });

  it('reads dates, times, percentages, currencies, booleans and LibreOffice’s error cells', async () => {
    const cells = [
      '<table:table-cell table:style-name="ce1" office:value-type="date" office:date-value="2024-01-15" calcext:value-type="date"><text:p>15/01/2024</text:p></table:table-cell>',
      '<table:table-cell office:value-type="date" office:date-value="2024-01-15T10:30:15.5" calcext:value-type="date"><text:p>x</text:p></table:table-cell>',
      '<table:table-cell office:value-type="date" office:date-value="1900-01-15" calcext:value-type="date"><text:p>x</text:p></table:table-cell>',
      '<table:table-cell office:value-type="time" office:time-value="PT12H30M00S" calcext:value-type="time"><text:p>12:30:00</text:p></table:table-cell>',
      '<table:table-cell office:value-type="time" office:time-value="PT36H00M05S" calcext:value-type="time"><text:p>36:00:05</text:p></table:table-cell>',
      '<table:table-cell office:value-type="percentage" office:value="0.125" calcext:value-type="percentage"><text:p>12.50%</text:p></table:table-cell>',
      '<table:table-cell office:value-type="currency" office:currency="EUR" office:value="1234.5" calcext:value-type="currency"><text:p>1.234,50 €</text:p></table:table-cell>',
      '<table:table-cell office:value-type="boolean" office:boolean-value="true" calcext:value-type="boolean"><text:p>TRUE</text:p></table:table-cell>',
      '<table:table-cell office:value-type="boolean" office:boolean-value="false" calcext:value-type="boolean"><text:p>FALSE</text:p></table:table-cell>',
      '<table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell>',
      '<table:table-cell table:formula="of:=NA()" office:value-type="string" office:string-value="" calcext:value-type="error"><text:p>#N/A</text:p></table:table-cell>',
      '<table:table-cell table:formula="of:=[.Z1]" office:value-type="float" office:value="0" calcext:value-type="error"><text:p>Err:502</text:p></table:table-cell>',
      '<table:table-cell table:formula="of:=1+1" office:value-type="float" office:value="2" calcext:value-type="float"><text:p>2</text:p></table:table-cell>',
      '<table:table-cell office:value-type="float" office:value="1.5E3" calcext:value-type="float"><text:p>1500</text:p></table:table-cell>',
      '<table:table-cell office:value-type="float" calcext:value-type="float"><text:p>no value</text:p></table:table-cell>',
    ];
    const ours = (await bothWays(ods(content(table(row(cells.join('')))))))!;
    const v = ours.rows[0]!.map((c) => c?.v);
    expect(v.slice(0, 9)).toEqual([45306, 45306 + (10.5 * 3600 + 15.5) / 86400, 15, 0.5208333333333334, 1.5000578703703704, 0.125, 1234.5, true, false]);
    expect(ours.rows[0]!.slice(9, 12)).toEqual([
      { t: 'e', v: 0x07 },
      { t: 'e', v: 0x2a },
      { t: 'n', v: 0 },
    ]);
    expect(ours.rows[0]![14]).toEqual({ t: 'n', v: NaN });
    // The 1904 date system, as LibreOffice marks it.
    const d1904 = content(
      table(row(cells[0])),
      '<table:calculation-settings><table:null-date table:date-value="1904-01-01" table:value-type="date"/></table:calculation-settings>',
    );
    expect((await bothWays(ods(d1904)))!.rows[0]![0]).toEqual({ t: 'n', v: 45306 - 1462 });
  });

  it('reads merged cells: spans, covered cells, spans across rows, repeated covered cells', async () => {
    const xml = content(
      table(
        row(
          text('Zona', ' table:number-columns-spanned="1" table:number-rows-spanned="2"') +
            text('price', ' table:number-columns-spanned="3" table:number-rows-spanned="1"') +
            '<table:covered-table-cell table:number-columns-repeated="2"/>' +
            '<table:table-cell table:number-columns-spanned="2" table:number-rows-spanned="1"/><table:covered-table-cell/>' +
            '<table:table-cell table:number-columns-spanned="2" table:number-rows-spanned="2"></table:table-cell><table:covered-table-cell/>' +
            text('after'),
        ) +
          row(
            '<table:covered-table-cell/>' +
              text('da') +
              text('a') +
              '<table:covered-table-cell office:value-type="string"><text:p>hidden</text:p></table:covered-table-cell>' +
              text('x'),
          ) +
          row(text('MI') + num(1) + num(2)),
      ),
    );
    const ours = (await bothWays(ods(xml)))!;
    expect(ours.merges).toEqual([
      { s: { r: 0, c: 0 }, e: { r: 1, c: 0 } },
      { s: { r: 0, c: 1 }, e: { r: 0, c: 3 } },
      { s: { r: 0, c: 6 }, e: { r: 1, c: 7 } },
    ]);
    expect(ours.rows[0]![8]).toEqual({ t: 's', v: 'after' });
    expect(ours.rows[1]![4]).toEqual({ t: 's', v: 'x' });
  });

  it('repeats non-empty cells and rows, takes the first table with a non-blank cell, and reads prefixes other than table:', async () => {
    const xml = content(
      table(row(text(' ') + '<table:table-cell office:value-type="string"><text:p></text:p></table:table-cell>'), 'blank') +
        table(row('<table:table-cell table:number-columns-repeated="5"/>'), 'empty') +
        '<table:table table:name="no rows"/>' +
        table(
          row(text('h', ' table:number-columns-repeated="3"')) +
            row(num(1, ' table:number-columns-repeated="2"') + text('z'), ' table:number-rows-repeated="4"') +
            row('<table:table-cell table:number-columns-repeated="3"/>', ' table:number-rows-repeated="5"') +
            row(text('last')),
          'data',
        ),
    )
      .replace(/<table:table-row/g, '<t:table-row xmlns:t="urn:oasis:names:tc:opendocument:xmlns:table:1.0"')
      .replace(/table:table-row>/g, 't:table-row>');
    const ours = (await bothWays(ods(xml)))!;
    expect(ours.rows).toHaveLength(11);
    expect(ours.rows[4]).toEqual([
      { t: 'n', v: 1 },
      { t: 'n', v: 1 },
      { t: 's', v: 'z' },
    ]);
    expect(ours.rows[10]).toEqual([{ t: 's', v: 'last' }]);
    // No blank-only or empty table before it is taken, and none at all is null.
    expect(await bothWays(ods(content(table(row(text('  '))))))).toBeNull();
  });

  it('drops XML comments, even one holding whole rows, and shares one frozen cell among a repeat’s copies', async () => {
    const xml = content(
      table(
        row(text('code') + text('price')) +
          `<!-- ${row(text('hidden'))}${row(text('hidden too'))} -->` +
          row(text('IT') + num(2, ' table:number-columns-repeated="3"'), ' table:number-rows-repeated="2"'),
      ),
    );
    const ours = (await lean(ods(xml)))!;
    expect(plain(ours)).toEqual(sheetjs(ods(xml)));
    expect(ours.rows).toHaveLength(3);
    const [a, b] = [ours.rows[1]!, ours.rows[2]!];
    expect(a).not.toBe(b);
    expect(a[1]).toBe(a[3]);
    expect(a[1]).toBe(b[1]);
    expect(Object.isFrozen(a[1])).toBe(true);
  });

  it('agrees with SheetJS on generated content.xml: repeats, empty and covered cells, spans, paragraphs', { timeout: 60_000 }, async () => {
    const repeat = fc.oneof(
      fc.constant(''),
      fc.integer({ min: 1, max: 3 }).map((n) => ` table:number-columns-repeated="${n}"`),
    );
    const words = fc.array(
      fc.constantFrom('a', ' ', '  ', 'é', '&amp;', '<text:s/>', '<text:s text:c="2"/>', '<text:tab/>', '<text:line-break/>', '<text:span>s</text:span>'),
      {
        maxLength: 5,
      },
    );
    const cell = fc.oneof(
      repeat.map((r) => `<table:table-cell${r}/>`),
      fc.tuple(words, repeat).map(([w, r]) => text(w.join(''), r)),
      fc
        .tuple(fc.array(words, { maxLength: 3 }), repeat)
        .map(
          ([ps, r]) =>
            `<table:table-cell office:value-type="string"${r}>${ps.map((w) => (w.length ? `<text:p>${w.join('')}</text:p>` : '<text:p/>')).join('')}</table:table-cell>`,
        ),
      fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), repeat).map(([v, r]) => num(v, r)),
      fc
        .tuple(fc.boolean(), repeat)
        .map(
          ([v, r]) =>
            `<table:table-cell office:value-type="boolean" office:boolean-value="${v}"${r}><text:p>${v ? 'TRUE' : 'FALSE'}</text:p></table:table-cell>`,
        ),
      fc
        .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }))
        .map(
          ([c, r]) =>
            `${text('m', ` table:number-columns-spanned="${c}" table:number-rows-spanned="${r}"`)}<table:covered-table-cell table:number-columns-repeated="${c}"/>`,
        ),
    );
    const rowXml = fc
      .tuple(fc.array(cell, { maxLength: 5 }), fc.integer({ min: 1, max: 3 }))
      .map(([cells, n]) => row(cells.join(''), n > 1 ? ` table:number-rows-repeated="${n}"` : ''));
    await fc.assert(
      fc.asyncProperty(fc.array(rowXml, { minLength: 1, maxLength: 6 }), fc.boolean(), async (rows, cover) => {
        const first = cover ? table(row('<table:table-cell table:number-columns-repeated="4"/>'), 'cover') : '';
        await bothWays(ods(content(first + table(rows.join('') + TRAIL_ROWS))));
      }),
      { numRuns: 150 },
    );
  });

  it('stops inflating at the end of the data sheet', async () => {
    const rest = table(row(text('filler '.repeat(50))).repeat(20_000), 'Sheet2');
    const data = ods(content(table(row(text('code')) + row(num(1))) + rest));
    const z = openZip(data, READ_LIMITS);
    const sheet = await readOds(z, READ_LIMITS);
    expect(sheet!.rows).toHaveLength(2);
    // Inflation goes 4 kB of compressed bytes at a time (zip.ts STEP; this filler inflates ~1 000-fold): it
    // stops within a step or two of the data sheet's end, far from the part's end.
    expect(z.entries.get('content.xml')!.size).toBeGreaterThan(5_000_000);
    expect(z.inflated).toBeLessThan(z.entries.get('content.xml')!.size / 2);
  });
});

describe('the .ods reader differs from SheetJS where SheetJS misreads the file (ods.ts)', () => {
  /** Our reading and SheetJS's of the same content.xml, for the cases they differ on. */
  async function both(xml: string) {
    const data = ods(xml);
    return { ours: plain(await lean(data)), theirs: sheetjs(data) };
  }

  it('repeats a self-closed text cell and reads a self-closed value cell', async () => {
    const { ours, theirs } = await both(
      content(
        table(
          row(
            '<table:table-cell office:value-type="string" office:string-value="x" table:number-columns-repeated="2"/>' +
              '<table:table-cell office:value-type="float" office:value="5"/>' +
              '<table:table-cell office:value-type="string"/>' +
              text('end'),
            ' table:number-rows-repeated="2"',
          ),
        ),
      ),
    );
    const x = { t: 's', v: 'x' };
    const end = { t: 's', v: 'end' };
    expect(ours!.rows).toEqual([
      [x, x, { t: 'n', v: 5 }, undefined, end],
      [x, x, { t: 'n', v: 5 }, undefined, end],
    ]);
    expect(theirs!.rows).toEqual([
      [x, undefined, undefined, { t: 's', v: '' }, end],
      [undefined, undefined, undefined, undefined, end],
    ]);
  });

  it('moves the row index over a self-closed row', async () => {
    const { ours, theirs } = await both(content(table(row(text('a')) + '<table:table-row table:number-rows-repeated="2"/>' + row(text('b')))));
    expect(ours!.rows.map((r) => r?.[0]?.v)).toEqual(['a', undefined, undefined, 'b']);
    expect(theirs!.rows.map((r) => r?.[0]?.v)).toEqual(['a', 'b']);
  });

  it('counts 1 for a repeat that is not a positive number', async () => {
    const cells = ['-3', '0', 'x', ''].map((n) => text(n || 'blank', ` table:number-columns-repeated="${n}"`)).join('');
    const { ours } = await both(
      content(table(row(cells, ' table:number-rows-repeated="-2"') + row(text('next'), ' table:number-rows-repeated="abc"') + row(text('last')))),
    );
    expect(ours!.rows.map((r) => r!.map((c) => c!.v))).toEqual([['-3', '0', 'x', 'blank'], ['next'], ['last']]);
  });

  it('unescapes astral references, leaves _xHHHH_ and malformed references as written', async () => {
    const { ours, theirs } = await both(content(table(row(text('&#x1F69A; &#128666; _x0041_ &AMP; &#x110000;')))));
    expect(ours!.rows[0]).toEqual([{ t: 's', v: '🚚 🚚 _x0041_ &AMP; &#x110000;' }]);
    expect(theirs!.rows[0]![0]!.v).toBe('\uF69A \uF69A A \0 \0');
    expect(unescapeXml('&lt;&#60;&#x3C;&gt;&amp;lt;')).toBe('<<<>&lt;');
  });

  it('reads durations with days (SheetJS refuses the whole file)', async () => {
    const xml = content(table(row('<table:table-cell office:value-type="time" office:time-value="P1DT2H30M00S"><text:p>26:30</text:p></table:table-cell>')));
    expect(plain(await lean(ods(xml)))!.rows[0]).toEqual([{ t: 'n', v: 26.5 / 24 }]);
    expect(() => sheetjs(ods(xml))).toThrow(/Duration/);
  });

  it('drops a merge starting past the column limit (it can never name a column)', async () => {
    const far = '<table:table-cell table:number-columns-repeated="1500"/><table:table-cell table:number-columns-spanned="2"></table:table-cell>';
    const { ours, theirs } = await both(content(table(row(text('code') + far))));
    expect(ours!.merges).toEqual([]);
    expect(theirs!.merges).toEqual([{ s: { r: 0, c: 1501 }, e: { r: 0, c: 1502 } }]);
  });

  it('reads attributes in single quotes and with spaces around =', async () => {
    const { ours, theirs } = await both(
      content(table(row(text('code') + "<table:table-cell office:value-type='float' office:value = '2.5'><text:p>2,5</text:p></table:table-cell>"))),
    );
    expect(ours!.rows[0]).toEqual([
      { t: 's', v: 'code' },
      { t: 'n', v: 2.5 },
    ]);
    // SheetJS skips the tag, closes the cell twice and is left with a cell without a value in A1.
    expect(theirs).toBeNull();
  });
});

describe('the .ods reader refuses hostile files quickly, within its limits', () => {
  const content1 = (rows: string) => ods(content(table(row(text('code') + text('price')) + rows)));

  it('refuses a non-empty cell repeated 10⁹ times as too many columns, and reads an empty one', async () => {
    // Measured (2-core machine, zip opened and content.xml inflated included): the refusal 1–7 ms, the read of
    // the empty repeat 1–3 ms; the 10⁶ repeated rows likewise 1–2 ms (SheetJS: ~76 s and 2.2 GB, then death).
    const hostile = content1(row(text('IT') + text('x', ' table:number-columns-repeated="1000000000"')));
    expect(await refusal(hostile)).toMatchObject({ status: 413, key: 'import.tooManyColumns', params: { row: 2, limit: '1\u00a0000' } });
    const trailing = content1(row(text('IT') + num(1) + '<table:table-cell table:number-columns-repeated="1000000000"/>'));
    const sheet = (await lean(trailing))!;
    expect(sheet.rows[1]).toEqual([
      { t: 's', v: 'IT' },
      { t: 'n', v: 1 },
    ]);
    // Empty cells repeated past the limit and then a non-empty cell: the non-empty cell's column is checked.
    const after = content1(row(text('IT') + '<table:table-cell table:number-columns-repeated="999"/>' + text('x')));
    expect(await refusal(after)).toMatchObject({ key: 'import.tooManyColumns' });
    const within = content1(row(text('IT') + '<table:table-cell table:number-columns-repeated="998"/>' + text('x')));
    expect((await lean(within))!.rows[1]![999]).toEqual({ t: 's', v: 'x' });
  });

  it('refuses a non-empty row repeated 10⁶ times as too many rows, and reads empty trailing rows', async () => {
    const hostile = content1(row(text('IT') + num(1), ' table:number-rows-repeated="1000000"'));
    expect(await refusal(hostile)).toMatchObject({ status: 413, key: 'import.tooManyRows' });
    // Rows up to index 10 (maxRowIndex 11): the header row and ten repeats fit, eleven do not.
    expect(await refusal(content1(row(text('IT'), ' table:number-rows-repeated="11"')), small({ rows: 11 - HEADER_ROOM }))).toMatchObject({
      key: 'import.tooManyRows',
    });
    expect((await lean(content1(row(text('IT'), ' table:number-rows-repeated="10"')), small({ rows: 11 - HEADER_ROOM })))!.rows).toHaveLength(11);
    const trailing = content1(
      row(text('IT') + num(1)) + row('<table:table-cell table:number-columns-repeated="1024"/>', ' table:number-rows-repeated="1000000"') + TRAIL_ROWS,
    );
    expect((await lean(trailing))!.rows).toHaveLength(2);
    // Empty rows and then a non-empty row: the non-empty row's index is checked.
    const after = content1(row('<table:table-cell/>', ' table:number-rows-repeated="1000000"') + row(text('IT')));
    expect(await refusal(after)).toMatchObject({ key: 'import.tooManyRows' });
  });

  it('refuses repeats that would materialise more cells than a file without repeats could hold', async () => {
    // 1 000 columns × 200 000 rows, from 200 bytes: within the row and column limits, not within memory.
    const hostile = content1(row(text('x', ' table:number-columns-repeated="1000"'), ' table:number-rows-repeated="200000"'));
    expect(await refusal(hostile)).toMatchObject({ status: 413, key: 'import.tooComplex' });
  });

  it('refuses a cell longer than cellChars, as text or as text:s spaces, before building it', async () => {
    const long = content1(row(text('IT') + text('y'.repeat(1_100_000))));
    expect(await refusal(long, small({ cellChars: 1000 }))).toMatchObject({
      status: 413,
      key: 'import.cellTooLong',
      params: { cell: 'B2', limit: '1\u00a0000' },
    });
    const paragraphs = content1(row(`<table:table-cell office:value-type="string">${'<text:p>zzzz</text:p>'.repeat(300)}</table:table-cell>`));
    expect(await refusal(paragraphs, small({ cellChars: 1000 }))).toMatchObject({ key: 'import.cellTooLong', params: { cell: 'A2' } });
    const spaces = content1(row(text('a<text:s text:c="1000000000"/>b')));
    expect(await refusal(spaces)).toMatchObject({ key: 'import.cellTooLong', params: { cell: 'A2', limit: '32\u00a0767' } });
    const attribute = content1(row(`<table:table-cell office:value-type="string" office:string-value="${'v'.repeat(40_000)}"/>`));
    expect(await refusal(attribute)).toMatchObject({ key: 'import.cellTooLong' });
  });

  it('refuses text:s spaces past a budget for all cells together (25 bytes that make 30 000 characters)', async () => {
    const cells = text('a<text:s text:c="30000"/>b').repeat(50);
    const limits = small({ sharedStringChars: 1_000_000 });
    expect(await refusal(content1(row(cells)), limits)).toMatchObject({ status: 413, key: 'import.tooComplex' });
    expect((await lean(content1(row(cells.slice(0, cells.length / 2))), limits))!.rows[1]![24]!.v).toHaveLength(30_002);
  });

  it('refuses a row that never closes as too complex', async () => {
    const open = ods(content(table(row(text('code')) + `<table:table-row>${text('x').repeat(20_000)}`)));
    expect(await refusal(open, small({ rowBytes: 256 * 1024 }))).toMatchObject({ status: 413, key: 'import.tooComplex' });
  });

  it('refuses a content.xml inflating past the budget, with an honest or a lying size', async () => {
    const big = content(table(row(text('code')) + row(num(1)).repeat(100_000)));
    const limits = small({ inflatedBytes: 1024 * 1024 });
    expect(big.length).toBeGreaterThan(limits.inflatedBytes * 5);
    expect(await refusal(ods(big), limits)).toMatchObject({ status: 413, key: 'import.unzippedTooLarge', params: { limit: '1 MB' } });
    const lying = ods(big, 100_000);
    const zip = openZip(lying, limits);
    await expect(readOds(zip, limits)).rejects.toMatchObject({ status: 413, key: 'import.unzippedTooLarge' });
    expect(zip.inflated).toBeLessThanOrEqual(100_000);
  });

  it('refuses an unknown value type or an unreadable time as a damaged file (SheetJS throws on them)', async () => {
    expect(await refusal(content1(row('<table:table-cell office:value-type="void"><text:p>x</text:p></table:table-cell>')))).toMatchObject({
      status: 422,
      key: 'import.unreadable',
    });
    expect(
      await refusal(content1(row('<table:table-cell office:value-type="time" office:time-value="12:30"><text:p>x</text:p></table:table-cell>'))),
    ).toMatchObject({
      key: 'import.unreadable',
    });
  });
});
