import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import type { PortalDataProvider } from '../dataProvider';
import { canAccess } from '../../model/permissions';
import { NOTIFICATION_POLL_MS } from '../../model/notifications';
import type { Kind } from '../../model/roles';

/** The react-query keys of the bell: a stream (or any write) may set the count with `setQueryData(NOTIFICATION_COUNT_KEY, n)`. */
export const NOTIFICATION_COUNT_KEY = ['notifications', 'count'] as const;
export const NOTIFICATION_LIST_KEY = ['notifications', 'latest'] as const;

/**
 * The caller's unread notification count (GET /{ns}/notifications/count), the one place the bell reads it:
 * asked every 30 s while the page is visible and whenever the page regains focus. A later event stream
 * feeds the same query (setQueryData on NOTIFICATION_COUNT_KEY) and may drop the interval. `enabled` is
 * false for a kind without a bell (support).
 */
export function useNotificationCount() {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { permissions: kind } = usePermissions<Kind>();
  const enabled = canAccess(kind, 'notifications', 'list');
  const query = useQuery({
    queryKey: NOTIFICATION_COUNT_KEY,
    queryFn: () => dataProvider.notificationCount(),
    enabled,
    refetchInterval: NOTIFICATION_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
  // react-query refetches when the tab becomes visible again; a window that regains focus (another window
  // was in front, the tab stayed visible) asks too.
  const { refetch } = query;
  useEffect(() => {
    if (!enabled) return;
    const onFocus = () => void refetch();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [enabled, refetch]);
  return { enabled, unread: query.data ?? 0, query };
}
