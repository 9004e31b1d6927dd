import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DB } from './types.js';

export type Db = Kysely<DB>;
export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: DialectName;
  destroy(): Promise<void>;
}

/**
 * Opens the database: PostgreSQL when a postgres:// URL is given, otherwise SQLite in
 * `<dataDir>/portal.sqlite` (or `:memory:` when dataDir is ':memory:').
 */
export async function openDb(opts: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pg = (await import('pg')).default;
    // Counts and sums come back as strings from pg (int8/numeric); the repositories convert them.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    pool.on('error', () => { /* a dropped idle connection is replaced on next use */ });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  const Database = (await import('better-sqlite3')).default;
  let file = ':memory:';
  if (opts.dataDir !== ':memory:') {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    file = path.join(opts.dataDir, 'portal.sqlite');
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}

/** Case-insensitive comparison helper usable on both databases. */
export const lower = (col: string) => sql<string>`lower(${sql.ref(col)})`;
