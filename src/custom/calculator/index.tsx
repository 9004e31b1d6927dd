import type { PortalPage } from '../../resources/types';
import { lazyScreen } from '../../components/lazyScreen';
import { calculatorMessages } from './messages';

export type { QuoteHandOver } from './types';

// Loaded on demand inside the signed-in shell. The public /quote page is part of the public shell (src/publicPages.tsx).
const CalculateCostPage = lazyScreen(() => import('./CalculateCostPage'), 'default');

/** /calculate-cost inside the shell (admins, carriers, end users). */
export const calculateCostPage: PortalPage = {
  path: '/calculate-cost',
  element: <CalculateCostPage />,
  messages: calculatorMessages,
};
