import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { openDb } from '../../server/db/index.js';
import { loadMigrations } from '../../server/migrations/index.js';
import { API_PASSWORD, describeEachDb } from './helpers.js';

/**
 * Issue 32, item 1: `/healthz` and `/readyz` (server/plugins/probes.ts) outside /api/v1, without the API
 * password, JSON; `/readyz` 503 with its reason when a migration is missing or the database is gone; and
 * the end of the single-page fallback: unknown paths answer 404, the app is served at `/` and `/index.html`
 * only (its screens are in the hash, which the server never sees).
 */
describeEachDb('probes and the app at / only', (p) => {
  let app: FastifyInstance;
  let staticDir: string;
  beforeAll(async () => {
    // A stand-in for the built app (as tests/api/delivery.test.ts): what matters is which paths answer it.
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-probes-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><meta name="portal-api-password" content="__API_PASSWORD__"><div id="root"></div>');
    fs.writeFileSync(path.join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    app = await buildApp({ config: { ...p().config, staticDir }, db: p().db });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('/healthz answers {status: ok} and its pid without the API password, uncached, JSON', async () => {
    const r = await app.inject({ url: '/healthz' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json()).toEqual({ status: 'ok', pid: process.pid });
    expect(r.headers['x-frame-options']).toBe('DENY'); // the security headers as on every answer
    expect((await app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  });

  it('/readyz answers 200 when every migration is applied and the database answers', async () => {
    const r = await app.inject({ url: '/readyz' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 503 "migrations pending" while the newest migration is not recorded', async () => {
    const names = Object.keys(await loadMigrations());
    const newest = names[names.length - 1];
    const row = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${newest}`.execute(p().db.db);
    expect(row.rows).toHaveLength(1);
    await sql`delete from kysely_migration where name = ${newest}`.execute(p().db.db);
    try {
      const r = await app.inject({ url: '/readyz' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: 'unavailable', reason: 'migrations pending' });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${newest}, ${row.rows[0].timestamp})`.execute(p().db.db);
    }
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('/readyz answers 503 "database unavailable" once its database is closed; /healthz still 200', async () => {
    // An app of its own on a connection of its own to the same database, then that connection closed.
    const handle = await openDb({ databaseUrl: p().config.databaseUrl, dataDir: p().config.dataDir, poolSize: 1 });
    const lone = await buildApp({ config: p().config, db: handle });
    await lone.ready();
    try {
      expect((await lone.inject({ url: '/readyz' })).statusCode).toBe(200);
      await handle.destroy();
      const r = await lone.inject({ url: '/readyz' });
      expect(r.statusCode).toBe(503);
      // a category, never the driver's message (the probes are public)
      expect(r.json()).toEqual({ status: 'unavailable', reason: 'database unavailable' });
      expect((await lone.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await lone.close();
    }
  });

  it('/readyz answers 503 within about a second when the database does not answer', async () => {
    // A database that never answers: every query waits forever (a hung server, a full pool).
    const handle = await openDb({ databaseUrl: p().config.databaseUrl, dataDir: p().config.dataDir, poolSize: 1 });
    const lone = await buildApp({ config: p().config, db: handle });
    await lone.ready();
    const never = new Promise<never>(() => {});
    const executor = handle.db.getExecutor();
    const original = executor.executeQuery.bind(executor);
    (executor as { executeQuery: unknown }).executeQuery = () => never;
    try {
      const started = Date.now();
      const r = await lone.inject({ url: '/readyz' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: 'unavailable', reason: 'database did not answer within 1000 ms' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      (executor as { executeQuery: unknown }).executeQuery = original;
      await lone.close();
      await handle.destroy();
    }
  });

  it('serves the app at /, /index.html and / with a query; hash routes are the browser’s (the server sees /)', async () => {
    for (const url of ['/', '/index.html', '/?utm_source=mail']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type'], url).toMatch(/^text\/html/);
      expect(r.body, url).toContain(`content="${API_PASSWORD}"`);
    }
    // `/#/transport-requests-visuals/7/1` as a browser asks it: the fragment never leaves the browser
    const deep = new URL('http://portal.test/#/transport-requests-visuals/7/1');
    expect(deep.pathname).toBe('/');
    expect((await app.inject({ url: deep.pathname + deep.search })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
    // the app's own files
    expect((await app.inject({ url: '/assets/app-abc123.js' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/favicon.svg' })).statusCode).toBe(200);
  });

  it('answers 404 for every other path: not the app, not a probe, not a missing asset', async () => {
    for (const url of ['/some/page', '/quote', '/login', '/favicon.ico', '/assets/missing-000.js', '/health', '/healthz/x', '/wp-login.php', '/index.htm']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(404);
      expect(r.body, url).not.toContain('<div id="root">');
      expect(r.headers['x-content-type-options'], url).toBe('nosniff');
    }
    const post = await app.inject({ method: 'POST', url: '/', payload: {} });
    expect(post.statusCode).toBe(404);
    // API and media keep their JSON 404
    const api = await app.inject({ url: '/api/v1/nothing/here', headers: { 'x-api-password': API_PASSWORD } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ errors: {} });
  });
});
