/** Dates and times of the chat in the user's language and the browser's time zone. */
const TAGS: Record<string, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };
const tag = (locale: string) => TAGS[locale] ?? 'it-IT';

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
export const sameDay = (a: string, b: string) => dayKey(new Date(a)) === dayKey(new Date(b));

export function timeOf(iso: string, locale: string) {
  return new Intl.DateTimeFormat(tag(locale), { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** "Oggi", "Ieri" or the full date: the separators between days of a conversation. */
export function dayLabel(iso: string, locale: string, words: { today: string; yesterday: string }, now = new Date()) {
  const d = new Date(iso);
  if (dayKey(d) === dayKey(now)) return words.today;
  const y = new Date(now);
  y.setDate(y.getDate() - 1);
  if (dayKey(d) === dayKey(y)) return words.yesterday;
  return new Intl.DateTimeFormat(tag(locale), { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(d);
}

/** The ticket list's time: today the hour, this year day and month, otherwise the short date. */
export function shortWhen(iso: string, locale: string, now = new Date()) {
  const d = new Date(iso);
  if (dayKey(d) === dayKey(now)) return timeOf(iso, locale);
  const opts: Intl.DateTimeFormatOptions =
    d.getFullYear() === now.getFullYear() ? { day: 'numeric', month: 'short' } : { day: '2-digit', month: '2-digit', year: '2-digit' };
  return new Intl.DateTimeFormat(tag(locale), opts).format(d);
}

export function fullWhen(iso: string, locale: string) {
  return new Intl.DateTimeFormat(tag(locale), { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

export const numberOf = (n: number, locale: string) => new Intl.NumberFormat(tag(locale)).format(n);
