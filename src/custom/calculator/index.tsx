import type { PortalPage } from '../../resources/types';
import { lazyScreen } from '../../components/lazyScreen';
import { calculatorMessages } from './messages';

export type { QuoteHandOver } from './types';

// Loaded on demand: neither page is needed for the login screen's first load.
const CalculateCostPage = lazyScreen(() => import('./CalculateCostPage'), 'default');
const QuotePage = lazyScreen(() => import('./QuotePage'), 'default', { fullPage: 'plain' });

/** /calculate-cost inside the shell (admins, carriers, end users). */
export const calculateCostPage: PortalPage = {
  path: '/calculate-cost',
  element: <CalculateCostPage />,
  messages: calculatorMessages,
};

/** /quote: the public calculator for visitors. */
export const quotePage: PortalPage = {
  path: '/quote',
  noLayout: true,
  element: <QuotePage />,
};
