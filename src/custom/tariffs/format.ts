import type { ColumnSpec } from '../../schema/tariffs';

const money = new Map<string, Intl.NumberFormat>();
/** Euros in the user's language: 1.234,56 € in Italian, €1,234.56 in English. */
export function formatEuro(value: number, locale: string): string {
  let f = money.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : locale, { style: 'currency', currency: 'EUR' });
    money.set(locale, f);
  }
  return f.format(value);
}

/** A decimal text (weights, multipliers) with the language's decimal separator. */
export function formatDecimal(value: string | number, locale: string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : locale, { maximumFractionDigits: 4 }).format(n);
}

/** "2025-01-31" as a date of the user's language, without time zone shifts. */
export function formatDay(value: string | null | undefined, locale: string): string {
  if (!value) return '';
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return value;
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, { timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** A tariff cell as shown in a table: money in euros, classes and units spelled out, empty as a dash-free blank. */
export function formatCell(col: ColumnSpec, value: unknown, locale: string, translate: (key: string) => string): string {
  if (value === null || value === undefined || value === '') return '';
  if (col.kind === 'money') return formatEuro(Number(value), locale);
  if (col.kind === 'decimal') return formatDecimal(value as string, locale);
  if (col.name === 'type_id') return translate(`tariffs.class_${value}`);
  if (col.name === 'unit') return translate(`tariffs.unit_${value}`);
  return String(value);
}
