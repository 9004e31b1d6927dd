import type { PortalPage } from '../../resources/types';
import { lazyScreen } from '../../components/lazyScreen';

const VisitorRequestPage = lazyScreen(() => import('./VisitorRequestPage'), 'VisitorRequestPage', { fullPage: 'plain' });

/** /quote/request: a visitor's request from a quote, a public page (src/publicPages.tsx). */
export const visitorRequestPage: PortalPage = { path: '/quote/request', element: <VisitorRequestPage />, noLayout: true };
