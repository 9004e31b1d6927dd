import { lazy } from 'react';
import type { PortalPage } from '../../resources/types';
import { portalSettingsMessages } from './messages';

const PortalSettingsPage = lazy(() => import('./PortalSettingsPage'));

/** /portal-settings: the admin's settings screen (menu entry under the settings group). */
export const portalSettingsPage: PortalPage = {
  path: '/portal-settings',
  element: <PortalSettingsPage />,
  messages: portalSettingsMessages,
};
