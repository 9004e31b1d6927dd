/** API base path (server.md §1). */
export const API_BASE = '/api/v1';

/**
 * The static API-password header value. The server writes it into index.html when it serves the app;
 * it is not a secret, it only keeps casual scripts off (server.md §1).
 */
export function apiPassword(): string {
  const meta = typeof document !== 'undefined' ? document.querySelector('meta[name="portal-api-password"]') : null;
  const value = meta?.getAttribute('content');
  return value && value !== '__API_PASSWORD__' ? value : 'change-me';
}
