import type { PortalPage } from '../../resources/types';
import { useSupportUnread } from './hooks';
import { supportMessages } from './messages';
import { lazyScreen } from '../../components/lazyScreen';

// The badge hook stays eager (the sidebar shows it); the screen loads when opened.
const SupportPage = lazyScreen(() => import('./SupportPage'), 'SupportPage');

/** /support: tickets between end users and their carrier (issue 10); the sidebar entry shows the unread count. */
export const supportPage: PortalPage = {
  path: '/support',
  element: <SupportPage />,
  messages: supportMessages,
  menuBadge: useSupportUnread,
};
