import fs from 'node:fs';
import path from 'node:path';
import { Kysely, SqliteAdapter, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type SqliteDialectConfig } from 'kysely';
import { PortalPostgresDialect } from './pgIntrospector.js';
import type { DB } from './types.js';

export type Db = Kysely<DB>;
export type DialectName = 'sqlite' | 'postgres';

/**
 * What the connections are doing at this instant (issue 32, `/metrics`). PostgreSQL: pg.Pool's own counts
 * (`max` the pool size, `used` = totalCount − idleCount, `idle`, `waiting` = queries queued for a
 * connection). SQLite has one connection that Kysely lends to one query or transaction at a time (a mutex):
 * `max` 1, `used` 1 while it is lent (a transaction holds it across its awaits), `waiting` the queries and
 * transactions queued behind it — so a long transaction shows as waiting work, as an exhausted pool does.
 */
export interface PoolUse {
  max: number;
  used: number;
  idle: number;
  waiting: number;
}

export interface DbHandle {
  db: Db;
  dialect: DialectName;
  destroy(): Promise<void>;
  /** The connections' use now (cheap: counters, no query). */
  pool(): PoolUse;
}

/**
 * Opens the database: PostgreSQL when a postgres:// URL is given, otherwise SQLite in
 * `<dataDir>/portal.sqlite` (or `:memory:` when dataDir is ':memory:').
 */
export async function openDb(opts: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pg = (await import('pg')).default;
    // Counts and sums come back as strings from pg (int8/numeric); the repositories convert them.
    // application_name lets an operator find the portal's sessions in pg_stat_activity; one in the URL wins.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10, application_name: 'freight-portal' });
    // A connection that dies (server restart, pg_terminate_backend, network cut) emits 'error' on its
    // client, and an 'error' event nobody listens to ends the Node process. The pool listens only while
    // a client is idle; a client lent to a query or transaction has no listener at that moment. So every
    // client gets one for its whole life: the query under way fails with the error (the route answers
    // 500), the pool drops the dead client when it comes back (it is no longer queryable), and the
    // next query gets a new connection. Issue 11: a termination mid-transaction crashed the server.
    pool.on('connect', (client) =>
      client.on('error', () => {
        /* reported to the query under way */
      }),
    );
    pool.on('error', () => {
      /* a dropped idle connection is removed by the pool and replaced on next use */
    });
    const db = new Kysely<DB>({ dialect: new PortalPostgresDialect({ pool }) });
    const max = opts.poolSize ?? 10;
    return {
      db,
      dialect: 'postgres',
      destroy: () => db.destroy(),
      pool: () => ({ max, used: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
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
  cachePreparedStatements(sqlite);
  const dialect = new TransactionalDdlSqliteDialect({ database: sqlite });
  const db = new Kysely<DB>({ dialect });
  const use = dialect.use;
  return { db, dialect: 'sqlite', destroy: () => db.destroy(), pool: () => ({ max: 1, used: use.used, idle: 1 - use.used, waiting: use.waiting }) };
}

/**
 * SQLite runs CREATE/ALTER/DROP inside transactions, but Kysely's SQLite adapter says it does not, so
 * its Migrator ran each migration statement by statement: a process killed halfway through a migration
 * left its first tables behind without recording it, and every later start failed on "table already
 * exists" (issue 11, a first start killed while migrating). With this adapter the pending migrations
 * run in one transaction, as on PostgreSQL: after a kill they are all there or none is. Only the
 * Migrator reads this flag; a migration must therefore not open a transaction of its own.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true;
  }
}
class TransactionalDdlSqliteDialect extends SqliteDialect {
  /** The one connection's use (PoolUse): counted by the driver below. */
  readonly use = { used: 0, waiting: 0 };
  constructor(private readonly cfg: SqliteDialectConfig) {
    super(cfg);
  }
  override createAdapter() {
    return new TransactionalDdlSqliteAdapter();
  }
  override createDriver() {
    return new CountingSqliteDriver(this.cfg, this.use);
  }
}

/** Kysely's SQLite driver, counting who holds its one connection and who waits for it (two increments a query). */
class CountingSqliteDriver extends SqliteDriver {
  constructor(
    cfg: SqliteDialectConfig,
    private readonly use: { used: number; waiting: number },
  ) {
    super(cfg);
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    this.use.waiting++;
    try {
      const c = await super.acquireConnection();
      this.use.used++;
      return c;
    } finally {
      this.use.waiting--;
    }
  }
  override async releaseConnection(): Promise<void> {
    this.use.used--;
    return super.releaseConnection();
  }
}

/**
 * Kysely's SQLite driver prepares every query again; preparing costs more than running a small
 * indexed query (it was a fifth of a signed-in quote's time, issue 8). The last 500 statements are
 * kept by their SQL and reused, unless one is still busy (an open iterator), which gets a fresh one.
 * SQLite re-prepares a kept statement by itself after a schema change.
 */
function cachePreparedStatements(sqlite: import('better-sqlite3').Database, max = 500) {
  const prepare = sqlite.prepare.bind(sqlite);
  const kept = new Map<string, import('better-sqlite3').Statement>();
  (sqlite as { prepare: (sql: string) => import('better-sqlite3').Statement }).prepare = (sql: string) => {
    const hit = kept.get(sql);
    if (hit && !hit.busy) {
      kept.delete(sql);
      kept.set(sql, hit);
      return hit;
    }
    const st = prepare(sql);
    if (!hit) {
      kept.set(sql, st);
      if (kept.size > max) kept.delete(kept.keys().next().value as string);
    }
    return st;
  };
}

/** Case-insensitive comparison helper usable on both databases. */
export const lower = (col: string) => sql<string>`lower(${sql.ref(col)})`;
