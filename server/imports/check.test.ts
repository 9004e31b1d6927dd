import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STANDARD_RATE_ROWS, TARIFF_LIMITS, tariffTable, type RowsSpec } from '../../model/tariffs.js';
import { compareSets, showRow, type ShownRow } from './check.js';
import type { ImportRow } from './validate.js';

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

/**
 * The comparison as it was before it streamed (the stored set held whole, packed as JSON): the
 * reference the streaming compareSets must agree with, row for row and change for change.
 */
function heldWhole(spec: RowsSpec, stored: Array<Record<string, unknown>>, incoming: ImportRow[]) {
  const shownRow = (row: Record<string, unknown>) => showRow(spec, row);
  const keyText = (row: ShownRow) => spec.rowKey.map((c) => String(row[c] ?? '').toLowerCase()).join('\u0001');
  const keyOf = (row: ShownRow): ShownRow => Object.fromEntries(spec.rowKey.map((c) => [c, row[c]]));
  const packed = (row: ShownRow) => JSON.stringify(spec.columns.map((c) => row[c.name]));
  const unpacked = (text: string): ShownRow => {
    const values = JSON.parse(text) as Array<string | number | null>;
    return Object.fromEntries(spec.columns.map((c, i) => [c.name, values[i]]));
  };
  const byKey = new Map<string, string[]>();
  for (const r of stored) {
    const row = shownRow(r);
    const list = byKey.get(keyText(row));
    if (list) list.push(packed(row));
    else byKey.set(keyText(row), [packed(row)]);
  }
  const summary = { added: 0, changed: 0, removed: 0, unchanged: 0 };
  const changes: Array<{ key: ShownRow; before: ShownRow | null; after: ShownRow | null }> = [];
  const note = (c: () => (typeof changes)[number]) => {
    if (changes.length < TARIFF_LIMITS.listedChanges) changes.push(c());
  };
  for (const r of incoming) {
    const after = shownRow(r);
    const before = byKey.get(keyText(after))?.shift();
    if (before === undefined) {
      summary.added++;
      note(() => ({ key: keyOf(after), before: null, after }));
    } else if (before === packed(after)) summary.unchanged++;
    else {
      summary.changed++;
      note(() => ({ key: keyOf(after), before: unpacked(before), after }));
    }
  }
  for (const left of byKey.values())
    for (const text of left) {
      summary.removed++;
      note(() => ({ key: keyOf(unpacked(text)), before: unpacked(text), after: null }));
    }
  return { summary, changes };
}

async function* pages(rows: Array<Record<string, unknown>>, size: number) {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

describe('compareSets, streaming, agrees with the comparison that held the stored set whole', () => {
  const zones = tariffTable('express_special_zones')!;
  // Few distinct values, so keys repeat (location rows), collide in case, and sets pass the listed 200.
  const place = fc.record({
    province: fc.constantFrom('SO', 'VE', 'so'),
    city: fc.constantFrom('Livigno', 'LIVIGNO', 'Venezia', null),
    postal_code: fc.constantFrom('23030', '30121', null),
  });
  const rate = fc.record({
    rate_code: fc.constantFrom('STD', 'std', null),
    country: fc.constantFrom('IT', 'FR'),
    zone_code: fc.constantFrom('MI', 'mi', 'RM', '75'),
    weight_from: fc.constantFrom('0', '100'),
    weight_to: fc.constantFrom('100', '300'),
    price: fc.constantFrom(2850, 2450, 0),
    unit: fc.constantFrom('S', 'Q'),
    minimum: fc.constantFrom(null, 3000),
    leadtime: fc.constantFrom(2, 3, null),
  });
  // The file: other rows, or the stored ones up to a point (some repriced, some in another case) and
  // other rows after, so both the in-step pairing and the pairing by key are exercised.
  const sets = (row: fc.Arbitrary<Record<string, unknown>>) =>
    fc
      .tuple(fc.array(row, { maxLength: 260 }), fc.array(row, { maxLength: 260 }), fc.integer({ min: 1, max: 300 }), fc.nat(), fc.boolean())
      .map(([stored, other, size, cut, shared]) => {
        const edited = stored.slice(0, cut % (stored.length + 1)).map((r, i) => (i % 3 === 1 ? { ...r, price: 1 } : i % 5 === 2 ? upperCased(r) : r));
        return [stored, shared ? [...edited, ...other] : other, size] as const;
      });
  const upperCased = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v.toUpperCase() : v]));

  it('on location rows (repeated keys) and rate rows (money, decimals), whole or a page at a time', async () => {
    for (const [spec, row] of [
      [zones, place],
      [STANDARD_RATE_ROWS, rate],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(sets(row as fc.Arbitrary<Record<string, unknown>>), async ([stored, incoming, size]) => {
          const expected = heldWhole(spec, stored, incoming as ImportRow[]);
          expect(await compareSets(spec, stored, incoming as ImportRow[])).toEqual(expected);
          expect(await compareSets(spec, pages(stored, size), incoming as ImportRow[])).toEqual(expected);
        }),
        { numRuns: 100 },
      );
    }
  });
});
