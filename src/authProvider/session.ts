/** The session kept in the browser: the token cookie `userToken` (path /) and the role string in local storage. */
const COOKIE = 'userToken';
const ROLE_KEY = 'role';

export function readToken(): string | null {
  if (typeof document === 'undefined') return null;
  const m = document.cookie.match(/(?:^|;\s*)userToken=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : null;
}

/** With "remember me" the cookie outlives the browser session (90 days, as the server token does). */
export function writeSession(token: string, role: string, remember: boolean) {
  const maxAge = remember ? `; max-age=${90 * 86400}` : '';
  document.cookie = `${COOKIE}=${encodeURIComponent(token)}; path=/; samesite=strict${maxAge}`;
  localStorage.setItem(ROLE_KEY, role);
}

export function clearSession() {
  document.cookie = `${COOKIE}=; path=/; max-age=0`;
  localStorage.removeItem(ROLE_KEY);
}

export const readRole = () => localStorage.getItem(ROLE_KEY);

/** Clears the session and reloads on the login screen (no stale screen or cache survives). */
export function endExpiredSession() {
  clearSession();
  if (!/^#\/login(\?|$)/.test(window.location.hash)) {
    window.location.replace(`${window.location.pathname}${window.location.search}#/login`);
    window.location.reload();
  }
}
