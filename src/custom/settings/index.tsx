import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { lazyScreen } from '../../components/lazyScreen';

// The screen's code is loaded when it is first shown (src/components/lazyScreen.tsx).
const SettingsPage = lazyScreen(() => import('./SettingsPage'), 'SettingsPage');

const page: PortalPage = { path: '/settings', element: <SettingsPage />, messages: accountMessages };
export default page;
