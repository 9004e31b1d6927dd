/** Calendar dates in Europe/Rome, the portal's business time zone (pricing.md §0, server.md §6). */
const ROME = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today in Europe/Rome as YYYY-MM-DD (the quote date D). */
export function romeToday(now: Date = new Date()): string {
  return ROME.format(now);
}
