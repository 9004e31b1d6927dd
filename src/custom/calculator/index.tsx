import { lazy, Suspense } from 'react';
import { CircularProgress } from '@mui/material';
import type { PortalPage } from '../../resources/types';
import { calculatorMessages } from './messages';

export type { QuoteHandOver } from './types';

// Loaded on demand: neither page is needed for the login screen's first load.
const CalculateCostPage = lazy(() => import('./CalculateCostPage'));
const QuotePage = lazy(() => import('./QuotePage'));

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
  element: <Suspense fallback={<CircularProgress sx={{ m: 4 }} />}><QuotePage /></Suspense>,
};
