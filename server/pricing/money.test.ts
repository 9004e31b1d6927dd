import { describe, expect, it } from 'vitest';
import {
  applyPercent,
  ceilDiv,
  ceilKg,
  ceilKgExactly,
  ceilQuintals,
  centsToNumber,
  compareDecimal,
  mulCents,
  parseDecimal,
  percentOf,
  applyPercentExactly,
  mulCentsExactly,
  roundHalfUp,
  toCents,
  toCentsOrNull,
  isShortDecimal,
  SHORT_DECIMAL,
  tenThousandths,
  tenThousandthsByPattern,
} from './money.js';

describe('parseDecimal', () => {
  it('parses decimal text exactly', () => {
    expect(parseDecimal('80.00')).toEqual({ n: 8000n, scale: 2 });
    expect(parseDecimal('4.5')).toEqual({ n: 45n, scale: 1 });
    expect(parseDecimal(' -0.25 ')).toEqual({ n: -25n, scale: 2 });
    expect(parseDecimal('.5')).toEqual({ n: 5n, scale: 1 });
    expect(parseDecimal('1e3')).toEqual({ n: 1000n, scale: 0 });
    expect(parseDecimal(1.2)).toEqual({ n: 12n, scale: 1 });
    expect(parseDecimal(1e-7)).toEqual({ n: 1n, scale: 7 });
  });
  it('rejects garbage', () => {
    for (const bad of ['', 'abc', '1,5', '1.2.3', '.', '-']) expect(() => parseDecimal(bad)).toThrow(RangeError);
    expect(() => parseDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => parseDecimal(Infinity)).toThrow(RangeError);
  });
});

describe('roundHalfUp (the one rounding rule)', () => {
  it('rounds half up, below half down', () => {
    expect(roundHalfUp(15n, 10n)).toBe(2n);
    expect(roundHalfUp(149n, 100n)).toBe(1n);
    expect(roundHalfUp(150n, 100n)).toBe(2n);
    expect(roundHalfUp(100n, 100n)).toBe(1n);
  });
  it('is symmetric for negatives (half away from zero)', () => {
    expect(roundHalfUp(-15n, 10n)).toBe(-2n);
    expect(roundHalfUp(-14n, 10n)).toBe(-1n);
  });
  it('ceilDiv rounds up only when there is a remainder', () => {
    expect(ceilDiv(360n, 1n)).toBe(360n);
    expect(ceilDiv(3601n, 10n)).toBe(361n);
    expect(ceilDiv(0n, 10n)).toBe(0n);
  });
});

describe('toCents', () => {
  it('converts decimals and numbers to integer cents', () => {
    expect(toCents('80.00')).toBe(8000);
    expect(toCents(80)).toBe(8000);
    expect(toCents('4.5')).toBe(450);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents('130.9')).toBe(13090);
  });
  it('rounds a third decimal half up', () => {
    expect(toCents('1.005')).toBe(101);
    expect(toCents('1.004')).toBe(100);
    expect(toCents(1.005)).toBe(101); // the float 1.005 is below 1.005, its text is not
  });
  it('maps empty cells to null', () => {
    expect(toCentsOrNull(null)).toBeNull();
    expect(toCentsOrNull('  ')).toBeNull();
    expect(toCentsOrNull(undefined)).toBeNull();
    expect(toCentsOrNull('0')).toBe(0);
  });
});

