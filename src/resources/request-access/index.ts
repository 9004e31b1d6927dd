import { lazyScreen } from '../../components/lazyScreen';
import type { ResourceScreens } from '../types';
import { requestAccessMessages } from './messages';

// The screen loads when first opened (src/components/lazyScreen.tsx).
const RequestAccessList = lazyScreen(() => import('./RequestAccessList'), 'RequestAccessList');

/** Access-request review (declared in model/resources/access-requests.ts); the server scopes the rows to the caller. */
const resource: ResourceScreens = {
  list: RequestAccessList,
  messages: requestAccessMessages,
};
export default resource;
