import { execFileSync } from 'node:child_process';
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
 * - PostgreSQL: the template schema cloned into the portal's own schema by one script built once: the
 *   schema's definitions as pg_dump writes them (pre-data: tables, sequences, functions), every row
 *   copied inside the server (`INSERT … SELECT`), the sequences set to where the template left them,
 *   then the indexes, constraints and triggers (post-data), as a pg_dump restore does.
 *
 * Measured back to back (5 of each, medians, load average about 10): PostgreSQL 4.6 s to migrate and seed
 * against 1.5 s to clone; SQLite 1.1 s against 0.04 s to copy.
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
  postgres?: { dataDir: string; script: string; placeholder: string };
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

const PLACEHOLDER = '__portal_template_schema__';

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

/** Makes the templates (PostgreSQL too when `baseUrl` is given and pg_dump is installed); `dispose` removes them. */
export async function makeTemplates(baseUrl: string | undefined): Promise<{ templates: PortalTemplates; dispose(): Promise<void> }> {
  const day = romeToday();
  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-template-'));
  await seeded(sqliteDir);
  const templates: PortalTemplates = { day, sqlite: { dataDir: sqliteDir } };
  let dropSchema: (() => Promise<void>) | undefined;
  let pgDir: string | undefined;
  if (baseUrl && hasPgDump()) {
    const pg = (await import('pg')).default;
    const schema = `tpl_${Math.floor(Date.now() / 1000)}_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      // Templates of runs that were killed before their teardown (named by their start, in seconds): gone after a day.
      const stale = await admin.query<{ s: string }>(`select nspname as s from pg_namespace where nspname ~ '^tpl_[0-9]+_[0-9a-f]+$'`);
      for (const { s } of stale.rows) if (Number(s.split('_')[1]) < Date.now() / 1000 - 86_400) await admin.query(`DROP SCHEMA ${s} CASCADE`);
      await admin.query(`CREATE SCHEMA ${schema}`);
      dropSchema = async () => {
        const c = new pg.Client({ connectionString: baseUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      };
      pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-template-pg-'));
      const url = new URL(baseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      await seeded(pgDir, url.toString());
      templates.postgres = { dataDir: pgDir, script: await cloneScript(admin, baseUrl, schema), placeholder: PLACEHOLDER };
    } finally {
      await admin.end();
    }
  }
  return {
    templates,
    async dispose() {
      await dropSchema?.();
      for (const dir of [sqliteDir, pgDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function hasPgDump() {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

type Client = import('pg').Client;

/** The SQL that makes a copy of `schema` under the name PLACEHOLDER (replaced by the portal's schema). */
async function cloneScript(admin: Client, baseUrl: string, schema: string): Promise<string> {
  const dump = (section: string) =>
    execFileSync('pg_dump', ['--schema-only', `--section=${section}`, '--no-owner', '--no-privileges', '-n', schema, baseUrl], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\n')
      // psql meta-commands (\restrict … of recent pg_dump releases) are not SQL.
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
  const rename = (sqlText: string) => sqlText.replace(new RegExp(`\\b${schema}\\b`, 'g'), PLACEHOLDER);
  const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;

  const tables = await admin.query<{ table: string; columns: string[] }>(
    `select c.relname as table, array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = $1 and c.relkind = 'r'
      group by c.oid, c.relname`,
    [schema],
  );
  const copies = tables.rows.map(({ table, columns }) => {
    const cols = columns.map(q).join(', ');
    return `INSERT INTO ${PLACEHOLDER}.${q(table)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM ${schema}.${q(table)};`;
  });
  const sequences = await admin.query<{ name: string; last: string | null }>(
    `select sequencename as name, last_value::text as last from pg_sequences where schemaname = $1`,
    [schema],
  );
  const setvals = sequences.rows.filter((s) => s.last !== null).map((s) => `SELECT pg_catalog.setval(${lit(`${PLACEHOLDER}.${q(s.name)}`)}, ${s.last}, true);`);
  return [rename(dump('pre-data')), ...copies, ...setvals, rename(dump('post-data'))].join('\n');
}

/** A copy of the template's data folder in a new temporary folder. */
export function copyDataDir(from: string, prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(from, dataDir, { recursive: true });
  return dataDir;
}

/** Creates `schema` as a copy of the PostgreSQL template (one round trip: the script runs as one transaction). */
export async function cloneSchema(baseUrl: string, t: NonNullable<PortalTemplates['postgres']>, schema: string) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(t.script.split(t.placeholder).join(schema));
  } finally {
    await c.end();
  }
}
