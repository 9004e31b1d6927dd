import { ImportError } from '../errors.js';
import { LimitCounter, limitError, unreadable, type Cell, type CellAddress, type Range, type RawSheet, type ReadLimits, type Rows } from './types.js';

/**
 * The .xls reader (issue 31): the data sheet of an Excel 97–2003 (BIFF8) or Excel 5/95 (BIFF5) workbook,
 * read from its OLE2 compound file without SheetJS, as the cells SheetJS gave the importer with its
 * values-only options (docs/xls-reader.md). The limits are counted as the records are read. Every
 * structure is bounded by the file itself: sector numbers in range, each chain walked at most once (a
 * loop is refused), the directory tree walked without recursion, every record inside its stream, each
 * sheet's records walked once; nothing is allocated from a count the file declares.
 */

// ---------------------------------------------------------------------------------------------------
// The compound file (MS-CFB): header, FAT (through the DIFAT), directory, mini stream.

const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;
const NOSTREAM = 0xffffffff;
/** Streams shorter than this live in the mini stream (fixed by MS-CFB; SheetJS uses the constant too). */
const MINI_CUTOFF = 4096;
const MINI_SECTOR = 64;

interface Container {
  data: Buffer;
  sectorSize: number;
  /** next sector of each sector of the file (FREESECT where the FAT says nothing) */
  fat: Uint32Array;
  /** the directory's entries, 128 bytes each */
  dir: Buffer;
  miniFatStart: number;
  v4: boolean;
}

/**
 * The sectors of a chain from `start`: `count` of them (a stream of known size), or up to ENDOFCHAIN
 * (count < 0). A sector out of range, a chain ending early and a sector seen twice (a loop) are refused:
 * the walk is at most as long as the file has sectors.
 */
function chain(next: Uint32Array, start: number, count: number): number[] {
  const sectors: number[] = [];
  const seen = new Uint8Array(next.length);
  for (let s = start; count < 0 ? s !== ENDOFCHAIN : sectors.length < count; s = next[s]) {
    if (s >= next.length || seen[s]) throw unreadable();
    seen[s] = 1;
    sectors.push(s);
  }
  return sectors;
}

/** `size` bytes of the sectors given (a view when they follow each other, else one copy). */
function gather(src: Buffer, sectors: number[], sectorSize: number, base: number, size: number): Buffer {
  if (size === 0) return Buffer.alloc(0);
  const first = base + sectors[0] * sectorSize;
  let contiguous = true;
  for (let i = 1; i < sectors.length && contiguous; i++) contiguous = sectors[i] === sectors[0] + i;
  if (contiguous) {
    if (first + size > src.length) throw unreadable();
    return src.subarray(first, first + size);
  }
  const out = Buffer.allocUnsafe(size);
  for (let i = 0; i < sectors.length; i++) {
    const at = base + sectors[i] * sectorSize;
    const n = Math.min(sectorSize, size - i * sectorSize);
    if (at + n > src.length) throw unreadable();
    src.copy(out, i * sectorSize, at, at + n);
  }
  return out;
}

