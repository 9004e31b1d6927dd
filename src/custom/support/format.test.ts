import { describe, expect, it } from 'vitest';
import { dayLabel, numberOf, sameDay, shortWhen, timeOf } from './format';

const words = { today: 'Oggi', yesterday: 'Ieri' };
const at = (y: number, m: number, d: number, h = 9, min = 5) => new Date(y, m - 1, d, h, min).toISOString();

describe('chat dates in the user’s language', () => {
  const now = new Date(2025, 2, 14, 18, 0);
  it('labels the days of a conversation', () => {
    expect(dayLabel(at(2025, 3, 14), 'it', words, now)).toBe('Oggi');
    expect(dayLabel(at(2025, 3, 13, 23, 59), 'it', words, now)).toBe('Ieri');
    expect(dayLabel(at(2025, 3, 1), 'it', words, now)).toBe('sabato 1 marzo 2025');
    expect(dayLabel(at(2025, 3, 1), 'fr', words, now)).toBe('samedi 1 mars 2025');
    expect(dayLabel(at(2025, 3, 1), 'en', words, now)).toMatch(/^Saturday,? 1 March 2025$/);
  });
  it('gives the list the hour today, day and month this year, the short date before', () => {
    expect(shortWhen(at(2025, 3, 14, 7, 3), 'it', now)).toBe('07:03');
    expect(shortWhen(at(2025, 1, 2), 'it', now)).toBe('2 gen');
    expect(shortWhen(at(2024, 12, 31), 'fr', now)).toBe('31/12/24');
    expect(timeOf(at(2025, 3, 14, 15, 30), 'en')).toBe('15:30');
  });
  it('compares days and writes numbers per language', () => {
    expect(sameDay(at(2025, 3, 14, 0, 1), at(2025, 3, 14, 23, 59))).toBe(true);
    expect(sameDay(at(2025, 3, 14), at(2025, 3, 15))).toBe(false);
    expect(numberOf(4000, 'en')).toBe('4,000');
    expect(numberOf(4000, 'it')).toBe('4000');
  });
});
