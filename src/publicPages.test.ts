import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES, isPublicRoute } from './authProvider/guard';
import { publicPages } from './publicPages';

/** The guard's public routes (which pick the public shell in main.tsx) and the public shell's pages are the same paths. */
describe('the public shell', () => {
  it('routes every public route, and only public routes', () => {
    const paths = publicPages.map((p) => p.path);
    for (const route of PUBLIC_ROUTES) expect(paths).toContain(route);
    for (const path of paths) expect(isPublicRoute(path), path).toBe(true);
  });

  it('sends the signed-in screens, and look-alike paths, to the signed-in shell', () => {
    for (const path of ['/', '/companies', '/quotes', '/login-history', '/transport-requests', '/calculate-cost'])
      expect(isPublicRoute(path), path).toBe(false);
    expect(isPublicRoute('/quote/request')).toBe(true);
  });
});
