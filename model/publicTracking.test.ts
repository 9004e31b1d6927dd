import { describe, expect, it } from 'vitest';
import { normalPostalCode, requestIdOfCode } from './publicTracking';
import { trackingPath } from './tracking';

describe('public tracking', () => {
  it('reads a request number as documents print it, and nothing else', () => {
    for (const code of ['123', ' 123 ', '#123', 'n. 123', 'N.123', 'N° 123', 'no. 123', 'Nr 123', '0123', '1 23'])
      expect(requestIdOfCode(code), code).toBe(123);
    for (const code of ['', ' ', 'abc', '12a', '-1', '0', '1.5', '2147483648', '99999999999', 'n.', '#', '12/3'])
      expect(requestIdOfCode(code), code).toBeNull();
    expect(requestIdOfCode('2147483647')).toBe(2_147_483_647);
  });

  it('compares postal codes without spaces or case', () => {
    expect(normalPostalCode(' sw1a 1aa ')).toBe('SW1A1AA');
    expect(normalPostalCode('00 183')).toBe('00183');
  });

  it('links to the page with both values encoded', () => {
    expect(trackingPath('123', '00183')).toBe('/#/track?code=123&postal_code=00183');
    expect(trackingPath('1&x=2', 'SW1A 1AA')).toBe('/#/track?code=1%26x%3D2&postal_code=SW1A%201AA');
  });
});
