import { useQuery } from '@tanstack/react-query';
import { AutocompleteInput, type Validator } from 'react-admin';
import { apiRequest } from '../../api/http';

/**
 * A pick from a visitor lookup (`/visitor/<lookup>`, answering `{data: [...]}`), e.g. countries by `en`.
 * Lookups always refetch (accounts document §7: stale time 0).
 */
export function LookupInput({ source, lookup, optionText, validate, fullWidth }: {
  source: string; lookup: string; optionText: string; validate?: Validator[]; fullWidth?: boolean;
}) {
  const { data, isPending } = useQuery({
    queryKey: ['lookup', lookup],
    queryFn: ({ signal }) => apiRequest<{ data: Array<Record<string, unknown>> }>(`/visitor/${lookup}`, { signal }),
    staleTime: 0,
  });
  return (
    <AutocompleteInput
      source={source}
      choices={(data?.data ?? []) as Array<{ id: number }>}
      optionText={optionText}
      isPending={isPending}
      validate={validate}
      fullWidth={fullWidth}
    />
  );
}
