import type { ColumnSpec } from '../../../model/tariffs';
import { formatDate, formatMoney } from '../../components/format';

const grouped = new Map<string, Intl.NumberFormat>();
/** 200000 → "200.000" (it), "200,000" (en), "200 000" (fr): row counts and limits in the tariff texts. */
export function groupDigits(n: number, locale: string): string {
  const tag = locale === 'en' ? 'en-GB' : locale;
  let f = grouped.get(tag);
  // useGrouping 'always': Italian CLDR data would otherwise write 1000 beside 10.000.
  if (!f) grouped.set(tag, (f = new Intl.NumberFormat(tag, { maximumFractionDigits: 0, useGrouping: 'always' } as Intl.NumberFormatOptions)));
  return f.format(n);
}

/** A day (YYYY-MM-DD) in the user's language, with the shared date helper. */
export const formatDay = (value: string | null | undefined, locale: string) => formatDate(value ? value.slice(0, 10) : null, locale);

/** A decimal text (weights, multipliers) with the language's decimal separator. */
export function formatDecimal(value: string | number, locale: string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : locale, { maximumFractionDigits: 4, useGrouping: 'always' } as Intl.NumberFormatOptions).format(n);
}

/** A tariff cell as shown in a table: money in euros (the shared formatter), classes and units spelled out, empty as a blank. */
export function formatCell(col: ColumnSpec, value: unknown, locale: string, translate: (key: string) => string): string {
  // An optional flow left empty applies at both ends (postal surcharges, pricing.md §8): say so.
  if ((value === null || value === undefined || value === '') && col.name === 'flow' && !col.required) return translate('tariffs.flow_any');
  if (value === null || value === undefined || value === '') return '';
  if (col.kind === 'money') return formatMoney(value, locale);
  if (col.name === 'percent') return `${formatDecimal(value as string, locale)}\u00a0%`;
  if (col.kind === 'decimal') return formatDecimal(value as string, locale);
  if (col.name === 'type_id') return translate(`tariffs.class_${value}`);
  if (col.name === 'unit') return translate(`tariffs.unit_${value}`);
  if (col.name === 'kind') return translate(`tariffs.kind_${value}`);
  return String(value);
}
