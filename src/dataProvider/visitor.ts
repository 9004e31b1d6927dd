import { requestMethods } from './requests';
import { lookupMethods } from './lookups';
import { accountMethods } from './account';
import { quoteMethods } from './quote';
import { accessRequestMethods } from './accessRequests';
import { mfaMethods } from './mfa';
import { trackingMethods } from './tracking';
import { resourceMethods, type ProviderEvents } from './resources';

/**
 * The visitor's shell's provider (PublicApp.tsx, issue 18): no resources, and the named methods of the
 * areas its pages call — sign-in's second step, password reset, access request, the quote and the
 * visitor's request from it (requests, lookups), public tracking. Tariffs, chat, sessions and API keys stay out of the
 * login's first load; a public page calling one of them fails at once (tests/browser cover each page).
 */
export function buildVisitorDataProvider(events: ProviderEvents) {
  const { base } = resourceMethods({}, events);
  return {
    ...base,
    ...requestMethods(),
    ...accessRequestMethods(),
    ...lookupMethods(),
    ...accountMethods(),
    ...mfaMethods(),
    ...quoteMethods(),
    ...trackingMethods(),
  };
}
