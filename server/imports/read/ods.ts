import { ImportError } from '../errors.js';
import { pieces } from './pieces.js';
import { LimitCounter, limitError, unreadable, type Cell, type Range, type RawSheet, type ReadLimits, type Row, type Rows } from './types.js';
import { inflateEntry, zipEntry, type Zip } from './zip.js';

/**
 * The .ods reader (issue 31): the data sheet of an OpenDocument spreadsheet as the cells SheetJS gave the
 * importer (`XLSX.read` with READ_OPTIONS: dense, values only, cellDates false), read off `content.xml`
 * as it inflates, one `…</table:table-row>` piece at a time (pieces.ts), and never held or decoded whole.
 *
 * Each piece is decoded alone and walked tag by tag by a port of SheetJS's `parse_content_xml` for these
 * options: the same tags by local name (any prefix), the same attribute rules, the same value types
 * (float, percentage, currency, date, time, boolean, string, errors written by LibreOffice), the same
 * paragraph text (`parse_text_p`: white space collapsed and trimmed, `<text:s>`, `<text:tab>`,
 * `<text:line-break>`, other tags dropped, paragraphs joined by '\n', a cell without a paragraph left
 * out), the same merges (`number-columns-spanned` / `number-rows-spanned` of a cell not self-closed).
 *
 * Repeats are where a hostile file hurt (a 0.9 kB file repeating one cell 10⁹ times): a repeated cell or
 * row holding nothing only moves the column or row index, however large its count; one holding
 * something is counted against the limits (LimitCounter) with its full count before a single copy is
 * made, and its copies share one frozen Cell. A cell's text is counted as its paragraphs accumulate
 * (`<text:s text:c="…">` before it is expanded). The data sheet is the first table holding a non-blank
 * cell; the rest of the file is not inflated.
 *
 * Deliberate differences from SheetJS (each a case where SheetJS misreads what LibreOffice shows, or
 * would itself blow up; none occurs in files LibreOffice or SheetJS write):
 * - A repeat or span count that is not a positive number (absent, 0, negative, not a number) counts 1.
 *   SheetJS moves its column index backwards or to NaN. Row counts are read as SheetJS reads them
 *   (`+value`, fractions dropped), column counts with parseInt, as SheetJS does.
 * - A self-closed cell (`<table:table-cell …/>`) is repeated over its columns and its row's repeats like
 *   any cell (SheetJS places a self-closed text cell once); a self-closed cell with a numeric, date,
 *   time or boolean value gives its value (SheetJS drops it); a self-closed text cell with no
 *   `office:string-value` (or an empty one) is empty (SheetJS gives one '' cell, which the importer
 *   reads as empty anyway).
 * - A self-closed row (`<table:table-row …/>`, which the schema does not allow) moves the row index by
 *   its repeat count, as LibreOffice reads it; SheetJS does not move it, shifting the rows after it up.
 * - Text is unescaped as XML: the five entities and numeric references (astral characters included;
 *   SheetJS truncates them to 16 bits). `_xHHHH_` is left as written (an OOXML escape, not ODF's;
 *   SheetJS decodes it in .ods too), and so is a malformed reference (`&AMP;`, which SheetJS turns into NUL).
 * - Attributes in single quotes or with spaces around '=' are read (valid XML; SheetJS's tag pattern
 *   skips such a tag entirely).
 * - Copies of a repeated cell holding NaN (a float cell without `office:value`) stay NaN (SheetJS's
 *   JSON copy turns them into null).
 * - A duration with days (`office:time-value="P1DT2H"`) is read; SheetJS refuses the whole file.
 * - A merge whose first cell lies past the row or column limit is dropped (it can never name a column).
 * - Hostile files are refused instead of read: see the limits below.
 *
 * Limits (ReadLimits, each an ImportError, 413): a cell with content at a row index ≥ maxRowIndex
 * (tooManyRows), at a column index ≥ `columns` (tooManyColumns), a cell's text longer than `cellChars`
 * (cellTooLong; the text of a shape anchored in the cell counts too, a comment's is skipped), a row's
 * XML longer than `rowBytes` (tooComplex, pieces.ts), `content.xml` inflating past `inflatedBytes`
 * (unzippedTooLarge, zip.ts); and, because repeats let a few bytes stand for many cells, the cell slots
 * materialised (rows times their length, each copy of a repeated row counted) at most `cells`
 * (tooComplex, LimitCounter.slots); for the same reason the spaces `<text:s text:c="n"/>` makes
 * (25 bytes for up to a cell's 32 767 characters), all cells together, at most `sharedStringChars`
 * (tooComplex). An unknown value type, a date cell without its date, a time
 * that is not a duration: 422 unreadable, as SheetJS throws on them.
 */

