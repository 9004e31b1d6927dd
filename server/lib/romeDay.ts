/**
 * Days are counted in Europe/Rome time (server.md §6): the UTC instants where a Rome calendar day
 * (YYYY-MM-DD) starts and the next one starts, daylight saving included.
 */
function romeOffsetMs(utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Rome',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - utcMs;
}

function romeMidnight(y: number, m: number, d: number): number {
  const wall = Date.UTC(y, m - 1, d);
  const guess = wall - romeOffsetMs(wall);
  return wall - romeOffsetMs(guess);
}

export function romeDayRange(date: string): { from: string; to: string } {
  const [y, m, d] = date.split('-').map(Number);
  return { from: new Date(romeMidnight(y, m, d)).toISOString(), to: new Date(romeMidnight(y, m, d + 1)).toISOString() };
}
