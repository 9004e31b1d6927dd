/**
 * Working days for the expected delivery day of public tracking (issue 35 item 14). The rule, written down
 * because the documents only say "lead times are in days" (the request answer calls `lead_time` working
 * days):
 * - a working day is Monday to Friday that is not an Italian national public holiday (1 January,
 *   6 January, Easter Monday, 25 April, 1 May, 2 June, 15 August, 1 November, 8 December, 25 and 26
 *   December): the portal's carriers are Italian and deliver on Italian working days;
 * - the expected delivery day is the pickup day plus `lead_time` working days: each day of lead time moves
 *   to the next working day (a lead time of 1 from a Friday pickup is the Monday); a lead time of 0 is the
 *   pickup day itself, or the next working day when the pickup day is not one.
 * Days are calendar dates (YYYY-MM-DD, Europe/Rome), with no time of day.
 */

const FIXED_HOLIDAYS = new Set(['01-01', '01-06', '04-25', '05-01', '06-02', '08-15', '11-01', '12-08', '12-25', '12-26']);

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** Easter Sunday of a year (the Gregorian computus), as a UTC date. */
function easter(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day));
}

/** Whether a day (YYYY-MM-DD) is a working day: Monday to Friday, not an Italian national holiday. */
export function isWorkingDay(day: string): boolean {
  const d = new Date(`${day}T00:00:00Z`);
  const weekday = d.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  if (FIXED_HOLIDAYS.has(day.slice(5))) return false;
  const monday = easter(d.getUTCFullYear());
  monday.setUTCDate(monday.getUTCDate() + 1);
  return iso(monday) !== day;
}

const nextDay = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return iso(d);
};

/** The day `days` working days after `day` (YYYY-MM-DD); null for an unreadable day or a negative count. */
export function addWorkingDays(day: string, days: number): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || !Number.isInteger(days) || days < 0) return null;
  let d = day;
  while (!isWorkingDay(d)) d = nextDay(d);
  for (let i = 0; i < days; i++) {
    d = nextDay(d);
    while (!isWorkingDay(d)) d = nextDay(d);
  }
  return d;
}
