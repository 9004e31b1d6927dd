import { describe, expect, it } from 'vitest';
import { utf8Bytes } from './answers.js';

describe('utf8Bytes (the compiled answers as bytes, issue 37)', () => {
  it('gives Buffer.from’s bytes for any text: ASCII, Latin-1, two-byte, surrogate pairs, lone surrogates, long', () => {
    let a = 5;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const units = ['a', '"', '\\', '×', 'é', '→', '’', '\u0000', '😀', '\ud83d', '\ude00', '\uffff'];
    const texts = ['', 'x'.repeat(21_845), 'x'.repeat(21_846), '→'.repeat(30_000), '😀'.repeat(20_000)];
    for (let i = 0; i < 5_000; i++) {
      let t = '';
      for (let n = Math.floor(next() * 40); n > 0; n--) t += units[Math.floor(next() * units.length)];
      texts.push(t);
    }
    for (const t of texts) expect(utf8Bytes(t).equals(Buffer.from(t, 'utf8')), JSON.stringify(t.slice(0, 40))).toBe(true);
  });
  it('hands out bytes that the next call does not overwrite', () => {
    const first = utf8Bytes('{"label":"Pallet 1: 120×80×90 cm → p300"}');
    const copy = Buffer.from(first);
    utf8Bytes('x'.repeat(5_000));
    expect(first.equals(copy)).toBe(true);
  });
});
