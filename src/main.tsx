import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter, useLocation } from 'react-router-dom';
// The Roboto faces: src/fonts.css, linked from index.html (inlined in the built page).
import { installGuard, isPublicRoute } from './authProvider/guard';
import { installSession } from './authProvider/startup';
import PublicApp from './PublicApp';
import { loadLocale } from './i18n';
import { storedLocale } from './shellState';

installSession();
installGuard();

/**
 * Two shells (issue 18): the visitor's pages (login, quote, access request, password reset) in the light
 * public shell, part of this entry with the login screen only — React, MUI's core and react-admin's
 * headless core, which the signed-in shell needs too, arrive in one `vendor` file with it; the other
 * public pages (and the quote page's calculator) load when opened, and
 * everything else is in the signed-in shell, loaded on demand with react-admin's screens. One router for both: signing in navigates to `/` and the
 * signed-in shell mounts; signing out goes to `/login` and the public one does.
 */

const App = lazy(() => import('./App').then((m) => ({ default: m.App })));

function Shell() {
  const { pathname } = useLocation();
  if (isPublicRoute(pathname)) return <PublicApp />;
  return (
    <Suspense fallback={<div data-testid="shell-loading" style={{ minHeight: '100vh' }} />}>
      <App />
    </Suspense>
  );
}

// Italian, the default, comes with the entry; a language chosen earlier (English, French) arrives first
// (when it cannot, the page starts in Italian).
void loadLocale(storedLocale())
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <HashRouter>
          <Shell />
        </HashRouter>
      </StrictMode>,
    ),
  );
