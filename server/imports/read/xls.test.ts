// @vitest-environment node
import * as XLSX from '@e965/xlsx';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../../model/tariffs.js';
import { templateXlsx } from '../template.js';
import { READ_LIMITS, type ReadLimits } from './types.js';
import { readXls } from './xls.js';
import { oracleSheet, writeBook } from '../../../tests/fixtures/sheetjsOracle.js';

/**
 * The .xls reader must give exactly the cells SheetJS gives with the importer's values-only options
 * (type and value of every cell, the same rows, the same merges, the same data sheet): each workbook is
 * read both ways and compared. Hand-built records cover what SheetJS's writer never makes (RK, MULRK,
 * strings split across CONTINUE, formulas, BIFF5 code pages), and hostile files the refusals.
 */

type AnyCell = { t?: string; v?: unknown } | undefined;
type AnyRows = ArrayLike<ArrayLike<AnyCell> | undefined>;
/** Cells as {t, v} (a cell without a value, e.g. SheetJS's comment stub, as none), trailing holes dropped. */
function cells(rows: AnyRows) {
  const out = Array.from(rows, (row) => {
    const r = Array.from(row ?? [], (c) => (c && c.v !== undefined ? { t: c.t, v: c.v } : undefined));
    while (r.length && r[r.length - 1] === undefined) r.pop();
    return r.length ? r : undefined;
  });
  while (out.length && out[out.length - 1] === undefined) out.pop();
  return out;
}
/** SheetJS's reading: the first sheet holding a non-blank cell (sheets.ts), its rows and merges. */
function sheetjs(data: Buffer) {
  const sheet = oracleSheet(data);
  return sheet && { rows: cells(sheet.rows), merges: sheet.merges };
}
function lean(data: Buffer, limits: ReadLimits = READ_LIMITS) {
  const sheet = readXls(data, limits);
  return sheet && { rows: cells(sheet.rows), merges: sheet.merges };
}
function bothWays(data: Buffer) {
  const mine = lean(data);
  expect(mine).toEqual(sheetjs(data));
  return mine;
}
function refusal(read: () => unknown): unknown {
  try {
    read();
  } catch (e) {
    return e;
  }
  throw new Error('not refused');
}

const write = (sheets: Array<[string, XLSX.WorkSheet]>, opts: Partial<XLSX.WritingOptions> = {}) => writeBook(sheets, { bookType: 'biff8', ...opts });
const aoa = (rows: unknown[][], opts?: XLSX.AOA2SheetOpts) => XLSX.utils.aoa_to_sheet(rows, opts);
const BOOKS: Array<Partial<XLSX.WritingOptions>> = [{ bookSST: true }, { bookSST: false }, { bookType: 'biff5' }];

// --- Records and compound files built by hand ------------------------------------------------------

const u16 = (...v: number[]) => {
  const b = Buffer.alloc(2 * v.length);
  v.forEach((x, i) => b.writeUInt16LE(x, 2 * i));
  return b;
};
const u32 = (...v: number[]) => {
  const b = Buffer.alloc(4 * v.length);
  v.forEach((x, i) => b.writeUInt32LE(x >>> 0, 4 * i));
  return b;
};
const f64 = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return b;
};
const bytes = (...v: number[]) => Buffer.from(v);
const latin = (s: string) => Buffer.from(s, 'latin1');
const utf16 = (s: string) => Buffer.from(s, 'utf16le');
const rec = (type: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u16(type, body.length), body]);
};
const at = (r: number, c: number) => u16(r, c, 15);
/** XLUnicodeString: count, flags, characters (8-bit when they all fit in Latin-1). */
const xlString = (s: string, wide = /[^\u0000-\u00ff]/.test(s)) => Buffer.concat([u16(s.length), bytes(wide ? 1 : 0), wide ? utf16(s) : latin(s)]);
const NUMBER = (r: number, c: number, v: number) => rec(0x0203, at(r, c), f64(v));
const RK = (r: number, c: number, x: number) => rec(0x027e, at(r, c), u32(x));
const MULRK = (r: number, c: number, xs: number[]) => rec(0x00bd, u16(r, c), ...xs.map((x) => Buffer.concat([u16(15), u32(x)])), u16(c + xs.length - 1));
const LABEL = (r: number, c: number, s: string, wide?: boolean) => rec(0x0204, at(r, c), xlString(s, wide));
const LABEL5 = (r: number, c: number, s: Buffer) => rec(0x0204, at(r, c), u16(s.length), s);
const RSTRING = (r: number, c: number, s: string) => rec(0x00d6, at(r, c), xlString(s), u16(1), u16(0, 0));
const LABELSST = (r: number, c: number, i: number) => rec(0x00fd, at(r, c), u32(i));
const BOOLERR = (r: number, c: number, v: number, error = false) => rec(0x0205, at(r, c), bytes(v, error ? 1 : 0));
const BLANK = (r: number, c: number) => rec(0x0201, at(r, c));
const MULBLANK = (r: number, c: number, n: number) => rec(0x00be, u16(r, c), ...Array.from({ length: n }, () => u16(15)), u16(c + n - 1));
/** FORMULA "=1" (PtgInt) with the cached result given (FormulaValue, 8 bytes). */
const FORMULA = (r: number, c: number, value: Buffer) => rec(0x0006, at(r, c), value, u16(0), u32(0), u16(3), bytes(0x1e), u16(1));
const special = (kind: number, b = 0) => bytes(kind, 0, b, 0, 0, 0, 0xff, 0xff);
const STRING = (s: string) => rec(0x0207, xlString(s));
const MERGECELLS = (...ranges: string[]) =>
  rec(
    0x00e5,
    u16(ranges.length),
    ...ranges.map((a) => {
      const { s, e } = XLSX.utils.decode_range(a);
      return u16(s.r, e.r, s.c, e.c);
    }),
  );
