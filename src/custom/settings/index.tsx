import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { SettingsPage } from './SettingsPage';

const page: PortalPage = { path: '/settings', element: <SettingsPage />, messages: accountMessages };
export default page;
