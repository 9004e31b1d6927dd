import { useMemo } from 'react';
import { useDataProvider, useLocaleState } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { PortalDataProvider } from '../../dataProvider';

export interface Country {
  id: number;
  en: string;
  it?: string | null;
  fr?: string | null;
  name?: string;
  iso_alpha_2?: string | null;
  label: string;
}
export interface Language {
  id: number;
  en: string;
  code?: string;
  native?: string | null;
}
export interface CompanyItem {
  id: number;
  legal_name: string;
}

/** A lookup answer as a list, whatever its wrapping (`[...]`, `{data: [...]}` or `{<key>: [...]}`). */
export function readList<T>(answer: any, key?: string): T[] {
  if (Array.isArray(answer)) return answer;
  if (Array.isArray(answer?.data)) return answer.data;
  if (key && Array.isArray(answer?.[key])) return answer[key];
  return [];
}

/**
 * A visitor lookup (`/visitor/<name>`), fetched once per language and shared by every screen that picks from it;
 * not fetched while `enabled` is false (then empty and not loading).
 */
export function useLookup<T>(name: string, key?: string, enabled = true): { data: T[]; loading: boolean; error: string | null } {
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const q = useQuery({
    queryKey: ['lookup', name, locale],
    queryFn: ({ signal }) => dataProvider.lookup(name, undefined, signal).then((a) => readList<T>(a, key)),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    enabled,
  });
  return useMemo(
    () => ({
      data: q.data ?? [],
      loading: enabled && q.isPending && !q.error,
      error: q.error ? ((q.error as Error).message ?? 'error') : null,
    }),
    [q.data, q.isPending, q.error, enabled],
  );
}

/** Countries named and sorted in the reader's language (the lookup carries en, it, fr...). */
export function useCountries() {
  const [locale] = useLocaleState();
  const raw = useLookup<Omit<Country, 'label'>>('country_list', 'country_list');
  const data = useMemo(() => {
    // One collator for the ~250 names: `localeCompare(b, locale)` builds one per comparison (issue 37:
    // ~8 ms of a phone's main thread, ×4 on Lighthouse's throttled CPU, when the access request opens).
    const collator = new Intl.Collator(locale);
    return raw.data
      .map((c) => ({ ...c, label: (c as Record<string, any>)[locale] || c.en || c.name || String(c.id) }))
      .sort((a, b) => collator.compare(a.label, b.label));
  }, [raw.data, locale]);
  return { ...raw, data };
}
export const useLanguages = () => useLookup<Language>('languages_list', 'languages_list');
export const countryLabel = (c: Country) => c.label;