const SST = (strings: Buffer[], unique = strings.length) => rec(0x00fc, u32(unique, unique), ...strings);
const CONTINUE = (...parts: Buffer[]) => rec(0x003c, ...parts);
const CODEPAGE = (cp: number) => rec(0x0042, u16(cp));
const FILEPASS = rec(0x002f, u16(0), u16(0x1234, 0x5678));
/** RK encodings: a 30-bit integer (÷ 100 with `x100`), or the high 30 bits of a double. */
const rkInt = (n: number, x100 = false) => ((n << 2) | 2 | (x100 ? 1 : 0)) >>> 0;
const rkDouble = (v: number, x100 = false) => ((f64(v).readUInt32LE(4) & ~3) | (x100 ? 1 : 0)) >>> 0;

interface SheetSpec {
  records: Buffer[];
  /** BOF substream type: 0x10 worksheet, 0x20 chart, 0x40 macro sheet */
  type?: number;
  /** BOUNDSHEET sheet type: 0 worksheet, 1 macro sheet, 2 chart */
  kind?: number;
}
/** A workbook stream: globals (BOF, `head`, one BOUNDSHEET per sheet, `tail`, EOF), then each sheet's substream. */
function biff(sheets: SheetSpec[], opts: { head?: Buffer[]; tail?: Buffer[]; version?: 5 | 8 } = {}): Buffer {
  const v8 = (opts.version ?? 8) === 8;
  const bof = (type: number) => rec(0x0809, u16(v8 ? 0x0600 : 0x0500, type), Buffer.alloc(v8 ? 12 : 4));
  const eof = rec(0x000a);
  const boundsheet = (pos: number, kind: number, name: string) =>
    rec(0x0085, u32(pos), bytes(0, kind), v8 ? Buffer.concat([bytes(name.length, 0), latin(name)]) : Buffer.concat([bytes(name.length), latin(name)]));
  const head = Buffer.concat([bof(0x05), ...(opts.head ?? [])]);
  const tail = Buffer.concat([...(opts.tail ?? []), eof]);
  const bodies = sheets.map((s) => Buffer.concat([bof(s.type ?? 0x10), ...s.records, eof]));
  let pos = head.length + tail.length + sheets.reduce((n, _, i) => n + boundsheet(0, 0, `S${i + 1}`).length, 0);
  const boundsheets = sheets.map((s, i) => {
    const r = boundsheet(pos, s.kind ?? 0, `S${i + 1}`);
    pos += bodies[i].length;
    return r;
  });
  return Buffer.concat([head, ...boundsheets, tail, ...bodies]);
}

/** A compound file written by SheetJS's CFB library (short streams in the mini stream). */
function ole(streams: Record<string, Buffer>): Buffer {
  const cfb = XLSX.CFB.utils.cfb_new();
  for (const [name, data] of Object.entries(streams)) XLSX.CFB.utils.cfb_add(cfb, `/${name}`, data);
  return Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }));
}
const xls = (sheets: SheetSpec[], opts?: Parameters<typeof biff>[1]) => ole({ Workbook: biff(sheets, opts) });

const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;
const NOSTREAM = 0xffffffff;
/**
 * A compound file laid out plainly, to be damaged by hand: the FAT sectors (and DIFAT sectors past 109
 * of them), one directory sector, then each stream in its own run of sectors (padded with zeros to 4096
 * bytes at least, so none goes to the mini stream). Version 3 (512-byte sectors) or 4 (4096).
 */
