import { describe, expect, it } from 'vitest';
import { hasInvisible, stripInvisible } from './invisibleText.js';

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