/**
 * A start or end tag (SheetJS's xlmlregex, with single-quoted attributes and spaces around '='): 1 the
 * closing slash, 2 the prefix with its colon, 3 the local name.
 */
const TAG = /<(\/?)([^\s?><!/:"']*:|)([^\s?<>:/"']+)(?:\s+[^<>=?"'\s]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*\/?>/g;
/** One attribute (SheetJS's attregexg): 1 the name, 2/3/4 the value double-quoted, single-quoted, bare. */
const ATTR = /\s([^"\s?>/]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^'">\s]+))/g;

/** Tags SheetJS treats as "ignore state": each of their start and end tags clears the cell's text so far. */
const CLEARS_TEXT = new Set([
  'meta',
  'settings',
  'config-item-set',
  'config-item-map-indexed',
  'config-item-map-entry',
  'config-item-map-named',
  'shapes',
  'frame',
  'text-box',
  'image',
  'data-pilot-tables',
  'list-style',
  'form',
  'dde-links',
  'event-listeners',
  'chart',
]);

/** LibreOffice's error texts (SheetJS's RBErr): an error cell's paragraph names one. */
const ERRORS = new Map<string, number>([
  ['#NULL!', 0x00],
  ['#DIV/0!', 0x07],
  ['#VALUE!', 0x0f],
  ['#REF!', 0x17],
  ['#NAME?', 0x1d],
  ['#NUM!', 0x24],
  ['#N/A', 0x2a],
  ['#GETTING_DATA', 0x2b],
  ['#WTF?', 0xff],
]);

/** The value types whose value is in the start tag. */
const VALUE_TYPES = new Set(['boolean', 'float', 'percentage', 'currency', 'date', 'time']);

type Attrs = Record<string, string>;
/** Where the raw `calcext:value-type` is kept in Attrs (a key with a colon never comes from a local name). */
const RAW_VALUE_TYPE = 'calcext:value-type';

/**
 * A tag's attributes by local name as SheetJS's parsexmltag keys them (and lower-cased): a prefixed name
 * by its local part, except that an `…ext:` duplicate (calcext:value-type after office:value-type) does
 * not overwrite; an unprefixed name cut at its first '_'. Plus the raw `calcext:value-type`
 * (parsexmltagraw), which marks LibreOffice's error cells.
 */
function attributes(tag: string): Attrs {
  const z: Attrs = Object.create(null);
  ATTR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTR.exec(tag))) {
    const q = m[1];
    const v = m[2] ?? m[3] ?? m[4] ?? '';
    const u = q.indexOf('_');
    if (q.length === RAW_VALUE_TYPE.length || u > 0) {
      const raw = u > 0 ? q.slice(0, u) : q;
      if (raw.toLowerCase() === RAW_VALUE_TYPE) z[RAW_VALUE_TYPE] = v;
    }
    const j = q.indexOf(':');
    let k: string;
    if (j < 0) k = u > 0 ? q.slice(0, u) : q;
    else {
      k = (j === 5 && q.startsWith('xmlns') ? 'xmlns' : '') + q.slice(j + 1);
      if (z[k] && q.slice(j - 3, j) === 'ext') continue;
    }
    z[k] = v;
    if (HAS_UPPER.test(k)) z[k.toLowerCase()] = v;
  }
  return z;
}
const HAS_UPPER = /[A-Z]/;

/** A column repeat or span count: parseInt as SheetJS, anything but a positive number counting 1. */
const columnCount = (s: string | undefined) => {
  const n = parseInt(s ?? '', 10);
  return n >= 1 ? n : 1;
};
/** A row repeat count: `+value` as SheetJS, fractions dropped, anything but a positive number counting 1. */
const rowCount = (s: string | undefined) => {
  const n = Number(s ?? '');
  return n >= 1 ? Math.floor(n) : 1;
};

