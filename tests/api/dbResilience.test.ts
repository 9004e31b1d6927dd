import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/index.js';

/**
 * Issue 11, the database layer under faults, deterministically:
 * - SQLite runs pending migrations in one transaction: a migration failing (or a process killed) halfway
 *   leaves none of its tables, so the next start is not stopped by "table already exists";
 * - PostgreSQL: a connection terminated while lent to a transaction fails that transaction with an
 *   error instead of ending the process (an 'error' event without a listener), and the pool serves the
 *   next queries on fresh connections.
 */
describe('SQLite migrations are atomic', () => {
  it('a migration failing after its first table leaves no table of the run, and the run succeeds next time', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    const db = await openDb({ dataDir: dir });
    try {
      let fail = true;
      const migrations: Record<string, Migration> = {
        '0001_a': {
          up: async (k: Kysely<any>) => {
            await k.schema
              .createTable('a')
              .addColumn('id', 'integer', (c) => c.primaryKey())
              .execute();
          },
        },
        '0002_b': {
          up: async (k: Kysely<any>) => {
            await k.schema
              .createTable('b')
              .addColumn('id', 'integer', (c) => c.primaryKey())
              .execute();
            if (fail) throw new Error('killed halfway');
          },
        },
      };
      const migrator = new Migrator({ db: db.db, provider: { getMigrations: async () => migrations } });
      const first = await migrator.migrateToLatest();
      expect(first.error).toBeDefined();
      const tables = async () =>
        (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name in ('a', 'b')`.execute(db.db)).rows.map((r) => r.name).sort();
      expect(await tables()).toEqual([]);
      fail = false;
      const second = await migrator.migrateToLatest();
      expect(second.error).toBeUndefined();
      expect(second.results?.map((r) => [r.migrationName, r.status])).toEqual([
        ['0001_a', 'Success'],
        ['0002_b', 'Success'],
      ]);
      expect(await tables()).toEqual(['a', 'b']);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL connections cut mid-transaction', () => {
  it('the transaction fails with an error, the process lives, the pool answers the next queries', async () => {
    const appName = `cut-test-${crypto.randomBytes(4).toString('hex')}`;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('application_name', appName);
    const db = await openDb({ databaseUrl: url.toString(), dataDir: ':memory:', poolSize: 3 });
    const killer = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL!, dataDir: ':memory:', poolSize: 1 });
    const terminate = () => sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${appName}`.execute(killer.db);
    try {
      await sql`select 1`.execute(db.db);
      // A backend lent to a transaction, idle between two of its statements, is terminated.
      const inTransaction = db.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await terminate();
        await new Promise((r) => setTimeout(r, 200)); // the client learns of the cut while nobody queries it
        await sql`select 2`.execute(trx);
      });
      await expect(inTransaction).rejects.toThrow();
      // An idle pooled connection terminated too, then the next queries: all answered on new connections.
      await terminate();
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 5; i++) expect((await sql<{ n: number }>`select ${i}::int as n`.execute(db.db)).rows[0].n).toBe(i);
    } finally {
      await db.destroy();
      await killer.destroy();
    }
  });
});
