import { describe, expect, it } from 'vitest';
import { formatCents, formatDate, formatDateTime, formatMoney } from './format';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('money and dates per language', () => {
  it('writes euros as each language does', () => {
    expect(nbsp(formatMoney(1234.56, 'it'))).toBe('1.234,56 €');
    expect(formatMoney(1234.56, 'en')).toBe('€1,234.56');
    expect(nbsp(formatMoney(1234.56, 'fr'))).toBe('1 234,56 €');
    expect(nbsp(formatMoney('12.5', 'it'))).toBe('12,50 €');
    expect(nbsp(formatMoney(-5, 'it'))).toBe('-5,00 €');
    expect(nbsp(formatCents(123456, 'it'))).toBe('1.234,56 €');
  });
  it('answers empty text for empty or unreadable values, and Italian for an unknown language', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney('abc')).toBe('');
    expect(nbsp(formatMoney(1, 'de'))).toBe('1,00 €');
  });
  it('formats dates with date-fns locales', () => {
    expect(formatDate('2025-03-07', 'it')).toBe('07/03/2025');
    expect(formatDate('2025-03-07', 'en')).toBe('07/03/2025');
    expect(formatDate('2025-03-07', 'fr')).toBe('07/03/2025');
    expect(formatDate('2025-03-07', 'it', 'd MMMM yyyy')).toBe('7 marzo 2025');
    expect(formatDate('2025-03-07', 'en', 'd MMMM yyyy')).toBe('7 March 2025');
    expect(formatDate('2025-03-07', 'fr', 'd MMMM yyyy')).toBe('7 mars 2025');
    expect(formatDateTime('2025-03-07T14:05:00', 'it')).toBe('07/03/2025 14:05');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(undefined)).toBe('');
  });
});
