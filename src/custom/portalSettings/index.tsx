import type { PortalPage } from '../../resources/types';
import { lazyScreen } from '../../components/lazyScreen';
import { portalSettingsMessages } from './messages';

const PortalSettingsPage = lazyScreen(() => import('./PortalSettingsPage'), 'default');

/** /portal-settings: the admin's settings screen (menu entry under the settings group). */
export const portalSettingsPage: PortalPage = {
  path: '/portal-settings',
  element: <PortalSettingsPage />,
  messages: portalSettingsMessages,
};
