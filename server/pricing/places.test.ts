import { describe, expect, it } from 'vitest';
import { pallet, place } from './fixtures.test-helpers.js';
import { indexLocations, matchLocationRows, normalizePostalCode, normalizePostalCodeFully, palletMeasure, resolveZoneCode, selectBand } from './places.js';
import type { StandardRateRow, StandardSpecialZone } from './types.js';

describe('normalizePostalCode', () => {
  it('upper-cases and removes spaces and hyphens', () => {
    expect(normalizePostalCode(' sw1a 1aa ')).toBe('SW1A1AA');
    expect(normalizePostalCode('1000-001')).toBe('1000001');
    expect(normalizePostalCode(null)).toBe('');
  });
});

describe('normalizePostalCode: the fast path gives what the regex gives', () => {
  it('on random codes of digits, letters, spaces, hyphens and others', () => {
    let a = 31;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcz -\t\u00a0ßéÉ*/.';
    const wrong: string[] = [];
    let fast = 0;
    for (let i = 0; i < 50_000; i++) {
      let code = '';
      for (let n = Math.floor(next() * 9); n > 0; n--) code += alphabet[Math.floor(next() * (next() < 0.7 ? 36 : alphabet.length))];
      if (/^[0-9A-Z]*$/.test(code)) fast++;
      if (normalizePostalCode(code) !== normalizePostalCodeFully(code)) wrong.push(code);
    }
    expect(wrong).toEqual([]);
    expect(fast).toBeGreaterThan(5_000);
    expect(normalizePostalCode(null)).toBe('');
    expect(normalizePostalCode(undefined)).toBe('');
  });
});

describe('matching a place to location rows', () => {
  const rows = [
    { id: 1, postal_code: '00118', city: null, province: 'RM' },
    { id: 2, postal_code: '', city: ' roma ', province: 'rm' },
    { id: 3, postal_code: null, city: 'Roma', province: 'RM' },
    { id: 4, postal_code: '', city: 'Roma', province: 'LT' },
    { id: 5, postal_code: '00 1-19', city: 'Anything', province: 'XX' },
  ];
  const ids = (p: ReturnType<typeof place>) => matchLocationRows(rows, p).map((r) => r.id);

  it('postal-code rows match the postal code only, and beat city rows', () => {
    expect(ids(place('Roma', 'RM', '00118'))).toEqual([1]);
    expect(ids(place('Elsewhere', 'MI', '00118'))).toEqual([1]);
    expect(ids(place('Roma', 'RM', '00119'))).toEqual([5]);
  });
  it('rows without postal code match city and province, case-insensitive and trimmed', () => {
    expect(ids(place('ROMA ', 'RM', '00199'))).toEqual([2, 3]);
    expect(ids(place('Roma', 'LT', '04000'))).toEqual([4]);
    expect(ids(place('Roma', 'FR', '03000'))).toEqual([]);
  });
  it('location rows apply to Italian places only', () => {
    expect(ids(place('Roma', 'RM', '00118', 'FR'))).toEqual([]);
    expect(ids(place('Roma', 'RM', '00118', 'it'))).toEqual([1]);
  });
});

describe('pallet bands', () => {
  const band = (w: number | string, h: number | string, width: number | string = 120, length: number | string = 80) => {
    const r = selectBand(pallet(w, width, length, h), 1);
    return r.ok ? r.band : `${r.limit}>${r.max}`;
  };
  it('takes the first band whose limits are met (limits inclusive)', () => {
    expect(band(150, 80)).toBe('p150');
    expect(band(151, 80)).toBe('p300');
    expect(band(150, 81)).toBe('p300');
    expect(band('150.01', 10)).toBe('p300');
    expect(band(300, 100)).toBe('p300');
    expect(band(301, 100)).toBe('p550');
    expect(band(300, 101)).toBe('p550');
    expect(band(550, 150)).toBe('p550');
    expect(band(550, 151)).toBe('ps550');
    expect(band(550, 240)).toBe('ps550');
    expect(band(551, 100)).toBe('p1000');
    expect(band(1000, 240)).toBe('p1000');
    expect(band(10, 10)).toBe('p150');
  });
  it('refuses over 1000 kg, over 240 cm, weight checked first', () => {
    expect(band(1001, 100)).toBe('weight>1000');
    expect(band('1000.1', 100)).toBe('weight>1000');
    expect(band(1000, 241)).toBe('height>240');
    expect(band(2000, 300)).toBe('weight>1000');
  });
  it('accepts the footprint in either orientation', () => {
    expect(band(100, 50, 120, 100)).toBe('p150');
    expect(band(100, 50, 100, 120)).toBe('p150');
    expect(band(100, 50, 80, 120)).toBe('p150');
    expect(band(100, 50, 121, 100)).toBe('footprint>120×100');
    expect(band(100, 50, 100, 121)).toBe('footprint>120×100');
    expect(band(100, 50, 110, 110)).toBe('footprint>120×100');
  });
  it('names the row in a refusal', () => {
    expect(selectBand(pallet(1200, 120, 80, 100), 3)).toEqual({ ok: false, row: 3, limit: 'weight', max: 1000 });
  });
  it('formats the measure width×length×height', () => {
    expect(palletMeasure(pallet(250, 120, 80, 90))).toBe('120×80×90');
  });
});

