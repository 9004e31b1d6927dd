import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from '../migrations/helpers.js';
import type { Db } from './index.js';
import { loadMigrations } from '../migrations/index.js';

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return loadMigrations();
  }
}

/**
 * Runs pending migrations. Kysely takes a lock table (and on PostgreSQL an advisory lock),
 * so several server processes starting together migrate once.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await (await portalMigrator(db)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String((error as Error)?.message ?? error)}`);
  }
}

/** Kysely's migrator over the portal's migrations (tests and benchmarks also move a database down and up). */
export async function portalMigrator(db: Db): Promise<Migrator> {
  // On PostgreSQL, Kysely looks for its own tables in every schema of the database unless told which
  // one: another schema holding them (a second installation, parallel test runs) would make it skip
  // creating its lock table here. Its tables live in the schema this connection works in.
  const migrationTableSchema = isPostgres(db) ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  return new Migrator({ db, provider: new StaticProvider(), ...(migrationTableSchema ? { migrationTableSchema } : {}) });
}
