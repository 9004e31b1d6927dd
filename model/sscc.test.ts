import { describe, expect, it } from 'vitest';
import { buildSscc, gs1CheckDigit, isGs1CompanyPrefix, isSscc, maxSerial, serialDigits, ssccText } from './sscc';

describe('SSCC (GS1 mod-10)', () => {
  it('computes the check digit of known GS1 examples', () => {
    // GS1 General Specifications' SSCC example: (00) 1 0614141 123456789 7.
    expect(gs1CheckDigit('10614141123456789')).toBe(7);
    // UPC-A 036000291452 (the usual worked example): reversed 5,4,1,9,2,0,0,0,6,3,0 weighted 3,1,3,1,…
    // = 15+4+3+9+6+0+0+0+18+3+0 = 58 → 10−8 = 2.
    expect(gs1CheckDigit('03600029145')).toBe(2);
    // GTIN-13 of GS1's examples: 400638133393 → 1 (4006381333931, a real EAN on a product).
    // From the right: 3·3+9·1+3·3+3·1+3·3+1·1+8·3+3·1+6·3+0·1+0·3+4·1 = 9+9+9+3+9+1+24+3+18+0+0+4 = 89 → 10−9 = 1.
    expect(gs1CheckDigit('400638133393')).toBe(1);
    // 00000000000000001 → the 1 weighs 3: sum 3 → 7.
    expect(gs1CheckDigit('00000000000000001')).toBe(7);
    // 0 1234567 000000001 (extension 0, prefix 1234567, serial 1): reversed 1, eight 0s, 7,6,5,4,3,2,1,0 weighted
    // 3, (1,3,…)×8 zeros, then 7·1 + 6·3 + 5·1 + 4·3 + 3·1 + 2·3 + 1·1 + 0·3 = 3+7+18+5+12+3+6+1+0 = 55 → 5.
    expect(gs1CheckDigit('01234567000000001')).toBe(5);
    // all zeros: 0.
    expect(gs1CheckDigit('00000000000000000')).toBe(0);
  });

  it('builds 18 digits: extension 0, the prefix, the serial padded, the check digit', () => {
    expect(buildSscc('1234567', 1)).toBe('012345670000000015');
    expect(buildSscc('0614141', 123456789, 1)).toBe('106141411234567897');
    // a 10-digit prefix leaves 6 serial digits
    expect(serialDigits('1234567890')).toBe(6);
    expect(maxSerial('1234567890')).toBe(999_999);
    expect(buildSscc('1234567890', 999_999)).toHaveLength(18);
    expect(maxSerial('1234567')).toBe(999_999_999);
    for (const s of [buildSscc('1234567', 1), buildSscc('80012345', 4242), buildSscc('1234567890', 999_999)]) expect(isSscc(s)).toBe(true);
    expect(isSscc('106141411234567898')).toBe(false);
    expect(ssccText('106141411234567897')).toBe('(00) 106141411234567897');
  });

  it('refuses what is not a prefix and a serial that does not fit', () => {
    for (const p of ['123456', '12345678901', '12a4567', ' 1234567', '']) expect(isGs1CompanyPrefix(p)).toBe(false);
    expect(isGs1CompanyPrefix('1234567')).toBe(true);
    expect(() => buildSscc('1234567890', 1_000_000)).toThrow(RangeError);
    expect(() => buildSscc('123456', 1)).toThrow(RangeError);
    expect(() => buildSscc('1234567', -1)).toThrow(RangeError);
  });
});
