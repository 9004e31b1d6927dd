import { Inflate } from 'fflate';
import { ImportError } from '../errors.js';
import { limitError, unreadable, type ReadLimits } from './types.js';

/**
 * The zip container of .xlsx and .ods (issue 31): its central directory read and checked before any
 * part is inflated, then each part inflated step by step, every byte counted against the file's inflate
 * budget (`ReadLimits.inflatedBytes`) and against the part's declared size, so neither a bomb with an
 * honest size nor one with a lying size is ever held whole: a reader sees what 4 kB of compressed bytes make.
 */

const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_EOCD = 0x06054b50;

export interface ZipEntry {
  /** the name as stored (forward slashes) */
  name: string;
  method: 0 | 8;
  compressedSize: number;
  /** the declared unzipped size */
  size: number;
  /** offset of the entry's data (after its local header) */
  start: number;
}

export interface Zip {
  data: Buffer;
  /** entries by lower-case name */
  entries: Map<string, ZipEntry>;
  kind: 'xlsx' | 'ods';
  /** what the parts read so far inflated to */
  inflated: number;
  limits: ReadLimits;
}

/**
 * Walks the central directory: every entry stored or deflated, the declared sizes adding up to at most
 * the inflate budget (413 before anything is inflated), every local header where the directory says,
 * and the archive an .xlsx (xl/workbook.xml) or an .ods (content.xml with its mimetype): otherwise 422.
 */
export function openZip(data: Buffer, limits: ReadLimits): Zip {
  const minEocd = Math.max(0, data.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = data.length - 22; i >= minEocd; i--) {
    if (data.readUInt32LE(i) === ZIP_EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw unreadable();
  const count = data.readUInt16LE(eocd + 10);
  const cdOffset = data.readUInt32LE(eocd + 16);
  // ZIP64 markers: a file under the upload cap never needs them.
  if (count === 0xffff || cdOffset === 0xffffffff || cdOffset >= data.length) throw unreadable();

  const entries = new Map<string, ZipEntry>();
  let declared = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== ZIP_CENTRAL) throw unreadable();
    const method = data.readUInt16LE(p + 10);
    const compressedSize = data.readUInt32LE(p + 20);
    const size = data.readUInt32LE(p + 24);
    const nameLen = data.readUInt16LE(p + 28);
    const extraLen = data.readUInt16LE(p + 30);
    const commentLen = data.readUInt16LE(p + 32);
    const local = data.readUInt32LE(p + 42);
    if (p + 46 + nameLen > data.length) throw unreadable();
    const name = data.toString('utf8', p + 46, p + 46 + nameLen).replace(/\\/g, '/');
    if (method !== 0 && method !== 8) throw unreadable();
    if (size === 0xffffffff || compressedSize === 0xffffffff) throw limitError('inflated', limits);
    declared += size;
    if (declared > limits.inflatedBytes) throw limitError('inflated', limits);
    if (local + 30 > data.length || data.readUInt32LE(local) !== ZIP_LOCAL) throw unreadable();
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    if (start + compressedSize > data.length) throw unreadable();
    entries.set(name.toLowerCase(), { name, method: method as 0 | 8, compressedSize, size, start });
    p += 46 + nameLen + extraLen + commentLen;
  }
  const kind = entries.has('xl/workbook.xml') ? 'xlsx' : entries.has('content.xml') && entries.has('mimetype') ? 'ods' : null;
  if (!kind) throw new ImportError(422, 'import.notSpreadsheet');
  const zip: Zip = { data, entries, kind, inflated: 0, limits };
  if (kind === 'ods') {
    const m = entries.get('mimetype')!;
    const type = m.method === 0 ? data.toString('latin1', m.start, m.start + m.compressedSize) : '';
    if (type !== 'application/vnd.oasis.opendocument.spreadsheet') throw new ImportError(422, 'import.notSpreadsheet');
  }
  return zip;
}

/** An entry by name (case-insensitive, a leading slash dropped), or undefined. */
export const zipEntry = (zip: Zip, name: string) => zip.entries.get(name.replace(/^\//, '').toLowerCase());

const CHUNK = 64 * 1024;
/**
 * Compressed bytes fed to the inflater at a time: deflate expands at most 1 032 times, so one step
 * hands on at most ~4 MB, which is counted before the next step inflates more.
 */
const STEP = 4 * 1024;

/**
 * The entry's bytes as they inflate, a step at a time. Each chunk is counted against the file's budget
 * and the entry's declared size before it is handed on: 413 at the first byte past either. A reader
 * that stops early (a limit of its own) ends the inflation with it (`return` of the iterator).
 *
 * The inflater is fflate's, in JavaScript, on the reading thread itself: Node's zlib streams inflate on
 * libuv's thread pool, which the whole process shares (file reads, password hashing) at full priority,
 * whereas the reading thread runs at a lower one (worker.ts). A synchronous zlib call cannot inflate a
 * part step by step (it closes its handle after one call), and inflating whole holds what a bomb makes.
 */
export async function* inflateEntry(zip: Zip, entry: ZipEntry): AsyncGenerator<Buffer, void, undefined> {
  const raw = zip.data.subarray(entry.start, entry.start + entry.compressedSize);
  if (entry.method === 0) {
    if (raw.length > entry.size) throw limitError('inflated', zip.limits);
    for (let i = 0; i < raw.length; i += CHUNK) {
      const chunk = raw.subarray(i, Math.min(raw.length, i + CHUNK));
      count(zip, chunk.length);
      yield chunk;
    }
    return;
  }
  let out: Buffer[] = [];
  const inflate = new Inflate((data) => out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
  let seen = 0;
  for (let i = 0; i < raw.length || i === 0; i += STEP) {
    const end = Math.min(raw.length, i + STEP);
    try {
      inflate.push(raw.subarray(i, end), end >= raw.length);
    } catch {
      throw unreadable();
    }
    const chunks = out;
    out = [];
    for (const chunk of chunks) {
      seen += chunk.length;
      if (seen > entry.size) throw limitError('inflated', zip.limits);
      count(zip, chunk.length);
      yield chunk;
    }
  }
}

function count(zip: Zip, bytes: number) {
  zip.inflated += bytes;
  if (zip.inflated > zip.limits.inflatedBytes) throw limitError('inflated', zip.limits);
}

/**
 * A small part (workbook, relationships, content types, styles) inflated whole, at most `max` bytes
 * (its own budget on top of the file's): more is refused as too complex. A UTF-8 byte order mark is
 * dropped. null when the part is absent.
 */
export async function readEntry(zip: Zip, name: string, max = 4 * 1024 * 1024): Promise<Buffer | null> {
  const entry = zipEntry(zip, name);
  if (!entry) return null;
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of inflateEntry(zip, entry)) {
    length += chunk.length;
    if (length > max) throw limitError('complex', zip.limits);
    parts.push(chunk);
  }
  let out = Buffer.concat(parts, length);
  if (out.length >= 3 && out[0] === 0xef && out[1] === 0xbb && out[2] === 0xbf) out = out.subarray(3);
  return out;
}
