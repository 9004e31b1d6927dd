import { useMemo } from 'react';
import { Route } from 'react-router-dom';
import { QueryClient } from '@tanstack/react-query';
import { Admin, CustomRoutes, Resource, localStorageStore } from 'react-admin';
import { authProvider } from './authProvider';
import { readRole } from './authProvider/session';
import { kindOfRoleName } from '../model/roles';
import { buildDataProvider, type ApiMap } from './dataProvider';
import { buildI18nProvider } from './i18n';
import { Layout, ShellToasts } from './layout/Layout';
import { RoutedPathsContext } from './layout/RoutedPaths';
import { MenuBadgesContext } from './layout/MenuBadges';
import { theme } from './layout/theme';
import { Dashboard } from './custom/dashboard';
import { LoginPage } from './custom/login/LoginPage';
import { NotFound } from './layout/NotFound';
import { announceFieldErrors, announceSuccess } from './components/feedback/bus';
import { componentMessages } from './components/messages';
import { supportPage } from './custom/support';
import { calculateCostPage, quotePage } from './custom/calculator';
import { portalSettingsPage } from './custom/portalSettings';
import { transportRequestPages, transportRequestsResource } from './custom/transportRequests';
import type { PortalPage, PortalResource } from './resources/types';
import { resources as portalResources } from './resources';
import forgetPassword from './custom/forgetPassword';
import resetPassword from './custom/resetPassword';
import resetPasswordOtp from './custom/resetPasswordOtp';
import accessRequest from './custom/accessRequest';
import settings from './custom/settings';
import { createUserPage } from './resources/user-management';

/** react-admin resources: every declared resource (model/registry.ts) and the custom ones (src/resources/index.ts). */
const resources: PortalResource[] = [...portalResources, transportRequestsResource];

/** Custom routes: one folder each under src/custom, one line here. */
const pages: PortalPage[] = [
  forgetPassword,
  resetPassword,
  resetPasswordOtp,
  accessRequest,
  settings,
  supportPage,
  createUserPage,
  calculateCostPage,
  quotePage,
  portalSettingsPage,
  ...transportRequestPages,
];

/** Sidebar badges declared by pages, by path. */
const menuBadges = Object.fromEntries(pages.flatMap((p) => (p.menuBadge ? [[p.path, p.menuBadge]] : [])));

const store = localStorageStore(undefined, 'Portal');
/** The documents: no retry, refetch on window focus; lookups always refetch (stale time 0). */
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true, staleTime: 0 } } });
const storedLocale = (() => {
  try {
    return JSON.parse(localStorage.getItem('Portal.locale') ?? 'null');
  } catch {
    return null;
  }
})();

export function App() {
  const { provider: i18nProvider } = useMemo(
    () => buildI18nProvider([componentMessages, ...[...resources, ...pages].flatMap((r) => (r.messages ? [r.messages] : []))], storedLocale),
    [],
  );
  const dataProvider = useMemo(
    // The provider imports no UI: a write's message becomes a success toast, a 422's field messages one toast each.
    () =>
      buildDataProvider(Object.fromEntries(resources.map((r) => [r.name, r.api])) as ApiMap, {
        onAnswer: (message) => announceSuccess({ message }),
        onFieldErrors: announceFieldErrors,
        getKind: () => kindOfRoleName(readRole()),
      }),
    [],
  );
  const routed = useMemo(() => new Set(['/', ...resources.map((r) => `/${r.name}`), ...pages.filter((p) => !p.noLayout).map((p) => p.path)]), []);

  return (
    <RoutedPathsContext.Provider value={routed}>
      <MenuBadgesContext.Provider value={menuBadges}>
        <Admin
          disableTelemetry
          title="Portale Trasporti"
          store={store}
          queryClient={queryClient}
          authProvider={authProvider}
          dataProvider={dataProvider}
          i18nProvider={i18nProvider}
          theme={theme}
          layout={Layout}
          loginPage={LoginPage}
          dashboard={Dashboard}
          catchAll={NotFound}
          notification={ShellToasts}
        >
          {resources.map(({ api: _api, messages: _messages, ...props }) => (
            <Resource key={props.name} {...props} />
          ))}
          <CustomRoutes noLayout>
            {pages
              .filter((p) => p.noLayout)
              .map((p) => (
                <Route key={p.path} path={p.path} element={p.element} />
              ))}
          </CustomRoutes>
          <CustomRoutes>
            {pages
              .filter((p) => !p.noLayout)
              .map((p) => (
                <Route key={p.path} path={p.path} element={p.element} />
              ))}
          </CustomRoutes>
        </Admin>
      </MenuBadgesContext.Provider>
    </RoutedPathsContext.Provider>
  );
}
