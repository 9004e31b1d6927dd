import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { setRequestLocale } from '../api/http';
import italianMessages from './ra-it';
import { shellItalian } from './shell';

export type Locale = 'it' | 'en' | 'fr';
export const LOCALES: Array<{ locale: Locale; name: string }> = [
  { locale: 'it', name: 'IT' },
  { locale: 'en', name: 'EN' },
  { locale: 'fr', name: 'FR' },
];
export const DEFAULT_LOCALE: Locale = 'it';

/** Messages of one screen or resource, in the three languages. */
export type AreaMessages = Record<Locale, Record<string, unknown>>;

const isLocale = (locale: unknown): locale is Locale => LOCALES.some((l) => l.locale === locale);

/**
 * react-admin's own messages and the shell's, per language (issue 18: a visitor's first load carries only
 * Italian's, the default; English's and French's arrive when chosen, or before the first render when
 * stored earlier: src/main.tsx awaits `loadLocale`).
 */
const catalogues: Partial<Record<Locale, TranslationMessages>> = { it: deepMerge(deepMerge({}, italianMessages), shellItalian) as TranslationMessages };
const loading: Partial<Record<Locale, Promise<TranslationMessages>>> = {};

async function fetchCatalogue(locale: 'en' | 'fr'): Promise<TranslationMessages> {
  const [ra, shell] =
    locale === 'en'
      ? await Promise.all([import('ra-language-english'), import('./shell-en')])
      : await Promise.all([import('ra-language-french'), import('./shell-fr')]);
  return deepMerge(deepMerge({}, ra.default), shell.shellMessages) as TranslationMessages;
}

/** Fetches the messages of `locale` once (Italian's are always here); unknown locales load nothing. */
export function loadLocale(locale: string | null | undefined): Promise<void> {
  if (!isLocale(locale) || catalogues[locale]) return Promise.resolve();
  if (locale === 'it') return Promise.resolve();
  loading[locale] ??= fetchCatalogue(locale).then(
    (m) => (catalogues[locale] = m),
    (err) => {
      delete loading[locale]; // a later choice tries again
      throw err;
    },
  );
  return loading[locale].then(() => undefined);
}

function deepMerge(target: Record<string, any>, source: Record<string, any>) {
  for (const [k, v] of Object.entries(source)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) target[k] = deepMerge(target[k] ?? {}, v);
    else target[k] = v;
  }
  return target;
}

export interface PortalI18n {
  provider: I18nProvider;
  /** Adds an area's messages (a screen loaded on demand brings its own) before the screen renders. */
  addMessages(area: AreaMessages): Promise<void>;
}

/**
 * Builds the provider from react-admin's own messages and the shell's (the catalogue), and each area's
 * (shared components, resources, pages). The initial language's catalogue must be loaded (`loadLocale`,
 * else Italian is used); another language's loads when the user picks it.
 */
export function buildI18nProvider(initialAreas: AreaMessages[] = [], initialLocale?: string | null): PortalI18n {
  const wanted: Locale = isLocale(initialLocale) ? initialLocale : DEFAULT_LOCALE;
  // Not loaded (its file failed to arrive): Italian, which always is; choosing the language again retries.
  const start: Locale = catalogues[wanted] ? wanted : DEFAULT_LOCALE;
  setRequestLocale(start);
  if (typeof document !== 'undefined') document.documentElement.lang = start;
  const areas = [...initialAreas];
  const merged: Partial<Record<Locale, TranslationMessages>> = {};
  const messagesOf = (locale: Locale): TranslationMessages => {
    if (merged[locale]) return merged[locale];
    const result = deepMerge({}, catalogues[locale]!);
    for (const a of areas) deepMerge(result, a[locale] ?? {});
    return (merged[locale] = result as TranslationMessages);
  };
  const getMessages = (locale: string): TranslationMessages | Promise<TranslationMessages> => {
    const l = isLocale(locale) ? locale : DEFAULT_LOCALE;
    return catalogues[l] ? messagesOf(l) : loadLocale(l).then(() => messagesOf(l));
  };
  const provider = polyglotI18nProvider(getMessages, start, LOCALES, { allowMissing: true });
  const changeLocale = provider.changeLocale;
  provider.changeLocale = async (locale: string) => {
    setRequestLocale(locale);
    document.documentElement.lang = locale;
    return changeLocale(locale);
  };
  return {
    provider,
    async addMessages(area) {
      if (areas.includes(area)) return;
      areas.push(area);
      for (const l of Object.keys(merged) as Locale[]) delete merged[l];
      // Rebuilds the current language's translations (the same language: nothing else changes).
      await changeLocale(provider.getLocale());
    },
  };
}
