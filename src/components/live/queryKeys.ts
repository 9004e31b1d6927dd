/**
 * The react-query keys the tab's event stream refreshes and the screens read, in one module both import
 * (the live provider and the bell's hook would otherwise import each other).
 */
export const NOTIFICATION_COUNT_KEY = ['notifications', 'count'] as const;
export const NOTIFICATION_LIST_KEY = ['notifications', 'latest'] as const;
