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
  // A declaration may name the referenced table's column (`name`) while the lookup answers the names per
  // language (`/visitor/country_list`: en, it, fr): the declared column when the row has it, else the
  // user's language, else English.
  const text = (row: Record<string, unknown>) => String(row[optionText] ?? row[locale] ?? row.en ?? row.name ?? row.id ?? '');
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