const ENTITY = /&(?:(quot|apos|gt|lt|amp)|#(\d+)|#x([\da-fA-F]+));/g;
const NAMED: Record<string, string> = { quot: '"', apos: "'", gt: '>', lt: '<', amp: '&' };

/** XML text unescaped: the five entities and numeric references; anything else left as written. */
export function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (all, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return NAMED[name];
    const code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

const SPACES = /<text:s text:c="(\d+)"\/>/g;
const PLAIN_NOT = /[<&\t\r\n]| {2}/;

/**
 * One paragraph's text from its raw XML (SheetJS's parse_text_p): white space collapsed and trimmed,
 * then `<text:s/>` and `<text:s text:c="n"/>` spaces, tabs, line breaks, other tags dropped, entities.
 * The spaces `text:c` asks for are handed to `spend` (which refuses too many) before a single one is
 * made: `text:c="1000000000"` is refused, not built.
 */
function paragraphText(raw: string, spend: (spaces: number) => void): string {
  // Most paragraphs are plain text with single spaces: nothing to collapse, expand or unescape.
  if (!PLAIN_NOT.test(raw) && raw.trim() === raw) return raw;
  const fixed = raw
    .replace(/[\t\r\n]/g, ' ')
    .trim()
    .replace(/ +/g, ' ');
  if (fixed.includes('<text:s text:c=')) {
    let spaces = 0;
    for (const m of fixed.matchAll(SPACES)) spaces += parseInt(m[1], 10);
    spend(spaces);
  }
  const text = fixed
    .replace(/<text:s\/>/g, ' ')
    .replace(SPACES, (_, n: string) => ' '.repeat(parseInt(n, 10)))
    .replace(/<text:tab[^<>]*\/>/g, '\t')
    .replace(/<text:line-break\/>/g, '\n');
  return unescapeXml(text.replace(/<[^<>]*>/g, ''));
}

/** xsd:boolean as SheetJS reads office:boolean-value (parsexmlbool, or a number ≥ 1). */
const booleanValue = (s: string | undefined) => s === 'true' || s === '1' || Number(s) >= 1;

const DAY = 24 * 60 * 60 * 1000;
const EPOCH = Date.UTC(1899, 11, 30);
const EPOCH1 = Date.UTC(1899, 11, 31);
const EPOCH1904 = Date.UTC(1904, 0, 1);

/** office:date-value as a UTC Date (SheetJS's parseDate). */
function parseDate(s: string | undefined, date1904: boolean): Date {
  if (s === undefined) throw unreadable();
  let m = /^(\d+):(\d+)(:\d+)?(\.\d+)?$/.exec(s);
  if (m) {
    const secs = (parseInt(m[1], 10) * 60 + parseInt(m[2], 10)) * 60 + (m[3] ? parseInt(m[3].slice(1), 10) : 0);
    return new Date((date1904 ? EPOCH1904 : EPOCH1) + secs * 1000 + (m[4] ? parseInt((m[4] + '000').slice(1, 4), 10) : 0));
  }
  m = /^(\d+)-(\d+)-(\d+)$/.exec(s);
  if (m) return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], 0, 0, 0, 0));
  m = /^(\d+)-(\d+)-(\d+)[T ](\d+):(\d+)(:\d+)?(\.\d+)?$/.exec(s);
  if (m) {
    const sec = (m[6] && parseInt(m[6].slice(1), 10)) || 0;
    const ms = (m[7] && parseInt((m[7] + '0000').slice(1, 4), 10)) || 0;
    return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], sec, ms));
  }
  return new Date(s);
}

/** A date as Excel's serial number (SheetJS's datenum, 1900 leap-year bug included). */
function dateNumber(d: Date, date1904: boolean): number {
  let res = (d.getTime() - EPOCH) / DAY;
  if (date1904) {
    res -= 1462;
    return res < -1402 ? res - 1 : res;
  }
  return res < 60 ? res - 1 : res;
}