function rawOle(streams: Array<[string, Buffer]>, v4 = false) {
  const size = v4 ? 4096 : 512;
  const per = size / 4;
  const datas = streams.map(([, b]) => {
    const out = Buffer.alloc(Math.max(4096, Math.ceil(b.length / size) * size));
    b.copy(out);
    return out;
  });
  const dataSectors = datas.reduce((n, b) => n + b.length / size, 0);
  let fat = 1;
  let difat = 0;
  for (;;) {
    difat = fat > 109 ? Math.ceil((fat - 109) / (per - 1)) : 0;
    if (fat * per >= fat + difat + 1 + dataSectors) break;
    fat++;
  }
  const dirSector = fat + difat;
  const file = Buffer.alloc(size * (2 + dirSector + dataSectors));
  const offset = (s: number) => (s + 1) * size;
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(file, 0);
  file.writeUInt16LE(0x3e, 24);
  file.writeUInt16LE(v4 ? 4 : 3, 26);
  file.writeUInt16LE(0xfffe, 28);
  file.writeUInt16LE(v4 ? 12 : 9, 30);
  file.writeUInt16LE(6, 32);
  file.writeUInt32LE(v4 ? 1 : 0, 40);
  file.writeUInt32LE(fat, 44);
  file.writeUInt32LE(dirSector, 48);
  file.writeUInt32LE(4096, 56);
  file.writeUInt32LE(ENDOFCHAIN, 60);
  file.writeUInt32LE(difat ? fat : ENDOFCHAIN, 68);
  file.writeUInt32LE(difat, 72);
  for (let i = 0; i < 109; i++) file.writeUInt32LE(i < fat ? i : FREESECT, 76 + 4 * i);
  for (let d = 0; d < difat; d++) {
    for (let i = 0; i < per - 1; i++) {
      const k = 109 + d * (per - 1) + i;
      file.writeUInt32LE(k < fat ? k : FREESECT, offset(fat + d) + 4 * i);
    }
    file.writeUInt32LE(d + 1 < difat ? fat + d + 1 : ENDOFCHAIN, offset(fat + d) + size - 4);
  }
  const next = new Array<number>(fat * per).fill(FREESECT);
  for (let i = 0; i < fat; i++) next[i] = 0xfffffffd;
  for (let d = 0; d < difat; d++) next[fat + d] = 0xfffffffc;
  next[dirSector] = ENDOFCHAIN;
  const starts: number[] = [];
  let s = dirSector + 1;
  for (const b of datas) {
    const n = b.length / size;
    starts.push(s);
    for (let i = 0; i < n; i++) next[s + i] = i + 1 < n ? s + i + 1 : ENDOFCHAIN;
    b.copy(file, offset(s));
    s += n;
  }
  next.forEach((v, i) => file.writeUInt32LE(v, offset(Math.floor(i / per)) + 4 * (i % per)));
  const dirAt = offset(dirSector);
  for (let i = 0; i < size / 128; i++) file.fill(0xff, dirAt + 128 * i + 68, dirAt + 128 * i + 80);
  const entry = (i: number, name: string, type: number, right: number, child: number, start: number, length: number) => {
    const e = dirAt + 128 * i;
    file.write(name, e, 'utf16le');
    file.writeUInt16LE(2 * name.length + 2, e + 64);
    file[e + 66] = type;
    file[e + 67] = 1;
    file.writeUInt32LE(right, e + 72);
    file.writeUInt32LE(child, e + 76);
    file.writeUInt32LE(start, e + 116);
    file.writeUInt32LE(length, e + 120);
  };
  entry(0, 'Root Entry', 5, NOSTREAM, streams.length ? 1 : NOSTREAM, ENDOFCHAIN, 0);
  streams.forEach(([name], i) => entry(i + 1, name, 2, i + 1 < streams.length ? i + 2 : NOSTREAM, NOSTREAM, starts[i], datas[i].length));
  /** where the FAT entry of sector n is */
  const fatEntry = (n: number) => offset(Math.floor(n / per)) + 4 * (n % per);
  return { file, dirAt, starts, fatEntry };
}

const HEAD = ['country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime', 'rate_code'];
const TRICKY = [
  HEAD,
  ['IT ', ' MI', '0', '0,5', '10,50 ', 'S', null, 1, ''],
  ['IT', '00184', 0.5, 1e-7, 1234.25, true, false, -3, 'R&D <1> "x" \'y\''],
  ['città', 'Zürich 🚚', 12.300000000000001, 2 ** 40, '1.234,50', 'a\r\nb', '\u00a0', '\t x \t', 'é'],
  [536870911, -536870912, 536870912, 0.01, -0.07, 1e300, -1e-300, 5e-324, Number.MAX_SAFE_INTEGER],
  [NaN, Infinity, -Infinity, 0, -0, 100, 12345678.9, 3.14159, 1 / 3],
];
const ERROR_CODES = [0x00, 0x07, 0x0f, 0x17, 0x1d, 0x24, 0x2a];