/** The header checked, the FAT assembled from the header's DIFAT and the DIFAT chain, the directory read. */
function openContainer(data: Buffer): Container {
  if (data.length < 512 || data.readUInt32LE(0) !== 0xe011cfd0 || data.readUInt32LE(4) !== 0xe11ab1a1) throw unreadable();
  const major = data.readUInt16LE(26);
  const shift = data.readUInt16LE(30);
  if (!((major === 3 && shift === 9) || (major === 4 && shift === 12)) || data.readUInt16LE(32) !== 6) throw unreadable();
  const sectorSize = 1 << shift;
  // Sector n starts at (n + 1) × size (the header takes the first one); a last partial sector counts.
  const sectors = Math.max(0, Math.ceil((data.length - sectorSize) / sectorSize));
  const perSector = sectorSize / 4;

  // Only the FAT sectors that describe sectors of this file are read, whatever the header declares.
  const wanted = Math.min(data.readUInt32LE(44), Math.ceil(sectors / perSector));
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < wanted; i++) fatSectors.push(data.readUInt32LE(76 + 4 * i));
  const seen = new Uint8Array(sectors);
  for (let d = data.readUInt32LE(68); fatSectors.length < wanted;) {
    if (d >= sectors || seen[d]) throw unreadable();
    seen[d] = 1;
    const at = (d + 1) * sectorSize;
    if (at + sectorSize > data.length) throw unreadable();
    for (let i = 0; i < perSector - 1 && fatSectors.length < wanted; i++) fatSectors.push(data.readUInt32LE(at + 4 * i));
    d = data.readUInt32LE(at + sectorSize - 4);
  }
  const fat = new Uint32Array(sectors).fill(FREESECT);
  fatSectors.forEach((s, j) => {
    if (s >= sectors) throw unreadable();
    const at = (s + 1) * sectorSize;
    const n = Math.min(perSector, sectors - j * perSector);
    if (at + 4 * n > data.length) throw unreadable();
    for (let i = 0; i < n; i++) fat[j * perSector + i] = data.readUInt32LE(at + 4 * i);
  });

  const dirSectors = chain(fat, data.readUInt32LE(48), -1);
  const dir = gather(data, dirSectors, sectorSize, sectorSize, dirSectors.length * sectorSize);
  return { data, sectorSize, fat, dir, miniFatStart: data.readUInt32LE(60), v4: major === 4 };
}

/** A directory entry's name (at most 31 characters), NULs dropped. */
function entryName(dir: Buffer, i: number): string {
  const chars = Math.max(0, (Math.min(64, dir.readUInt16LE(i * 128 + 64)) >> 1) - 1);
  return dir.toString('utf16le', i * 128, i * 128 + 2 * chars).replace(/\0/g, '');
}

/**
 * The root storage's children by upper-case name (the first of equal names). The red-black tree is
 * walked with a stack, each entry at most once (a cycle is refused), so no file can deepen a recursion.
 */
function rootChildren(c: Container): Map<string, number> {
  const entries = c.dir.length / 128;
  if (entries === 0 || c.dir[66] !== 5) throw unreadable();
  const children = new Map<string, number>();
  const seen = new Uint8Array(entries);
  const stack = [c.dir.readUInt32LE(76)];
  while (stack.length) {
    const i = stack.pop()!;
    if (i === NOSTREAM) continue;
    if (i >= entries || seen[i]) throw unreadable();
    seen[i] = 1;
    const name = entryName(c.dir, i).toUpperCase();
    if (c.dir[i * 128 + 66] !== 0 && !children.has(name)) children.set(name, i);
    stack.push(c.dir.readUInt32LE(i * 128 + 68), c.dir.readUInt32LE(i * 128 + 72));
  }
  return children;
}

/** A stream's bytes: from the file's sectors, or from the mini stream when it is short. */
function streamBytes(c: Container, entry: number): Buffer {
  const at = entry * 128;
  const start = c.dir.readUInt32LE(at + 116);
  const size = c.dir.readUInt32LE(at + 120);
  // Version 3 writers may leave garbage in the size's high half (MS-CFB): only version 4 is held to it.
  if ((c.v4 && c.dir.readUInt32LE(at + 124) !== 0) || size > c.data.length) throw unreadable();
  if (size >= MINI_CUTOFF) return gather(c.data, chain(c.fat, start, Math.ceil(size / c.sectorSize)), c.sectorSize, c.sectorSize, size);

  const rootSize = c.dir.readUInt32LE(120);
  if (rootSize > c.data.length) throw unreadable();
  const mini = gather(c.data, chain(c.fat, c.dir.readUInt32LE(116), Math.ceil(rootSize / c.sectorSize)), c.sectorSize, c.sectorSize, rootSize);
  const miniFatSectors = chain(c.fat, c.miniFatStart, -1);
  const miniFatBytes = gather(c.data, miniFatSectors, c.sectorSize, c.sectorSize, miniFatSectors.length * c.sectorSize);
  // Entries past the mini stream's end name no mini sector.
  const next = new Uint32Array(Math.min(miniFatBytes.length / 4, Math.ceil(mini.length / MINI_SECTOR)));
  for (let i = 0; i < next.length; i++) next[i] = miniFatBytes.readUInt32LE(4 * i);
  return gather(mini, chain(next, start, Math.ceil(size / MINI_SECTOR)), MINI_SECTOR, 0, size);
}

