import { useQuery } from '@tanstack/react-query';
import { AutocompleteInput, useDataProvider, useLocaleState, type Validator } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';

/**
 * A pick from a visitor lookup (`/visitor/<lookup>`, answering `{data: [...]}`), e.g. countries by `en`.
 * Lookups always refetch (accounts document §7: stale time 0). The cache holds the rows, as every
 * `['lookup', <name>]` query does.
 */
export function LookupInput({
  source,
  lookup,
  optionText,
  validate,
  fullWidth,
  label,
  helperText,
}: {
  source: string;
  lookup: string;
  optionText: string;
  validate?: Validator[];
  fullWidth?: boolean;
  label?: string;
  helperText?: string;
}) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [locale = 'it'] = useLocaleState();
  const { data, isPending } = useQuery({
    queryKey: ['lookup', lookup],
    queryFn: ({ signal }) => dataProvider.lookup<{ data: Array<{ id: number }> }>(lookup, undefined, signal).then((a) => a?.data ?? []),
    staleTime: 0,
  });
  const text = lookupText(optionText, locale);
  return (
    <AutocompleteInput
      source={source}
      choices={data ?? []}
      optionText={text}
      isPending={isPending}
      validate={validate}
      fullWidth={fullWidth}
      label={label}
      helperText={helperText}
    />
  );
}

/** Column names that are a language: a declaration naming one (`en`) chose that language on purpose. */
const LANGUAGE_COLUMNS = new Set(['it', 'en', 'fr', 'de', 'es']);

/**
 * A lookup row's text. A declaration may name the referenced table's column (`name`, the countries' English
 * name) while the lookup also answers the names per language (`/visitor/country_list`: it, en, fr): then
 * the user's language, as an Italian reads "Italia" and not "Italy" (the list's column says the same,
 * DeclaredColumns `lookupReferenceText`); a declared language column (`en`) is kept as declared.
 */
export function lookupText(optionText: string, locale: string) {
  return (row: Record<string, unknown>): string => {
    const local = LANGUAGE_COLUMNS.has(optionText) ? undefined : row[locale];
    return String((typeof local === 'string' && local) || row[optionText] || row.en || row.name || row.id || '');
  };
}
