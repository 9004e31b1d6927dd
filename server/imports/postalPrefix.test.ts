import { describe, expect, it } from 'vitest';
import { tariffTable } from '../../model/tariffs.js';
import { readCell } from './cells.js';

const col = (name: string) => tariffTable('postal_surcharges')!.columns.find((c) => c.name === name)!;
const read = (name: string, v: string | number) => readCell(col(name), { t: typeof v === 'number' ? 'n' : 's', v }, {});

describe('postal_surcharges cells (pricing.md §8)', () => {
  it('reads an exact code or a prefix ending in one *, and refuses any other *', () => {
    expect(read('postal_code', '301*')).toEqual({ ok: true, value: '301*' });
    expect(read('postal_code', ' 30-1 * ')).toEqual({ ok: true, value: '301*' });
    expect(read('postal_code', 184)).toEqual({ ok: true, value: '00184' });
    expect(read('postal_code', 'sw1a 1aa')).toEqual({ ok: true, value: 'SW1A1AA' });
    for (const bad of ['*', '301**', '3*01', '*301', '30.1']) expect(read('postal_code', bad), bad).toMatchObject({ ok: false, key: 'import.postalPrefix' });
  });
  it('stores an empty country as IT, lower-cases kind and upper-cases flow', () => {
    expect(readCell(col('country'), undefined, {})).toEqual({ ok: true, value: 'IT' });
    expect(read('country', '  ')).toEqual({ ok: true, value: 'IT' });
    expect(read('country', 'fr')).toEqual({ ok: true, value: 'FR' });
    expect(read('kind', 'ZTL')).toEqual({ ok: true, value: 'ztl' });
    expect(read('flow', 'in')).toEqual({ ok: true, value: 'IN' });
    expect(readCell(col('flow'), undefined, {})).toEqual({ ok: true, value: null });
  });
});