/** office:time-value (an ISO 8601 duration, `PT12H30M00S`) in seconds (SheetJS's parse_isodur). */
function durationSeconds(s: string | undefined): number {
  const m = s === undefined ? null : /P([0-9.]+Y)?([0-9.]+M)?([0-9.]+D)?T([0-9.]+H)?([0-9.]+M)?([0-9.]+S)?/.exec(s);
  if (!m) throw unreadable();
  let sec = 0;
  for (let i = 1; i < m.length; i++) {
    if (!m[i]) continue;
    let mt = 1;
    switch (m[i].slice(-1)) {
      case 'Y':
        throw unreadable();
      case 'D':
        mt = 24 * 60 * 60;
        break;
      case 'H':
        mt = 60 * 60;
        break;
      case 'M':
        if (i <= 3) throw unreadable();
        mt = 60;
        break;
    }
    sec += mt * parseInt(m[i], 10);
  }
  return sec;
}

interface Sheet {
  rows: Rows;
  merges: Range[];
  nonBlank: boolean;
}

/** The open cell: its attributes, column repeat, and its value when its type fixes it at the start tag. */
interface OpenCell {
  attrs: Attrs;
  repeat: number;
  t: Cell['t'];
  v: Cell['v'];
}

/**
 * The walk's state across pieces: SheetJS's R, C, rowpeat, textp and textpidx (here `text`, `paragraph`
 * and `pStart`), the sheet being read and the row being filled (its copies are made at its end tag).
 */
class OdsWalk {
  private readonly counter: LimitCounter;
  /** the spaces `<text:s text:c>` made so far, all cells together */
  private spaces = 0;
  private date1904 = false;
  private sheet: Sheet | null = null;
  private r = -1;
  private c = -1;
  private rowRepeat = 1;
  private row: Row | null = null;
  private cell: OpenCell | null = null;
  /** the cell's text so far, whether a paragraph started, where the open paragraph's text starts */
  private text = '';
  private paragraph = false;
  private pStart = -1;
  private annotation = 0;
  private saved = { text: '', paragraph: false };
  /** an XML comment left open at the end of a piece, read with the next */
  private carry = '';

  constructor(readonly limits: ReadLimits) {
    this.counter = new LimitCounter(limits);
  }

