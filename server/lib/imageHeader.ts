/**
 * The pixel size an image declares, read from its header without decoding it (issue 31): a 1 MB
 * PNG can declare 50 000 × 50 000 pixels, 10 GB once decoded, and every browser that shows the logo or
 * the profile picture (lists, the top bar, another tenant's admin) would try. So an upload is refused on
 * what its header says, before anything decodes it, and so is a stored file before it is served.
 *
 * The limits: at most MAX_IMAGE_SIDE pixels per side and MAX_IMAGE_PIXELS in all. A logo or a profile
 * picture is shown at a few hundred pixels at most; the limits are set to let through what people upload
 * without resizing (a 12 MP phone photo is 4032 × 3024, a 24 MP camera 6000 × 4000, a wide banner logo
 * 8000 × 1000) and to keep one decoded image at 100 MB of RGBA at most (25 MP × 4 bytes), where the
 * 50 000² above is 10 GB.
 *
 * Read: PNG (the IHDR chunk, which must come first, with its CRC), JPEG (every segment walked with its
 * length checked against the file, the frame header SOFn, and the entropy-coded data skipped to the end
 * marker, so a second frame header further on is seen) and WebP (the RIFF chunks: VP8, VP8L, VP8X with its
 * canvas and every frame and image chunk inside, each checked). A header that is cut short, malformed or
 * contradicts itself (a CRC that does not match, two JPEG frame headers, a WebP image larger than its
 * canvas) is refused: what a decoder would make of it cannot be told from here.
 */
export const MAX_IMAGE_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 25_000_000;

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export type ImageHeader = { ok: true; format: ImageFormat; width: number; height: number } | { ok: false; reason: 'unknown' | 'truncated' | 'malformed' };

const truncated = { ok: false, reason: 'truncated' } as const;
const malformed = { ok: false, reason: 'malformed' } as const;

/** The size an image's header declares, or why it cannot be told. Never decodes, never throws. */
export function readImageHeader(data: Buffer): ImageHeader {
  if (data.length >= 2 && data[0] === 0x89 && data[1] === 0x50) return png(data);
  if (data.length >= 2 && data[0] === 0xff && data[1] === 0xd8) return jpeg(data);
  if (data.length >= 4 && data.toString('latin1', 0, 4) === 'RIFF') return webp(data);
  return { ok: false, reason: 'unknown' };
}

/** Whether a declared size is within the limits. */
export const withinImageLimits = (width: number, height: number) => width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS;

// ---- PNG -----------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Colour type → the bit depths the PNG specification allows for it. */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
/** CRC-32 as PNG computes it (zlib's crc32 is not in every Node 20). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function png(data: Buffer): ImageHeader {
  // signature (8), IHDR length (4) and type (4), its 13 bytes, its CRC (4)
  if (data.length < 8) return data.equals(PNG_SIGNATURE.subarray(0, data.length)) ? truncated : { ok: false, reason: 'unknown' };
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) return { ok: false, reason: 'unknown' };
  if (data.length < 33) return truncated;
  if (data.readUInt32BE(8) !== 13 || data.toString('latin1', 12, 16) !== 'IHDR') return malformed;
  if (data.readUInt32BE(29) !== crc32(data.subarray(12, 29))) return malformed;
  const width = data.readUInt32BE(16);
  const height = data.readUInt32BE(20);
  const [depth, colour, compression, filter, interlace] = [data[24], data[25], data[26], data[27], data[28]];
  // 0 is not a size, and the specification caps a side at 2^31 - 1
  if (!width || !height || width > 0x7fffffff || height > 0x7fffffff) return malformed;
  if (!PNG_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return malformed;
  return { ok: true, format: 'png', width, height };
}

// ---- JPEG ----------------------------------------------------------------------------------------------

/** Markers of a frame header (SOF0–3, 5–7, 9–11, 13–15) and DHP (the hierarchical one): each declares a size. */
const isFrameHeader = (m: number) => (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) || m === 0xde;
/** Markers without a length: TEM, RST0–7 (SOI and EOI are handled apart). */
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);

function jpeg(data: Buffer): ImageHeader {
  if (data.length < 3) return truncated;
  if (data[2] !== 0xff) return { ok: false, reason: 'unknown' };
  let size: { width: number; height: number } | null = null;
  let scanned = false;
  let pos = 2;
  for (;;) {
    if (pos >= data.length) return size && scanned ? { ok: true, format: 'jpeg', ...size } : truncated;
    if (data[pos] !== 0xff) return malformed;
    // fill bytes: any number of 0xFF before a marker
    while (pos < data.length && data[pos] === 0xff) pos++;
    if (pos >= data.length) return truncated;
    const marker = data[pos++];
    if (marker === 0x00 || marker === 0xd8) return malformed; // a stuffed byte or a second SOI outside a scan
    if (marker === 0xd9) return size && scanned ? { ok: true, format: 'jpeg', ...size } : malformed; // EOI
    if (standalone(marker)) continue;
    if (pos + 2 > data.length) return truncated;
    const length = data.readUInt16BE(pos);
    if (length < 2) return malformed;
    const end = pos + length;
    if (end > data.length) return truncated;
    if (isFrameHeader(marker)) {
      // P (1), Y (2), X (2), Nf (1), then 3 bytes per component
      if (size || length < 8) return malformed; // a second frame header: which size a decoder takes is not ours to guess
      const height = data.readUInt16BE(pos + 3);
      const width = data.readUInt16BE(pos + 5);
      const components = data[pos + 7];
      if (!width || !height || !components || length !== 8 + 3 * components) return malformed; // a height of 0 (set later by DNL) too
      size = { width, height };
    }
    if (marker === 0xda) {
      if (!size) return malformed; // a scan before any frame header
      scanned = true;
      // the entropy-coded data: up to the next 0xFF that is neither stuffing (FF 00), a restart (FF D0–D7) nor fill
      pos = end;
      for (;;) {
        const ff = data.indexOf(0xff, pos);
        if (ff < 0 || ff + 1 >= data.length) return { ok: true, format: 'jpeg', ...size }; // cut inside the data: the header is whole
        const next = data[ff + 1];
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
          pos = ff + (next === 0xff ? 1 : 2);
          continue;
        }
        pos = ff;
        break;
      }
      continue;
    }
    pos = end;
  }
}

