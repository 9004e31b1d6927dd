import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../server/app.js';
import { API_PASSWORD, describeEachDb } from './helpers.js';

/**
 * The security headers on every kind of answer: API success, refusals (401, 404, 422, 400 for a body or
 * an address that cannot be read), a 500, the app's index.html, a static asset, the OpenAPI document,
 * a media 404, an unknown path's 404, the probes and the metrics. Content-Security-Policy with frame-ancestors 'none', nosniff, frame denial; HSTS only
 * behind TLS (a trusted proxy's X-Forwarded-Proto: https; the test portal trusts 127.0.0.1).
 */
describeEachDb('security headers', (p) => {
  let app: FastifyInstance;
  let staticDir: string;
  beforeAll(async () => {
    // A stand-in for the built app (the real build is the browser tests' business): what matters is how it is served.
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-static-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><meta name="api-password" content="__API_PASSWORD__"><div id="root"></div>');
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.js'), 'console.log("app")');
    app = await buildApp({ config: { ...p().config, staticDir }, db: p().db });
    app.get('/api/v1/visitor/boom', { config: { policy: 'public' }, schema: { summary: 'Fails.', response: { 200: { type: 'object' } } } }, async () => {
      throw new Error('boom');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  const api = { 'x-api-password': API_PASSWORD };
  const ANSWERS: Array<{ name: string; status: number; req: InjectOptions }> = [
    { name: 'API 200', status: 200, req: { url: '/api/v1/visitor/ping', headers: api } },
    { name: 'API 401 (no API password)', status: 401, req: { url: '/api/v1/visitor/ping' } },
    { name: 'API 401 (signed out)', status: 401, req: { url: '/api/v1/visitor/getProfile', headers: api } },
    { name: 'API 404 (no such route)', status: 404, req: { url: '/api/v1/nothing/here', headers: api } },
    { name: 'API 422', status: 422, req: { method: 'POST', url: '/api/v1/visitor/login', headers: api, payload: { email: '' } } },
    {
      name: 'API 400 (broken JSON)',
      status: 400,
      req: { method: 'POST', url: '/api/v1/visitor/login', headers: { ...api, 'content-type': 'application/json' }, payload: '{"email": ' },
    },
    { name: 'API 400 (undecodable address)', status: 400, req: { url: '/api/v1/admin/users/show/%E0%A4%A', headers: api } },
    { name: 'API 500', status: 500, req: { url: '/api/v1/visitor/boom', headers: api } },
    { name: 'index.html', status: 200, req: { url: '/' } },
    { name: 'index.html (by its name)', status: 200, req: { url: '/index.html' } },
    { name: 'unknown path (404, not the app: issue 32)', status: 404, req: { url: '/some/page' } },
    { name: 'probe', status: 200, req: { url: '/healthz' } },
    { name: 'metrics (loopback)', status: 200, req: { url: '/metrics' } },
    { name: 'static asset', status: 200, req: { url: '/assets/app-1234.js' } },
    { name: 'OpenAPI document', status: 200, req: { url: '/api/docs' } },
    { name: 'media 404', status: 404, req: { url: '/media/0123456789abcdef0123456789abcdef.png' } },
  ];

  it('answers each kind of request with CSP (frame-ancestors none), nosniff and frame denial, and no HSTS over plain HTTP', async () => {
    for (const a of ANSWERS) {
      const r = await app.inject({ method: 'GET', ...a.req });
      expect(r.statusCode, a.name).toBe(a.status);
      const csp = String(r.headers['content-security-policy'] ?? '');
      expect(csp, a.name).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/);
      expect(csp, a.name).toMatch(/(^|;)\s*default-src 'self'\s*(;|$)/);
      expect(r.headers['x-content-type-options'], a.name).toBe('nosniff');
      expect(r.headers['x-frame-options'], a.name).toBe('DENY');
      expect(r.headers['strict-transport-security'], a.name).toBeUndefined();
    }
    // What the stand-in proves about serving: index.html carries the API password written in, no stack in the 500.
    expect((await app.inject({ url: '/' })).body).toContain(`content="${API_PASSWORD}"`);
    expect((await app.inject({ url: '/api/v1/visitor/boom', headers: api })).json()).toEqual({ message: 'Errore interno del server', errors: {} });
  });

  it('adds HSTS to each of them behind TLS', async () => {
    // Not the undecodable address: Fastify answers it before applying the trusted-proxy rules (server/app.ts, frameworkErrors).
    // Nor the metrics: a request carrying X-Forwarded-* is never a loopback scraper's (plugins/metrics.ts).
    for (const a of ANSWERS.filter((x) => !x.name.includes('undecodable') && !x.name.includes('metrics'))) {
      const r = await app.inject({ method: 'GET', ...a.req, headers: { ...(a.req.headers as object), 'x-forwarded-proto': 'https' } });
      expect(r.statusCode, a.name).toBe(a.status);
      expect(r.headers['strict-transport-security'], a.name).toBe('max-age=31536000; includeSubDomains');
      expect(r.headers['x-frame-options'], a.name).toBe('DENY');
    }
  });
});