describe('exact multiplication', () => {
  it('mulCents multiplies by an exact decimal and rounds half up', () => {
    expect(mulCents(11900, '1.1')).toBe(13090);
    expect(mulCents(8500, 1.1)).toBe(9350); // 8500 * 1.1 in floats is 9350.000000000002
    expect(mulCents(1, '0.5')).toBe(1);
    expect(mulCents(1, '0.4999')).toBe(0);
    expect(mulCents(12345, '1.2345')).toBe(15240); // 15239.9025
  });
  it('percentOf takes a percentage of cents', () => {
    expect(percentOf(8500, '10')).toBe(850);
    expect(percentOf(8505, '10')).toBe(851); // 850.5 rounds up
    expect(percentOf(8504, '10')).toBe(850);
    expect(percentOf(10000, '2.5')).toBe(250);
    expect(percentOf(333, '33.3333')).toBe(111);
  });
  it('applyPercent increases or decreases', () => {
    expect(applyPercent(11900, '10', 1)).toBe(13090);
    expect(applyPercent(11900, '10', -1)).toBe(10710);
    expect(applyPercent(1005, '5', -1)).toBe(955); // 954.75
    expect(applyPercent(1, '50', 1)).toBe(2); // 1.5 -> 2
  });
  it('mulCents: the fast path gives what the BigInt path gives', () => {
    let a = 777;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 50_000; i++) {
      const c = Math.floor((next() - 0.2) * 2 ** (1 + Math.floor(next() * 30)));
      const factor = `${Math.floor(next() * 5)}${next() < 0.8 ? `.${String(Math.floor(next() * 10_000)).slice(0, 1 + Math.floor(next() * 4))}` : ''}`;
      expect(mulCents(c, factor), `${c} × ${factor}`).toBe(mulCentsExactly(c, factor));
    }
    expect(mulCents(1, '0.5')).toBe(1);
    expect(mulCents(-1, '0.5')).toBe(-1);
    expect(mulCents(3, '0.5')).toBe(2);
  });
  it('applyPercent: the fast path gives what the BigInt path gives', () => {
    let a = 12345;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 50_000; i++) {
      const c = Math.floor((next() - 0.2) * 2 ** (1 + Math.floor(next() * 30)));
      const percent = `${Math.floor(next() * 400)}${next() < 0.6 ? `.${String(Math.floor(next() * 10_000)).slice(0, 1 + Math.floor(next() * 4))}` : ''}`;
      const direction = next() < 0.5 ? 1 : -1;
      expect(applyPercent(c, percent, direction), `${c} ${percent} ${direction}`).toBe(applyPercentExactly(c, percent, direction));
    }
    // ties round away from zero on both paths, above and below zero
    expect(applyPercent(1005, '5', -1)).toBe(955);
    expect(applyPercent(-1, '50', 1)).toBe(-2);
    expect(applyPercent(100, '150', -1)).toBe(-50);
  });
});

describe('centsToNumber', () => {
  it('gives euros as JSON numbers', () => {
    expect(centsToNumber(13090)).toBe(130.9);
    expect(JSON.stringify(centsToNumber(13090))).toBe('130.9');
    expect(centsToNumber(1)).toBe(0.01);
    expect(JSON.stringify(centsToNumber(100000007))).toBe('1000000.07');
    expect(centsToNumber(0)).toBe(0);
  });
});

