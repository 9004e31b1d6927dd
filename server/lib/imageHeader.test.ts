import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, readImageHeader, withinImageLimits } from './imageHeader';
import { isShowableImage } from './images';
import { jpegOf, jpegParts, jpegSegment, pngChunk, pngOf, REAL, riffChunk, sof, vp8, vp8l, vp8x, webpOf } from '../../tests/fixtures/images';

/** The 1 × 1 PNG the API tests upload. */
const PNG_1x1 = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const size = (data: Buffer) => {
  const h = readImageHeader(data);
  return h.ok ? `${h.format} ${h.width}x${h.height}` : h.reason;
};
/** Every cut of a file shorter than `upTo` bytes. */
const cuts = (data: Buffer, upTo = data.length) => Array.from({ length: upTo }, (_, n) => data.subarray(0, n));

describe('image headers (issue 31): the declared size, read without decoding', () => {
  it('reads real PNG, JPEG (baseline, progressive) and WebP (lossy, lossless, alpha, animated) files', () => {
    expect(size(PNG_1x1)).toBe('png 1x1');
    expect(size(REAL.jpeg)).toBe('jpeg 8x6');
    expect(size(REAL.progressiveJpeg)).toBe('jpeg 8x6');
    expect(size(REAL.webp)).toBe('webp 8x6');
    expect(size(REAL.losslessWebp)).toBe('webp 8x6');
    expect(size(REAL.alphaWebp)).toBe('webp 8x6');
    expect(size(REAL.animatedWebp)).toBe('webp 8x6');
    for (const data of [PNG_1x1, ...Object.values(REAL)]) expect(isShowableImage(data)).toBe(true);
  });

  it('reads the size a crafted header declares, however large, and the limits refuse it', () => {
    expect(size(pngOf(50_000, 50_000))).toBe('png 50000x50000');
    expect(size(pngOf(2 ** 31 - 1, 1))).toBe('png 2147483647x1');
    expect(size(jpegOf(50_000, 50_000))).toBe('jpeg 50000x50000');
    expect(size(jpegOf(65_535, 65_535))).toBe('jpeg 65535x65535');
    expect(size(webpOf(vp8(16_383, 16_383)))).toBe('webp 16383x16383');
    expect(size(webpOf(vp8l(16_384, 16_384)))).toBe('webp 16384x16384');
    expect(size(webpOf(vp8x(50_000, 50_000), vp8l(100, 100)))).toBe('webp 50000x50000');
    for (const data of [pngOf(50_000, 50_000), jpegOf(50_000, 50_000), webpOf(vp8(16_383, 16_383)), webpOf(vp8x(50_000, 50_000), vp8l(100, 100))]) {
      expect(isShowableImage(data)).toBe(false);
    }
    expect(isShowableImage(pngOf(4032, 3024))).toBe(true); // a 12 MP phone photo
  });

  it('limits each side to MAX_IMAGE_SIDE and the whole to MAX_IMAGE_PIXELS', () => {
    expect([MAX_IMAGE_SIDE, MAX_IMAGE_PIXELS]).toEqual([8192, 25_000_000]);
    const table: Array<[number, number, boolean]> = [
      [1, 1, true],
      [6000, 4000, true], // a 24 MP camera
      [8192, 3051, true], // 24 993 792
      [8192, 3052, false], // 25 001 984
      [5000, 5000, true],
      [5001, 5000, false],
      [8193, 1, false],
      [1, 8193, false],
      [50_000, 50_000, false],
    ];
    for (const [w, h, ok] of table) expect([w, h, withinImageLimits(w, h)]).toEqual([w, h, ok]);
  });

  it('PNG: refuses a cut, malformed or lying IHDR', () => {
    for (const cut of cuts(PNG_1x1, 33)) expect(readImageHeader(cut).ok).toBe(false);
    expect(size(PNG_1x1.subarray(0, 20))).toBe('truncated');
    expect(size(PNG_1x1.subarray(0, 5))).toBe('truncated'); // the signature's start
    // the width changed after the CRC was made: the header lies about itself
    expect(size(pngOf(10, 10, { tamper: (ihdr) => ihdr.writeUInt32BE(50_000, 0) }))).toBe('malformed');
    expect(size(pngOf(0, 10))).toBe('malformed');
    expect(size(pngOf(10, 2 ** 31))).toBe('malformed');
    expect(size(pngOf(10, 10, { depth: 3 }))).toBe('malformed');
    expect(size(pngOf(10, 10, { colour: 2, depth: 4 }))).toBe('malformed');
    expect(size(pngOf(10, 10, { colour: 5 }))).toBe('malformed');
    // IHDR not first, or of another length
    const sig = PNG_1x1.subarray(0, 8);
    expect(size(Buffer.concat([sig, pngChunk('tEXt', Buffer.from('a\0b')), PNG_1x1.subarray(8)]))).toBe('malformed');
    const ihdr14 = Buffer.concat([PNG_1x1.subarray(16, 29), Buffer.from([0])]);
    expect(size(Buffer.concat([sig, pngChunk('IHDR', ihdr14), Buffer.alloc(8)]))).toBe('malformed');
    // our CRC is PNG's (zlib's)
    const sample = Buffer.from('IHDR hello');
    expect(crc32(sample)).toBe(zlib.crc32(sample));
  });

  it('JPEG: walks the segments with bounds; refuses a cut header, a length past the end, two frames, a scan before the frame', () => {
    const { soi, app0, sos, scan, eoi } = jpegParts;
    // every cut before the end of the scan header: never a size
    const sos0 = REAL.jpeg.indexOf(Buffer.from([0xff, 0xda]));
    const scanData = sos0 + 2 + REAL.jpeg.readUInt16BE(sos0 + 2);
    for (const cut of cuts(REAL.jpeg, scanData)) expect(readImageHeader(cut).ok).toBe(false);
    expect(size(REAL.jpeg.subarray(0, 30))).toBe('truncated');
    expect(size(Buffer.concat([soi, app0, sof(10, 10).subarray(0, 6)]))).toBe('truncated');
    // a cut inside the scan's data: the header is whole, the size known
    expect(size(Buffer.concat([soi, app0, sof(10, 10), sos, scan.subarray(0, 4)]))).toBe('jpeg 10x10');
    // a segment whose length runs past the file
    const long = jpegSegment(0xe1, Buffer.alloc(10));
    long.writeUInt16BE(5000, 2);
    expect(size(Buffer.concat([soi, long, sof(10, 10), sos, scan, eoi]))).toBe('truncated');
    // a length under 2
    expect(size(Buffer.concat([soi, Buffer.from([0xff, 0xe1, 0, 1]), sof(10, 10), sos, scan, eoi]))).toBe('malformed');
    // two frame headers, before the scan or hidden after it
    expect(size(Buffer.concat([soi, app0, sof(10, 10), sof(50_000, 50_000), sos, scan, eoi]))).toBe('malformed');
    expect(size(Buffer.concat([soi, app0, sof(10, 10), sos, scan, sof(50_000, 50_000), sos, scan, eoi]))).toBe('malformed');
    expect(size(Buffer.concat([soi, app0, sof(10, 10), sos, scan, jpegSegment(0xde, sof(50_000, 50_000).subarray(4)), eoi]))).toBe('malformed');
    // a progressive frame (SOF2) and one with several scans read alike
    expect(size(Buffer.concat([soi, app0, sof(300, 200, 0xc2), sos, scan, sos, scan, eoi]))).toBe('jpeg 300x200');
    // a scan before any frame header, an end before any, a height of 0 (DNL), a frame header of the wrong length
    expect(size(Buffer.concat([soi, app0, sos, scan, eoi]))).toBe('malformed');
    expect(size(Buffer.concat([soi, app0, eoi]))).toBe('malformed');
    expect(size(Buffer.concat([soi, app0, sof(10, 0), sos, scan, eoi]))).toBe('malformed');
    const badSof = sof(10, 10);
    badSof[9] = 3; // three components announced, one given
    expect(size(Buffer.concat([soi, app0, badSof, sos, scan, eoi]))).toBe('malformed');
    // something other than a marker where one must be
    expect(size(Buffer.concat([soi, app0, Buffer.from([0x12, 0x34]), sof(10, 10), sos, scan, eoi]))).toBe('malformed');
    // fill bytes before a marker are allowed
    expect(size(Buffer.concat([soi, Buffer.from([0xff, 0xff]), app0, sof(10, 10), sos, scan, eoi]))).toBe('jpeg 10x10');
  });

  it('WebP: refuses a cut or malformed RIFF, a bitstream without its signature, an image larger than its canvas', () => {
    for (const cut of cuts(REAL.webp, 30)) expect(readImageHeader(cut).ok).toBe(false);
    expect(size(REAL.webp.subarray(0, REAL.webp.length - 1))).toBe('truncated'); // the RIFF size says more
    expect(size(REAL.animatedWebp.subarray(0, 100))).toBe('truncated');
    // a chunk whose size runs past the RIFF's end
    const over = webpOf(vp8(10, 10));
    over.writeUInt32LE(5000, 16);
    expect(size(over)).toBe('truncated');
    // bitstreams without their signatures
    const noStart = webpOf(vp8(10, 10));
    noStart[23] = 0;
    expect(size(noStart)).toBe('malformed');
    const noSig = webpOf(vp8l(10, 10));
    noSig[20] = 0;
    expect(size(noSig)).toBe('malformed');
    // a canvas that says less than the image in it (a decoder might follow either)
    expect(size(webpOf(vp8x(100, 100), vp8l(16_384, 16_384)))).toBe('malformed');
    expect(size(webpOf(vp8x(100, 100), vp8(8000, 100)))).toBe('malformed');
    // an animation frame larger than the canvas, or whose image is larger than the frame
    const anmf = (fw: number, fh: number, image: Buffer) => {
      const head = Buffer.alloc(16);
      head.writeUIntLE(fw - 1, 6, 3);
      head.writeUIntLE(fh - 1, 9, 3);
      return riffChunk('ANMF', Buffer.concat([head, image]));
    };
    expect(size(webpOf(vp8x(100, 100, 0x02), anmf(50, 50, vp8l(50, 50))))).toBe('webp 100x100');
    expect(size(webpOf(vp8x(100, 100, 0x02), anmf(5000, 50, vp8l(50, 50))))).toBe('malformed');
    expect(size(webpOf(vp8x(100, 100, 0x02), anmf(50, 50, vp8l(5000, 50))))).toBe('malformed');
    // a canvas and no image at all, a first chunk that is none of the three
    expect(size(webpOf(vp8x(100, 100)))).toBe('malformed');
    expect(size(webpOf(riffChunk('ALPH', Buffer.alloc(4)), vp8(10, 10)))).toBe('malformed');
  });

  it('tells unknown bytes apart (GIF, SVG, empty)', () => {
    expect(size(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('unknown');
    expect(size(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('unknown');
    expect(size(Buffer.alloc(0))).toBe('unknown');
    expect(size(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'))).toBe('unknown');
  });

  it('nothing in the server embeds or decodes a picture but through pdf.ts placeImage (which checks the header first)', () => {
    const root = path.resolve(__dirname, '..');
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.ts$/.test(e.name) && !e.name.endsWith('.test.ts')) {
          const text = fs.readFileSync(p, 'utf8');
          if (/\.image\(|from 'sharp'|from 'jimp'|from 'pngjs'/.test(text)) found.push(path.relative(root, p));
        }
      }
    };
    walk(root);
    expect(found).toEqual(['lib/pdf.ts']);
  });
});
