import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import countries from 'i18n-iso-countries';
import { useDataProvider } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';

export interface CompanyOption {
  id: number;
  legal_name: string;
}

/** Carrier and reseller companies the admin may price for (companies_list of roles 2 and 4), by name. */
export function useSellers(enabled: boolean) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  return useQuery({
    queryKey: ['lookup', 'companies_list', 'sellers'],
    queryFn: async (): Promise<CompanyOption[]> => {
      const lists = await Promise.all([2, 4].map((role) => dataProvider.companies(role)));
      return lists.flat().sort((a, b) => a.legal_name.localeCompare(b.legal_name));
    },
    enabled,
  });
}

/** The end-user companies of a carrier (enduser_list). */
export function useEndUsers(companyId: number | '' | null, enabled: boolean) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  return useQuery({
    queryKey: ['lookup', 'enduser_list', companyId],
    queryFn: (): Promise<CompanyOption[]> => dataProvider.endusers(companyId || undefined),
    enabled,
  });
}

/**
 * Country choices: ISO alpha-2 codes (what the cost request carries), named in the user's language by
 * the browser (Intl.DisplayNames), Italy first. The server checks codes against its country table.
 */
export function useCountryOptions(locale: string) {
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    const list = Object.keys(countries.getAlpha2Codes()).map((code) => ({ code, name: names.of(code) ?? code }));
    list.sort((a, b) => (a.code === 'IT' ? -1 : b.code === 'IT' ? 1 : a.name.localeCompare(b.name, locale)));
    return list;
  }, [locale]);
}

/** A municipality a postal code belongs to: its name and province sigla. */
export interface PostalPlace {
  city: string;
  province: string;
}

/**
 * The municipalities of an Italian postal code (the public postal_code_list, from the comuni data the
 * server loads): asked only for five digits, once per code (cached), each municipality once. Several
 * municipalities often share a code (10010: 37 of them): the form offers them as a choice.
 */
export function usePostalPlaces(postalCode: string) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const code = /^\d{5}$/.test(postalCode) ? postalCode : '';
  return useQuery({
    queryKey: ['lookup', 'postal_code_list', code],
    queryFn: async ({ signal }): Promise<PostalPlace[]> => {
      const answer = await dataProvider.lookup<{ data: Array<{ postal_code: string; city: string; province: string }> }>(
        'postal_code_list',
        { search: code, limit: 500 },
        signal,
      );
      const seen = new Set<string>();
      const places: PostalPlace[] = [];
      for (const r of answer.data) {
        const key = `${r.city}|${r.province}`;
        if (r.postal_code !== code || seen.has(key)) continue;
        seen.add(key);
        places.push({ city: r.city, province: r.province });
      }
      return places;
    },
    enabled: code !== '',
    staleTime: Infinity,
  });
}
