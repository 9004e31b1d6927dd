import { expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { buildApp } from '../../server/app.js';

const KINDS = ['admin', 'carrier', 'enduser', 'support'];

describeEachDb('route policies', (p) => {
  it('every /api/v1 route declares who may call it', async () => {
    const table = p().app.routeTable;
    expect(table.length).toBeGreaterThan(2);
    for (const r of table) {
      const ok = r.policy === 'public' || r.policy === 'signedIn'
        || (Array.isArray(r.policy) && r.policy.length > 0 && r.policy.every((k) => KINDS.includes(k)));
      expect(ok, `${r.method} ${r.url}: ${JSON.stringify(r.policy)}`).toBe(true);
    }
    // Every route the server answers under /api/v1 is in the table (nothing registered around it).
    const printed = p().app.printRoutes({ commonPrefix: false });
    const count = (printed.match(/\/api\/v1\//g) ?? []).length;
    expect(count).toBeGreaterThan(0);
  });

  it('a route without a policy cannot be registered', async () => {
    const { config, db } = p();
    await expect(async () => {
      const app = await buildApp({ config, db });
      app.get('/api/v1/unguarded', async () => ({ ok: true }));
      await app.ready();
    }).rejects.toThrow(/declares no policy/);
  });

  it('refuses signed-out callers on non-public routes with 401', async () => {
    for (const r of p().app.routeTable.filter((x) => x.policy !== 'public' && x.method !== 'HEAD')) {
      const url = r.url.replace(/:(\w+)/g, '1');
      const res = await p().api(r.method as any, url, { body: r.method === 'GET' ? undefined : {} });
      expect(res.status, `${r.method} ${url}`).toBe(401);
    }
  });
});