describe('the .xls reader gives the cells SheetJS gives', () => {
  it('reads every template written as BIFF8 (with and without shared strings) and BIFF5', async () => {
    for (const spec of Object.values(TEMPLATES)) {
      const wb = XLSX.read(await templateXlsx(spec), { type: 'buffer' });
      for (const opts of BOOKS) {
        const mine = bothWays(XLSX.write(wb, { type: 'buffer', bookType: 'biff8', ...opts }) as Buffer)!;
        expect(mine.rows[0]).toEqual(spec.columns.map((c) => ({ t: 's', v: c.name })));
      }
    }
  });

  it('reads text, unicode, numbers of every kind, booleans and error codes the same way', () => {
    for (const opts of BOOKS) {
      const ws = aoa(TRICKY);
      ERROR_CODES.forEach((v, i) => (ws[XLSX.utils.encode_cell({ r: 7, c: i })] = { t: 'e', v }));
      ws['!ref'] = 'A1:I8';
      const mine = bothWays(write([['data', ws]], opts))!;
      if (opts.bookType !== 'biff5') expect(mine.rows[3]![1]).toEqual({ t: 's', v: 'Zürich 🚚' });
      expect(mine.rows[2]![2]).toEqual({ t: 'n', v: 0.5 });
      expect(mine.rows[2]![5]).toEqual({ t: 'b', v: true });
      expect(mine.rows[7]![6]).toEqual({ t: 'e', v: 0x2a });
      expect(mine.rows[4]![0]).toEqual({ t: 'n', v: 536870911 });
    }
  });

  it('reads long strings: a label at its 255 characters, shared strings in CONTINUE records', () => {
    const long = (n: number, ch: string) => Array.from({ length: n }, (_, i) => String.fromCharCode(ch.charCodeAt(0) + (i % 20))).join('');
    const rows = [
      ['a', long(300, 'A')],
      ['b', long(4000, 'α')],
      ['c', long(4000, 'a')],
      ['d', long(3000, 'Ж')],
      ['e', long(4100, 'k')],
    ];
    for (const opts of BOOKS) bothWays(write([['data', aoa(rows)]], opts));
    const mine = bothWays(write([['data', aoa(rows)]], { bookSST: true }))!;
    expect(mine.rows[1]![1]).toEqual({ t: 's', v: long(4000, 'α') });
  });

  it('skips an empty first sheet and a blank one, keeps merged header cells, and gives null for a workbook without data', () => {
    const merged = aoa([
      ['Zona', 'price', null],
      [null, 'da', 'a'],
      ['MI', 1, 2],
    ]);
    merged['!merges'] = [XLSX.utils.decode_range('A1:A2'), XLSX.utils.decode_range('B1:C1')];
    for (const opts of BOOKS) {
      const mine = bothWays(
        write(
          [
            ['copertina', aoa([])],
            ['vuoto', aoa([[null, '  ', '\t']])],
            ['dati', merged],
            ['altro', aoa([['x']])],
          ],
          opts,
        ),
      )!;
      expect(mine.rows[2]![0]).toEqual({ t: 's', v: 'MI' });
      if (opts.bookType !== 'biff5') expect(mine.merges).toEqual(merged['!merges']);
      expect(
        bothWays(
          write(
            [
              ['a', aoa([])],
              ['b', aoa([[' ']])],
            ],
            opts,
          ),
        ),
      ).toBeNull();
    }
  });

  it('reads a workbook stream in the file’s sectors as in the mini stream, at an offset as at the origin', () => {
    const rows = [HEAD, ...Array.from({ length: 500 }, (_, i) => ['IT', `Z${i}`, i, i + 0.5, i * 1.25, 'S', i % 7, i % 3 === 0, `R${i % 50}`])];
    for (const opts of BOOKS) {
      const data = write([['data', aoa(rows, { origin: 'C4' } as XLSX.AOA2SheetOpts)]], opts);
      expect(bothWays(data)!.rows).toHaveLength(504);
    }
  });

  it('agrees with SheetJS on generated sheets of any text and numbers (BIFF8 with and without shared strings, BIFF5)', { timeout: 60_000 }, () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 12, unit: 'binary' }),
      fc.string({ maxLength: 8 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.integer({ min: -(2 ** 29), max: 2 ** 29 }),
      fc.boolean(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 7 }), { minLength: 1, maxLength: 9 }), fc.constantFrom(...BOOKS), (rows, opts) => {
        bothWays(write([['data', aoa(rows)]], opts));
      }),
      { numRuns: 200 },
    );
  });
});

