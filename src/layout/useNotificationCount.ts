import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import type { PortalDataProvider } from '../dataProvider';
import { canAccess } from '../../model/permissions';
import { NOTIFICATION_POLL_MS } from '../../model/notifications';
import type { Kind } from '../../model/roles';
import { useLiveConnected } from '../components/live/LiveEvents';

import { NOTIFICATION_COUNT_KEY } from '../components/live/queryKeys';

/** The react-query keys of the bell (the event stream refreshes them). */
export { NOTIFICATION_COUNT_KEY, NOTIFICATION_LIST_KEY } from '../components/live/queryKeys';

/**
 * The caller's unread notification count (GET /{ns}/notifications/count), the one place the bell reads it.
 * While the tab's event stream is open (src/components/live/LiveEvents.tsx) the stream's request events
 * refresh it; while the stream is down it is asked every 30 s. It is asked again whenever the page regains
 * focus. `enabled` is false for a kind without a bell (support).
 */
export function useNotificationCount() {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { permissions: kind } = usePermissions<Kind>();
  const enabled = canAccess(kind, 'notifications', 'list');
  const live = useLiveConnected();
  const query = useQuery({
    queryKey: NOTIFICATION_COUNT_KEY,
    queryFn: () => dataProvider.notificationCount(),
    enabled,
    refetchInterval: live ? false : NOTIFICATION_POLL_MS,
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
