import { QueryClient } from '@tanstack/react-query';
import { localStorageStore } from 'ra-core';

/**
 * What the two shells share (src/main.tsx picks one by the route): the store (the chosen language,
 * list preferences) and the query cache, so signing in from the public pages keeps both.
 */
export const store = localStorageStore(undefined, 'Portal');

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