describe('records SheetJS’s writer does not make', () => {
  it('reads shared strings split across CONTINUE records: 8-bit then UTF-16 and back, headers and characters at a boundary, runs across one', () => {
    const strings = [
      Buffer.concat([u16(6), bytes(0), latin('abc')]), // 'abcdé€': 8-bit, then UTF-16 after the boundary
    ];
    const records = [
      SST(strings, 6),
      CONTINUE(bytes(1), utf16('dé€'), u16(4), bytes(1), utf16('Zü')), // 'Züri': UTF-16, then 8-bit
      CONTINUE(bytes(0), latin('ri')),
      CONTINUE(u16(3), bytes(0), latin('xyz'), u16(5), bytes(0)), // 'xyz' whose header opens the record; 'hello' whose characters open the next
      CONTINUE(bytes(0), latin('hello'), u16(4), bytes(0x0c), u16(2), u32(6), latin('rich'), u32(0x00010000)), // runs and phonetic data across a boundary
      CONTINUE(u32(0x00020003), bytes(1, 2, 3, 4, 5, 6), u16(9), bytes(0), latin('abc')), // 'abcdefghi' over three records
      CONTINUE(bytes(1), utf16('def')),
      CONTINUE(bytes(0), latin('ghi')),
    ];
    const data = xls([{ records: Array.from({ length: 6 }, (_, i) => LABELSST(0, i, i)) }], { tail: records });
    const mine = bothWays(data)!;
    expect(mine.rows[0]!.map((c) => c!.v)).toEqual(['abcdé€', 'Züri', 'xyz', 'hello', 'rich', 'abcdefghi']);
  });

  it(
    'agrees with SheetJS on shared strings cut at any byte into CONTINUE records, each cut through characters switching 8-bit and UTF-16 at random',
    { timeout: 60_000 },
    () => {
      /** The SST as records of at most `max` bytes: a cut through a string's characters opens the next record with a flags byte. */
      function sstRecords(strings: string[], max: number, coin: () => boolean): Buffer[] {
        const records: number[][] = [[...u32(strings.length, strings.length)]];
        const raw = (b: Buffer) => {
          for (const x of b) {
            if (records[records.length - 1].length >= max) records.push([]);
            records[records.length - 1].push(x);
          }
        };
        for (const text of strings) {
          const units = Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
          const mustWide = (from: number) => units.slice(from).some((u) => u > 0xff);
          let wide = mustWide(0) || coin();
          const rich = coin();
          raw(Buffer.concat([u16(units.length), bytes((wide ? 1 : 0) | (rich ? 0x0c : 0)), rich ? Buffer.concat([u16(1), u32(3)]) : Buffer.alloc(0)]));
          units.forEach((unit, i) => {
            const width = wide ? 2 : 1;
            if (records[records.length - 1].length + width > max) {
              wide = mustWide(i) || coin();
              records.push([wide ? 1 : 0]);
            }
            raw(wide ? u16(unit) : bytes(unit));
          });
          if (rich) raw(Buffer.concat([u32(0x00050000), bytes(9, 8, 7)]));
        }
        return records.map((r, i) => rec(i === 0 ? 0x00fc : 0x003c, Buffer.from(r)));
      }
      fc.assert(
        fc.property(
          fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.string({ maxLength: 20, unit: 'binary' })), { minLength: 1, maxLength: 12 }),
          fc.integer({ min: 12, max: 60 }),
          fc.infiniteStream(fc.boolean()),
          (strings, max, coins) => {
            const it = coins[Symbol.iterator]();
            const data = xls([{ records: strings.map((_, i) => LABELSST(i, 0, i)) }], { tail: sstRecords(strings, max, () => it.next().value as boolean) });
            const mine = bothWays(data)!;
            if (mine) expect(strings.map((_, i) => mine.rows[i]![0]!.v)).toEqual(strings);
          },
        ),
        { numRuns: 150 },
      );
    },
  );

  it('agrees with SheetJS on every RK word, alone and in MULRK runs', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 6 }), (words) => {
        bothWays(xls([{ records: [LABEL(0, 0, 'rk'), ...words.map((w, i) => RK(1, i, w)), MULRK(2, 1, words)] }]));
      }),
      { numRuns: 150 },
    );
  });

  it('reads a label and a formula string split across CONTINUE records', () => {
    const data = xls([
      {
        records: [
          rec(0x0204, at(0, 0), u16(6), bytes(1), utf16('ab')),
          CONTINUE(bytes(0), latin('cdef')),
          FORMULA(0, 1, special(0)),
          rec(0x0207, u16(5), bytes(0), latin('xy')),
          CONTINUE(bytes(1), utf16('z€!')),
        ],
      },
    ]);
    expect(bothWays(data)!.rows[0]).toEqual([
      { t: 's', v: 'abcdef' },
      { t: 's', v: 'xyz€!' },
    ]);
  });

  it('reads RK and MULRK numbers (integers, doubles, ×100), formulas of every result, booleans and errors, and no cell for BLANK or MULBLANK', () => {
    const data = xls([
      {
        records: [
          RK(0, 0, rkInt(123)),
          RK(0, 1, rkInt(-5)),
          RK(0, 2, rkInt(1234, true)),
          RK(0, 3, rkDouble(1.5)),
          RK(0, 4, rkDouble(2.5, true)),
          RK(0, 5, rkDouble(-1024.5)),
          RK(0, 6, rkInt(-(2 ** 29), true)),
          MULRK(1, 1, [rkInt(7), rkDouble(0.75), rkInt(-99, true), rkDouble(250, true)]),
          FORMULA(2, 0, f64(42.5)),
          FORMULA(2, 1, special(0)),
          rec(0x0221, u16(2, 2, 1, 1), Buffer.alloc(6)), // ARRAY between a formula and its STRING
          STRING('text result'),
          FORMULA(2, 2, special(1, 1)),
          FORMULA(2, 3, special(1, 0)),
          FORMULA(2, 4, special(2, 0x07)),
          FORMULA(2, 5, special(3)),
          BOOLERR(3, 0, 1),
          BOOLERR(3, 1, 0),
          BOOLERR(3, 2, 0x2a, true),
          BOOLERR(3, 3, 0x17, true),
          BLANK(4, 0),
          MULBLANK(4, 1, 3),
          LABEL(5, 0, 'plain'),
          LABEL(5, 1, 'wide', true),
          LABEL(5, 2, ''),
          RSTRING(5, 3, 'rich ü'),
          NUMBER(6, 0, -0),
          NUMBER(6, 1, 6.02e23),
        ],
      },
    ]);
    const mine = bothWays(data)!;
    expect(mine.rows[0]!.map((c) => c!.v)).toEqual([123, -5, 12.34, 1.5, 0.025, -1024.5, -(2 ** 29) / 100]);
    expect(mine.rows[1]).toEqual([undefined, ...[7, 0.75, -0.99, 2.5].map((v) => ({ t: 'n', v }))]);
    expect(mine.rows[2]).toEqual([
      { t: 'n', v: 42.5 },
      { t: 's', v: 'text result' },
      { t: 'b', v: true },
      { t: 'b', v: false },
      { t: 'e', v: 0x07 },
      { t: 's', v: '' },
    ]);
    expect(mine.rows[3]!.map((c) => c!.v)).toEqual([true, false, 0x2a, 0x17]);
    expect(mine.rows[4]).toBeUndefined();
    expect(mine.rows[5]!.map((c) => c!.v)).toEqual(['plain', 'wide', '', 'rich ü']);
    expect(Object.is(mine.rows[6]![0]!.v, -0)).toBe(true);
  });

  it('reads merges, skips an embedded chart’s substream, and reads the files of the plain compound file (versions 3 and 4, with a DIFAT)', () => {
    const sheet: SheetSpec = {
      records: [
        LABEL(0, 0, 'zone'),
        LABEL(0, 1, 'price'),
        NUMBER(2, 0, 1),
        rec(0x0809, u16(0x0600, 0x20), Buffer.alloc(12)),
        NUMBER(0, 0, 99),
        LABEL(5, 5, 'series'),
        rec(0x000a),
        NUMBER(2, 1, 2),
        MERGECELLS('A1:A2', 'B1:C1'),
      ],
    };
    const stream = biff([sheet]);
    const mine = bothWays(ole({ Workbook: stream }))!;
    expect(mine.rows).toEqual([
      [
        { t: 's', v: 'zone' },
        { t: 's', v: 'price' },
      ],
      undefined,
      [
        { t: 'n', v: 1 },
        { t: 'n', v: 2 },
      ],
    ]);
    expect(mine.merges).toHaveLength(2);
    bothWays(rawOle([['Workbook', stream]]).file);
    bothWays(rawOle([['Workbook', stream]], true).file);
    // 7.5 MB of stream: 115 FAT sectors, 6 of them listed by a DIFAT sector.
    const big = rawOle([['Workbook', Buffer.concat([stream, Buffer.alloc(7_500_000)])]]);
    expect(big.file.readUInt32LE(72)).toBe(1);
    expect(lean(big.file)).toEqual(mine);
  });

  it('takes the sheets in stream order as SheetJS does, and reads a stream holding a lone worksheet', () => {
    const stream = biff([{ records: [LABEL(0, 0, 'first')] }, { records: [LABEL(0, 0, 'second')] }]);
    // The two BOUNDSHEET records swapped: the second sheet listed first.
    const a = stream.indexOf(u16(0x0085));
    const b = stream.indexOf(u16(0x0085), a + 4);
    const swapped = Buffer.concat([stream.subarray(0, a), stream.subarray(b, 2 * b - a), stream.subarray(a, b), stream.subarray(2 * b - a)]);
    expect(bothWays(ole({ Workbook: swapped }))!.rows[0]).toEqual([{ t: 's', v: 'first' }]);
    const lone = Buffer.concat([rec(0x0809, u16(0x0600, 0x10), Buffer.alloc(12)), LABEL(0, 0, 'alone'), NUMBER(1, 1, 2), rec(0x000a)]);
    expect(bothWays(ole({ Workbook: lone }))!.rows).toEqual([[{ t: 's', v: 'alone' }], [undefined, { t: 'n', v: 2 }]]);
  });

  it('finds Workbook before Book, whatever the case of the name, among streams of other names', () => {
    const stream = biff([{ records: [LABEL(0, 0, 'in Workbook')] }]);
    const other = biff([{ records: [LABEL(0, 0, 'in Book')] }]);
    const data = rawOle([
      ['\u0005SummaryInformation', Buffer.alloc(100)],
      ['Book', other],
      ['WORKBOOK', stream],
    ]).file;
    expect(lean(data)!.rows[0]).toEqual([{ t: 's', v: 'in Workbook' }]);
    expect(lean(ole({ Book: other }))!.rows[0]).toEqual([{ t: 's', v: 'in Book' }]);
  });

  it('reads BIFF5 text in the code page of the CODEPAGE record (Windows-1252 by default)', () => {
    const records = [
      LABEL5(0, 0, latin('Café à 5 \x80')),
      rec(0x00d6, at(0, 1), u16(3), latin('\x93x\x94'), bytes(0, 0)),
      FORMULA(0, 2, special(0)),
      rec(0x0207, u16(2), latin('\xe9\x9c')),
    ];
    const west = lean(xls([{ records }], { version: 5, head: [CODEPAGE(1252)] }))!;
    expect(west.rows[0]!.map((c) => c!.v)).toEqual(['Café à 5 €', '“x”', 'éœ']);
    expect(lean(xls([{ records }], { version: 5 }))).toEqual(west);
    const cyrillic = lean(xls([{ records: [LABEL5(0, 0, bytes(0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2))] }], { version: 5, head: [CODEPAGE(1251)] }))!;
    expect(cyrillic.rows[0]).toEqual([{ t: 's', v: 'Привет' }]);
    // SheetJS (without its code-page tables) reads the bytes as Latin-1: the same cells but for 0x80–0x9F.
    const ascii = xls([{ records: [LABEL5(0, 0, latin('Zürich 5 kg')), NUMBER(1, 0, 5)] }], { version: 5, head: [CODEPAGE(1252)] });
    expect(bothWays(ascii)!.rows[0]).toEqual([{ t: 's', v: 'Zürich 5 kg' }]);
  });

  it('skips chart and macro sheets before the data sheet (SheetJS would take a chart’s cached series values for data)', () => {
    const data = xls([
      { type: 0x20, kind: 2, records: [NUMBER(0, 0, 1), LABEL(0, 1, 'series')] },
      { type: 0x40, kind: 1, records: [LABEL(0, 0, 'macro')] },
      { records: [LABEL(0, 0, 'zone'), NUMBER(1, 0, 7)] },
    ]);
    expect(lean(data)!.rows).toEqual([[{ t: 's', v: 'zone' }], [{ t: 'n', v: 7 }]]);
    expect(sheetjs(data)!.rows[0]).toEqual([
      { t: 'n', v: 1 },
      { t: 's', v: 'series' },
    ]);
  });
});

