import { registerMessages, translate, type Lang } from '../i18n/index.js';

registerMessages({
  en: {
    'duration.days.one': '{n} day',
    'duration.days.other': '{n} days',
    'duration.hours.one': '{n} hour',
    'duration.hours.other': '{n} hours',
    'duration.minutes.one': '{n} minute',
    'duration.minutes.other': '{n} minutes',
  },
  it: {
    'duration.days.one': '{n} giorno',
    'duration.days.other': '{n} giorni',
    'duration.hours.one': '{n} ora',
    'duration.hours.other': '{n} ore',
    'duration.minutes.one': '{n} minuto',
    'duration.minutes.other': '{n} minuti',
  },
  fr: {
    'duration.days.one': '{n} jour',
    'duration.days.other': '{n} jours',
    'duration.hours.one': '{n} heure',
    'duration.hours.other': '{n} heures',
    'duration.minutes.one': '{n} minute',
    'duration.minutes.other': '{n} minutes',
  },
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A configured length of time as a person reads it, in `lang` with its plural: whole days from two days on
 * ("3 giorni"), else whole hours ("24 ore", "36 hours", "1 heure"), else minutes, rounded up (a window that is
 * not a whole number of hours, e.g. 90 minutes, or a test's few milliseconds: "1 minuto").
 */
export function durationText(lang: Lang, ms: number): string {
  const [unit, n] =
    ms >= 2 * DAY && ms % DAY === 0
      ? (['days', ms / DAY] as const)
      : ms >= HOUR && ms % HOUR === 0
        ? (['hours', ms / HOUR] as const)
        : (['minutes', Math.max(1, Math.ceil(ms / MINUTE))] as const);
  const form = new Intl.PluralRules(lang).select(n) === 'one' ? 'one' : 'other';
  return translate(lang, `duration.${unit}.${form}`, { n });
}
