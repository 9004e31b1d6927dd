import { describe, expect, it } from 'vitest';
import { cacheKey, type KeyPart } from './cacheKey.js';

describe('cacheKey', () => {
  it('tells apart tuples whose texts would run together', () => {
    const tuples: KeyPart[][] = [
      ['ab', 'c'],
      ['a', 'bc'],
      ['a', 'b', 'c'],
      ['abc'],
      ['1', 2],
      [1, '2'],
      [12],
      ['12'],
      [null],
      [undefined],
      [''],
      ['~'],
      [null, null],
      ['s1:a'],
      ['a', ''],
      ['', 'a'],
      [true],
      ['t'],
      [false, 'x'],
      ['fx'],
      [1.5],
      ['1.5'],
      [-0],
      [NaN],
      ['n1;', 'x'],
      [1, 'x'],
    ];
    const keys = tuples.map((t) => cacheKey(...t));
    // null and undefined are the same "missing" value; every other pair differs
    expect(cacheKey(null)).toBe(cacheKey(undefined));
    const distinct = new Set(keys.filter((_, i) => tuples[i]![0] !== undefined));
    expect(distinct.size).toBe(tuples.length - 1);
  });
  it('reads back as the tuple it was made from (so no two tuples share a key)', () => {
    let a = 99;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = ['a', 's', 'n', ':', ';', '~', '1', '2', 't', 'f', '|', '"', ',', 'é', '→'];
    const part = (): KeyPart => {
      const r = next();
      if (r < 0.1) return null;
      if (r < 0.15) return next() < 0.5;
      if (r < 0.35) return Math.floor(next() * 200) / 4 - 10;
      let s = '';
      for (let n = Math.floor(next() * 5); n > 0; n--) s += alphabet[Math.floor(next() * alphabet.length)];
      return s;
    };
    /** The inverse of cacheKey: the parts it was made from. */
    const read = (key: string): KeyPart[] => {
      const out: KeyPart[] = [];
      for (let i = 0; i < key.length;) {
        const c = key[i]!;
        if (c === '~') {
          out.push(null);
          i++;
        } else if (c === 't' || c === 'f') {
          out.push(c === 't');
          i++;
        } else if (c === 'n') {
          const end = key.indexOf(';', i);
          out.push(Number(key.slice(i + 1, end)));
          i = end + 1;
        } else {
          const colon = key.indexOf(':', i);
          const len = Number(key.slice(i + 1, colon));
          out.push(key.slice(colon + 1, colon + 1 + len));
          i = colon + 1 + len;
        }
      }
      return out;
    };
    for (let k = 0; k < 20_000; k++) {
      const tuple = Array.from({ length: 1 + Math.floor(next() * 6) }, part);
      expect(read(cacheKey(...tuple))).toEqual(tuple);
    }
  });
});