describe('limits counted while reading', () => {
  const limits = (l: Partial<ReadLimits>): ReadLimits => ({ ...READ_LIMITS, ...l });

  it('refuses a cell past the row cap, and reads one on the last row allowed', () => {
    // rows: 5 → the row index cap is 5 + 50 (header room).
    expect(lean(xls([{ records: [LABEL(0, 0, 'a'), NUMBER(54, 0, 1)] }]), limits({ rows: 5 }))!.rows).toHaveLength(55);
    expect(refusal(() => readXls(xls([{ records: [LABEL(0, 0, 'a'), NUMBER(55, 0, 1)] }]), limits({ rows: 5 })))).toMatchObject({
      status: 413,
      key: 'import.tooManyRows',
      params: { limit: '5' },
    });
    // A blank sheet before the data sheet is held to the same limits.
    expect(refusal(() => readXls(xls([{ records: [LABEL(60, 0, ' ')] }, { records: [NUMBER(0, 0, 1)] }]), limits({ rows: 5 })))).toMatchObject({
      key: 'import.tooManyRows',
    });
  });

  it('refuses a cell past the last column, one cell or a MULRK run crossing it', () => {
    expect(lean(xls([{ records: [MULRK(0, 1, [rkInt(1), rkInt(2)])] }]), limits({ columns: 3 }))!.rows[0]).toHaveLength(3);
    for (const record of [NUMBER(3, 3, 1), LABEL(3, 7, 'x'), MULRK(3, 1, [rkInt(1), rkInt(2), rkInt(3)]), BOOLERR(3, 3, 1)]) {
      expect(refusal(() => readXls(xls([{ records: [LABEL(0, 0, 'a'), record] }]), limits({ columns: 3 })))).toMatchObject({
        status: 413,
        key: 'import.tooManyColumns',
        params: { limit: '3', row: 4 },
      });
    }
  });

  it('refuses a cell longer than the characters a cell may hold, whatever record holds it', () => {
    const eleven = 'abcdefghijk';
    for (const sheet of [
      { records: [LABEL(1, 1, eleven)] },
      { records: [LABEL(1, 1, eleven, true)] },
      { records: [RSTRING(1, 1, eleven)] },
      { records: [FORMULA(1, 1, special(0)), STRING(eleven)] },
      { records: [LABELSST(1, 1, 1)] },
    ]) {
      const data = xls([sheet], { tail: [SST([xlString('short'), xlString(eleven)])] });
      expect(lean(data)!.rows[1]![1]).toEqual({ t: 's', v: eleven });
      expect(refusal(() => readXls(data, limits({ cellChars: 10 })))).toMatchObject({
        status: 413,
        key: 'import.cellTooLong',
        params: { limit: '10', cell: 'B2' },
      });
    }
  });

  it('refuses shared strings past their count or characters, a declared count before reading any', () => {
    const strings = ['one', 'two', 'three'].map((s) => xlString(s));
    const data = xls([{ records: [LABELSST(0, 0, 2)] }], { tail: [SST(strings)] });
    expect(lean(data)!.rows[0]).toEqual([{ t: 's', v: 'three' }]);
    const complex = { status: 413, key: 'import.tooComplex' };
    expect(refusal(() => readXls(data, limits({ sharedStrings: 2 })))).toMatchObject(complex);
    expect(refusal(() => readXls(data, limits({ sharedStringChars: 10 })))).toMatchObject(complex);
    // 2^31 strings declared in a record of three: refused before anything is allocated for them.
    expect(refusal(() => readXls(xls([{ records: [LABELSST(0, 0, 0)] }], { tail: [SST(strings, 2 ** 31)] }), READ_LIMITS))).toMatchObject(complex);
    // Counted over every SST record of the file.
    expect(refusal(() => readXls(xls([{ records: [LABELSST(0, 0, 0)] }], { tail: [SST(strings), SST(strings)] }), limits({ sharedStrings: 5 })))).toMatchObject(
      complex,
    );
  });

  it('refuses a sheet whose cells lie scattered far out (dense rows would cost far more than the file)', () => {
    // 65 536 rows of one number at column 200: a 0.9 MB file asking for 13 million row slots (ReadLimits.cells: 4 million).
    const records = Array.from({ length: 65_536 }, (_, r) => RK(r, 200, rkInt(r)));
    expect(refusal(() => readXls(rawOle([['Workbook', biff([{ records }])]]).file, READ_LIMITS))).toMatchObject({ status: 413, key: 'import.tooComplex' });
    expect(lean(rawOle([['Workbook', biff([{ records: records.slice(0, 15_000) }])]]).file)!.rows).toHaveLength(15_000);
  });

  it('refuses a sheet declaring more merged ranges than a table could use', () => {
    const ranges = Array.from({ length: 1000 }, (_, i) => `A${i + 1}:B${i + 1}`);
    const records = [LABEL(0, 0, 'x'), ...Array.from({ length: 101 }, () => MERGECELLS(...ranges))];
    expect(refusal(() => readXls(xls([{ records }]), READ_LIMITS))).toMatchObject({ status: 413, key: 'import.tooComplex' });
    expect(lean(xls([{ records: records.slice(0, 100) }]))!.merges).toHaveLength(99_000);
  });
});

