import { expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { buildApp } from '../../server/app.js';

const KINDS = ['admin', 'carrier', 'enduser', 'support'];

describeEachDb('route policies', (p) => {
  it('every /api/v1 route declares who may call it', async () => {
    const table = p().app.routeTable;
    expect(table.length).toBeGreaterThan(2);
    for (const r of table) {
      const ok =
        r.policy === 'public' || r.policy === 'signedIn' || (Array.isArray(r.policy) && r.policy.length > 0 && r.policy.every((k) => KINDS.includes(k)));
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

  it('a route without a summary or a 2xx answer schema cannot be registered', async () => {
    const { config, db } = p();
    await expect(async () => {
      const app = await buildApp({ config, db });
      app.get('/api/v1/undocumented', { config: { policy: 'public' }, schema: { response: { 200: { type: 'object' } } } }, async () => ({ ok: true }));
      await app.ready();
    }).rejects.toThrow(/declares no summary/);
    await expect(async () => {
      const app = await buildApp({ config, db });
      app.get('/api/v1/unanswered', { config: { policy: 'public' }, schema: { summary: 'Answers nothing declared.' } }, async () => ({ ok: true }));
      await app.ready();
    }).rejects.toThrow(/declares no 2xx answer/);
  });

  it('in tests, an answer outside its declared schema is a 500 (the documentation stays true)', async () => {
    const { config, db } = p();
    const app = await buildApp({ config: { ...config, validateResponses: true }, db });
    const schema = { summary: 'Answers a number.', response: { 200: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } };
    app.get('/api/v1/declared', { config: { policy: 'public' }, schema }, async () => ({ n: 1, extra: 'kept' }));
    app.get('/api/v1/drifted', { config: { policy: 'public' }, schema }, async () => ({ n: 'one' }));
    await app.ready();
    const headers = { 'x-api-password': config.apiPassword };
    const good = await app.inject({ method: 'GET', url: '/api/v1/declared', headers });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('{"n":1,"extra":"kept"}'); // the schema never shapes the answer
    const bad = await app.inject({ method: 'GET', url: '/api/v1/drifted', headers });
    expect(bad.statusCode).toBe(500);
    expect(bad.json()).toEqual({ message: 'Errore interno del server', errors: {} });
    await app.close();
  });

  it('refuses signed-out callers on non-public routes with 401', async () => {
    for (const r of p().app.routeTable.filter((x) => x.policy !== 'public' && x.method !== 'HEAD')) {
      const url = r.url.replace(/:(\w+)/g, '1');
      const res = await p().api(r.method as any, url, { body: r.method === 'GET' ? undefined : {} });
      expect(res.status, `${r.method} ${url}`).toBe(401);
    }
  });
});

describeEachDb('server errors', (p) => {
  it('answers 500 with a translated message and no stack trace or SQL', async () => {
    const { config, db } = p();
    const app = await buildApp({ config, db });
    app.get('/api/v1/boom', { config: { policy: 'public' }, schema: { summary: 'Fails.', response: { 200: { type: 'object' } } } }, async () => {
      throw new Error('SELECT * FROM users WHERE secret = 1');
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/v1/boom', headers: { 'x-api-password': config.apiPassword } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Errore interno del server', errors: {} });
    expect(res.body).not.toMatch(/SELECT|stack|at /);
    await app.close();
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const res = await p().app.inject({
      method: 'POST',
      url: '/api/v1/visitor/login',
      headers: { 'x-api-password': p().config.apiPassword, 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
  });
});
