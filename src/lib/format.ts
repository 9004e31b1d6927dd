/**
 * Euro amounts and plain numbers written the way the user's language writes them:
 * formatEuro(1234.56, 'it') → "1.234,56 €", 'en' → "€1,234.56", 'fr' → "1 234,56 €".
 * Grouping is always on: Italian conventions write 1.234 (Intl would leave four digits ungrouped).
 */
const LOCALES: Record<string, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };
const cache = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, kind: 'euro' | 'number'): Intl.NumberFormat {
  const key = `${locale}|${kind}`;
  let f = cache.get(key);
  if (!f) {
    const tag = LOCALES[locale] ?? LOCALES.it;
    const grouping = { useGrouping: 'always' } as unknown as Intl.NumberFormatOptions;
    f = kind === 'euro'
      ? new Intl.NumberFormat(tag, { ...grouping, style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 })
      : new Intl.NumberFormat(tag, { ...grouping, maximumFractionDigits: 3 });
    cache.set(key, f);
  }
  return f;
}

const empty = (v: unknown) => v === null || v === undefined || v === '' || Number.isNaN(Number(v));

/** An amount in euros; empty values (null, '', not a number) give '—'. */
export function formatEuro(value: number | string | null | undefined, locale = 'it'): string {
  return empty(value) ? '—' : formatter(locale, 'euro').format(Number(value));
}

export function formatNumber(value: number | string | null | undefined, locale = 'it'): string {
  return empty(value) ? '—' : formatter(locale, 'number').format(Number(value));
}
