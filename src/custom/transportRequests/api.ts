import { useDataProvider } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import type { PortalDataProvider } from '../../dataProvider';
import { REQUESTS_RESOURCE } from './resource';

/** The request screens' types and calls live in the data provider (dataProvider/requests.ts). */
export type { Address, Detail, PodAnswer, Shipment, Statistics, TimelineEntry, TransportRequest } from '../../dataProvider/requests';
export { namespaceOf } from '../../dataProvider/requests';

/** The data provider with the portal's named methods (react-admin's, so its errors reach checkError). */
export const usePortalData = () => useDataProvider<PortalDataProvider>();

/**
 * After a request changes (status, edit, creation): the list (react-admin's `transport_requests` queries),
 * the open request and the dashboard statistics refetch.
 */
export function useInvalidateRequests() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [REQUESTS_RESOURCE] }),
      queryClient.invalidateQueries({ queryKey: ['transport_request'] }),
      queryClient.invalidateQueries({ queryKey: ['statistics'] }),
    ]);
}
