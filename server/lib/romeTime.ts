/**
 * Calendar days and months in Europe/Rome (server.md §6): the Rome date of an instant, and the UTC
 * instants where a Rome day starts (daylight saving included). Dates are YYYY-MM-DD text.
 */
const ROME_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' });
const ROME_PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Rome',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The Rome calendar date of an instant. */
export function romeDate(at: Date | string | number = new Date()): string {
  return ROME_DATE.format(at instanceof Date ? at : new Date(at));
}

function offsetMs(utcMs: number): number {
  const parts = ROME_PARTS.formatToParts(new Date(utcMs));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - utcMs;
}

/** The UTC instant of a Rome wall-clock time (`HH:MM`) on a Rome date, daylight saving included. */
export function romeInstant(date: string, time = '00:00'): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, h, mi);
  const guess = wall - offsetMs(wall);
  return new Date(wall - offsetMs(guess));
}

/** The UTC instant (ISO text) at which the Rome day `date` starts. */
export function romeDayStart(date: string): string {
  return romeInstant(date).toISOString();
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The first day of the month after the one `date` is in. */
export function nextMonth(date: string): string {
  const [y, m] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/** [from, to) in UTC ISO text of one Rome day. */
export function romeDayRange(date: string): { from: string; to: string } {
  return { from: romeDayStart(date), to: romeDayStart(addDays(date, 1)) };
}

/** A real calendar date written YYYY-MM-DD. */
export function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}
