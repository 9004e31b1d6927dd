import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { lazyScreen } from '../../components/lazyScreen';

// The screen's code is loaded when it is first shown (src/components/lazyScreen.tsx).
const AccessRequestPage = lazyScreen(() => import('./AccessRequestPage'), 'AccessRequestPage', { fullPage: 'public' });

const page: PortalPage = { path: '/access-request', element: <AccessRequestPage />, noLayout: true, messages: accountMessages };
export default page;
