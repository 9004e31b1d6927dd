import { lazyScreen } from '../../components/lazyScreen';
import type { PortalResource } from '../types';
import { requestAccessMessages } from './messages';

// The screen loads when first opened (src/components/lazyScreen.tsx).
const RequestAccessList = lazyScreen(() => import('./RequestAccessList'), 'RequestAccessList');

/**
 * Access-request review. Both kinds call the company paths (calculator document §6: "the admin
 * access-request calls use company-namespace paths"); the server scopes the rows to the caller.
 */
const resource: PortalResource = {
  name: 'request-access',
  list: RequestAccessList,
  api: { paths: { admin: '/company/request_access', carrier: '/company/request_access' } },
  messages: requestAccessMessages,
};
export default resource;