// ---------------------------------------------------------------------------------------------------
// The workbook stream (MS-XLS): records of a 2-byte type and a 2-byte length.

const BOF = 0x0809;
const EOF = 0x000a;
const CONTINUE = 0x003c;
const FILEPASS = 0x002f;
const CODEPAGE = 0x0042;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const RSTRING = 0x00d6;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;
const MERGECELLS = 0x00e5;
/** BOF substream types */
const GLOBALS = 0x0005;
const WORKSHEET = 0x0010;

/**
 * Merged ranges one sheet may declare: a tariff merges a few header cells; a file declaring more is
 * refused as too complex rather than held (each range is three objects).
 */
const MAX_MERGES = 100_000;
/** Distinct number cells shared (as xlsxRows.ts does): a sheet of all-distinct numbers gets fresh cells past these. */
const MAX_SHARED_NUMBERS = 100_000;

/** Windows-1252's 0x80–0x9F (Node's TextDecoder reads 'windows-1252' as Latin-1; the undefined five kept as C1). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
/** CODEPAGE values of BIFF5 files with a WHATWG decoder; any other is read as Windows-1252 (Excel's western default). */
const DECODERS: Record<number, string> = {
  866: 'ibm866',
  874: 'windows-874',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  1250: 'windows-1250',
  1251: 'windows-1251',
  1253: 'windows-1253',
  1254: 'windows-1254',
  1255: 'windows-1255',
  1256: 'windows-1256',
  1257: 'windows-1257',
  1258: 'windows-1258',
  10000: 'macintosh',
  10007: 'x-mac-cyrillic',
  0x8000: 'macintosh',
};

/** The 8-bit text of a BIFF5 string in the workbook's code page. */
function codepageText(codepage: number): (buf: Buffer, start: number, end: number) => string {
  const label = DECODERS[codepage];
  let decoder: TextDecoder | undefined;
  try {
    decoder = label ? new TextDecoder(label) : undefined;
  } catch {
    // A Node built without full ICU lacks the East Asian decoders: read as Windows-1252.
  }
  if (decoder) return (buf, start, end) => decoder.decode(buf.subarray(start, end));
  return (buf, start, end) => buf.toString('latin1', start, end).replace(/[\u0080-\u009f]/g, (ch) => CP1252_HIGH[ch.charCodeAt(0) - 0x80]);
}

/**
 * A record's bytes followed by those of its CONTINUE records, read as one run as SheetJS does, except
 * for characters: where a CONTINUE starts within a string's characters, its first byte says again
 * whether they are 8-bit or UTF-16 (MS-XLS 2.5.293; the classic trap of the SST).
 */
