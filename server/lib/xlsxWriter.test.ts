import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { colName, xlsxChunks, type XCell } from './xlsxWriter.js';
import { xlsxOf, type ExportColumn, MONEY_FORMAT, DATE_FORMAT, DATETIME_FORMAT, MONTH_FORMAT } from './listExport.js';

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

/**
 * Reads the zip the strict way: every central-directory entry's local header, its data inflated, its CRC-32
 * and sizes checked against both headers (and the data descriptor where there is one).
 */
function unzipStrict(buf: Buffer): Map<string, Buffer> {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBe(buf.length - 22);
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  expect(p + buf.readUInt32LE(end + 12)).toBe(end);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50);
    const flags = buf.readUInt16LE(p + 8);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen;
    expect(buf.readUInt32LE(local)).toBe(0x04034b50);
    expect(buf.toString('utf8', local + 30, local + 30 + nameLen)).toBe(name);
    const start = local + 30 + nameLen + buf.readUInt16LE(local + 28);
    const data = zlib.inflateRawSync(buf.subarray(start, start + csize));
    expect(data.length).toBe(size);
    expect(zlib.crc32(data)).toBe(crc);
    if (flags & 0x0008) {
      const d = start + csize;
      expect([buf.readUInt32LE(d), buf.readUInt32LE(d + 4), buf.readUInt32LE(d + 8), buf.readUInt32LE(d + 12)]).toEqual([0x08074b50, crc, csize, size]);
    } else {
      expect([buf.readUInt32LE(local + 14), buf.readUInt32LE(local + 18), buf.readUInt32LE(local + 22)]).toEqual([crc, csize, size]);
    }
    files.set(name, data);
  }
  return files;
}

type Row = { text?: unknown; n?: unknown; money?: unknown; date?: unknown; month?: unknown; at?: unknown };
const columns: ExportColumn<Row>[] = [
  { header: { it: 'Testo', en: 'Text', fr: 'Texte' }, kind: 'text', value: (r) => r.text },
  { header: { it: 'Numero', en: 'Number', fr: 'Numéro' }, kind: 'number', value: (r) => r.n },
  { header: { it: 'Importo', en: 'Amount', fr: 'Montant' }, kind: 'money', value: (r) => r.money },
  { header: { it: 'Data', en: 'Date', fr: 'Date' }, kind: 'date', value: (r) => r.date },
  { header: { it: 'Mese', en: 'Month', fr: 'Mois' }, kind: 'month', value: (r) => r.month },
  { header: { it: 'Creata il', en: 'Created', fr: 'Créée le' }, kind: 'datetime', value: (r) => r.at, width: 19 },
];
const rows: Row[] = [
  { text: 'Acme Trasporti S.r.l.', n: 12.5, money: 123456, date: '2026-11-25', month: '2026-11', at: '2026-11-25T07:30:00Z' },
  { text: '<b>&amp; "quoted" \'single\'</b>', n: -0.000001, money: 1, date: '2026-02-28', month: '2026-01-01', at: '2026-07-01T22:15:00Z' },
  { text: '=SUM(A1:A9)', n: 1e21, money: -250, date: 'not a date', at: 'garbage' },
  { text: '  spaced  ', n: 'abc' },
  { text: 'tab\there\nnew line, bell \u0007 and _x0041_ literal' },
  { text: 'emoji 🚚 accents àèìòù ß 漢字 lone \ud800 surrogate' },
  {},
  { text: '' },
];

function readBack(buf: Buffer) {
  const wb = XLSX.read(buf, { cellNF: true, cellStyles: true, dense: true });
  const ws = wb.Sheets[wb.SheetNames[0]];
  const grid = (ws['!data'] ?? []).map((r) => (r ?? []).map((c) => (c ? { t: c.t, v: c.v, z: c.z === 'General' ? undefined : c.z } : undefined)));
  return { name: wb.SheetNames[0], grid, cols: ws['!cols']?.map((c) => c?.wch ?? c?.width) };
}

