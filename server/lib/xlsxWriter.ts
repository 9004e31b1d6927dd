import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * A streaming .xlsx writer for one sheet of typed cells (the list exports, docs/list-exports.md).
 *
 * SheetJS writes a workbook only whole: 100 000 requests took about +390 MB while the file was built and
 * nothing reached the browser until the end. This writer sends the sheet as it reads the rows: the sheet's
 * XML goes through a raw-deflate stream into a zip entry with a data descriptor (its CRC and sizes follow
 * the data), so the memory is one batch of rows and zlib's window, whatever the number of rows.
 *
 * What it writes is the subset of SpreadsheetML the exports need, the way Excel itself writes it: strings
 * inline (`t="inlineStr"`, no shared-string table to hold), numbers with a style per number format,
 * column widths, a frozen header row. No ZIP64: the exports stop at MAX_EXPORT_ROWS, far below 4 GB.
 * Proved by reading the result back with SheetJS and our own reader (xlsxWriter.test.ts).
 */

export type XCell = { t: 's'; v: string; z?: string } | { t: 'n'; v: number; z?: string } | null | undefined;

export interface SheetSpec {
  sheetName: string;
  /** Column widths in characters, one per column. */
  widths: number[];
  /** The number formats cells may name in `z` (each gets a style). */
  formats: readonly string[];
  /** Rows of cells, batch by batch (the header row is the first row of the first batch). */
  rows: AsyncIterable<XCell[][]>;
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Text as XML character data: markup escaped, characters XML cannot hold written as OOXML's `_xHHHH_`. */
export function xmlText(s: string): string {
  return s
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1') // a literal "_x0041_" must not read back as "A"
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'))
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Column letters of a 0-based index: 0 → A, 26 → AA. */
export function colName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function rowXml(r: number, cells: XCell[], letters: string[], styleOf: Map<string, number>): string {
  let out = `<row r="${r}">`;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (!c) continue;
    const ref = `${letters[i] ?? colName(i)}${r}`;
    const s = c.z ? styleOf.get(c.z) : undefined;
    const style = s ? ` s="${s}"` : '';
    if (c.t === 's') {
      const space = /^\s|\s$/.test(c.v) ? ' xml:space="preserve"' : '';
      out += `<c r="${ref}"${style} t="inlineStr"><is><t${space}>${xmlText(c.v)}</t></is></c>`;
    } else if (Number.isFinite(c.v)) {
      out += `<c r="${ref}"${style}><v>${c.v}</v></c>`;
    }
  }
  return `${out}</row>`;
}

async function* sheetXml(spec: SheetSpec, styleOf: Map<string, number>): AsyncGenerator<Buffer> {
  // Excel's width of n characters of the default font (7 px wide) with its 5 px padding, in 1/256ths
  const excelWidth = (chars: number) => Math.trunc(((chars * 7 + 5) / 7) * 256) / 256;
  const cols = spec.widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${excelWidth(w)}" customWidth="1"/>`).join('');
  yield Buffer.from(
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">` +
      `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
      `${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`,
  );
  const letters = spec.widths.map((_, i) => colName(i));
  let r = 0;
  for await (const batch of spec.rows) {
    let xml = '';
    for (const cells of batch) xml += rowXml(++r, cells, letters, styleOf);
    if (xml) yield Buffer.from(xml);
  }
  yield Buffer.from('</sheetData></worksheet>');
}

/** Formats Excel knows by number: written by that number, as Excel itself does ("@" is text). */
const BUILTIN_FORMATS: Record<string, number> = { '@': 49, '0': 1, '0.00': 2, '#,##0': 3, '#,##0.00': 4 };

function stylesXml(formats: readonly string[]): string {
  const ids = formats.map((f, i) => BUILTIN_FORMATS[f] ?? 164 + i);
  const custom = formats.filter((f) => BUILTIN_FORMATS[f] === undefined);
  const fmts = formats.map((f, i) => (BUILTIN_FORMATS[f] === undefined ? `<numFmt numFmtId="${ids[i]}" formatCode="${xmlText(f)}"/>` : '')).join('');
  const xfs = ids.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('');
  return (
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">${custom.length ? `<numFmts count="${custom.length}">${fmts}</numFmts>` : ''}` +
    `<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
    `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
    `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="${formats.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${xfs}</cellXfs>` +
    `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`
  );
}

function packageFiles(sheetName: string, formats: readonly string[]): Array<[string, string]> {
  const ct = 'application/vnd.openxmlformats-officedocument';
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="${ct}.spreadsheetml.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.spreadsheetml.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${ct}.spreadsheetml.styles+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews>` +
        `<sheets><sheet name="${xmlText(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    ['xl/styles.xml', stylesXml(formats)],
  ];
}

// ---- The zip container (PKWARE APPNOTE 4.3: local headers, data descriptors, central directory) ---------

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  flags: number;
}

/** DOS date and time of now (the entries' modification time). */
function dosTime(d = new Date()): [number, number] {
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2);
  const date = ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  return [time, date];
}

function localHeader(e: Entry, [time, date]: [number, number]): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(e.flags, 6);
  h.writeUInt16LE(8, 8); // deflate
  h.writeUInt16LE(time, 10);
  h.writeUInt16LE(date, 12);
  h.writeUInt32LE(e.crc >>> 0, 14); // all three are 0 with a data descriptor (flag bit 3)
  h.writeUInt32LE(e.compressed, 18);
  h.writeUInt32LE(e.size, 22);
  h.writeUInt16LE(e.name.length, 26);
  return Buffer.concat([h, e.name]);
}

function centralHeader(e: Entry, [time, date]: [number, number]): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(e.flags, 8);
  h.writeUInt16LE(8, 10);
  h.writeUInt16LE(time, 12);
  h.writeUInt16LE(date, 14);
  h.writeUInt32LE(e.crc >>> 0, 16);
  h.writeUInt32LE(e.compressed, 20);
  h.writeUInt32LE(e.size, 24);
  h.writeUInt16LE(e.name.length, 28);
  h.writeUInt32LE(e.offset, 42);
  return Buffer.concat([h, e.name]);
}

/** The .xlsx as a stream of chunks: the small package parts first, then the sheet as its rows arrive. */
export async function* xlsxChunks(spec: SheetSpec): AsyncGenerator<Buffer> {
  const stamp = dosTime();
  const styleOf = new Map(spec.formats.map((f, i) => [f, i + 1]));
  const entries: Entry[] = [];
  let offset = 0;
  for (const [name, xml] of packageFiles(spec.sheetName, spec.formats)) {
    const data = Buffer.from(xml);
    const body = zlib.deflateRawSync(data);
    const e: Entry = { name: Buffer.from(name), crc: zlib.crc32(data), compressed: body.length, size: data.length, offset, flags: 0 };
    const head = localHeader(e, stamp);
    entries.push(e);
    offset += head.length + body.length;
    yield head;
    yield body;
  }

  const sheet: Entry = { name: Buffer.from('xl/worksheets/sheet1.xml'), crc: 0, compressed: 0, size: 0, offset, flags: 0x0008 };
  const head = localHeader(sheet, stamp);
  offset += head.length;
  yield head;
  const source = sheetXml(spec, styleOf);
  async function* counted() {
    for await (const chunk of source) {
      sheet.crc = zlib.crc32(chunk, sheet.crc);
      sheet.size += chunk.length;
      yield chunk;
    }
  }
  const deflate = zlib.createDeflateRaw({ level: 6 });
  const input = Readable.from(counted());
  input.on('error', (err) => deflate.destroy(err));
  for await (const chunk of input.pipe(deflate) as AsyncIterable<Buffer>) {
    sheet.compressed += chunk.length;
    yield chunk;
  }
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(sheet.crc >>> 0, 4);
  descriptor.writeUInt32LE(sheet.compressed, 8);
  descriptor.writeUInt32LE(sheet.size, 12);
  offset += sheet.compressed + descriptor.length;
  entries.push(sheet);
  yield descriptor;

  const central = Buffer.concat(entries.map((e) => centralHeader(e, stamp)));
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  yield central;
  yield end;
}
