import zlib from 'node:zlib';
import type { CellObject, Range } from '@e965/xlsx';

/**
 * A lean .xlsx reader for the importer (issue 20, "Figures"): the data sheet's rows as the cells SheetJS
 * gives with READ_OPTIONS (dense, values only), without building the workbook. It reads the zip's
 * central directory, inflates the shared strings and one sheet entry at a time into a Buffer (never a
 * JS string of the whole sheet) and walks that Buffer row by row: each `<row>…</row>` is decoded alone
 * and its cells made exactly as SheetJS's parse_ws_xml_data makes them (the same splits, the same
 * unescaping, the same shared-string rules, the same row cap). What it does not model (date cells
 * `t="d"`, a chart sheet first, a workbook outside xl/, a missing part) throws `NotStreamable`, and the
 * caller reads the file with SheetJS as before: the values stay SheetJS's in every case.
 */

export type Rows = Array<Array<CellObject | undefined> | undefined>;
export interface XlsxSheet {
  rows: Rows;
  merges: Range[];
}

/** The file uses something this reader leaves to SheetJS. */
export class NotStreamable extends Error {}

interface Entry {
  method: number;
  csz: number;
  usz: number;
  local: number;
}

/** The zip's entries by lower-case name (central directory; sizes were checked by checkZip). */
function directory(data: Buffer): Map<string, Entry> {
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new NotStreamable('no zip directory');
  const count = data.readUInt16LE(eocd + 10);
  let p = data.readUInt32LE(eocd + 16);
  const entries = new Map<string, Entry>();
  for (let i = 0; i < count; i++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== 0x02014b50) throw new NotStreamable('bad zip directory');
    const nameLen = data.readUInt16LE(p + 28);
    const name = data.toString('utf8', p + 46, p + 46 + nameLen);
    entries.set(name.replace(/\\/g, '/').toLowerCase(), {
      method: data.readUInt16LE(p + 10),
      csz: data.readUInt32LE(p + 20),
      usz: data.readUInt32LE(p + 24),
      local: data.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
  }
  return entries;
}

function entryBytes(data: Buffer, zip: Map<string, Entry>, name: string): Buffer | null {
  const e = zip.get(name.replace(/^\//, '').toLowerCase());
  if (!e) return null;
  const start = e.local + 30 + data.readUInt16LE(e.local + 26) + data.readUInt16LE(e.local + 28);
  const raw = data.subarray(start, start + e.csz);
  // One output chunk of the declared size (checked by checkZip): no second copy to join chunks.
  let out = e.method === 8 ? zlib.inflateRawSync(raw, { maxOutputLength: Math.max(1, e.usz), chunkSize: Math.max(64, e.usz) }) : raw;
  // SheetJS drops a UTF-8 byte order mark (debom).
  if (out.length >= 3 && out[0] === 0xef && out[1] === 0xbb && out[2] === 0xbf) out = out.subarray(3);
  return out;
}

/** SheetJS's `unescapexml`: XML entities, numeric references, `_xHHHH_` escapes; CDATA kept as is. */
const ENTITIES: Record<string, string> = { '&quot;': '"', '&apos;': "'", '&gt;': '>', '&lt;': '<', '&amp;': '&' };
const ENC = /&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi;
const CODE = /_x([\da-fA-F]{4})_/gi;
function rawUnescape(s: string): string {
  const i = s.indexOf('<![CDATA[');
  if (i === -1) {
    if (!s.includes('&') && !s.includes('_x')) return s;
    return s
      .replace(ENC, ($$, $1) => ENTITIES[$$] || String.fromCharCode(parseInt($1, $$.indexOf('x') > -1 ? 16 : 10)) || $$)
      .replace(CODE, (_m, c) => String.fromCharCode(parseInt(c, 16)));
  }
  const j = s.indexOf(']]>');
  return rawUnescape(s.slice(0, i)) + s.slice(i + 9, j) + rawUnescape(s.slice(j + 3));
}
export const unescapeXml = (s: string, xlsx = false) => (xlsx ? rawUnescape(s).replace(/\r\n/g, '\n') : rawUnescape(s));
/** SheetJS decodes parts as binary strings and UTF-8 where it reads text. */
const utf8 = (binary: string) => (/[\x80-\xff]/.test(binary) ? Buffer.from(binary, 'latin1').toString('utf8') : binary);

/** `<tag …>content</tag>` (any namespace prefix), the first one: [whole, content] or null (SheetJS's str_match_xml_ns). */
const TAG_PATTERNS = new Map<string, [RegExp, RegExp]>();
function matchTag(str: string, tag: string): [string, string] | null {
  let patterns = TAG_PATTERNS.get(tag);
  if (!patterns) TAG_PATTERNS.set(tag, (patterns = [new RegExp(`<(?:\\w+:)?${tag}\\b[^<>]*>`, 'g'), new RegExp(`</(?:\\w+:)?${tag}>`, 'g')]));
  const [open, close] = patterns;
  open.lastIndex = 0;
  const m = open.exec(str);
  if (!m) return null;
  close.lastIndex = open.lastIndex;
  const e = close.exec(str);
  if (!e) return null;
  return [str.slice(m.index, close.lastIndex), str.slice(open.lastIndex, e.index)];
}

const SI_TEXT = /<(?:\w+:)?t\b[^<>]*>([^<]*)<\/(?:\w+:)?t>/g;
const SI_RICH = /<(?:\w+:)?r\b[^<>]*>/;
const TAGS = /<[/?]?[a-zA-Z0-9:_-]+(?:\s+[^"\s?<>/]+\s*=\s*(?:"[^"]*"|'[^']*'|[^'"<>\s=]+))*\s*[/?]?>/gm;
const PHONETIC = /<(?:\w+:)?rPh\b[^<>]*>[\s\S]*?<\/(?:\w+:)?rPh>/g;

/** A shared or inline string's text (SheetJS's parse_si, text only); undefined when it holds neither <t> nor runs. */
function stringItem(x: string): string | undefined {
  if (!x) return '';
  if (/^\s*<(?:\w+:)?t[^>]*>/.test(x)) return unescapeXml(utf8(x.slice(x.indexOf('>') + 1).split(/<\/(?:\w+:)?t>/)[0] || ''), true);
  if (SI_RICH.test(x)) return unescapeXml(utf8((x.replace(PHONETIC, '').match(SI_TEXT) || []).join('').replace(TAGS, '')), true);
  return undefined;
}

function sharedStrings(binary: string | null): Array<string | undefined> {
  if (!binary) return [];
  const sst = matchTag(binary, 'sst');
  if (!sst) return [];
  return sst[1]
    .replace(/<(?:\w+:)?(?:si|sstItem)>/g, '')
    .split(/<\/(?:\w+:)?(?:si|sstItem)>/)
    .map((s) => stringItem(s.trim()));
}

const ERRORS: Record<string, number> = {
  '#NULL!': 0,
  '#DIV/0!': 7,
  '#VALUE!': 15,
  '#REF!': 23,
  '#NAME?': 29,
  '#NUM!': 36,
  '#N/A': 42,
  '#GETTING_DATA': 43,
  '#WTF?': 255,
};
const bool = (v: unknown) => v === '1' || v === 'true';
const ATTRS = /\s([^"\s?>/]+)\s*=\s*((?:")([^"]*)(?:")|(?:')([^']*)(?:')|([^'">\s]+))/g;

/** The attributes of a start tag, namespace prefixes dropped, also under lower-case names (SheetJS's parsexmltag). */
function attributes(tag: string): Record<string, string> {
  const z: Record<string, string> = {};
  if (!/[ \n\r]/.test(tag)) return z;
  for (const m of tag.match(ATTRS) ?? []) {
    const cc = m.slice(1);
    let c = cc.indexOf('=');
    const q = cc.slice(0, c).trim();
    while (cc.charCodeAt(c + 1) === 32) ++c;
    const quoted = cc.charCodeAt(c + 1) === 34 || cc.charCodeAt(c + 1) === 39 ? 1 : 0;
    const v = cc.slice(c + 1 + quoted, cc.length - quoted);
    const colon = q.indexOf(':');
    const k = colon < 0 ? (q.indexOf('_') > 0 ? q.slice(0, q.indexOf('_')) : q) : (colon === 5 && q.startsWith('xmlns') ? 'xmlns' : '') + q.slice(colon + 1);
    z[k] = v;
    z[k.toLowerCase()] = v;
  }
  return z;
}

function decodeCell(ref: string): { r: number; c: number } {
  let r = 0;
  let c = 0;
  for (let i = 0; i < ref.length; ++i) {
    const cc = ref.charCodeAt(i);
    if (cc >= 48 && cc <= 57) r = 10 * r + (cc - 48);
    else if (cc >= 65 && cc <= 90) c = 26 * c + (cc - 64);
  }
  return { r: r - 1, c: c - 1 };
}

const CELL_SPLIT = /<(?:\w+:)?c[ />]/;
const R_ATTR = /r=["']([^"']*)["']/;

/**
 * Cells are shared: every cell of one shared string, and every number cell with the same text, is the
 * same frozen object (a tariff repeats its codes, units and brackets on every row: 100 000 rows hold a
 * few thousand distinct cells). The importer only reads cells; a merged header cell is copied.
 */
class CellPool {
  private strings: Array<CellObject | undefined> = [];
  private numbers = new Map<string, CellObject>();
  constructor(private readonly sst: Array<string | undefined>) {}
  shared(index: number): CellObject {
    if (!(index in this.sst)) throw new NotStreamable('shared string out of range');
    return (this.strings[index] ??= Object.freeze({ t: 's', v: this.sst[index] }) as CellObject);
  }
  number(text: string): CellObject {
    let cell = this.numbers.get(text);
    if (!cell) {
      cell = Object.freeze({ t: 'n', v: parseFloat(text) }) as CellObject;
      // Bounded: a sheet of all-distinct numbers gets fresh cells past 100 000 of them.
      if (this.numbers.size < 100_000) this.numbers.set(text, cell);
    }
    return cell;
  }
}

/** Walks `<sheetData>` of one sheet's XML, a row at a time, into dense rows (parse_ws_xml_data with READ_OPTIONS). */
function sheetRows(xml: Buffer, strings: Array<string | undefined>, sheetRowsCap: number): XlsxSheet {
  const rows: Rows = [];
  const pool = new CellPool(strings);
  const open = findOpen(xml, 'sheetData');
  let after = 0;
  if (open) {
    const close = findClose(xml, 'sheetData', open.end);
    if (close) {
      after = close.end;
      let tagr = 0;
      let p = open.end;
      while (p < close.start) {
        const rowClose = findClose(xml, 'row', p, close.start);
        const end = rowClose ? rowClose.start : close.start;
        tagr = parseRow(xml.toString('latin1', p, end).trim(), tagr, rows, pool, sheetRowsCap);
        p = rowClose ? rowClose.end : close.start;
      }
    }
  }
  const merges: Range[] = [];
  const tail = xml.toString('latin1', after);
  for (const m of tail.match(/<(?:\w+:)?mergeCell ref=["'][A-Z0-9:]+['"]\s*[/]?>/g) ?? []) {
    const [s, e = s] = m
      .slice(m.indexOf('=') + 2)
      .replace(/['"].*$/, '')
      .split(':');
    merges.push({ s: decodeCell(s), e: decodeCell(e) });
  }
  return { rows, merges };
}

/** One `</row>`-delimited piece: the last row start tag in it, then its cells. Returns the row number (1-based). */
function parseRow(x: string, tagr: number, rows: Rows, pool: CellPool, cap: number): number {
  if (x.length === 0) return tagr;
  let ri = 0;
  let start = 0;
  outer: for (ri = 0; ri < x.length; ++ri) {
    switch (x[ri]) {
      case '>':
        if (x[ri - 1] !== '/') {
          ++ri;
          break outer;
        }
        break;
      case '<':
        start = ri;
        break;
    }
  }
  if (start >= ri) return tagr;
  const rowTag = attributes(x.slice(start, ri));
  tagr = rowTag.r != null ? parseInt(rowTag.r, 10) : tagr + 1;
  if (cap && cap < tagr) return tagr;
  let cells = x.slice(ri).split(CELL_SPLIT);
  let skip = 0;
  while (skip < cells.length && cells[skip].trim().charAt(0) === '<') skip++;
  cells = cells.slice(skip);
  let tagc = -1;
  for (let k = 0; k < cells.length; ++k) {
    let cx = cells[k].trim();
    if (cx.length === 0) continue;
    const cref = R_ATTR.exec(cx);
    if (cref) {
      let idx = 0;
      for (let i = 0; i < cref[1].length; ++i) {
        const cc = cref[1].charCodeAt(i) - 64;
        if (cc < 1 || cc > 26) break;
        idx = 26 * idx + cc;
      }
      tagc = idx - 1;
    } else ++tagc;
    cx = '<c ' + (cx.charAt(0) === '<' ? '>' : '') + cx;
    const gt = cx.indexOf('>') + 1 || cx.length + 1;
    const tag = attributes(cx.slice(0, gt));
    const ref = tag.r || encodeCell(tagr - 1, tagc);
    const d = cx.slice(gt);
    const vm = matchTag(d, 'v');
    let v: unknown = vm && vm[1] !== '' ? unescapeXml(vm[1]) : undefined;
    if (tag.t == null && v === undefined) continue;
    let t = tag.t || 'n';
    let cell: CellObject | undefined;
    switch (t) {
      case 'n':
        if (v == '' || v == null) continue;
        cell = pool.number(v as string);
        break;
      case 's':
        if (v === undefined) continue;
        cell = pool.shared(parseInt(v as string, 10));
        break;
      case 'str':
        t = 's';
        v = v != null ? unescapeXml(utf8(v as string), true) : '';
        break;
      case 'inlineStr': {
        t = 's';
        const is = matchTag(d, 'is');
        v = is ? stringItem(is[1]) : '';
        break;
      }
      case 'b':
        v = bool(v);
        break;
      case 'e':
        v = ERRORS[v as string];
        break;
      default:
        throw new NotStreamable(`cell type ${t}`);
    }
    const at = decodeCell(ref);
    const row = (rows[at.r] ??= []);
    row[at.c] = cell ?? ({ t, v } as CellObject);
  }
  return tagr;
}

function encodeCell(r: number, c: number): string {
  let col = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) col = String.fromCharCode(((n - 1) % 26) + 65) + col;
  return `${col}${r + 1}`;
}

/** The byte range of `<tag …>` or `<x:tag …>` (not self-closed) from `from`, or null. */
function findOpen(xml: Buffer, tag: string, from = 0): { start: number; end: number } | null {
  for (let i = xml.indexOf(tag, from, 'latin1'); i >= 0; i = xml.indexOf(tag, i + 1, 'latin1')) {
    let lt = i - 1;
    if (xml[lt] === 0x3a) {
      lt--;
      while (lt > 0 && isWord(xml[lt])) lt--;
      if (!isWord(xml[lt + 1])) continue;
    }
    const next = xml[i + tag.length];
    if (xml[lt] !== 0x3c || isWord(next)) continue;
    const gt = xml.indexOf(0x3e, i);
    if (gt < 0) return null;
    const lt2 = xml.indexOf(0x3c, i);
    if (lt2 >= 0 && lt2 < gt) continue;
    return { start: lt, end: gt + 1 };
  }
  return null;
}

/** The byte range of the next `</tag>` or `</x:tag>` in [from, to), or null. */
function findClose(xml: Buffer, tag: string, from: number, to = xml.length): { start: number; end: number } | null {
  const needle = `${tag}>`;
  for (let i = xml.indexOf(needle, from, 'latin1'); i >= 0 && i < to; i = xml.indexOf(needle, i + 1, 'latin1')) {
    let s = i - 1;
    if (xml[s] === 0x3a) {
      s--;
      while (s > 0 && isWord(xml[s])) s--;
      if (!isWord(xml[s + 1])) continue;
    }
    if (xml[s] !== 0x2f || xml[s - 1] !== 0x3c) continue;
    return { start: s - 1, end: i + needle.length };
  }
  return null;
}

const isWord = (b: number | undefined) => b !== undefined && ((b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 95);

/** The workbook's sheets in order, with their part names; throws NotStreamable for what SheetJS should read. */
function sheetParts(data: Buffer, zip: Map<string, Entry>): string[] {
  const types = contentTypes(data, zip);
  const workbooks = types.filter((t) => /spreadsheetml\.(sheet|template)(\.macroEnabled)?\.main\+xml$/i.test(t.ContentType ?? ''));
  if (workbooks.length && !workbooks.some((w) => /^\/?xl\/workbook\.xml$/i.test(w.PartName ?? ''))) throw new NotStreamable('workbook elsewhere');
  const wb = entryBytes(data, zip, 'xl/workbook.xml')?.toString('latin1');
  const rels = entryBytes(data, zip, 'xl/_rels/workbook.xml.rels')?.toString('latin1');
  if (!wb || !rels) throw new NotStreamable('no workbook');
  const targets = new Map<string, { target: string; type: string }>();
  for (const m of rels.match(/<(?:\w+:)?Relationship\b[^>]*>/g) ?? []) {
    const a = attributes(m);
    if (a.Id) targets.set(a.Id, { target: a.Target ?? '', type: a.Type ?? '' });
  }
  const sheets = matchTag(wb, 'sheets')?.[1] ?? '';
  return (sheets.match(/<(?:\w+:)?sheet\b[^>]*>/g) ?? []).map((s) => {
    const rel = targets.get(attributes(s).id);
    if (!rel || !/\/worksheet$/.test(rel.type)) throw new NotStreamable('not a worksheet');
    const path = 'xl/' + rel.target.replace(/[/]?xl\//, '');
    if (zip.has(path.toLowerCase())) return path;
    if (zip.has(rel.target.toLowerCase())) return rel.target;
    throw new NotStreamable('sheet part missing');
  });
}

/** The `<Override>` entries of [Content_Types].xml (attributes). */
function contentTypes(data: Buffer, zip: Map<string, Entry>): Array<Record<string, string>> {
  const types = entryBytes(data, zip, '[Content_Types].xml')?.toString('latin1');
  if (!types) throw new NotStreamable('no content types');
  return (types.match(/<(?:\w+:)?Override\b[^>]*>/g) ?? []).map(attributes);
}

function sharedStringsPart(data: Buffer, zip: Map<string, Entry>): string | null {
  const part = contentTypes(data, zip).find((t) => /sharedStrings\+xml$/i.test(t.ContentType ?? ''))?.PartName;
  return part ? (entryBytes(data, zip, part)?.toString('latin1') ?? null) : null;
}

/**
 * Frees an inflated part's memory now rather than at the next full garbage collection: its ArrayBuffer
 * is detached, its memory handed to a throwaway one that the next minor collection frees. Without it the
 * 29 MB of a 100 000-row sheet stay resident through the validation and the dry run's impact (issue 20,
 * "Figures": the peak RSS). Nothing refers to the bytes once the rows are made (cells hold copies).
 */
function release(part: Buffer) {
  if (part.buffer.byteLength > Buffer.poolSize) structuredClone(part.buffer, { transfer: [part.buffer] });
}

const blank = (c: CellObject | undefined) => !c || c.v === undefined || String(c.v).trim() === '';

/**
 * The data sheet of an .xlsx (the first sheet holding a non-blank cell) with at most `cap` rows (SheetJS's
 * sheetRows), or null when no sheet holds one. Throws NotStreamable for files SheetJS must read.
 */
export function readXlsxDataSheet(data: Buffer, cap: number): XlsxSheet | null {
  const zip = directory(data);
  const parts = sheetParts(data, zip);
  let strings: Array<string | undefined> | undefined;
  for (const part of parts) {
    const xml = entryBytes(data, zip, part);
    if (!xml) throw new NotStreamable('sheet part missing');
    strings ??= sharedStrings(sharedStringsPart(data, zip));
    const sheet = sheetRows(xml, strings, cap);
    // An inflated part is freed now (a stored one is the upload's own bytes).
    if (xml.buffer !== data.buffer) release(xml);
    if (sheet.rows.some((row) => row?.some((c) => !blank(c)))) return sheet;
  }
  return null;
}
