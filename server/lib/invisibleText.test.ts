import { describe, expect, it } from 'vitest';
import { hasInvisible, mayHaveInvisible, mayHaveInvisibleByPattern, stripInvisible } from './invisibleText.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

describe('invisible and text-direction characters (issue 31)', () => {
  it('finds and strips every character of the ranges, anywhere in a text', () => {
    for (const c of [...range(0x200b, 0x200f), ...range(0x202a, 0x202e), ...range(0x2060, 0x2064), ...range(0x2066, 0x2069), '\u061c', '\ufeff']) {
      const s = `Ac${c}me`;
      expect([c.codePointAt(0)!.toString(16), hasInvisible(s), stripInvisible(s)]).toEqual([c.codePointAt(0)!.toString(16), true, 'Acme']);
    }
  });

  it('leaves other text alone: accents, no-break spaces, emoji and their joiners', () => {
    for (const s of ['Società Cooperativa à r.l.', '1\u00a0234\u202f56', 'ok 👍🏽', '👨\u200d👩\u200d👧', '❤️\u200d🔥', '👩🏽\u200d💻', '🏳️\u200d🌈']) {
      expect([s, hasInvisible(s), stripInvisible(s)]).toEqual([s, false, s]);
    }
    // a joiner between letters, or at an emoji's edge, is not an emoji's
    expect(stripInvisible('a\u200db 👍\u200d x \u200d👍')).toBe('ab 👍 x 👍');
  });
});

describe('mayHaveInvisible: the scan below U+061C answers as the regex does', () => {
  it('on random texts of Latin, the set, its neighbours and astral characters', () => {
    let a = 17;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const units = [
      'a',
      'é',
      '×',
      '\u061b',
      '\u061c',
      '\u061d',
      '\u200a',
      '\u200b',
      '\u200f',
      '\u2010',
      '\u202e',
      '\u2064',
      '\u2065',
      '\u2069',
      '\ufeff',
      '😀',
      '\ud83d',
      'ا',
    ];
    const wrong: string[] = [];
    let found = 0;
    for (let i = 0; i < 50_000; i++) {
      let t = '';
      for (let n = Math.floor(next() * 12); n > 0; n--) t += units[Math.floor(next() * (next() < 0.5 ? 3 : units.length))];
      if (mayHaveInvisible(t) !== mayHaveInvisibleByPattern(t)) wrong.push(t);
      if (mayHaveInvisibleByPattern(t)) found++;
    }
    expect(wrong).toEqual([]);
    expect(found).toBeGreaterThan(5_000);
  });
});
