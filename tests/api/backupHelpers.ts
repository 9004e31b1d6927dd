import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../server/config.js';

/** Every table of a database as sorted canonical lines (bytes as their SHA-256), for comparing two databases whole. */
export type TableDump = Record<string, string[]>;

const canonical = (row: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => {
        const v = row[k];
        return [k, Buffer.isBuffer(v) ? `sha256:${crypto.createHash('sha256').update(v).digest('hex')}` : v instanceof Date ? v.toISOString() : v];
      }),
  );

/** The tables of a SQLite file, read with a connection of its own. */
export async function dumpSqlite(file: string): Promise<TableDump> {
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(file, { readonly: true });
  try {
    const tables = (
      db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as Array<{ name: string }>
    ).map((t) => t.name);
    const out: TableDump = {};
    for (const t of tables) out[t] = (db.prepare(`select * from "${t}"`).all() as Array<Record<string, unknown>>).map(canonical).sort();
    return out;
  } finally {
    db.close();
  }
}

/** The tables of the schema a PostgreSQL URL works in; with `snapshot`, as that exported snapshot sees them. */
export async function dumpPostgres(url: string, snapshot?: string): Promise<TableDump> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (snapshot) await c.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
    const tables = (
      await c.query<{ t: string }>(`select c.relname as t from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' order by 1`)
    ).rows.map((r) => r.t);
    const out: TableDump = {};
    for (const t of tables) out[t] = (await c.query(`select * from "${t}"`)).rows.map(canonical).sort();
    await c.query('COMMIT');
    return out;
  } finally {
    await c.end();
  }
}

/** A fresh PostgreSQL database on the test server (a restore's target), dropped by `drop`. */
export async function freshPgDatabase(schema?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `restore_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  if (schema) url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A restore target: an empty folder (SQLite), or a fresh database with a schema of another name than the source's. */
export async function restoreTarget(dialect: 'sqlite' | 'postgres', schema = `r_${crypto.randomBytes(4).toString('hex')}`) {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-restore-test-')), 'data');
  const pgDb = dialect === 'postgres' ? await freshPgDatabase(schema) : null;
  const config: Pick<Config, 'dataDir' | 'databaseUrl' | 'files'> = { dataDir, databaseUrl: pgDb?.url, files: undefined };
  return {
    config,
    schema,
    async drop() {
      await pgDb?.drop();
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}