describe('ceilKg and ceilQuintals', () => {
  it('computes volume × ratio exactly before rounding up', () => {
    expect(Math.ceil(360.00000000000006)).toBe(361); // what a float product would give
    expect(1.1 * 400).toBe(440.00000000000006);
    expect(ceilKg(1.1, 400)).toBe(440);
    expect(1.1 * 1750).toBe(1925.0000000000002);
    expect(ceilKg(1.1, 1750)).toBe(1925);
    expect(ceilKg(1.2, 300)).toBe(360);
    expect(ceilKg('1.2', '300')).toBe(360);
    expect(ceilKg('1.201', 300)).toBe(361); // 360.3
    expect(ceilKg(0.1, 250)).toBe(25);
    expect(ceilKg('2.4', 1750)).toBe(4200);
    expect(ceilKg(0, 250)).toBe(0);
  });
  it('the fast path gives what the BigInt path gives (texts and numbers, signs, scales, products near 2^53)', () => {
    let a = 2024;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');
    const value = (): string | number => {
      const int = digits(1 + Math.floor(next() * 9));
      const frac = next() < 0.6 ? `.${digits(1 + Math.floor(next() * 6))}` : '';
      const text = `${next() < 0.1 ? '-' : ''}${int}${frac}`;
      const r = next();
      return r < 0.3 ? Number(text) : r < 0.35 ? ` ${text} ` : text;
    };
    /** The answer, or the error's name when it throws (out of range: both paths must refuse alike). */
    const outcome = (f: () => number) => {
      try {
        return f();
      } catch (e) {
        return (e as Error).name;
      }
    };
    const same = (v: string | number, r: string | number) => outcome(() => ceilKg(v, r)) === outcome(() => ceilKgExactly(v, r));
    const wrong: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      const v = value();
      const r = value();
      if (!same(v, r)) wrong.push(`${v} × ${r}`);
    }
    for (const [v, r] of [
      ['94906265.62425156', '94906265'],
      [2 ** 26, 2 ** 27],
      ['9007199254740993', 1],
      ['0.000000000000001', '0.1'],
      [1e21, 1],
      [1e-7, 3],
      ['-0.5', '1'],
    ] as const) {
      if (!same(v, r)) wrong.push(`${v} × ${r}`);
    }
    expect(wrong).toEqual([]);
  });
  it('rounds a real weight up to the kg', () => {
    expect(ceilKg(250)).toBe(250);
    expect(ceilKg('250.01')).toBe(251);
  });
  it('counts started quintals', () => {
    expect(ceilQuintals(100)).toBe(1);
    expect(ceilQuintals(101)).toBe(2);
    expect(ceilQuintals('100.5')).toBe(2);
    expect(ceilQuintals(1)).toBe(1);
    expect(ceilQuintals(250)).toBe(3);
  });
  it('compares decimals exactly', () => {
    expect(compareDecimal('150', 150)).toBe(0);
    expect(compareDecimal('150.0001', 150)).toBe(1);
    expect(compareDecimal('80', '80.5')).toBe(-1);
  });
  it('compares two numbers as their decimal text would (the fast path for numbers)', () => {
    // neighbouring doubles, decimals that do not round-trip exactly, signs, zeros and large values
    const next = (x: number) => x + Math.max(Number.EPSILON * Math.abs(x), Number.MIN_VALUE);
    const values = [0, -0, 0.1, 0.2, 0.30000000000000004, 0.3, 1e21, 1e-7, -2.5, 150, 150.0001, 2 ** 53, 2 ** 53 + 2, 1 / 3];
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 10 ** ((seed % 12) - 4);
    for (let i = 0; i < 300; i++) values.push(random());
    for (const v of [...values]) values.push(next(v));
    // text with a space around it is compared by the exact decimal path
    // collected, then one assertion: 36 000 separate expect() calls take seconds on a loaded CI machine
    const wrong: string[] = [];
    for (const a of values)
      for (const b of values.slice(0, 60)) {
        if (compareDecimal(a, b) !== compareDecimal(` ${String(a)}`, ` ${String(b)}`)) wrong.push(`${a} vs ${b}`);
      }
    expect(wrong).toEqual([]);
  });
  it('compares short decimal text with numbers and text as the exact path does', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const digits = (n: number) => Array.from({ length: n }, () => rnd(10)).join('');
    const texts = ['0', '-0', '150', '150.0', '150.0001', '0.1', '0.3', '99999999999999', '100000000000000', '-2.50', '1e3', '5.', '.5'];
    for (let i = 0; i < 400; i++) {
      const int = digits(1 + rnd(9));
      texts.push(`${rnd(4) === 0 ? '-' : ''}${int}${rnd(2) ? `.${digits(1 + rnd(14 - Math.min(int.length, 13)))}` : ''}`);
    }
    const numbers = [0, 0.1, 0.3, 150, 150.0001, -2.5, 1e14, 99999999999999, 0.30000000000000004, 1 / 3, 80, 1000];
    for (const t of texts) numbers.push(Number(t.trim()) || 0);
    const wrong: string[] = [];
    for (const a of texts) {
      for (const b of numbers) if (compareDecimal(a, b) !== compareDecimal(` ${a}`, ` ${String(b)}`)) wrong.push(`${a} vs ${b}`);
      for (const b of texts.slice(0, 40)) if (compareDecimal(a, b) !== compareDecimal(` ${a}`, ` ${b}`)) wrong.push(`${a} vs '${b}'`);
    }
    expect(wrong).toEqual([]);
    expect(texts.length * (numbers.length + 40)).toBeGreaterThan(100_000);
  });
});

describe('the decimal scanners (issue 37: character loops instead of regexes)', () => {
  /** Random short texts over digits, '.', '-', '+', ' ', 'e' and a letter, and the edge cases by hand. */
  function texts(): string[] {
    let a = 4242;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = '0123456789012345678901234567890123456789..-+ ex';
    const out = [
      '',
      '.',
      '-',
      '-.',
      '0',
      '00',
      '-0',
      '1.',
      '.1',
      '1.0',
      '-1.5',
      '400',
      '400.0000',
      '400.0001',
      '999.9999',
      '1000',
      '12.34567',
      '1..2',
      '1.2.3',
      ' 1',
      '1 ',
      '+1',
      '1e3',
      '0x10',
      '１２',
    ];
    for (let i = 0; i < 100_000; i++) {
      let t = '';
      const n = Math.floor(next() * 12);
      for (let k = 0; k < n; k++) t += alphabet[Math.floor(next() * alphabet.length)];
      out.push(t);
    }
    return out;
  }
  it('isShortDecimal accepts what /^-?\\d+(?:\\.\\d+)?$/ accepts, and only that', () => {
    const wrong = texts().filter((t) => isShortDecimal(t) !== SHORT_DECIMAL.test(t));
    expect(wrong).toEqual([]);
  });
  it('tenThousandths reads what the percent pattern reads, to the same value', () => {
    const all = texts();
    const wrong = all.filter((t) => tenThousandths(t) !== tenThousandthsByPattern(t));
    expect(wrong).toEqual([]);
    // the inputs do reach both answers
    expect(all.filter((t) => tenThousandths(t) !== null).length).toBeGreaterThan(1_000);
    expect(tenThousandths('12.5')).toBe(125_000);
    expect(tenThousandths('400.0001')).toBeNull();
    expect(tenThousandths(12)).toBeNull();
  });
});
