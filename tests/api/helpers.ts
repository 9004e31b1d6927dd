import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import type { FastifyInstance, FastifyServerOptions, InjectOptions } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { openDb, type DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/seed/index.js';
import type { ResourceDecl } from '../../model/resource.js';
import { cloneDatabase, copyDataDir, dropDatabase, portalDatabaseName, usable } from '../setup/portalTemplate.js';
import { postgresHalf } from './databases.js';

export const API_PASSWORD = 'test-api-password';
export const DEMO = { admin: 'admin@portal.demo', carrier: 'carrier@portal.demo', enduser: 'enduser@portal.demo', password: 'demo1234' };

/**
 * The databases the calling test file runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set and the
 * file checks something the two databases could do differently (tests/api/databases.ts says which do not).
 */
export function testDatabases(): Array<'sqlite' | 'postgres'> {
  if (!process.env.TEST_DATABASE_URL) return ['sqlite'];
  return postgresHalf(getCurrentSuite()?.file?.filepath) ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestPortal {
  app: FastifyInstance;
  db: DbHandle;
  config: Config;
  dialect: 'sqlite' | 'postgres';
  /** Calls the API with the API password, an optional bearer token and language. */
  api(
    method: InjectOptions['method'],
    url: string,
    opts?: { token?: string; body?: unknown; lang?: string; headers?: Record<string, string>; payload?: any },
  ): Promise<{ status: number; body: any; headers: Record<string, any> }>;
  login(email: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A fresh portal on a fresh database: a temporary SQLite file, or a new PostgreSQL database (a schema of the
 * test database for a portal that migrates and seeds its own), dropped afterwards. Reference data and the
 * demo set are loaded as at a real first start.
 */
export interface PortalSetup {
  /** Declared resources beyond the registry, and the migration that makes their tables (a test's throwaway resource). */
  extraResources?: ResourceDecl[];
  migrate?: (db: DbHandle['db']) => Promise<void>;
  /** The app's logger (off by default): a test that reads log lines passes `{ level, stream }`. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Copy the run's template even when the Rome date changed since it was made: for a test that needs the
   * template's state (the seeded files still on the disk) and not the demo set's dates, so a run that crosses
   * midnight does not seed it afresh.
   */
  templateAnyDay?: boolean;
}

export async function createTestPortal(dialect: 'sqlite' | 'postgres', overrides: Partial<Config> = {}, setup: PortalSetup = {}): Promise<TestPortal> {
  const config0 = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, overrides);
  // A copy of the run's migrated and seeded template when this portal's seed is the default one (tests/setup/portalTemplate.ts).
  const templates = inject('portalTemplates');
  const copy = usable(templates, config0, !!setup.migrate, setup.templateAnyDay) ? (dialect === 'sqlite' ? templates.sqlite : templates.postgres) : undefined;
  const dataDir = copy ? copyDataDir(copy.dataDir, 'portal-test-') : fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  let databaseUrl: string | undefined;
  let dropSchema: (() => Promise<void>) | undefined;
  if (dialect === 'postgres' && copy) {
    // A database of its own, copied from the template's (tests/setup/portalTemplate.ts).
    const name = portalDatabaseName();
    databaseUrl = await cloneDatabase(process.env.TEST_DATABASE_URL!, templates.postgres!, name);
    dropSchema = () => dropDatabase(process.env.TEST_DATABASE_URL!, name);
  } else if (dialect === 'postgres') {
    // Migrated and seeded by the portal below: a schema of its own in the test database.
    const pg = (await import('pg')).default;
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    };
  }
  const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, {
    dataDir,
    databaseUrl,
    apiPassword: API_PASSWORD,
    staticDir: undefined,
    // The tests stand for a deployment behind a proxy on the same host (inject's address is 127.0.0.1),
    // so a test gives each client its own X-Forwarded-For; tests/api/trustProxy.test.ts covers the rest.
    trustProxy: ['127.0.0.1'],
    // Every JSON answer is checked against its route's declared schema (plugins/answers.ts).
    validateResponses: true,
    ...overrides,
  });
  const db = await openDb({ databaseUrl, dataDir, poolSize: 5 });
  if (!copy) {
    await migrateToLatest(db.db);
    await setup.migrate?.(db.db);
    await seed(db.db, config);
  }
  const app = await buildApp({ config, db, extraResources: setup.extraResources, logger: setup.logger });
  await app.ready();

  const api: TestPortal['api'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { 'x-api-password': API_PASSWORD, ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.lang) headers['accept-language'] = opts.lang;
    const res = await app.inject({ method, url: url.startsWith('/api') ? url : `/api/v1${url}`, headers, payload: opts.payload ?? (opts.body as any) });
    let body: any = res.body;
    try {
      body = res.json();
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };

  return {
    app,
    db,
    config,
    dialect,
    api,
    async login(email, password = DEMO.password) {
      const r = await api('POST', '/visitor/login', { body: { email, password } });
      if (r.status !== 200) throw new Error(`login ${email} failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.token as string;
    },
    async close() {
      await app.close();
      await db.destroy();
      await dropSchema?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a suite once per test database with a fresh portal for each. */
export function describeEachDb(name: string, fn: (get: () => TestPortal) => void, overrides: Partial<Config> = {}, setup: PortalSetup = {}) {
  for (const dialect of testDatabases()) {
    describe(`${name} [${dialect}]`, () => {
      let portal: TestPortal;
      beforeAll(async () => {
        portal = await createTestPortal(dialect, overrides, setup);
      });
      afterAll(async () => {
        await portal?.close();
      });
      fn(() => portal);
    });
  }
}

/**
 * Throttles count in fixed one-minute windows of the clock; a test that makes N calls and expects the
 * (N+1)th refused must not straddle a window's end. Instead of sleeping until a fresh minute (up to 20 s
 * idle per test, two such tests once left both cores idle 10 s), the test runs at once and, when its calls
 * did straddle an end (the minute it started in is not the one it ended in), runs again with a fresh
 * identity (`attempt` is 0, 1, 2: a new address or key). A failed run that stayed in one minute is the
 * test's failure; so is a third one.
 */
export async function inOneWindow(run: (attempt: number) => Promise<void>, windowMs = 60_000) {
  for (let attempt = 0; ; attempt++) {
    const started = Math.floor(Date.now() / windowMs);
    let failure: unknown = null;
    try {
      await run(attempt);
    } catch (e) {
      failure = e;
    }
    if (!failure) return;
    // a failure counts unless the run straddled a window's end and may run again
    if (Math.floor(Date.now() / windowMs) === started || attempt === 2) throw failure;
  }
}
