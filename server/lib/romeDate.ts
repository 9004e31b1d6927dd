/** Calendar dates in Europe/Rome, the portal's business time zone (pricing.md §0, server.md §6). */
const ROME = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' });
let memo = { until: 0, value: '' };

/** Today in Europe/Rome as YYYY-MM-DD (the quote date D); recomputed at most once a second. */
export function romeToday(now: Date = new Date()): string {
  const t = now.getTime();
  if (t >= memo.until || t < memo.until - 1000) memo = { until: t - (t % 1000) + 1000, value: ROME.format(now) };
  return memo.value;
}
