import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { ConfigError, loadConfig, parseTrustProxy } from '../../server/config.js';
import { API_PASSWORD, DEMO, describeEachDb } from './helpers.js';

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told; true, a hop count, or addresses and CIDR ranges', () => {
    expect(loadConfig({} as NodeJS.ProcessEnv).trustProxy).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, ::1 ,loopback,192.168.0.0/255.255.0.0' } as NodeJS.ProcessEnv).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'loopback',
      '192.168.0.0/255.255.0.0',
    ]);
  });

  it('refuses to start on an entry that is no address, range or hop count', () => {
    for (const bad of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/1', '300.1.1.1', 'yes', '-1']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(ConfigError);
    }
  });
});

describeEachDb('client address and protocol behind a proxy', (p) => {
  // The test portal trusts 127.0.0.1 (TRUST_PROXY=127.0.0.1, inject's own address); a second app on the
  // same database runs with TRUST_PROXY unset.
  let untrusting: FastifyInstance;
  beforeAll(async () => {
    untrusting = await buildApp({ config: { ...p().config, trustProxy: false }, db: p().db });
    await untrusting.ready();
  });
  afterAll(async () => {
    await untrusting?.close();
  });

  const call = (app: FastifyInstance, opts: { url?: string; headers?: Record<string, string>; remoteAddress?: string; body?: unknown }) =>
    app.inject({
      method: opts.body ? 'POST' : 'GET',
      url: opts.url ?? '/api/v1/visitor/ping',
      headers: { 'x-api-password': API_PASSWORD, ...opts.headers },
      remoteAddress: opts.remoteAddress,
      payload: opts.body as object,
    });
  const login = (app: FastifyInstance, email: string, password: string, headers: Record<string, string>, remoteAddress?: string) =>
    call(app, { url: '/api/v1/visitor/login', body: { email, password }, headers, remoteAddress });

  it('without TRUST_PROXY: X-Forwarded-Proto https does not turn HSTS on', async () => {
    const r = await call(untrusting, { headers: { 'x-forwarded-proto': 'https' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['strict-transport-security']).toBeUndefined();
  });

  /** `n` wrong passwords for `n` different e-mails (the address's budget, not an account's), 10 at a time. */
  async function failures(n: number, tag: string, send: (email: string, i: number) => ReturnType<typeof login>) {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 10) {
      const wave = await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, j) => send(`${tag}${i + j}@proxy.test`, i + j)));
      statuses.push(...wave.map((r) => r.statusCode));
    }
    return statuses;
  }

  it('without TRUST_PROXY: a spoofed X-Forwarded-For gets no fresh login budget', async () => {
    const client = '192.0.2.10';
    // 100 wrong passwords for 100 different emails (an address's budget), each claiming another address.
    const statuses = await failures(100, 'nobody', (email, i) => login(untrusting, email, 'wrong-pass1', { 'x-forwarded-for': `203.0.113.${i}` }, client));
    expect(statuses.every((s) => s === 401)).toBe(true);
    // Another "address" is still the same client: refused, even with the right password.
    const r = await login(untrusting, DEMO.admin, DEMO.password, { 'x-forwarded-for': '198.51.100.99' }, client);
    expect(r.statusCode).toBe(429);
    // Another client is not affected.
    expect((await login(untrusting, DEMO.admin, DEMO.password, {}, '192.0.2.11')).statusCode).toBe(200);
  });

  it('with TRUST_PROXY=127.0.0.1: X-Forwarded-Proto https from the proxy turns HSTS on, plain http does not', async () => {
    const https = await call(p().app, { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const http = await call(p().app, { headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers['strict-transport-security']).toBeUndefined();
    // The same header from a client that is not the trusted proxy is ignored.
    const direct = await call(p().app, { headers: { 'x-forwarded-proto': 'https' }, remoteAddress: '192.0.2.20' });
    expect(direct.headers['strict-transport-security']).toBeUndefined();
  });

  it('with TRUST_PROXY=127.0.0.1: the login throttle keys on the forwarded address', async () => {
    const statuses = await failures(100, 'someone', (email) => login(p().app, email, 'wrong-pass1', { 'x-forwarded-for': '203.0.113.77' }));
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect((await login(p().app, DEMO.admin, DEMO.password, { 'x-forwarded-for': '203.0.113.77' })).statusCode).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect((await login(p().app, DEMO.admin, DEMO.password, { 'x-forwarded-for': '203.0.113.78' })).statusCode).toBe(200);
    // A client that is not the proxy cannot pick an address: its X-Forwarded-For is ignored.
    await failures(100, 'direct', (email, i) => login(p().app, email, 'wrong-pass1', { 'x-forwarded-for': `203.0.113.${100 + (i % 100)}` }, '192.0.2.30'));
    expect((await login(p().app, DEMO.admin, DEMO.password, { 'x-forwarded-for': '203.0.113.200' }, '192.0.2.30')).statusCode).toBe(429);
  });
});