describe('damaged, hostile, encrypted and foreign files', () => {
  const unreadable = { status: 422, key: 'import.unreadable' };
  const stream = biff([{ records: [LABEL(0, 0, 'zone'), NUMBER(1, 0, 1)] }]);
  const read = (data: Buffer) => refusal(() => readXls(data, READ_LIMITS));

  it('refuses a FAT chain that loops, a sector out of range, a directory tree with a cycle, a bad header', () => {
    const looped = rawOle([['Workbook', stream]]);
    looped.file.writeUInt32LE(looped.starts[0], looped.fatEntry(looped.starts[0] + 3));
    expect(read(looped.file)).toMatchObject(unreadable);
    const outOfRange = rawOle([['Workbook', stream]]);
    outOfRange.file.writeUInt32LE(0x00ffffff, outOfRange.dirAt + 128 + 116);
    expect(read(outOfRange.file)).toMatchObject(unreadable);
    const ended = rawOle([['Workbook', stream]]);
    ended.file.writeUInt32LE(ENDOFCHAIN, ended.fatEntry(ended.starts[0] + 2));
    expect(read(ended.file)).toMatchObject(unreadable);
    const cycle = rawOle([
      ['Other', Buffer.alloc(10)],
      ['Workbook', stream],
    ]);
    cycle.file.writeUInt32LE(1, cycle.dirAt + 2 * 128 + 72);
    expect(read(cycle.file)).toMatchObject(unreadable);
    const directoryLoop = rawOle([['Workbook', stream]]);
    directoryLoop.file.writeUInt32LE(directoryLoop.file.readUInt32LE(48), directoryLoop.fatEntry(directoryLoop.file.readUInt32LE(48)));
    expect(read(directoryLoop.file)).toMatchObject(unreadable);
    const badShift = rawOle([['Workbook', stream]]);
    badShift.file.writeUInt16LE(12, 30);
    expect(read(badShift.file)).toMatchObject(unreadable);
    const tooBig = rawOle([['Workbook', stream]]);
    tooBig.file.writeUInt32LE(tooBig.file.length + 1, tooBig.dirAt + 128 + 120);
    expect(read(tooBig.file)).toMatchObject(unreadable);
    expect(read(rawOle([['Workbook', stream]]).file.subarray(0, 2048))).toMatchObject(unreadable);
  });

  it('refuses records out of their stream, a sheet offset elsewhere than a BOF, and records that do not add up', () => {
    expect(read(rawOle([['Workbook', biff([{ records: [LABEL(0, 0, 'x'), Buffer.concat([u16(0x0203, 60_000), Buffer.alloc(14)])] }])]]).file)).toMatchObject(
      unreadable,
    );
    expect(read(ole({ Workbook: stream.subarray(0, stream.length - 6) }))).toMatchObject(unreadable);
    const moved = Buffer.from(stream);
    moved.writeUInt32LE(moved.readUInt32LE(moved.indexOf(u16(0x0085)) + 4) + 4, moved.indexOf(u16(0x0085)) + 4);
    expect(read(ole({ Workbook: moved }))).toMatchObject(unreadable);
    for (const record of [
      rec(0x00bd, u16(0, 0), u16(15), u32(rkInt(1)), u16(5)), // MULRK: one number for columns 0 to 5
      rec(0x00bd, u16(0, 0), u16(15), u32(1), u16(0, 0)), // MULRK: a length that is no whole count
      LABELSST(0, 0, 3), // a shared string that does not exist
      rec(0x0203, at(0, 0), u16(1)), // NUMBER too short
      rec(0x0204, at(0, 0), u16(10), bytes(0), latin('abc')), // LABEL shorter than its count
      rec(0x0204, at(0, 0), u16(3), bytes(1), utf16('a'), bytes(0)), // a UTF-16 character cut by the record's end
      STRING('no formula before'),
      MERGECELLS('A1:B2').subarray(0, 10),
    ]) {
      expect(read(ole({ Workbook: biff([{ records: [record] }]) }))).toMatchObject(unreadable);
    }
    expect(read(ole({ Workbook: Buffer.from('not a workbook stream at all') }))).toMatchObject(unreadable);
    expect(read(ole({ Workbook: biff([{ records: [] }]).subarray(0, 30) }))).toMatchObject(unreadable);
    // BIFF4 and older never come in a compound file.
    expect(read(ole({ Workbook: Buffer.concat([rec(0x0409, u16(0, 0x10), u16(0)), rec(0x000a)]) }))).toMatchObject(unreadable);
  });

  it('refuses an encrypted workbook (FILEPASS), an encrypted .xlsx in OLE, and a compound file without a workbook', () => {
    const encrypted = { status: 422, key: 'import.encrypted' };
    expect(read(xls([{ records: [LABEL(0, 0, 'x')] }], { head: [FILEPASS] }))).toMatchObject(encrypted);
    expect(
      read(
        ole({
          EncryptionInfo: Buffer.concat([u16(4, 4), u32(0x40)]),
          EncryptedPackage: Buffer.alloc(5000, 7),
        }),
      ),
    ).toMatchObject(encrypted);
    expect(read(ole({ WordDocument: Buffer.alloc(5000, 1), '\u0001CompObj': Buffer.alloc(20) }))).toMatchObject({ status: 422, key: 'import.notSpreadsheet' });
    expect(read(rawOle([]).file)).toMatchObject({ status: 422, key: 'import.notSpreadsheet' });
  });
});
