import { describe, expect, it } from 'vitest';
import { STANDARD_RATE_ROWS, tariffTable } from '../../model/tariffs.js';
import { compareSets } from './check.js';

describe('compareSets', () => {
  const zones = tariffTable('express_special_zones')!;

  it('pairs rows whose key repeats in order, case-insensitively, and counts the rest as added or removed', async () => {
    const stored = [
      { province: 'SO', city: 'Livigno', postal_code: null },
      { province: 'SO', city: 'Livigno', postal_code: null },
      { province: 'VE', city: 'Venezia', postal_code: '30121' },
    ];
    const incoming = [
      { province: 'SO', city: 'LIVIGNO', postal_code: null },
      { province: 'AO', city: 'Courmayeur', postal_code: '11013' },
    ];
    const { summary, changes } = await compareSets(zones, stored, incoming);
    // LIVIGNO differs in case from the stored Livigno: same key, a changed value.
    expect(summary).toEqual({ added: 1, changed: 1, removed: 2, unchanged: 0 });
    expect(changes.map((c) => [c.key.city, c.before?.city ?? null, c.after?.city ?? null])).toEqual([
      ['LIVIGNO', 'Livigno', 'LIVIGNO'],
      ['Courmayeur', null, 'Courmayeur'],
      ['Livigno', 'Livigno', null],
      ['Venezia', 'Venezia', null],
    ]);
  });

  it('compares stored money (cents) and decimal text with the file’s normalised values', async () => {
    const row = { rate_code: 'STD', country: 'IT', zone_code: 'MI', weight_from: '0', weight_to: '100', price: 2850, unit: 'S', minimum: null, leadtime: 2 };
    const { summary, changes } = await compareSets(
      STANDARD_RATE_ROWS,
      [row],
      [
        { ...row, price: 2850 },
        { ...row, weight_from: '100', weight_to: '300', price: 2450 },
      ],
    );
    expect(summary).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 1 });
    expect(changes[0].after).toMatchObject({ weight_from: '100', price: 24.5, minimum: null, leadtime: 2 });
  });
});