describe('zone code of a standard quote', () => {
  const row = (country: string, zone_code: string): StandardRateRow => ({
    rate_code: null,
    country,
    zone_code,
    weight_from: 0,
    weight_to: 100,
    price: 100,
    unit: 'S',
    minimum: null,
    leadtime: 1,
  });
  const rows = [row('FR', '*'), row('FR', '750'), row('FR', '75'), row('FR', '7'), row('FR', '69'), row('DE', '7'), row('GB', 'SW1')];
  const special: StandardSpecialZone[] = [
    { province: 'MI', code: 'MI-CITY', city: 'Milano', postal_code: null },
    { province: 'MI', code: 'MI-CENTRE', city: null, postal_code: '20121' },
    { province: 'VE', code: 'VE-LAG', city: 'Venezia', postal_code: '' },
  ];
  const zi = indexLocations(special);
  const zc = (p: ReturnType<typeof place>) => resolveZoneCode(p, rows, zi);

  it('a special zone row gives its code; postal-code rows beat city rows', () => {
    expect(zc(place('Milano', 'MI', '20121'))).toEqual({ zone_code: 'MI-CENTRE', source: 'special_zone' });
    expect(zc(place('Milano', 'MI', '20122'))).toEqual({ zone_code: 'MI-CITY', source: 'special_zone' });
    expect(zc(place('venezia', 've', '30100'))).toEqual({ zone_code: 'VE-LAG', source: 'special_zone' });
  });
  it('an Italian place otherwise uses its province sigla, never *', () => {
    expect(zc(place('Monza', 'mb', '20900'))).toEqual({ zone_code: 'MB', source: 'province' });
  });
  it('a foreign place takes the longest prefixing zone code of its country, else *', () => {
    expect(zc(place('Paris', '', '75001', 'FR'))).toEqual({ zone_code: '750', source: 'postal_prefix' });
    expect(zc(place('Paris', '', '75101', 'FR'))).toEqual({ zone_code: '75', source: 'postal_prefix' });
    expect(zc(place('Lyon', '', '69001', 'FR'))).toEqual({ zone_code: '69', source: 'postal_prefix' });
    expect(zc(place('Lille', '', '59000', 'FR'))).toEqual({ zone_code: '*', source: 'default' });
    expect(zc(place('Stuttgart', '', '70173', 'DE'))).toEqual({ zone_code: '7', source: 'postal_prefix' });
    expect(zc(place('Paris', '', '75001', 'BE'))).toEqual({ zone_code: '*', source: 'default' });
    expect(zc(place('London', '', 'sw1a 1aa', 'GB'))).toEqual({ zone_code: 'SW1', source: 'postal_prefix' });
  });
  it('special zones do not apply abroad', () => {
    expect(zc(place('Milano', 'MI', '20121', 'FR'))).toEqual({ zone_code: '*', source: 'default' });
  });
});

describe('selectBand: the doubles and the exact decimals agree', () => {
  it('on every measure around the limits', () => {
    // the same values written with 16 zero decimals are longer than money.ts exactDouble reads as doubles:
    // they take compareDecimal's exact path
    const slow = (v: number) => `${v}${Number.isInteger(v) ? '.' : ''}0000000000000000`;
    const values = (limits: number[]) => [...new Set(limits.flatMap((l) => [l - 1, l - 0.5, l, l + 0.5, l + 1]))].filter((v) => v > 0);
    const weights = values([150, 300, 550, 1000]);
    const heights = values([80, 100, 150, 240]);
    const sides = values([100, 120]);
    let checked = 0;
    for (const w of weights)
      for (const h of heights)
        for (const a of sides)
          for (const b of sides) {
            expect(selectBand(pallet(w, a, b, h), 2), `${w} ${a} ${b} ${h}`).toEqual(selectBand(pallet(slow(w), slow(a), slow(b), slow(h)), 2));
            checked++;
          }
    expect(checked).toBe(weights.length * heights.length * sides.length ** 2);
  });
});
