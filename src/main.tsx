import { StrictMode, Suspense, lazy, startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter, useLocation } from 'react-router-dom';
// The Roboto faces: src/fonts.css, linked from index.html (inlined in the built page).
import { installGuard, isPublicRoute } from './authProvider/guard';
import { installSession } from './authProvider/startup';
import PublicApp from './PublicApp';
import { PRERENDERED } from './publicPages';
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

/**
 * The prerendered snapshot of a public page (issue 37, build/prerender.ts): index.html's inline script has
 * put `data-prerender="/route"` on <html> when it shows one. React's first commit into #root replaces it
 * (createRoot clears the container in that commit); then the attribute goes too. Its stylesheet stays:
 * emotion adopted its rules (they are the page's own).
 */
const snapshot = document.documentElement.getAttribute('data-prerender');

function SnapshotGone() {
  useLayoutEffect(() => {
    document.documentElement.removeAttribute('data-prerender');
  }, []);
  return null;
}

// Italian, the default, comes with the entry; a language chosen earlier (English, French) arrives first
// (when it cannot, the page starts in Italian). Under a snapshot, the page's own module arrives first too
// (tracking, access request), so React's first commit is the page, with the snapshot's pixels, not a progress.
void Promise.all([loadLocale(storedLocale()), snapshot ? PRERENDERED[snapshot]?.() : undefined])
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(document.getElementById('root')!);
    // In a transition: React renders the tree in slices of a few milliseconds, yielding to the browser
    // between them, instead of one long task (issue 37: Lighthouse's total blocking time counts every task
    // over 50 ms at 4× CPU after the first paint, which the snapshot brings before React starts).
    startTransition(() =>
      root.render(
        <StrictMode>
          <HashRouter>
            <Shell />
          </HashRouter>
          {snapshot && <SnapshotGone />}
        </StrictMode>,
      ),
    );
  });