class Cursor {
  p = 0;
  private next = 0;
  constructor(
    readonly buf: Buffer,
    /** offsets in `buf` where a CONTINUE record's bytes begin, ascending */
    private readonly breaks: number[],
  ) {}
  private need(n: number) {
    if (this.p + n > this.buf.length) throw unreadable();
  }
  u8() {
    this.need(1);
    return this.buf[this.p++];
  }
  u16() {
    this.need(2);
    const v = this.buf.readUInt16LE(this.p);
    this.p += 2;
    return v;
  }
  u32() {
    this.need(4);
    const v = this.buf.readUInt32LE(this.p);
    this.p += 4;
    return v;
  }
  /** `cch` characters, 8-bit (UTF-16 with its zero high bytes left out: Latin-1) or UTF-16, across CONTINUE boundaries. */
  chars(cch: number, wide: boolean): string {
    let text = '';
    for (;;) {
      while (this.next < this.breaks.length && this.breaks[this.next] < this.p) this.next++;
      const stop = this.next < this.breaks.length ? this.breaks[this.next] : this.buf.length;
      const width = wide ? 2 : 1;
      const room = stop - this.p;
      if (cch * width <= room) {
        text += this.buf.toString(wide ? 'utf16le' : 'latin1', this.p, this.p + cch * width);
        this.p += cch * width;
        return text;
      }
      // Characters running past the data, or a UTF-16 character cut by a boundary: damaged.
      if (stop === this.buf.length || room % width !== 0) throw unreadable();
      text += this.buf.toString(wide ? 'utf16le' : 'latin1', this.p, stop);
      cch -= room / width;
      this.p = stop;
      // Any non-zero flags byte means UTF-16, as SheetJS reads it (Excel writes 0 or 1).
      wide = this.buf[this.p++] !== 0;
    }
  }
}

/** Shared cells are frozen: the importer only reads cells (sheets.ts copies a merged header cell). */
const frozen = (cell: Cell): Cell => Object.freeze(cell);
const FALSE = frozen({ t: 'b', v: false });
const TRUE = frozen({ t: 'b', v: true });
const blank = (cell: Cell) => cell.t === 's' && (cell.v as string).trim() === '';

/** One reading of a workbook stream: the globals, then the worksheets in order until one holds a non-blank cell. */
class Workbook {
  private biff8 = true;
  private decode8 = codepageText(1252);
  private sst: string[] = [];
  private sstCells: Array<Cell | undefined> = [];
  /** the shared strings read so far and their characters (every SST record of the file counted) */
  private sstCount = 0;
  private sstChars = 0;
  private numbers = new Map<number, Cell>();
  private errors: Cell[] = [];
  /** the last FORMULA's cell: a STRING record gives its text (SheetJS keeps it across sheets too) */
  private lastFormula: CellAddress | null = null;
  private readonly counter: LimitCounter;
  private rows: Rows = [];
  private merges: Range[] = [];
  private found = false;

  constructor(
    private readonly buf: Buffer,
    private readonly limits: ReadLimits,
  ) {
    this.counter = new LimitCounter(limits);
  }

  read(): RawSheet | null {
    const buf = this.buf;
    if (buf.length < 8 || buf.readUInt16LE(0) !== BOF) throw unreadable();
    const len = buf.readUInt16LE(2);
    if (len < 4 || 4 + len > buf.length) throw unreadable();
    const version = buf.readUInt16LE(4);
    // BIFF7 (Excel 95) says 0x0500 as BIFF5 does; BIFF2–4 never come in a compound file.
    if (version !== 0x0600 && version !== 0x0500) throw unreadable();
    this.biff8 = version === 0x0600;
    const type = buf.readUInt16LE(6);
    // A stream holding a lone worksheet (no globals): SheetJS reads it as the only sheet.
    if (type === WORKSHEET) return this.sheet(0) >= 0 && this.found ? this.result() : null;
    if (type !== GLOBALS) throw unreadable();
    const { sheets, end } = this.globals(4 + len);
    let from = end;
    for (const pos of sheets) {
      // Substreams may not overlap: each byte of the stream is walked at most once.
      if (pos < from) throw unreadable();
      const sheetEnd = this.sheet(pos);
      if (sheetEnd < 0) continue;
      if (this.found) return this.result();
      from = sheetEnd;
    }
    return null;
  }

  private result(): RawSheet {
    return { rows: this.rows, merges: this.merges };
  }

