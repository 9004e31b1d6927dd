import type { PortalPage } from '../../resources/types';
import { lazyScreen } from '../../components/lazyScreen';
import { trackingLinkMessages } from './linkMessages';

// The screen's code is loaded when it is first shown (src/components/lazyScreen.tsx): the login's first load does not carry it.
const TrackingPage = lazyScreen(() => import('./TrackingPage'), 'TrackingPage', { fullPage: 'public' });

/** /track: public tracking of a request (docs/tracking.md), a visitor's page (src/publicPages.tsx). */
const page: PortalPage = { path: '/track', element: <TrackingPage />, noLayout: true, messages: trackingLinkMessages };
export default page;
