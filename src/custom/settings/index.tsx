import type { PortalPage } from '../../resources/types';
import { accountMessages } from '../accounts/messages';
import { mfaMessages } from '../accounts/mfaMessages';
import { lazyScreen } from '../../components/lazyScreen';
import { mergeMessages } from '../../i18n/merge';
import { sessionMessages } from './sessionMessages';
import { apiKeyMessages } from './apiKeyMessages';
import { webhookMessages } from './webhookMessages';
import { consigneeMailMessages } from './consigneeMailMessages';
import { calendarFeedMessages } from './calendarFeedMessages';
import { labelSettingsMessages } from './labelSettingsMessages';

// The screen's code is loaded when it is first shown (src/components/lazyScreen.tsx).
const SettingsPage = lazyScreen(() => import('./SettingsPage'), 'SettingsPage');

const page: PortalPage = {
  path: '/settings',
  element: <SettingsPage />,
  messages: [mfaMessages, sessionMessages, apiKeyMessages, webhookMessages, consigneeMailMessages, calendarFeedMessages, labelSettingsMessages].reduce(
    mergeMessages,
    accountMessages,
  ),
};
export default page;

/** The same screen at a section's address (`#/settings/sessions`, issue 35): App.tsx routes it next to `/settings`. */
export const settingsSectionPage: PortalPage = { path: '/settings/:section', element: <SettingsPage /> };
