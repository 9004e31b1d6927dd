import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from '../migrations/helpers.js';
import type { Db } from './index.js';
import { migrations } from '../migrations/index.js';

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * Runs pending migrations. Kysely takes a lock table (and on PostgreSQL an advisory lock),
 * so several server processes starting together migrate once.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  // On PostgreSQL, name our own schema: Kysely otherwise takes another schema's kysely_migration_lock
  // (another application, or another test run in the same database) for ours and fails.
  const schema = isPostgres(db) ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider: new StaticProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String((error as Error)?.message ?? error)}`);
  }
}
