import { closeTagEnd, openTag, pieces } from './pieces.js';
import { LimitCounter, limitError, unreadable, type Cell, type RawSheet, type ReadLimits, type Range, type Rows } from './types.js';
import { inflateEntry, readEntry, zipEntry, type Zip } from './zip.js';

/**
 * The .xlsx reader (issues 20 and 31): the data sheet's rows as the cells SheetJS gives with the
 * importer's options (dense, values only, dates as serial numbers), read while the parts inflate. The
 * shared strings and then each sheet stream through `pieces` one `</si>` or `</row>` at a time; every
 * piece is decoded alone (latin1, as SheetJS reads parts) and its cells made by a port of SheetJS's
 * `parse_sst_xml` / `parse_ws_xml_data` for those options (the same splits, unescaping, types and `r`
 * handling). Every limit is counted as the cells appear: rows and columns of non-empty cells, characters
 * per cell, shared strings and their characters, bytes inflated, bytes of one row. Nothing falls back to
 * another parser: what this reader cannot follow is refused as unreadable (docs/spreadsheet-reader.md).
 */

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

function encodeCell(r: number, c: number): string {
  let col = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) col = String.fromCharCode(((n - 1) % 26) + 65) + col;
  return `${col}${r + 1}`;
}

/** SheetJS's parseDate (ISO forms, as UTC) and datenum: a `t="d"` cell as the serial number SheetJS gives without cellDates. */
const DAY = 24 * 60 * 60 * 1000;
const EPOCH = Date.UTC(1899, 11, 30);
const TIME_EPOCH = Date.UTC(1899, 11, 31);
const TIME_EPOCH_1904 = Date.UTC(1904, 0, 1);
function dateSerial(text: string, date1904: boolean): number {
  let m: RegExpMatchArray | null;
  let d: Date;
  if ((m = text.match(/^(\d+):(\d+)(:\d+)?(\.\d+)?$/))) {
    const ms =
      ((parseInt(m[1], 10) * 60 + parseInt(m[2], 10)) * 60 + (m[3] ? parseInt(m[3].slice(1), 10) : 0)) * 1000 +
      (m[4] ? parseInt((m[4] + '000').slice(1, 4), 10) : 0);
    d = new Date((date1904 ? TIME_EPOCH_1904 : TIME_EPOCH) + ms);
  } else if ((m = text.match(/^(\d+)-(\d+)-(\d+)$/))) d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], 0, 0, 0, 0));
  else if ((m = text.match(/^(\d+)-(\d+)-(\d+)[T ](\d+):(\d+)(:\d+)?(\.\d+)?$/))) {
    d = new Date(
      Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], (m[6] && parseInt(m[6].slice(1), 10)) || 0, (m[7] && parseInt((m[7] + '0000').slice(1, 4), 10)) || 0),
    );
  } else d = new Date(text);
  const res = (d.getTime() - EPOCH) / DAY;
  if (date1904) {
    const r = res - 1462;
    return r < -1402 ? r - 1 : r;
  }
  return res < 60 ? res - 1 : res;
}

/**
 * Cells are shared: every cell of one shared string, and every number cell with the same text, is the
 * same frozen object (a tariff repeats its codes, units and brackets on every row: 100 000 rows hold a
 * few thousand distinct cells). The importer only reads cells; a merged header cell is copied.
 */
class CellPool {
  private strings: Array<Cell | undefined> = [];
  private numbers = new Map<string, Cell>();
  constructor(private readonly sst: Array<string | undefined>) {}
  shared(index: number): Cell | undefined {
    // SheetJS fails on an index past the table (`strs[i].t` of undefined): the file is refused as damaged.
    if (!(index in this.sst)) throw unreadable();
    const text = this.sst[index];
    if (text === undefined) return undefined;
    return (this.strings[index] ??= Object.freeze({ t: 's', v: text }) as Cell);
  }
  number(text: string): Cell {
    let cell = this.numbers.get(text);
    if (!cell) {
      cell = Object.freeze({ t: 'n', v: parseFloat(text) }) as Cell;
      // Bounded: a sheet of all-distinct numbers gets fresh cells past 100 000 of them.
      if (this.numbers.size < 100_000) this.numbers.set(text, cell);
    }
    return cell;
  }
}

const CELL_SPLIT = /<(?:\w+:)?c[ />]/;
const R_ATTR = /r=["']([^"']*)["']/;
const isBlank = (c: Cell | undefined) => !c || c.v === undefined || String(c.v).trim() === '';

/** One sheet being read: the rows so far, the row number of the last row tag, the limits. */
interface SheetState {
  rows: Rows;
  pool: CellPool;
  counter: LimitCounter;
  date1904: boolean;
  tagr: number;
  /** a non-blank cell was seen: this is the data sheet */
  filled: boolean;
}

