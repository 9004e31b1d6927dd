import { format as formatDateFns, isValid, parseISO, type Locale as DateLocale } from 'date-fns';
import { enGB, fr, it } from 'date-fns/locale';
import { useLocaleState } from 'react-admin';

/**
 * The one place that formats euro amounts and dates for the user's language (it default, en, fr):
 * 1.234,56 € in Italian, €1,234.56 in English, 1 234,56 € in French; dates with date-fns locales.
 */
const NUMBER_LOCALE: Record<string, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };
export const DATE_LOCALE: Record<string, DateLocale> = { it, en: enGB, fr };
const money = new Map<string, Intl.NumberFormat>();

const toNumber = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(String(v).replace(',', '.'));
  return Number.isFinite(n) ? n : null;
};

/** Euros (a number, or decimal text) for a language; '' for an empty or unreadable value. */
export function formatMoney(value: unknown, locale = 'it'): string {
  const n = toNumber(value);
  if (n === null) return '';
  const tag = NUMBER_LOCALE[locale] ?? NUMBER_LOCALE.it;
  let f = money.get(tag);
  // useGrouping 'always': Italian CLDR data would otherwise write 1234,56 € for four-digit amounts.
  if (!f) money.set(tag, (f = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR', useGrouping: 'always' } as Intl.NumberFormatOptions)));
  return f.format(n);
}

/** Integer cents as euros. */
export const formatCents = (cents: unknown, locale = 'it') => {
  const n = toNumber(cents);
  return n === null ? '' : formatMoney(n / 100, locale);
};

const toDate = (v: unknown): Date | null => {
  if (v === null || v === undefined || v === '') return null;
  const d = v instanceof Date ? v : typeof v === 'number' ? new Date(v) : parseISO(String(v));
  return isValid(d) ? d : null;
};

/** A date (ISO text or Date) as the language writes it: 21/11/2025 (it, fr), 21/11/2025 (en-GB), or a date-fns pattern. */
export function formatDate(value: unknown, locale = 'it', pattern = 'P'): string {
  const d = toDate(value);
  return d ? formatDateFns(d, pattern, { locale: DATE_LOCALE[locale] ?? it }) : '';
}

/** Date and time: 21/11/2025 14:05. */
export const formatDateTime = (value: unknown, locale = 'it') => formatDate(value, locale, 'P p');

/** The formatters bound to the current language. */
export function useFormat() {
  const [locale = 'it'] = useLocaleState();
  return {
    locale,
    money: (v: unknown) => formatMoney(v, locale),
    cents: (v: unknown) => formatCents(v, locale),
    date: (v: unknown, pattern?: string) => formatDate(v, locale, pattern),
    dateTime: (v: unknown) => formatDateTime(v, locale),
  };
}
