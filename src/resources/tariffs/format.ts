import type { ColumnSpec } from '../../../model/tariffs';
import { formatDate, formatMoney } from '../../components/format';

/** 200000 → "200 000" (row counts and limits in the tariff texts). */
export const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** A day (YYYY-MM-DD) in the user's language, with the shared date helper. */
export const formatDay = (value: string | null | undefined, locale: string) => formatDate(value ? value.slice(0, 10) : null, locale);

/** A decimal text (weights, multipliers) with the language's decimal separator. */
export function formatDecimal(value: string | number, locale: string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : locale, { maximumFractionDigits: 4 }).format(n);
}

/** A tariff cell as shown in a table: money in euros (the shared formatter), classes and units spelled out, empty as a blank. */
export function formatCell(col: ColumnSpec, value: unknown, locale: string, translate: (key: string) => string): string {
  if (value === null || value === undefined || value === '') return '';
  if (col.kind === 'money') return formatMoney(value, locale);
  if (col.kind === 'decimal') return formatDecimal(value as string, locale);
  if (col.name === 'type_id') return translate(`tariffs.class_${value}`);
  if (col.name === 'unit') return translate(`tariffs.unit_${value}`);
  return String(value);
}
