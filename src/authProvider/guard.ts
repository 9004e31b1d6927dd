import { readToken } from './session';

/** Routes a signed-out visitor may open (the accounts document §2, the public quote page, public tracking). */
export const PUBLIC_ROUTES = ['/login', '/forget-password', '/reset-password', '/reset-password-otp', '/set-password', '/access-request', '/quote', '/track'];

const routeOf = (hash: string) => hash.replace(/^#/, '').split('?')[0] || '/';

/** A route a visitor may open, and the public shell shows (src/main.tsx). */
export const isPublicRoute = (route: string) => PUBLIC_ROUTES.some((p) => route === p || route.startsWith(`${p}/`));

/**
 * The guard of the accounts document: a user without a token goes to /login. It runs on every hash
 * change, before react-admin sees the route, so a signed-out visitor never enters the shell.
 */
export function installGuard() {
  const check = () => {
    if (readToken()) return;
    const route = routeOf(window.location.hash);
    if (!isPublicRoute(route)) {
      window.location.replace(`${window.location.pathname}${window.location.search}#/login`);
    }
  };
  check();
  // Same-document navigations fire popstate before hashchange; the router listens to popstate, so
  // the guard listens to both and is installed before the app (its listener runs first).
  window.addEventListener('popstate', check);
  window.addEventListener('hashchange', check);
}