describe('the streaming .xlsx writer', () => {
  it('writes a zip whose every entry inflates to its declared size and CRC-32, and SheetJS reads the same cells SheetJS would write', async () => {
    const buf = await collect(
      xlsxOf(
        columns,
        'it',
        (async function* () {
          yield rows.slice(0, 3);
          yield rows.slice(3);
        })(),
        'Richieste: 11/2026',
      ),
    );
    const files = unzipStrict(buf);
    expect([...files.keys()].sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);

    // The reference: SheetJS writing the same header and the same converted cells.
    const streamed = readBack(buf);
    const cells = streamed.grid; // converted by cellOf, checked value by value below
    const ref: XLSX.CellObject[][] = cells.map((r) =>
      r.map((c) => (c ? ({ t: c.t, v: c.v, ...(c.z ? { z: c.z } : {}) } as XLSX.CellObject) : (undefined as never))),
    );
    const ws: XLSX.WorkSheet = { '!data': ref, '!ref': XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: ref.length - 1, c: columns.length - 1 } }) };
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'x');
    // SheetJS's own writer loses a literal "&amp;" and "_x0041_" (they read back as "&" and "A"): those two
    // texts are checked exactly below instead.
    const lossy = (g: typeof cells) =>
      g.map((r, y) => r.map((c, x) => (typeof cells[y][x]?.v === 'string' && /&amp;|_x[0-9A-F]{4}_/.test(cells[y][x]!.v as string) ? null : c)));
    expect(lossy(readBack(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' })).grid)).toEqual(lossy(cells));

    expect(streamed.name).toBe('Richieste_ 11_2026');
    expect(cells[0].map((c) => c?.v)).toEqual(['Testo', 'Numero', 'Importo', 'Data', 'Mese', 'Creata il']);
    expect(cells[1]).toEqual([
      { t: 's', v: 'Acme Trasporti S.r.l.', z: undefined },
      { t: 'n', v: 12.5, z: undefined },
      { t: 'n', v: 1234.56, z: MONEY_FORMAT },
      { t: 'n', v: 46351, z: DATE_FORMAT },
      { t: 'n', v: 46327, z: MONTH_FORMAT },
      { t: 'n', v: 46351 + 8.5 / 24, z: DATETIME_FORMAT }, // 07:30 UTC is 08:30 in Rome in November
    ]);
    expect(cells[2].map((c) => c?.v)).toEqual(['<b>&amp; "quoted" \'single\'</b>', -0.000001, 0.01, 46081, 46023, 46205 + 0.25 / 24]); // 22:15 UTC on 1 July is 00:15 on 2 July in Rome
    expect(cells[3].map((c) => c?.v)).toEqual(["'=SUM(A1:A9)", 1e21, -2.5, 'not a date', undefined, 'garbage']);
    expect(cells[4].map((c) => c?.v)).toEqual(['  spaced  ', 'abc']);
    expect(cells[5][0]?.v).toBe('tab\there\nnew line, bell \u0007 and _x0041_ literal');
    expect(cells[6][0]?.v).toBe('emoji 🚚 accents àèìòù ß 漢字 lone \ufffd surrogate');
    expect(cells.length).toBe(7); // the empty rows write no cells
    expect(streamed.cols?.slice(0, 6)).toEqual([10, 10, 10, 10, 10, 19]);
    expect(files.get('xl/worksheets/sheet1.xml')!.toString()).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
  });

  it('sends its first bytes before the rows are all read, and the sheet as the batches come', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let readAll = false;
    async function* slow() {
      yield [{ text: 'first' }];
      await gate;
      yield [{ text: 'last' }];
      readAll = true;
    }
    const it = xlsxOf(columns, 'en', slow(), 'a')[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value.subarray(0, 2).toString()).toBe('PK');
    expect(readAll).toBe(false);
    release();
    const rest: Buffer[] = [first.value];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(readAll).toBe(true);
    expect(readBack(Buffer.concat(rest)).grid.map((r) => r[0]?.v)).toEqual(['Text', 'first', 'last']);
  });

  it('a failure while reading the rows ends the stream with that error', async () => {
    async function* broken(): AsyncGenerator<Row[]> {
      yield [{ text: 'one' }];
      throw new Error('database gone');
    }
    await expect(collect(xlsxOf(columns, 'it', broken(), 'x'))).rejects.toThrow('database gone');
  });

  it('writes a 100 000-row sheet as it goes: compressed bytes leave while the batches are still being read', async () => {
    const batch: XCell[][] = Array.from({ length: 2000 }, (_, i) => [
      { t: 's', v: `Riga ${i} — Milano → Roma` },
      { t: 'n', v: i * 1.5, z: '#,##0.00' },
    ]);
    let read = 0;
    async function* many() {
      yield [
        [
          { t: 's', v: 'Testo' },
          { t: 's', v: 'Importo' },
        ],
      ] as XCell[][];
      for (let i = 0; i < 50; i++) {
        read++;
        yield batch;
      }
    }
    const sentAt: number[] = []; // batches read when each chunk left
    const parts: Buffer[] = [];
    for await (const c of xlsxChunks({ sheetName: 's', widths: [30, 12], formats: ['#,##0.00'], rows: many() })) {
      sentAt.push(read);
      parts.push(c);
    }
    // A writer that built the sheet whole would send everything after the 50th batch.
    const before = parts.filter((_, i) => sentAt[i] <= 25).reduce((n, c) => n + c.length, 0);
    const total = parts.reduce((n, c) => n + c.length, 0);
    expect(before / total).toBeGreaterThan(0.3);
    const xml = unzipStrict(Buffer.concat(parts)).get('xl/worksheets/sheet1.xml')!.toString();
    expect(xml.match(/<row /g)?.length).toBe(100_001);
    expect(xml).toContain(
      '<row r="100001"><c r="A100001" t="inlineStr"><is><t>Riga 1999 — Milano → Roma</t></is></c><c r="B100001" s="1"><v>2998.5</v></c></row>',
    );
  }, 30_000);

  it('names columns as spreadsheets do', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(colName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
