import { useMemo } from 'react';
import { Navigate, Route } from 'react-router-dom';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { queryClient, store, storedLocale } from './shellState';
import { authProvider } from './authProvider';
import { readRole } from './authProvider/session';
import { kindOfRoleName } from '../model/roles';
import { buildDataProvider, type ApiMap } from './dataProvider';
import { buildI18nProvider } from './i18n';
import { notificationMessages } from './layout/notificationMessages';
import { Layout, ShellToasts } from './layout/Layout';
import { RoutedPathsContext } from './layout/RoutedPaths';
import { MenuBadgesContext } from './layout/MenuBadges';
import { theme } from './layout/theme';
import { Dashboard } from './custom/dashboard';
import { NotFound } from './layout/NotFound';
import { announceFieldErrors, announceSuccess } from './components/feedback/bus';
import { componentMessages } from './components/messages';
import { declaredMessages } from './components/declared/messages';
import { supportPage } from './custom/support';
import { calculateCostPage } from './custom/calculator';
import { portalSettingsPage } from './custom/portalSettings';
import { transportRequestPages, transportRequestsResource } from './custom/transportRequests';
import type { PortalPage, PortalResource } from './resources/types';
import { resources as portalResources } from './resources';
import settings, { settingsSectionPage } from './custom/settings';
import { createUserPage } from './resources/user-management';

/** react-admin resources: every declared resource (model/registry.ts) and the custom ones (src/resources/index.ts). */
const resources: PortalResource[] = [...portalResources, transportRequestsResource];

/** Custom routes: one folder each under src/custom, one line here (the visitor's pages: src/publicPages.tsx). */
const pages: PortalPage[] = [settings, settingsSectionPage, supportPage, createUserPage, calculateCostPage, portalSettingsPage, ...transportRequestPages];

/** Sidebar badges declared by pages, by path. */
const menuBadges = Object.fromEntries(pages.flatMap((p) => (p.menuBadge ? [[p.path, p.menuBadge]] : [])));

export function App() {
  const { provider: i18nProvider } = useMemo(
    () =>
      buildI18nProvider(
        [componentMessages, declaredMessages, notificationMessages, ...[...resources, ...pages].flatMap((r) => (r.messages ? [r.messages] : []))],
        storedLocale(),
      ),
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
  const routed = useMemo(() => new Set(['/', ...resources.map((r) => `/${r.name}`), ...pages.map((p) => p.path)]), []);

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
          // Sign-in and the other visitor's pages live in the public shell (PublicApp.tsx, src/main.tsx).
          loginPage={false}
          dashboard={Dashboard}
          catchAll={NotFound}
          notification={ShellToasts}
        >
          {resources.map(({ api: _api, messages: _messages, ...props }) => (
            <Resource key={props.name} {...props} />
          ))}
          <CustomRoutes>
            {pages.map((p) => (
              <Route key={p.path} path={p.path} element={p.element} />
            ))}
            {/* The documents (and old links) name the dashboard /dashboard; react-admin's is the root: one screen, one address. */}
            <Route path="/dashboard" element={<Navigate to="/" replace />} />
          </CustomRoutes>
        </Admin>
      </MenuBadgesContext.Provider>
    </RoutedPathsContext.Provider>
  );
}
