import type { Readable, Writable } from 'node:stream';

/**
 * The few parts of the tar format (POSIX ustar) a backup needs: regular files, written one after the
 * other with their size known first, and read back in the same order. Written here rather than taken
 * from a package: some eighty lines, streamed both ways, and the archives open with any tar
 * (`tar -tzvf backup.tar.gz`; tests/api/backup.test.ts lists one with the system's tar).
 * Sizes of 8 GiB and more use the base-256 size field GNU tar and libarchive read.
 */
const BLOCK = 512;
const OCTAL_MAX = 0o77777777777;

function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`tar: name too long: ${name}`);
  nameBytes.copy(h, 0);
  h.write('0000644\0', 100, 'ascii'); // mode
  h.write('0000000\0', 108, 'ascii'); // uid
  h.write('0000000\0', 116, 'ascii'); // gid
  if (size <= OCTAL_MAX) h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'ascii');
  else {
    // base-256: the first byte's top bit set, the size big-endian in the remaining 11 bytes
    h[124] = 0x80;
    let v = BigInt(size);
    for (let i = 135; i > 124; i--) {
      h[i] = Number(v & 0xffn);
      v >>= 8n;
    }
  }
  h.write(
    Math.floor(mtime.getTime() / 1000)
      .toString(8)
      .padStart(11, '0') + '\0',
    136,
    'ascii',
  );
  h.write('        ', 148, 'ascii'); // checksum, counted as spaces
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

const padding = (size: number) => (size % BLOCK ? Buffer.alloc(BLOCK - (size % BLOCK)) : Buffer.alloc(0));

/** Writes entries into `out` (a gzip stream, for instance), waiting for it to drain. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private write(chunk: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      const ok = this.out.write(chunk, (err) => (err ? reject(err) : undefined));
      if (ok) resolve();
      else this.out.once('drain', resolve);
    });
  }

  async addBuffer(name: string, data: Buffer, mtime = new Date()) {
    await this.write(header(name, data.length, mtime));
    await this.write(data);
    await this.write(padding(data.length));
  }

  /** An entry of `size` bytes from `stream`; a stream of another length is an error (the archive is then unusable). */
  async addStream(name: string, size: number, stream: Readable | AsyncIterable<Buffer>, mtime = new Date(), onChunk?: (chunk: Buffer) => void) {
    await this.write(header(name, size, mtime));
    let written = 0;
    for await (const c of stream) {
      const chunk = c as Buffer;
      written += chunk.length;
      if (written > size) throw new Error(`tar: ${name} is longer than its ${size} bytes`);
      onChunk?.(chunk);
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`tar: ${name} has ${written} bytes, not ${size}`);
    await this.write(padding(size));
  }

  /** The two empty blocks that end an archive. */
  async finish() {
    await this.write(Buffer.alloc(BLOCK * 2));
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; must be read to the end (or `skip`ped) before the next entry. */
  body: AsyncIterable<Buffer>;
}

function parseSize(h: Buffer): number {
  if (h[124] & 0x80) {
    let v = 0n;
    for (let i = 125; i < 136; i++) v = (v << 8n) | BigInt(h[i]);
    return Number(v);
  }
  return parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/, '').trim() || '0', 8);
}

function checksumOk(h: Buffer): boolean {
  const stored = parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
  return stored === sum;
}

/**
 * Reads the regular-file entries of a tar stream in order. Other entry kinds (directories, pax headers)
 * are skipped; a damaged header is an error.
 */
export async function* readTar(source: AsyncIterable<Buffer | string>): AsyncIterable<TarEntry> {
  const it = source[Symbol.asyncIterator]();
  let buf = Buffer.alloc(0);
  let ended = false;
  const fill = async (n: number) => {
    while (buf.length < n && !ended) {
      const next = await it.next();
      if (next.done) ended = true;
      else buf = buf.length ? Buffer.concat([buf, Buffer.from(next.value)]) : Buffer.from(next.value);
    }
    return buf.length >= n;
  };
  for (;;) {
    if (!(await fill(BLOCK))) throw new Error('tar: the archive ends before its end blocks (cut short?)');
    const h = buf.subarray(0, BLOCK);
    buf = buf.subarray(BLOCK);
    if (h.every((b) => b === 0)) return;
    if (!checksumOk(h)) throw new Error('tar: a damaged entry header');
    const name = h.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const type = String.fromCharCode(h[156] || 0x30);
    const size = parseSize(h);
    let left = size;
    let consumed = false;
    const body = async function* () {
      while (left > 0) {
        if (!buf.length && !(await fill(1))) throw new Error(`tar: ${name} is cut short`);
        const part = buf.subarray(0, Math.min(left, buf.length));
        buf = buf.subarray(part.length);
        left -= part.length;
        yield part;
      }
      consumed = true;
    };
    if (type === '0' || type === '\0') {
      yield { name, size, body: body() };
      if (!consumed) for await (const _ of body()) void _; // the caller skipped it
    } else for await (const _ of body()) void _;
    const pad = size % BLOCK ? BLOCK - (size % BLOCK) : 0;
    if (pad && !(await fill(pad))) throw new Error(`tar: ${name} is cut short`);
    buf = buf.subarray(pad);
  }
}
