import { describe, expect, it } from 'vitest';
import { durationText } from './duration.js';

const H = 3_600_000;

describe('durationText', () => {
  it('says hours up to two days, and whole days from two days on, with each language’s plural', () => {
    expect([durationText('it', 24 * H), durationText('en', 24 * H), durationText('fr', 24 * H)]).toEqual(['24 ore', '24 hours', '24 heures']);
    expect([durationText('it', H), durationText('en', H), durationText('fr', H)]).toEqual(['1 ora', '1 hour', '1 heure']);
    expect([durationText('it', 36 * H), durationText('en', 36 * H), durationText('fr', 36 * H)]).toEqual(['36 ore', '36 hours', '36 heures']);
    expect([durationText('it', 48 * H), durationText('en', 48 * H), durationText('fr', 48 * H)]).toEqual(['2 giorni', '2 days', '2 jours']);
    expect([durationText('it', 7 * 24 * H), durationText('en', 7 * 24 * H), durationText('fr', 7 * 24 * H)]).toEqual(['7 giorni', '7 days', '7 jours']);
    // not a whole number of days: hours
    expect(durationText('en', 60 * H)).toBe('60 hours');
  });

  it('says minutes, rounded up, when the length is not a whole number of hours', () => {
    expect([durationText('it', 90 * 60_000), durationText('en', 90 * 60_000), durationText('fr', 90 * 60_000)]).toEqual([
      '90 minuti',
      '90 minutes',
      '90 minutes',
    ]);
    expect([durationText('it', 150), durationText('en', 150), durationText('fr', 150)]).toEqual(['1 minuto', '1 minute', '1 minute']);
    expect(durationText('en', 61_000)).toBe('2 minutes');
  });
});