  /** Walks one decoded piece; the data sheet when its table ends in this piece. */
  piece(decoded: string): RawSheet | null {
    let str = this.carry ? this.carry + decoded : decoded;
    this.carry = '';
    // A paragraph never spans a row's end: an offset from the last piece means nothing in this one.
    this.pStart = -1;
    if (str.includes('<!--')) str = this.withoutComments(str);
    TAG.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = TAG.exec(str))) {
      const tag = m[0];
      const close = m[1] === '/';
      const self = !close && tag.charCodeAt(tag.length - 2) === 47;
      const local = m[3].includes('_') ? m[3].replace(/_[\s\S]*$/, '') : m[3];
      switch (local) {
        case 'table':
          if (close) {
            const done = this.endTable();
            if (done) return done;
          } else if (!self) this.startTable();
          break;
        case 'table-row':
          if (close) this.endRow();
          else {
            this.startRow(tag);
            if (self) this.endRow();
          }
          break;
        case 'covered-table-cell':
          if (!close) this.c += columnCount(attributes(tag)['number-columns-repeated']);
          this.cell = null;
          break;
        case 'table-cell':
          if (close) this.endCell();
          else if (self) this.selfClosedCell(tag);
          else this.startCell(tag);
          break;
        case 'p':
          if (this.cell && this.annotation === 0) this.paragraphTag(str, m.index, tag, close, self);
          break;
        case 'annotation':
          if (self) break;
          if (close) {
            if (this.annotation > 0 && --this.annotation === 0) ({ text: this.text, paragraph: this.paragraph } = this.saved);
          } else if (this.annotation++ === 0) this.saved = { text: this.text, paragraph: this.paragraph };
          break;
        case 'null-date':
          if (!close && attributes(tag)['date-value'] === '1904-01-01') this.date1904 = true;
          break;
        default:
          if (this.annotation === 0 && CLEARS_TEXT.has(local)) {
            this.text = '';
            this.paragraph = false;
          }
      }
    }
    return null;
  }

  /** The text without its XML comments; a comment still open at the end is kept for the next piece. */
  private withoutComments(str: string): string {
    let out = '';
    let last = 0;
    for (let si = str.indexOf('<!--'); si >= 0; si = str.indexOf('<!--', last)) {
      out += str.slice(last, si);
      const ei = str.indexOf('-->', si + 4);
      if (ei < 0) {
        this.carry = str.slice(si);
        if (this.carry.length > this.limits.rowBytes) throw limitError('complex', this.limits);
        return out;
      }
      last = ei + 3;
    }
    return out + str.slice(last);
  }

  private startTable() {
    this.sheet = { rows: [], merges: [], nonBlank: false };
    this.r = this.c = -1;
    this.row = null;
    this.cell = null;
  }

  /** The table's end: the data sheet if it holds a non-blank cell. */
  private endTable(): RawSheet | null {
    if (this.row) this.endRow();
    const sheet = this.sheet;
    this.sheet = null;
    this.cell = null;
    return sheet?.nonBlank ? { rows: sheet.rows, merges: sheet.merges } : null;
  }

  private startRow(tag: string) {
    if (this.r === -1) this.r = 0;
    this.rowRepeat = rowCount(attributes(tag)['number-rows-repeated']);
    this.c = -1;
    this.row = null;
    this.cell = null;
  }

  /**
   * The row's end: a row holding cells is counted with its repeats (and its slots) before its copies
   * are made; an empty one, however often repeated, only moves the row index.
   */
  private endRow() {
    const row = this.row;
    if (row && this.sheet) {
      this.counter.row(this.r, this.rowRepeat);
      this.counter.slots(row.length * this.rowRepeat);
      const rows = this.sheet.rows;
      rows[this.r] = row;
      for (let i = 1; i < this.rowRepeat; i++) rows[this.r + i] = row.slice();
    }
    this.r += this.rowRepeat;
    this.rowRepeat = 1;
    this.row = null;
    this.cell = null;
  }

  /**
   * A cell's start tag: its merge, its repeat, and its value when the type fixes it (SheetJS's switch on
   * office:value-type); text cells take `office:string-value` or their paragraphs.
   */
  private startCell(tag: string) {
    this.c++;
    this.text = '';
    this.paragraph = false;
    this.pStart = -1;
    this.annotation = 0;
    const attrs = attributes(tag);
    if (attrs['number-columns-spanned'] || attrs['number-rows-spanned']) {
      const rows = columnCount(attrs['number-rows-spanned']);
      const cols = columnCount(attrs['number-columns-spanned']);
      if (rows * cols > 1 && this.sheet && this.r < this.counter.maxRow && this.c < this.limits.columns) {
        this.sheet.merges.push({ s: { r: this.r, c: this.c }, e: { r: this.r + rows - 1, c: this.c + cols - 1 } });
      }
    }
    this.cell = { attrs, repeat: columnCount(attrs['number-columns-repeated']), ...this.typedValue(attrs) };
    if (this.cell.t === 's' && attrs['string-value'] != null) {
      this.text = unescapeXml(attrs['string-value']);
      this.counter.text(this.text.length, this.r, this.c);
    }
  }

  private typedValue(attrs: Attrs): Pick<OpenCell, 't' | 'v'> {
    const type = attrs['value-type'];
    switch (type) {
      case 'boolean':
        return { t: 'b', v: booleanValue(attrs['boolean-value']) };
      case 'float':
      case 'percentage':
      case 'currency':
        return { t: 'n', v: parseFloat(attrs.value) };
      case 'date':
        return { t: 'n', v: dateNumber(parseDate(attrs['date-value'], this.date1904), this.date1904) };
      case 'time':
        return { t: 'n', v: durationSeconds(attrs['time-value']) / 86400 };
      case 'number':
        // UOF's type, which SheetJS reads from its own attribute.
        return { t: 'n', v: parseFloat(attrs['数据数值']) };
      default:
        if (type === 'string' || type === 'text' || !type) return { t: 's', v: '' };
        throw unreadable();
    }
  }

  /**
   * A cell's end tag: an error cell (LibreOffice's calcext:value-type="error" and an error text), a text
   * cell from its text (nothing without a paragraph: SheetJS's stub), any other from its start tag.
   */
  private endCell() {
    const cell = this.cell;
    this.cell = null;
    if (!cell) return;
    let t = cell.t;
    let v = cell.v;
    const error = cell.attrs[RAW_VALUE_TYPE] === 'error' ? ERRORS.get(this.text) : undefined;
    if (error !== undefined) {
      t = 'e';
      v = error;
    } else if (t === 's') {
      if (!this.paragraph) {
        this.c += cell.repeat - 1;
        return;
      }
      v = this.text;
    }
    this.put(t, v, cell.repeat);
  }

  /**
   * `<table:table-cell …/>`: a text cell from its `office:string-value` (as SheetJS, but over all its
   * repeats), a number, date, time or boolean from its value (SheetJS drops them), else nothing; never
   * a merge (as SheetJS).
   */
  private selfClosedCell(tag: string) {
    this.c++;
    this.cell = null;
    // The common case, LibreOffice's trailing `<table:table-cell table:number-columns-repeated="1024"/>`.
    if (!/value/i.test(tag)) {
      if (/repeated/i.test(tag)) this.c += columnCount(attributes(tag)['number-columns-repeated']) - 1;
      return;
    }
    const attrs = attributes(tag);
    const repeat = columnCount(attrs['number-columns-repeated']);
    const type = attrs['value-type'];
    if (type === 'string' && attrs['string-value']) {
      const text = unescapeXml(attrs['string-value']);
      this.counter.text(text.length, this.r, this.c);
      this.put('s', text, repeat);
    } else if (type && VALUE_TYPES.has(type)) {
      const { t, v } = this.typedValue(attrs);
      this.put(t, v, repeat);
    } else this.c += repeat - 1;
  }

  /** A cell with content at (r, c) `repeat` times along the row: counted, then one frozen Cell shared. */
  private put(t: Cell['t'], v: Cell['v'], repeat: number) {
    if (!this.sheet) {
      this.c += repeat - 1;
      return;
    }
    this.counter.cell(this.r, this.c, repeat);
    const cell: Cell = Object.freeze({ t, v });
    const row = (this.row ??= []);
    for (let i = 0; i < repeat; i++) row[this.c + i] = cell;
    if (!this.sheet.nonBlank && String(v).trim() !== '') this.sheet.nonBlank = true;
    this.c += repeat - 1;
  }

  /**
   * `<text:p>` in a cell (SheetJS's case 'p'): its end tag adds the paragraph's text (after a '\n' when
   * there is text already) unless the cell has a string-value; a self-closed one adds '\n'.
   */
  private paragraphTag(str: string, index: number, tag: string, close: boolean, self: boolean) {
    if (close && !this.cell!.attrs['string-value']) {
      const raw = this.pStart >= 0 && this.pStart <= index ? str.slice(this.pStart, index) : '';
      const sep = this.text.length > 0 ? 1 : 0;
      const p = paragraphText(raw, (spaces) => {
        this.counter.text(this.text.length + sep + spaces, this.r, this.c);
        // The only text that costs less XML than it makes: all cells' together within a budget.
        this.spaces += spaces;
        if (this.spaces > this.limits.sharedStringChars) throw limitError('complex', this.limits);
      });
      this.counter.text(this.text.length + sep + p.length, this.r, this.c);
      this.text = sep ? `${this.text}\n${p}` : p;
      this.pStart = -1;
    } else if (self) {
      this.counter.text(this.text.length + 1, this.r, this.c);
      this.text += '\n';
    } else {
      this.paragraph = true;
      this.pStart = index + tag.length;
    }
  }
}

/**
 * The data sheet of an .ods (`zip.kind === 'ods'`, opened by openZip): the first table holding a
 * non-blank cell, or null when none does. `content.xml` is inflated as a stream and walked a row at a
 * time; the walk stops (and the inflation with it) at the end of the data sheet.
 */
export async function readOds(zip: Zip, limits: ReadLimits): Promise<RawSheet | null> {
  const entry = zipEntry(zip, 'content.xml');
  if (!entry) throw unreadable();
  const walk = new OdsWalk(limits);
  try {
    for await (const piece of pieces(inflateEntry(zip, entry), 'table-row', limits)) {
      const sheet = walk.piece(piece.toString('utf8'));
      if (sheet) return sheet;
    }
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw unreadable();
  }
  return null;
}
