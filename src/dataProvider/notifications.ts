import { apiRequest } from '../api/http';
import type { Kind } from '../../model/roles';
import { NOTIFICATION_NAMESPACES, type NotificationItem } from '../../model/notifications';

type Answer<T> = { message: string; data: T };
export interface NotificationPage {
  data: NotificationItem[];
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
}
export interface ConsigneeSwitch {
  status_id: number;
  enabled: boolean;
}

/** The caller's namespace for its bell (server/routes/shared/notifications.ts); null for a kind without one. */
export const notificationNamespace = (kind: Kind): string | null => NOTIFICATION_NAMESPACES[kind as keyof typeof NOTIFICATION_NAMESPACES] ?? null;

/** The in-app bell and the carrier's consignee mail switches (issue 22 item 4, docs/notifications.md). */
export const notificationMethods = (getKind: () => Kind) => {
  const ns = () => notificationNamespace(getKind()) ?? 'enduser';
  return {
    notifications: (params: { page?: number; per_page?: number; unread?: boolean } = {}) =>
      apiRequest<NotificationPage>(`/${ns()}/notifications`, {
        query: { page: params.page ?? 1, per_page: params.per_page ?? 10, ...(params.unread ? { unread: 1 } : {}) },
      }),
    notificationCount: () => apiRequest<{ status: boolean; data: { unread: number } }>(`/${ns()}/notifications/count`).then((a) => a.data.unread),
    markNotificationsRead: (body: { ids: number[] } | { all: true }) =>
      apiRequest<Answer<{ marked: number; unread: number }>>(`/${ns()}/notifications/read`, { body }),
    consigneeMailSettings: () => apiRequest<{ data: { consignee: ConsigneeSwitch[] } }>('/company/notification_settings').then((a) => a.data.consignee),
    saveConsigneeMailSettings: (consignee: ConsigneeSwitch[]) =>
      apiRequest<Answer<{ consignee: ConsigneeSwitch[] }>>('/company/notification_settings/update', { body: { consignee } }),
  };
};
