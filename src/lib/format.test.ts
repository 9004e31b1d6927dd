import { describe, expect, it } from 'vitest';
import { formatEuro, formatNumber } from './format';

describe('formatEuro', () => {
  it('writes euros the way each language does', () => {
    expect(formatEuro(1234.56, 'it').replace(/\u00a0/g, ' ')).toBe('1.234,56 €');
    expect(formatEuro(93.5, 'it').replace(/\u00a0/g, ' ')).toBe('93,50 €');
    expect(formatEuro(1234.56, 'en')).toBe('€1,234.56');
    expect(formatEuro(1234.56, 'fr').replace(/[\u00a0\u202f]/g, ' ')).toBe('1 234,56 €');
  });
  it('shows a dash for missing amounts', () => {
    expect(formatEuro(null)).toBe('—');
    expect(formatEuro('')).toBe('—');
    expect(formatNumber(undefined)).toBe('—');
  });
  it('writes numbers with the language’s separators', () => {
    expect(formatNumber(1234.5, 'it')).toBe('1.234,5');
    expect(formatNumber(360, 'en')).toBe('360');
  });
});
