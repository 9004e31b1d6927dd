import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/** Migrations are written once for both databases; these helpers hide the few dialect differences. */
export const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Adds an auto-increment integer primary key named `id`. */
export function withId<T extends string>(db: Kysely<any>, t: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  return isPostgres(db) ? t.addColumn('id', 'serial', (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** 64-bit integer column (epoch milliseconds, large counters). */
export const bigintType = (db: Kysely<any>) => (isPostgres(db) ? 'bigint' : 'integer');

/** Binary column (uploaded files kept in the database). */
export const blobType = (db: Kysely<any>) => (isPostgres(db) ? 'bytea' : 'blob');
