import { describe, expect, it } from 'vitest';
import { readDecimal, showDecimal } from './decimal';

describe('decimal numbers in the user’s language', () => {
  it('reads the user’s decimal mark: comma in Italian and French, point in English', () => {
    expect(readDecimal('1,634', 'it')).toBe(1.634);
    expect(readDecimal('1,634', 'fr')).toBe(1.634);
    expect(readDecimal('1.634', 'en')).toBe(1.634);
    expect(readDecimal('-0,5', 'it')).toBe(-0.5);
    expect(readDecimal(',5', 'it')).toBe(0.5);
  });
  it('reads both marks as thousands and decimals, spaces ignored', () => {
    expect(readDecimal('1.234,56', 'it')).toBe(1234.56);
    expect(readDecimal('1,234.56', 'en')).toBe(1234.56);
    expect(readDecimal('1 234,56', 'fr')).toBe(1234.56);
    expect(readDecimal('1\u202f234,5', 'fr')).toBe(1234.5);
    expect(readDecimal('1.234.567', 'it')).toBe(1234567);
  });
  it('takes a lone point in Italian and French as a decimal point; in English a comma only groups thousands', () => {
    expect(readDecimal('1.587', 'it')).toBe(1.587);
    expect(readDecimal('4.5', 'fr')).toBe(4.5);
    expect(readDecimal('1,500', 'en')).toBe(1500);
    expect(readDecimal('1,5', 'en')).toBe('1,5');
  });
  it('answers nothing for an empty text and the text itself when it is no number (never a silent guess)', () => {
    expect(readDecimal('', 'it')).toBeNull();
    expect(readDecimal('  ', 'it')).toBeNull();
    expect(readDecimal(null, 'it')).toBeNull();
    for (const bad of ['abc', '1,2,3', '1.23,4.5', '1,23.4', '12a', '--1', ',', '1..2', '1e3']) expect(readDecimal(bad, 'it'), bad).toBe(bad);
  });
  it('shows a stored value with the user’s mark', () => {
    expect(showDecimal(1.634, 'it')).toBe('1,634');
    expect(showDecimal('1.587', 'fr')).toBe('1,587');
    expect(showDecimal(1.634, 'en')).toBe('1.634');
    expect(showDecimal(null, 'it')).toBe('');
    expect(showDecimal('abc', 'it')).toBe('abc');
  });

  it('reads quantities by what follows the other mark, prices by the language (the diesel price 1.634 in Italian is 1,634)', () => {
    expect(readDecimal('1.500', 'it', { quantity: true })).toBe(1500);
    expect(readDecimal('1.500', 'it')).toBe(1.5);
    expect(readDecimal('2.4', 'it', { quantity: true })).toBe(2.4);
    expect(readDecimal('350,5', 'en', { quantity: true })).toBe(350.5);
    expect(readDecimal('350,5', 'en')).toBe('350,5');
    expect(readDecimal('1,500', 'en', { quantity: true })).toBe(1500);
    expect(readDecimal('1,500', 'it', { quantity: true })).toBe(1.5);
  });
});
