import type { ReactNode } from 'react';
import { usePermissions } from 'react-admin';
import { canAccess } from '../../../model/permissions';
import { TARIFF_TABLES } from '../../../model/tariffs';
import type { PortalPage } from '../../resources/types';
import { NotFound } from '../notFound/NotFound';
import { tariffMessages } from './messages';
import { lazyScreen } from '../../components/lazyScreen';

// The screens load when first opened; the declarations (paths, permissions) stay eager.
const TariffTablePage = lazyScreen(() => import('./TariffTablePage'), 'TariffTablePage');
const RateSheetsPage = lazyScreen(() => import('./RateSheetsPage'), 'RateSheetsPage');
const RateSheetRowsPage = lazyScreen(() => import('./RateSheetRowsPage'), 'RateSheetRowsPage');
const EnduserRateSheetsPage = lazyScreen(() => import('./EnduserRateSheetsPage'), 'EnduserRateSheetsPage');

/** A page only for the kinds the permission table allows (the server refuses the others anyway). */
function Allowed({ screen, children }: { screen: string; children: ReactNode }) {
  const { permissions, isPending } = usePermissions();
  if (isPending) return null;
  return canAccess(permissions, screen, 'list') ? children : <NotFound />;
}

/** The tariff screens: the six tables from their declarations, the rate sheets and the end user's sheets. */
export const tariffPages: PortalPage[] = [
  ...TARIFF_TABLES.map((spec, i): PortalPage => ({
    path: `/${spec.route}`,
    element: <Allowed screen={spec.route}><TariffTablePage key={spec.key} spec={spec} /></Allowed>,
    messages: i === 0 ? tariffMessages : undefined,
  })),
  { path: '/rate-sheets', element: <Allowed screen="rate-sheets"><RateSheetsPage /></Allowed> },
  { path: '/rate-sheets/:id/:companyId', element: <Allowed screen="rate-sheets"><RateSheetRowsPage /></Allowed> },
  { path: '/enduser-rate-sheets', element: <Allowed screen="enduser-rate-sheets"><EnduserRateSheetsPage /></Allowed> },
];
