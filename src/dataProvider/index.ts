import { requestMethods } from './requests';
import { chatMethods } from './chat';
import { lookupMethods } from './lookups';
import { accountMethods } from './account';
import { quoteMethods } from './quote';
import { accessRequestMethods } from './accessRequests';
import { tariffMethods } from './tariffs';
import { sessionMethods } from './sessions';
import { apiKeyMethods } from './apiKeys';
import { mfaMethods } from './mfa';
import { resourceMethods, type ApiMap, type ProviderEvents } from './resources';

export { mutationError, readPage, resourceMethods, type ApiMap, type ProviderEvents, type ResourceApi } from './resources';

/** The signed-in shell's provider (App.tsx): the resources and every area's named methods. */
export function buildDataProvider(apis: ApiMap, events: ProviderEvents) {
  const { base, changeStatus, pathOf } = resourceMethods(apis, events);
  return {
    ...base,
    changeStatus,
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
    ...tariffMethods(base, pathOf, events.getKind, (answer) => {
      if (typeof answer?.message === 'string' && answer.message.trim()) events.onAnswer?.(answer.message);
    }),
  };
}

export type PortalDataProvider = ReturnType<typeof buildDataProvider>;