/** One `</row>`-delimited piece (its closing tag cut off): the last row start tag in it, then its cells (parse_ws_xml_data). */
function parseRow(x: string, s: SheetState) {
  if (x.length === 0) return;
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
  if (start >= ri) return;
  const rowTag = attributes(x.slice(start, ri));
  s.tagr = rowTag.r != null ? parseInt(rowTag.r, 10) : s.tagr + 1;
  const tagr = s.tagr;
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
    // A self-closed cell without a type holds nothing (SheetJS: no `t`, no `v`, skipped): a row of a thousand
    // `<c/>` or `<c r="B7" s="3"/>` is walked without parsing their attributes.
    if (cx === '>' || (cx.endsWith('/>') && cx.indexOf('>') === cx.length - 1 && !cx.includes('t='))) continue;
    cx = '<c ' + (cx.charAt(0) === '<' ? '>' : '') + cx;
    const gt = cx.indexOf('>') + 1 || cx.length + 1;
    const tag = attributes(cx.slice(0, gt));
    const ref = tag.r || encodeCell(tagr - 1, tagc);
    const d = cx.slice(gt);
    const vm = matchTag(d, 'v');
    let v: unknown = vm && vm[1] !== '' ? unescapeXml(vm[1]) : undefined;
    if (tag.t == null && v === undefined) continue;
    let t = tag.t || 'n';
    let cell: Cell | undefined;
    switch (t) {
      case 'n':
        if (v == '' || v == null) continue;
        cell = s.pool.number(v as string);
        break;
      case 's':
        if (v === undefined) continue;
        cell = s.pool.shared(parseInt(v as string, 10));
        if (!cell) continue;
        break;
      case 'str':
        t = 's';
        v = v != null ? unescapeXml(utf8(v as string), true) : '';
        break;
      case 'inlineStr': {
        t = 's';
        const is = matchTag(d, 'is');
        v = (is && stringItem(is[1])) ?? '';
        break;
      }
      case 'b':
        v = bool(v);
        break;
      case 'e':
        v = ERRORS[v as string];
        break;
      case 'd':
        t = 'n';
        v = dateSerial(String(v), s.date1904);
        break;
      default:
        // SheetJS keeps an unknown type as it is; no spreadsheet program writes one.
        throw unreadable();
    }
    cell ??= { t, v } as Cell;
    const at = decodeCell(ref);
    if (!isBlank(cell)) {
      s.counter.cell(at.r, at.c);
      if (typeof cell.v === 'string') s.counter.text(cell.v.length, at.r, at.c);
      s.filled = true;
    }
    if (at.r < 0 || at.c < 0) continue;
    // A blank cell past the last row or column is neither counted nor kept: it cannot be data.
    if (at.r >= s.counter.maxRow || at.c >= s.counter.limits.columns) continue;
    const row = (s.rows[at.r] ??= []);
    // Rows are dense: one cell at column 999 costs a thousand slots (ReadLimits.cells).
    if (at.c >= row.length) s.counter.slots(at.c + 1 - row.length);
    row[at.c] = cell;
  }
}

