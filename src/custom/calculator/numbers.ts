/** Weights and ratios as the language writes them (1.234,5 in Italian); euros use the shared formatMoney. */
const LOCALES: Record<string, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };
const cache = new Map<string, Intl.NumberFormat>();

export function formatNumber(value: number | string | null | undefined, locale = 'it'): string {
  if (value === null || value === undefined || value === '' || Number.isNaN(Number(value))) return '—';
  const tag = LOCALES[locale] ?? LOCALES.it;
  let f = cache.get(tag);
  if (!f) cache.set(tag, (f = new Intl.NumberFormat(tag, { maximumFractionDigits: 3, useGrouping: 'always' } as Intl.NumberFormatOptions)));
  return f.format(Number(value));
}
