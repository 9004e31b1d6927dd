import { useQuery } from '@tanstack/react-query';
import { AutocompleteInput, useDataProvider, type Validator } from 'react-admin';
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
}: {
  source: string;
  lookup: string;
  optionText: string;
  validate?: Validator[];
  fullWidth?: boolean;
}) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { data, isPending } = useQuery({
    queryKey: ['lookup', lookup],
    queryFn: ({ signal }) => dataProvider.lookup<{ data: Array<{ id: number }> }>(lookup, undefined, signal).then((a) => a?.data ?? []),
    staleTime: 0,
  });
  return <AutocompleteInput source={source} choices={data ?? []} optionText={optionText} isPending={isPending} validate={validate} fullWidth={fullWidth} />;
}