/** The merged ranges of the part after `</sheetData>` (SheetJS reads `<mergeCell ref=…>` the same way). */
function mergesOf(tail: string): Range[] {
  const merges: Range[] = [];
  for (const m of tail.match(/<(?:\w+:)?mergeCell ref=["'][A-Z0-9:]+['"]\s*[/]?>/g) ?? []) {
    const [s, e = s] = m
      .slice(m.indexOf('=') + 2)
      .replace(/['"].*$/, '')
      .split(':');
    merges.push({ s: decodeCell(s), e: decodeCell(e) });
  }
  return merges;
}

/** Reads one sheet part as it inflates: rows, then the merges after them. */
async function readSheet(
  zip: Zip,
  part: string,
  strings: Array<string | undefined>,
  limits: ReadLimits,
  date1904: boolean,
): Promise<RawSheet & { filled: boolean }> {
  const entry = zipEntry(zip, part);
  if (!entry) throw unreadable();
  const s: SheetState = { rows: [], pool: new CellPool(strings), counter: new LimitCounter(limits), date1904, tagr: 0, filled: false };
  let state: 'before' | 'rows' | 'after' = 'before';
  let tail = '';
  for await (const piece of pieces(inflateEntry(zip, entry), 'row', limits)) {
    let from = 0;
    if (state === 'before') {
      const open = openTag(piece, 'sheetData');
      if (!open) continue;
      if (open.selfClosed) {
        state = 'after';
        tail = piece.toString('latin1', open.end);
        continue;
      }
      state = 'rows';
      from = open.end;
    }
    if (state === 'after') {
      tail += piece.toString('latin1');
      continue;
    }
    // The last piece holds `</sheetData>` and what follows it (the merges); the others end with `</row>`.
    const sheetEnd = closeTagEnd(piece, 'sheetData', from);
    if (sheetEnd >= 0) {
      const close = piece.lastIndexOf(0x3c, sheetEnd - 1);
      parseRow(piece.toString('latin1', from, close).trim(), s);
      tail = piece.toString('latin1', sheetEnd);
      state = 'after';
      continue;
    }
    const close = piece.lastIndexOf(0x3c);
    if (close < from) continue;
    parseRow(piece.toString('latin1', from, close).trim(), s);
  }
  if (state === 'rows') throw unreadable();
  return { rows: s.rows, merges: mergesOf(tail), filled: s.filled };
}

/**
 * The shared strings, read as they inflate (parse_sst_xml): the text between one `</si>` and the next,
 * `<si>` tags dropped, trimmed, made by parse_si; the piece after the last one too (SheetJS keeps it).
 * Counted against the limits as they come: how many, and their characters in all.
 */
async function sharedStrings(zip: Zip, part: string | undefined, limits: ReadLimits): Promise<Array<string | undefined>> {
  const entry = part ? zipEntry(zip, part) : undefined;
  if (!entry) return [];
  const out: Array<string | undefined> = [];
  let chars = 0;
  let started = false;
  let closed = false;
  const add = (x: string) => {
    const text = stringItem(x.replace(/<(?:\w+:)?si>/g, '').trim());
    out.push(text);
    chars += text?.length ?? 0;
    if (out.length > limits.sharedStrings || chars > limits.sharedStringChars) throw limitError('complex', limits);
  };
  for await (const piece of pieces(inflateEntry(zip, entry), 'si', limits)) {
    if (closed) continue;
    let from = 0;
    if (!started) {
      const open = openTag(piece, 'sst');
      if (!open || open.selfClosed) continue;
      started = true;
      from = open.end;
    }
    const sstEnd = closeTagEnd(piece, 'sst', from);
    if (sstEnd >= 0) {
      add(piece.toString('latin1', from, piece.lastIndexOf(0x3c, sstEnd - 1)));
      closed = true;
      continue;
    }
    const close = piece.lastIndexOf(0x3c);
    if (close < from) continue;
    add(piece.toString('latin1', from, close));
  }
  return closed ? out : [];
}

/** The relationships of a part (`dir/_rels/name.rels`): Id → absolute target and type. */
async function relationships(zip: Zip, partPath: string): Promise<Map<string, { target: string; type: string }>> {
  const slash = partPath.lastIndexOf('/');
  const dir = partPath.slice(0, slash + 1);
  const rels = (await readEntry(zip, `${dir}_rels/${partPath.slice(slash + 1)}.rels`))?.toString('latin1') ?? '';
  const out = new Map<string, { target: string; type: string }>();
  for (const m of rels.match(/<(?:\w+:)?Relationship\b[^>]*>/g) ?? []) {
    const a = attributes(m);
    if (a.Id) out.set(a.Id, { target: resolvePath(dir, a.Target ?? ''), type: a.Type ?? '' });
  }
  return out;
}

/** A relationship's target as a zip path: absolute ("/xl/x.xml") or relative to the part's folder (with "../"). */
function resolvePath(dir: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : dir + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

/**
 * The workbook's worksheets in order with its shared-strings part and date system. The workbook is the
 * package's officeDocument (xl/workbook.xml when the package does not say); chart, dialog and macro
 * sheets hold no cells and are passed over, as SheetJS finds them empty.
 */
async function workbookParts(zip: Zip): Promise<{ sheets: string[]; sharedStrings?: string; date1904: boolean }> {
  const root = await relationships(zip, '');
  const office = [...root.values()].find((r) => /\/officeDocument$/.test(r.type))?.target;
  const workbookPath = office && zipEntry(zip, office) ? office : 'xl/workbook.xml';
  const wb = (await readEntry(zip, workbookPath))?.toString('latin1');
  if (!wb) throw unreadable();
  const rels = await relationships(zip, workbookPath);
  const sheets: string[] = [];
  for (const s of (matchTag(wb, 'sheets')?.[1] ?? '').match(/<(?:\w+:)?sheet\b[^>]*>/g) ?? []) {
    const rel = rels.get(attributes(s).id);
    if (!rel || !/\/worksheet$/.test(rel.type)) continue;
    if (!zipEntry(zip, rel.target)) throw unreadable();
    sheets.push(rel.target);
  }
  const sst = [...rels.values()].find((r) => /\/sharedStrings$/.test(r.type))?.target;
  const pr = /<(?:\w+:)?workbookPr\b[^>]*>/.exec(wb);
  return { sheets, sharedStrings: sst, date1904: !!pr && bool(attributes(pr[0]).date1904) };
}

/**
 * The data sheet of an .xlsx (the first worksheet holding a non-blank cell), or null when none does.
 * The shared strings are read once, before the first sheet that needs them.
 */
export async function readXlsx(zip: Zip, limits: ReadLimits): Promise<RawSheet | null> {
  const { sheets, sharedStrings: sstPart, date1904 } = await workbookParts(zip);
  let strings: Array<string | undefined> | undefined;
  for (const part of sheets) {
    strings ??= await sharedStrings(zip, sstPart, limits);
    const sheet = await readSheet(zip, part, strings, limits, date1904);
    if (sheet.filled || sheet.rows.some((row) => row?.some((c) => !isBlank(c)))) return { rows: sheet.rows, merges: sheet.merges };
  }
  return null;
}
