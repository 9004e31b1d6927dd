import { describe, expect, it } from 'vitest';
import { endUser, sheet } from './fixtures.test-helpers.js';
import { applies, generateSheetCode, pickVersion, selectSheets } from './sheets.js';
import type { Category } from './types.js';

const cat = (id: number, rate_type: 'STD' | 'EXP', zone: 'NAT' | 'INT'): Category => ({ id, code: `C${id}`, rate_type, zone, company_id: 7 });

const categories: Category[] = [
  cat(1, 'EXP', 'NAT'), // carrier standard express
  cat(2, 'STD', 'NAT'), // carrier standard groupage national
  cat(3, 'STD', 'INT'),
  cat(4, 'EXP', 'NAT'), // end user's express category
  cat(5, 'STD', 'INT'), // an end user category of the wrong zone for national quotes
  cat(6, 'EXP', 'NAT'), // supplier category
];

describe('validity', () => {
  const s = sheet(1, { validate_from: '2026-03-01', validate_to: '2026-03-31' });
  it('is inclusive at both ends', () => {
    expect(applies(s, '2026-03-01')).toBe(true);
    expect(applies(s, '2026-03-31')).toBe(true);
    expect(applies(s, '2026-02-28')).toBe(false);
    expect(applies(s, '2026-04-01')).toBe(false);
  });
  it('ignores a time part of stored dates', () => {
    expect(applies(sheet(2, { validate_from: '2026-03-01T00:00:00Z', validate_to: '2026-03-31 00:00:00' }), '2026-03-31')).toBe(true);
  });
});

describe('version choice', () => {
  it('latest validate_from wins, then the highest id', () => {
    const a = sheet(10, { validate_from: '2026-01-01', validate_to: '2026-12-31' });
    const b = sheet(5, { validate_from: '2026-06-01', validate_to: '2026-12-31' });
    const c = sheet(3, { validate_from: '2026-06-01', validate_to: '2026-12-31' });
    expect(pickVersion([a, b, c], '2026-07-01')?.id).toBe(5);
    expect(pickVersion([a, c], '2026-07-01')?.id).toBe(3);
    expect(pickVersion([a, b, c], '2026-05-31')?.id).toBe(10);
    expect(pickVersion([a, b, c], '2027-01-01')).toBeNull();
  });
  it('a newer version that no longer applies does not win', () => {
    const old = sheet(1, { validate_from: '2026-01-01', validate_to: '2026-12-31' });
    const expired = sheet(2, { validate_from: '2026-06-01', validate_to: '2026-06-30' });
    expect(pickVersion([old, expired], '2026-07-01')?.id).toBe(1);
  });
});

describe('selectSheets', () => {
  const sheets = [
    sheet(100, { category_id: 1, is_standard: 1 }),
    sheet(101, { category_id: 1, is_standard: 0, validate_from: '2026-06-01' }), // not standard: never the fallback
    sheet(200, { category_id: 2, is_standard: 1 }),
    sheet(400, { category_id: 4, is_standard: 0, validate_from: '2026-06-01', validate_to: '2026-06-30' }),
    sheet(401, { category_id: 4, is_standard: 0, area: 'Supplier' }), // Supplier: never a sell sheet (a buy candidate, loses to 600 on id)
    sheet(500, { category_id: 5, is_standard: 0 }),
    sheet(600, { category_id: 6, is_standard: 0, area: 'Supplier' }),
    sheet(601, { category_id: 6, is_standard: 0, area: 'Supplier', validate_from: '2026-06-15' }),
  ];
  const base = { categories, sheets, rateType: 'EXP' as const, zone: 'NAT' as const };

  it('uses the end user category version when it applies', () => {
    const r = selectSheets({ ...base, endUser: endUser({ exp_category_id: 4 }), date: '2026-06-10' });
    expect(r.sell?.id).toBe(400);
    expect(r.sellSource).toBe('enduser_category');
    expect(r.buy?.id).toBe(600);
  });
  it('falls back to the carrier standard sheet when no version of the end user category applies', () => {
    const r = selectSheets({ ...base, endUser: endUser({ exp_category_id: 4 }), date: '2026-07-10' });
    expect(r.sell?.id).toBe(100);
    expect(r.sellSource).toBe('carrier_standard');
    expect(r.buy?.id).toBe(601);
  });
  it('falls back when the end user category is of another rate type or zone', () => {
    const r = selectSheets({ ...base, rateType: 'STD', endUser: endUser({ std_category_id: 5 }), date: '2026-06-10' });
    expect(r.sell?.id).toBe(200);
    expect(r.sellSource).toBe('carrier_standard');
    const wrongType = selectSheets({ ...base, endUser: endUser({ exp_category_id: 2 }), date: '2026-06-10' });
    expect(wrongType.sell?.id).toBe(100);
  });
  it('uses std_category_id for STD quotes, exp_category_id for EXP', () => {
    const eu = endUser({ exp_category_id: 5, std_category_id: 5 });
    expect(selectSheets({ ...base, rateType: 'STD', zone: 'INT', endUser: eu, date: '2026-06-10' }).sell?.id).toBe(500);
    expect(selectSheets({ ...base, endUser: eu, date: '2026-06-10' }).sell?.id).toBe(100);
  });
  it('without an end user takes the is_standard = 1 Customer sheet', () => {
    const r = selectSheets({ ...base, endUser: null, date: '2026-06-10' });
    expect(r.sell?.id).toBe(100);
  });
  it('no applicable sell sheet gives null', () => {
    const r = selectSheets({ ...base, rateType: 'STD', zone: 'INT', endUser: null, date: '2026-06-10' });
    expect(r.sell).toBeNull();
  });
  it('buy sheet only for express national, null when none applies', () => {
    expect(selectSheets({ ...base, rateType: 'STD', endUser: null, date: '2026-06-10' }).buy).toBeNull();
    expect(selectSheets({ ...base, endUser: null, date: '2027-01-10' }).buy).toBeNull();
  });
});

describe('generateSheetCode', () => {
  it('concatenates 2 letters, rate type, zone and yyyymmdd', () => {
    expect(generateSheetCode('Acme Cargo srl', 'EXP', 'NAT', '2026-11-21', [])).toBe('ACEXPNAT20261121');
    expect(generateSheetCode('élite trasporti', 'STD', 'INT', '2026-01-05', [])).toBe('ELSTDINT20260105');
    expect(generateSheetCode('3M', 'STD', 'NAT', '2026-01-05', [])).toBe('MXSTDNAT20260105');
  });
  it('adds -2, -3 … when taken', () => {
    expect(generateSheetCode('Acme', 'EXP', 'NAT', '2026-11-21', ['ACEXPNAT20261121'])).toBe('ACEXPNAT20261121-2');
    expect(generateSheetCode('Acme', 'EXP', 'NAT', '2026-11-21', ['acexpnat20261121', 'ACEXPNAT20261121-2'])).toBe('ACEXPNAT20261121-3');
    expect(generateSheetCode('Acme', 'EXP', 'NAT', '2026-11-21', ['ACEXPNAT20261121-2'])).toBe('ACEXPNAT20261121');
  });
});
