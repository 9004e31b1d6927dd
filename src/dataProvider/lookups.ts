import { apiRequest, type Query } from '../api/http';

/**
 * The visitor lookups the screens pick from (both portal documents): countries, document types, companies,
 * end users, and any `/visitor/<name>` list. Screens query them under `['lookup', ...]` keys.
 */
export interface CompanyOption {
  id: number;
  legal_name: string;
}
export interface CountryRow {
  id: number;
  en: string;
  it: string | null;
  fr: string | null;
  iso_alpha_2: string | null;
}

export const lookupMethods = () => ({
  /** Any visitor lookup as the server answers it (`[...]`, `{data: [...]}` or `{<name>: [...]}`). */
  lookup: <T = any>(name: string, query?: Query, signal?: AbortSignal) => apiRequest<T>(`/visitor/${name}`, { query, signal }),
  countries: () => apiRequest<{ data: CountryRow[] }>('/visitor/country_list').then((a) => a.data),
  /** The active document types, named in `lang` (the caller's language when absent). */
  documentTypes: (lang?: string) =>
    apiRequest<{ data: Array<{ id: number; name: string; description: string | null }> }>('/visitor/document_types_list', { lang }).then((a) => a.data),
  /** Companies, all or of one company role (2 carrier, 4 reseller). */
  companies: (companyRoleId?: number) =>
    apiRequest<{ data: Array<CompanyOption & { company_role_id: number }> }>('/visitor/companies_list', {
      query: companyRoleId ? { company_role_id: companyRoleId } : undefined,
    }).then((a) => a.data),
  /** The end-user companies of a carrier (all the caller may see without one). */
  endusers: (companyId?: number) => apiRequest<{ data: CompanyOption[] }>('/visitor/enduser_list', { query: { company_id: companyId } }).then((a) => a.data),
});
