import type { GetListParams } from 'react-admin';
import { requestMethods } from './requests';
import { chatMethods } from './chat';
import { lookupMethods } from './lookups';
import { accountMethods } from './account';
import { quoteMethods } from './quote';
import { accessRequestMethods } from './accessRequests';
import { downloadFile, tariffMethods } from './tariffs';
import { sessionMethods } from './sessions';
import { apiKeyMethods } from './apiKeys';
import { mfaMethods } from './mfa';
import { webhookMethods } from './webhooks';
import { liveMethods } from './live';
import { trackingMethods } from './tracking';
import { notificationMethods } from './notifications';
import { addressBookMethods } from './addressBook';
import { calendarFeedMethods } from './calendarFeed';
import { labelMethods } from './labels';
import { resourceMethods, type ApiMap, type ProviderEvents } from './resources';
import { declaredMethods } from './declared';

export { mutationError, readPage, resourceMethods, type ApiMap, type ProviderEvents, type ResourceApi } from './resources';

/** The signed-in shell's provider (App.tsx): the resources and every area's named methods. */
export function buildDataProvider(apis: ApiMap, events: ProviderEvents) {
  const { base, changeStatus, pathOf, listQuery } = resourceMethods(apis, events);
  return {
    ...base,
    changeStatus,
    /**
     * Downloads a list as a file made by the server (`<list path>/export`, docs/list-exports.md): every row
     * the list's filters and sort select, as .xlsx or .csv, saved under the server's dated name.
     */
    exportList: (
      resource: string,
      params: { filter?: Record<string, unknown>; sort?: { field?: string; order?: string }; format: 'xlsx' | 'csv'; ids?: ReadonlyArray<string | number> },
    ) => {
      const { path, api } = pathOf(resource);
      const { page: _page, per_page: _perPage, ...query } = listQuery({ filter: params.filter, sort: params.sort as GetListParams['sort'] }, api);
      // "Esporta selezionati" (issue 34): only the selected rows, `?ids=1,2,3` (the list's filters still travel).
      const ids = params.ids?.length ? { ids: params.ids.join(',') } : {};
      return downloadFile(`${path}/export`, { ...query, ...ids, format: params.format }, `${resource}.${params.format}`);
    },
    // The generated resources' bulk delete and import (issue 34).
    ...declaredMethods(pathOf, (message) => events.onAnswer?.(message)),
    // The portal's other calls, by area (each file says which screens call them).
    ...requestMethods(),
    ...accessRequestMethods(),
    ...chatMethods(),
    ...lookupMethods(),
    ...accountMethods(),
    ...mfaMethods(),
    ...quoteMethods(),
    ...sessionMethods(),
    ...apiKeyMethods(events.getKind),
    ...trackingMethods(),
    ...webhookMethods(events.getKind),
    ...liveMethods(),
    ...notificationMethods(events.getKind),
    ...addressBookMethods(events.getKind),
    ...calendarFeedMethods(events.getKind),
    ...labelMethods(),
    ...tariffMethods(base, pathOf, events.getKind, (answer) => {
      if (typeof answer?.message === 'string' && answer.message.trim()) events.onAnswer?.(answer.message);
    }),
  };
}

export type PortalDataProvider = ReturnType<typeof buildDataProvider>;