  /** Walks the globals to their EOF: the worksheets' offsets in stream order (SheetJS's sheet order), the SST, the code page. */
  private globals(p: number): { sheets: number[]; end: number } {
    const buf = this.buf;
    const sheets: number[] = [];
    for (;;) {
      if (p + 4 > buf.length) throw unreadable();
      const type = buf.readUInt16LE(p);
      const body = p + 4;
      let next = body + buf.readUInt16LE(p + 2);
      if (next > buf.length) throw unreadable();
      switch (type) {
        case EOF:
          sheets.sort((a, b) => a - b);
          return { sheets: sheets.filter((s, i) => i === 0 || s !== sheets[i - 1]), end: next };
        case FILEPASS:
          throw new ImportError(422, 'import.encrypted');
        case BOF:
          throw unreadable();
        case CODEPAGE:
          if (next - body >= 2) this.decode8 = codepageText(buf.readUInt16LE(body));
          break;
        case BOUNDSHEET:
          if (next - body < 6) throw unreadable();
          // Worksheets (and dialog sheets) only: chart, macro and module sheets hold no data table.
          if (buf[body + 5] === 0) sheets.push(buf.readUInt32LE(body));
          break;
        case SST: {
          const { cursor, end } = this.joined(p);
          this.readSst(cursor);
          next = end;
          break;
        }
      }
      p = next;
    }
  }

  /** The record at p with the CONTINUE records after it, as one cursor; `end` is where the next record starts. */
  private joined(p: number): { cursor: Cursor; end: number } {
    const buf = this.buf;
    const first = buf.subarray(p + 4, p + 4 + buf.readUInt16LE(p + 2));
    let end = p + 4 + first.length;
    const parts = [first];
    const breaks: number[] = [];
    let total = first.length;
    while (end + 4 <= buf.length && buf.readUInt16LE(end) === CONTINUE) {
      const len = buf.readUInt16LE(end + 2);
      if (end + 4 + len > buf.length) throw unreadable();
      if (len > 0) {
        breaks.push(total);
        parts.push(buf.subarray(end + 4, end + 4 + len));
        total += len;
      }
      end += 4 + len;
    }
    return { cursor: new Cursor(parts.length === 1 ? first : Buffer.concat(parts, total), breaks), end };
  }

  /**
   * The shared strings (XLUnicodeRichExtendedString each: formatting runs and phonetic data skipped).
   * The declared count is checked before anything is read for it, the strings and their characters are
   * counted as they are read; the reading stops at the declared count or at the record's end (SheetJS).
   */
  private readSst(c: Cursor) {
    c.u32(); // references to the strings in the workbook: may exceed the limit in a normal file
    const unique = c.u32();
    if (unique > this.limits.sharedStrings) throw limitError('complex', this.limits);
    const strings: string[] = [];
    for (let i = 0; i < unique && c.p < c.buf.length; i++) {
      const cch = c.u16();
      const flags = c.u8();
      const runs = flags & 0x08 ? c.u16() : 0;
      const ext = flags & 0x04 ? c.u32() : 0;
      this.sstChars += cch;
      if (++this.sstCount > this.limits.sharedStrings || this.sstChars > this.limits.sharedStringChars) throw limitError('complex', this.limits);
      strings.push(cch === 0 ? '' : c.chars(cch, (flags & 0x01) !== 0));
      c.p += 4 * runs + ext;
    }
    this.sst = strings;
    this.sstCells = [];
  }

