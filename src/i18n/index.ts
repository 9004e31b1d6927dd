import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import type { TranslationMessages } from 'react-admin';
import { setRequestLocale } from '../api/http';
import italianMessages from './ra-it';
import { shellMessages } from './shell';

export type Locale = 'it' | 'en' | 'fr';
export const LOCALES: Array<{ locale: Locale; name: string }> = [
  { locale: 'it', name: 'IT' },
  { locale: 'en', name: 'EN' },
  { locale: 'fr', name: 'FR' },
];
export const DEFAULT_LOCALE: Locale = 'it';

/** Messages of one screen or resource, in the three languages. */
export type AreaMessages = Record<Locale, Record<string, unknown>>;

function deepMerge(target: Record<string, any>, source: Record<string, any>) {
  for (const [k, v] of Object.entries(source)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) target[k] = deepMerge(target[k] ?? {}, v);
    else target[k] = v;
  }
  return target;
}

/** Builds the provider from react-admin's own messages, the shell's, and each area's (shared components, resources, pages). */
export function buildI18nProvider(areas: AreaMessages[] = [], initialLocale?: string | null) {
  const start: Locale = LOCALES.some((l) => l.locale === initialLocale) ? (initialLocale as Locale) : DEFAULT_LOCALE;
  setRequestLocale(start);
  if (typeof document !== 'undefined') document.documentElement.lang = start;
  const base: Record<Locale, TranslationMessages> = { it: italianMessages, en: englishMessages, fr: frenchMessages };
  const messages = {} as Record<Locale, TranslationMessages>;
  for (const { locale } of LOCALES) {
    const merged = deepMerge({}, base[locale]);
    deepMerge(merged, shellMessages[locale]);
    for (const a of areas) deepMerge(merged, a[locale] ?? {});
    messages[locale] = merged as TranslationMessages;
  }
  const provider = polyglotI18nProvider((locale) => messages[locale as Locale] ?? messages.it, start, LOCALES, {
    allowMissing: true,
  });
  const changeLocale = provider.changeLocale;
  provider.changeLocale = async (locale: string) => {
    setRequestLocale(locale);
    document.documentElement.lang = locale;
    return changeLocale(locale);
  };
  return { provider, messages };
}
