import { useEffect, useMemo, useState } from 'react';
import { useLocaleState } from 'react-admin';
import { apiRequest } from '../../api/http';

export interface Country { id: number; en: string; it?: string | null; fr?: string | null; name?: string; iso_alpha_2?: string | null; label: string }
export interface Language { id: number; en: string; code?: string; native?: string | null }
export interface CompanyItem { id: number; legal_name: string }

/** A lookup answer as a list, whatever its wrapping (`[...]`, `{data: [...]}` or `{<key>: [...]}`). */
export function readList<T>(answer: any, key?: string): T[] {
  if (Array.isArray(answer)) return answer;
  if (Array.isArray(answer?.data)) return answer.data;
  if (key && Array.isArray(answer?.[key])) return answer[key];
  return [];
}

const cache = new Map<string, Promise<unknown[]>>();
/** A visitor lookup, fetched once per language and shared by every screen that picks from it. */
export function useLookup<T>(path: string, key?: string): { data: T[]; loading: boolean; error: string | null } {
  const [locale] = useLocaleState();
  const [state, setState] = useState<{ data: T[]; loading: boolean; error: string | null }>({ data: [], loading: true, error: null });
  useEffect(() => {
    let live = true;
    const id = `${locale}:${path}`;
    if (!cache.has(id)) {
      const p = apiRequest(path).then((a) => readList<T>(a, key));
      p.catch(() => cache.delete(id));
      cache.set(id, p);
    }
    (cache.get(id) as Promise<T[]>).then(
      (data) => live && setState({ data, loading: false, error: null }),
      (err) => live && setState({ data: [], loading: false, error: err?.message ?? 'error' }),
    );
    return () => { live = false; };
  }, [path, key, locale]);
  return state;
}

/** Countries named and sorted in the reader's language (the lookup carries en, it, fr...). */
export function useCountries() {
  const [locale] = useLocaleState();
  const raw = useLookup<Omit<Country, 'label'>>('/visitor/country_list', 'country_list');
  const data = useMemo(() => raw.data
    .map((c) => ({ ...c, label: (c as Record<string, any>)[locale] || c.en || c.name || String(c.id) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale)), [raw.data, locale]);
  return { ...raw, data };
}
export const useLanguages = () => useLookup<Language>('/visitor/languages_list', 'languages_list');
export const countryLabel = (c: Country) => c.label;