  /**
   * Walks one worksheet substream from its BOF to its EOF (embedded chart substreams skipped, as SheetJS
   * skips their cells), into `rows` and `merges`. Returns where the substream ends, or -1 for a chart,
   * macro or module sheet (not walked).
   */
  private sheet(pos: number): number {
    const buf = this.buf;
    if (pos + 8 > buf.length || buf.readUInt16LE(pos) !== BOF) throw unreadable();
    const bofLen = buf.readUInt16LE(pos + 2);
    if (bofLen < 4 || pos + 4 + bofLen > buf.length) throw unreadable();
    if (buf.readUInt16LE(pos + 6) !== WORKSHEET) return -1;
    this.rows = [];
    this.merges = [];
    this.found = false;
    let depth = 1;
    let p = pos + 4 + bofLen;
    while (depth > 0) {
      if (p + 4 > buf.length) throw unreadable();
      const type = buf.readUInt16LE(p);
      const len = buf.readUInt16LE(p + 2);
      const body = p + 4;
      let next = body + len;
      if (next > buf.length) throw unreadable();
      if (type === BOF) depth++;
      else if (type === EOF) depth--;
      else if (depth === 1) {
        switch (type) {
          case NUMBER:
            if (len < 14) throw unreadable();
            this.put(buf.readUInt16LE(body), buf.readUInt16LE(body + 2), this.number(buf.readDoubleLE(body + 6)));
            break;
          case RK:
            if (len < 10) throw unreadable();
            this.put(buf.readUInt16LE(body), buf.readUInt16LE(body + 2), this.number(rk(buf.readInt32LE(body + 6))));
            break;
          case MULRK:
            this.mulRk(body, len);
            break;
          case LABELSST: {
            if (len < 10) throw unreadable();
            const i = buf.readUInt32LE(body + 6);
            if (i >= this.sst.length) throw unreadable();
            this.put(buf.readUInt16LE(body), buf.readUInt16LE(body + 2), (this.sstCells[i] ??= frozen({ t: 's', v: this.sst[i] })));
            break;
          }
          case LABEL:
          case RSTRING:
          case STRING: {
            const { cursor, end } = this.joined(p);
            next = end;
            if (type === STRING) {
              if (!this.lastFormula) throw unreadable();
              const { r, c } = this.lastFormula;
              this.lastFormula = null;
              this.put(r, c, { t: 's', v: this.string(cursor) });
            } else {
              const r = cursor.u16();
              const c = cursor.u16();
              cursor.u16(); // format
              this.put(r, c, { t: 's', v: this.string(cursor) });
            }
            break;
          }
          case BOOLERR: {
            if (len < 8) throw unreadable();
            const v = buf[body + 6];
            this.put(buf.readUInt16LE(body), buf.readUInt16LE(body + 2), buf[body + 7] === 1 ? this.error(v) : v === 1 ? TRUE : FALSE);
            break;
          }
          case FORMULA:
            this.formula(body, len);
            break;
          case MERGECELLS: {
            const n = len >= 2 ? buf.readUInt16LE(body) : -1;
            if (n < 0 || 2 + 8 * n > len) throw unreadable();
            if (this.merges.length + n > MAX_MERGES) throw limitError('complex', this.limits);
            for (let k = body + 2; k < body + 2 + 8 * n; k += 8) {
              this.merges.push({
                s: { r: buf.readUInt16LE(k), c: buf.readUInt16LE(k + 4) },
                e: { r: buf.readUInt16LE(k + 2), c: buf.readUInt16LE(k + 6) },
              });
            }
            break;
          }
        }
      }
      p = next;
    }
    return p;
  }

  /** MULRK: RK numbers in consecutive columns, the last column closing the record (it must agree). */
  private mulRk(body: number, len: number) {
    const buf = this.buf;
    const n = (len - 6) / 6;
    if (len < 6 || !Number.isInteger(n)) throw unreadable();
    const r = buf.readUInt16LE(body);
    const c = buf.readUInt16LE(body + 2);
    if (buf.readUInt16LE(body + len - 2) !== c + n - 1) throw unreadable();
    if (n === 0) return;
    this.counter.cell(r, c, n);
    for (let i = 0; i < n; i++) this.set(r, c + i, this.number(rk(buf.readInt32LE(body + 4 + 6 * i + 2))));
  }

