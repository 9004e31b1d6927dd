import { QueryClient } from '@tanstack/react-query';
import { localStorageStore, type Store } from 'ra-core';
import { DEFAULT_LOCALE } from './i18n';

/**
 * What the two shells share (src/main.tsx picks one by the route): the store (the chosen language,
 * list preferences) and the query cache, so signing in from the public pages keeps both.
 */
const stored = localStorageStore(undefined, 'Portal');

/**
 * The language the page starts in: the one chosen earlier, read before react-admin's store starts (its setup
 * may clear the keys of an older store version, the chosen language among them), else Italian. The i18n
 * providers start in it too (App.tsx, publicI18n.ts: `storedLocale()`).
 */
const startLocale = ((l) => (l === 'it' || l === 'en' || l === 'fr' ? l : DEFAULT_LOCALE))(storedLocale());

/**
 * The language reads as the one the page started in (above) when none is stored, as the i18n provider's does. Issue 37:
 * react-admin's I18nContextProvider renders nothing until the store's language equals the provider's, so a
 * first visit's first render was empty and the page came one render later; with a prerendered snapshot that
 * empty commit would replace the snapshot with a blank page. Nothing is written to local storage.
 */
export const store: Store = {
  ...stored,
  getItem: <T>(key: string, defaultValue?: T) => stored.getItem<T>(key, defaultValue ?? (key === 'locale' ? (startLocale as T) : undefined)),
};

/** The documents: no retry, refetch on window focus; lookups always refetch (stale time 0). */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true, staleTime: 0 } } });

/** The language chosen earlier (react-admin's store key `Portal.locale`), read once at start-up. */
export function storedLocale(): string | null {
  try {
    return JSON.parse(localStorage.getItem('Portal.locale') ?? 'null');
  } catch {
    return null;
  }
}
