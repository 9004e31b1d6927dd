import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config.js';
import { openDb } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { romeToday } from '../../server/lib/romeDate.js';
import { seed } from '../../server/seed/index.js';

/**
 * Every API test file and every browser test file starts portals on a fresh database, migrated (22
 * migrations) and seeded (reference data, the demo set). That took about 0.2 s a portal on SQLite and
 * 0.75 s on PostgreSQL (on a quiet machine; 137 portals per API run, 35 per browser run). The suite's
 * global setup (tests/setup/globalSetup.ts) now does it once per run, and each portal gets a copy:
 *
 * - SQLite: the template's data folder (portal.sqlite, closed and checkpointed, and the seeded files)
 *   copied to the portal's own temporary folder;
 * - PostgreSQL: the template is a database of its own, and each portal's database is made from it by
 *   `CREATE DATABASE … TEMPLATE` (the server copies its files; no statement is replayed), its schema renamed
 *   after the database. Until the fifth round of issue 37 the template was a schema, cloned into the portal's
 *   schema of the shared `test` database by a script (pg_dump's definitions, every row copied by
 *   `INSERT … SELECT`, then the indexes and constraints).
 *
 * Measured back to back (5 of each, medians, load average about 10): PostgreSQL 4.6 s to migrate and seed
 * against 1.5 s to clone the schema; SQLite 1.1 s against 0.04 s to copy. The database copy against the schema
 * clone, on a quiet 2-core machine: see docs/benchmarks.md, "Sixth round".
 *
 * The copy is the same database the migrations and seed make (same definitions, same rows); a portal
 * whose seed differs (other config, a test's own migration) still migrates and seeds its own database
 * (`usable` below), and so does every portal when the Rome date has changed since the template was made
 * (the demo requests are dated from the day of the seed).
 */
export interface PortalTemplates {
  /** the Rome date of the seed */
  day: string;
  sqlite: { dataDir: string };
  /** a database on the test server, its tables in a schema of the same name */
  postgres?: { dataDir: string; database: string };
}

/** The seed config the templates were made with: only the default demo set (no first admin). */
export function usable(
  t: PortalTemplates | undefined,
  seedConfig: { demoData: boolean; adminEmail?: string; adminPassword?: string },
  ownMigration: boolean,
  anyDay = false,
) {
  return !!t && !ownMigration && seedConfig.demoData && !seedConfig.adminEmail && !seedConfig.adminPassword && (anyDay || t.day === romeToday());
}

async function seeded(dataDir: string, databaseUrl?: string) {
  const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, { dataDir, databaseUrl, apiPassword: 'template', staticDir: undefined });
  const db = await openDb({ databaseUrl, dataDir, poolSize: 2 });
  try {
    await migrateToLatest(db.db);
    await seed(db.db, config);
  } finally {
    // SQLite: closing checkpoints the WAL into portal.sqlite and removes the -wal file.
    await db.destroy();
  }
}

/** Makes the templates (PostgreSQL too when `baseUrl` is given); `dispose` removes them. */
export async function makeTemplates(baseUrl: string | undefined): Promise<{ templates: PortalTemplates; dispose(): Promise<void> }> {
  const day = romeToday();
  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-template-'));
  await seeded(sqliteDir);
  const templates: PortalTemplates = { day, sqlite: { dataDir: sqliteDir } };
  let dropTemplate: (() => Promise<void>) | undefined;
  let pgDir: string | undefined;
  if (baseUrl) {
    const pg = (await import('pg')).default;
    const name = `tpl_${Math.floor(Date.now() / 1000)}_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      await dropStale(admin);
      await admin.query(`CREATE DATABASE ${name}`);
      dropTemplate = () => dropDatabase(baseUrl, name);
      // The template's tables in a schema named as its database; a portal's copy renames it after its own.
      const url = databaseUrlOf(baseUrl, name);
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      await c.query(`CREATE SCHEMA ${name}`);
      await c.end();
      url.searchParams.set('options', `-c search_path=${name}`);
      pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-template-pg-'));
      await seeded(pgDir, url.toString());
      templates.postgres = { dataDir: pgDir, database: name };
    } finally {
      await admin.end();
    }
  }
  return {
    templates,
    async dispose() {
      await dropTemplate?.();
      for (const dir of [sqliteDir, pgDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Client = import('pg').Client;

/** `baseUrl` naming database `name` instead. */
function databaseUrlOf(baseUrl: string, name: string) {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url;
}

/**
 * The templates and portal databases of runs that were killed before their teardown (named by their start, in
 * seconds): gone after a day. The portals of a run in progress are younger.
 */
async function dropStale(admin: Client) {
  const stale = await admin.query<{ d: string }>(`select datname as d from pg_database where datname ~ '^(tpl|pt)_[0-9]+_[0-9a-f]+$'`);
  for (const { d } of stale.rows) if (Number(d.split('_')[1]) < Date.now() / 1000 - 86_400) await admin.query(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`);
  // Template schemas of the runs before the templates were databases, likewise after a day.
  const old = await admin.query<{ s: string }>(`select nspname as s from pg_namespace where nspname ~ '^tpl_[0-9]+_[0-9a-f]+$'`);
  for (const { s } of old.rows) if (Number(s.split('_')[1]) < Date.now() / 1000 - 86_400) await admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
}

/** A copy of the template's data folder in a new temporary folder. */
export function copyDataDir(from: string, prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(from, dataDir, { recursive: true });
  return dataDir;
}

/**
 * A new database copied from the PostgreSQL template (`CREATE DATABASE … TEMPLATE`: the server copies the files, no
 * statement runs), its schema renamed to the database's name, so that every portal's schema has a name of its own
 * (a restore refuses a target that holds the backup's schema). Returns the portal's URL (database and search_path).
 */
export async function cloneDatabase(baseUrl: string, t: NonNullable<PortalTemplates['postgres']>, name: string): Promise<string> {
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${t.database}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlOf(baseUrl, name);
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    await c.query(`ALTER SCHEMA ${t.database} RENAME TO ${name}`);
  } finally {
    await c.end();
  }
  url.searchParams.set('options', `-c search_path=${name}`);
  return url.toString();
}

/** Drops a database `cloneDatabase` made (its connections, if any are left, closed by the server). */
export async function dropDatabase(baseUrl: string, name: string) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

/** A name for a portal's database (and its schema), dated for `dropStale`. */
export function portalDatabaseName() {
  return `pt_${Math.floor(Date.now() / 1000)}_${crypto.randomBytes(5).toString('hex')}`;
}