  /**
   * FORMULA: its cached result (MS-XLS FormulaValue): a number, or by its first byte a string (in the
   * STRING record that follows), a boolean, an error, an empty string. Any other kind gives no cell.
   */
  private formula(body: number, len: number) {
    const buf = this.buf;
    if (len < 14) throw unreadable();
    const r = buf.readUInt16LE(body);
    const c = buf.readUInt16LE(body + 2);
    this.lastFormula = { r, c };
    if (buf.readUInt16LE(body + 12) !== 0xffff) return this.put(r, c, this.number(buf.readDoubleLE(body + 6)));
    switch (buf[body + 6]) {
      case 1:
        return this.put(r, c, buf[body + 8] === 1 ? TRUE : FALSE);
      case 2:
        return this.put(r, c, this.error(buf[body + 8]));
      case 3:
        return this.put(r, c, { t: 's', v: '' });
    }
  }

  /**
   * The text of LABEL, RSTRING and STRING: a 2-byte count, then (BIFF8) a flags byte and the characters
   * (no flags byte needed for no characters), or (BIFF5) bytes in the code page. RSTRING's runs are left.
   */
  private string(c: Cursor): string {
    const cch = c.u16();
    if (!this.biff8) {
      const start = c.p;
      if (start + cch > c.buf.length) throw unreadable();
      c.p += cch;
      return this.decode8(c.buf, start, c.p);
    }
    return cch === 0 ? '' : c.chars(cch, c.u8() !== 0);
  }

  /** A cell of the sheet: counted against the limits, then stored. */
  private put(r: number, c: number, cell: Cell) {
    this.counter.cell(r, c);
    this.set(r, c, cell);
  }

  private set(r: number, c: number, cell: Cell) {
    if (cell.t === 's') this.counter.text((cell.v as string).length, r, c);
    const row = (this.rows[r] ??= []);
    // Rows are dense: one cell at column 999 costs a thousand slots (ReadLimits.cells).
    if (c >= row.length) this.counter.slots(c + 1 - row.length);
    row[c] = cell;
    if (!this.found && !blank(cell)) this.found = true;
  }

  private number(v: number): Cell {
    if (Object.is(v, -0)) return { t: 'n', v };
    let cell = this.numbers.get(v);
    if (!cell) {
      cell = { t: 'n', v };
      if (this.numbers.size < MAX_SHARED_NUMBERS) this.numbers.set(v, frozen(cell));
    }
    return cell;
  }

  private error(code: number): Cell {
    return (this.errors[code] ??= frozen({ t: 'e', v: code }));
  }
}

const rkView = new DataView(new ArrayBuffer(8));
/**
 * An RK number (MS-XLS 2.5.217): a 30-bit integer, or the high 30 bits of a double, divided by 100 when
 * its lowest bit says so (as SheetJS decodes it).
 */
function rk(x: number): number {
  let v: number;
  if (x & 0x02) v = x >> 2;
  else {
    rkView.setInt32(0, 0, true);
    rkView.setInt32(4, x & ~0x03, true);
    v = rkView.getFloat64(0, true);
  }
  return x & 0x01 ? v / 100 : v;
}

/**
 * The data sheet of an .xls (an OLE2 compound file: the caller sniffed its magic and capped its size):
 * the first worksheet holding a non-blank cell, its rows and merged ranges; null when no sheet holds
 * one. Refuses an encrypted file (a FILEPASS record, or an encrypted .xlsx in OLE) and a compound file
 * without a workbook stream (422), a limit passed (413), anything damaged (422 unreadable).
 */
export function readXls(data: Buffer, limits: ReadLimits): RawSheet | null {
  const container = openContainer(data);
  const children = rootChildren(container);
  if (children.has('ENCRYPTEDPACKAGE') || children.has('ENCRYPTION')) throw new ImportError(422, 'import.encrypted');
  const entry = children.get('WORKBOOK') ?? children.get('BOOK');
  if (entry === undefined || container.dir[entry * 128 + 66] !== 2) throw new ImportError(422, 'import.notSpreadsheet');
  return new Workbook(streamBytes(container, entry), limits).read();
}