// ---- WebP ----------------------------------------------------------------------------------------------

/** The size a VP8 (lossy) bitstream declares, from its key frame header. */
function vp8Size(data: Buffer, at: number, length: number): { width: number; height: number } | 'malformed' {
  if (length < 10) return 'malformed';
  // a 3-byte frame tag whose low bit is 0 on a key frame, the start code 9D 01 2A, then two 14-bit sizes
  if (data[at] & 1 || data[at + 3] !== 0x9d || data[at + 4] !== 0x01 || data[at + 5] !== 0x2a) return 'malformed';
  const width = data.readUInt16LE(at + 6) & 0x3fff;
  const height = data.readUInt16LE(at + 8) & 0x3fff;
  return width && height ? { width, height } : 'malformed';
}

/** The size a VP8L (lossless) bitstream declares: the 0x2F signature, then 14 bits each of width − 1 and height − 1. */
function vp8lSize(data: Buffer, at: number, length: number): { width: number; height: number } | 'malformed' {
  if (length < 5 || data[at] !== 0x2f) return 'malformed';
  const bits = data.readUInt32LE(at + 1);
  if (bits >>> 29 !== 0) return 'malformed'; // version 0 only
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

const u24 = (data: Buffer, at: number) => data[at] | (data[at + 1] << 8) | (data[at + 2] << 16);

/**
 * The RIFF chunks from `from` to `to`: fourcc, payload start and length (each padded to an even size).
 * 'truncated' when a chunk runs past `to`.
 */
function chunks(data: Buffer, from: number, to: number): Array<{ fourcc: string; at: number; length: number }> | 'truncated' {
  const out = [];
  let pos = from;
  while (pos < to) {
    if (pos + 8 > to) return 'truncated';
    const length = data.readUInt32LE(pos + 4);
    const at = pos + 8;
    if (at + length > to) return 'truncated';
    out.push({ fourcc: data.toString('latin1', pos, pos + 4), at, length });
    pos = at + length + (length & 1);
  }
  return out;
}

function webp(data: Buffer): ImageHeader {
  if (data.length < 12) return truncated;
  if (data.toString('latin1', 8, 12) !== 'WEBP') return { ok: false, reason: 'unknown' };
  const riffEnd = 8 + data.readUInt32LE(4);
  if (riffEnd > data.length) return truncated;
  if (riffEnd < 20) return malformed;
  const top = chunks(data, 12, riffEnd);
  if (top === 'truncated') return truncated;
  const first = top[0];
  const checkImage = (c: { fourcc: string; at: number; length: number }) =>
    c.fourcc === 'VP8 ' ? vp8Size(data, c.at, c.length) : c.fourcc === 'VP8L' ? vp8lSize(data, c.at, c.length) : null;

  if (first.fourcc === 'VP8 ' || first.fourcc === 'VP8L') {
    const size = checkImage(first)!;
    return size === 'malformed' ? malformed : { ok: true, format: 'webp', ...size };
  }
  if (first.fourcc !== 'VP8X' || first.length < 10) return malformed;
  const width = u24(data, first.at + 4) + 1;
  const height = u24(data, first.at + 7) + 1;
  // Every image the file holds must fit its canvas, or a decoder could be led to another size: the still
  // image's chunk, and each animation frame (ANMF: offset, size, then its own image chunk).
  let images = 0;
  for (const c of top.slice(1)) {
    if (c.fourcc === 'ANMF') {
      if (c.length < 16) return malformed;
      const fw = u24(data, c.at + 6) + 1;
      const fh = u24(data, c.at + 9) + 1;
      if (fw > width || fh > height) return malformed;
      const inner = chunks(data, c.at + 16, c.at + c.length);
      if (inner === 'truncated') return malformed;
      for (const i of inner) {
        const s = checkImage(i);
        if (s === null) continue;
        if (s === 'malformed' || s.width > fw || s.height > fh) return malformed;
        images++;
      }
      continue;
    }
    const s = checkImage(c);
    if (s === null) continue;
    if (s === 'malformed' || s.width > width || s.height > height) return malformed;
    images++;
  }
  if (!images) return malformed;
  return { ok: true, format: 'webp', width, height };
}
