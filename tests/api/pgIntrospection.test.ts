/**
 * The portal reads the catalogue of its own schema only (server/db/pgIntrospector.ts): a schema that
 * someone else drops while the portal looks (parallel suites, another installation) cannot fail its
 * migrations. CI stop 27 failed on `schema "t_…" does not exist` from Kysely's own introspector.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresIntrospector, sql } from 'kysely';
import { openDb, type DbHandle } from '../../server/db/index.js';

const base = process.env.TEST_DATABASE_URL;

describe.skipIf(!base)('PostgreSQL catalogue of the current schema only', () => {
  const mine = `t_${crypto.randomBytes(6).toString('hex')}`;
  let handle: DbHandle;
  let admin: import('pg').Client;

  const makeSchema = async (name: string) => {
    await admin.query(`CREATE SCHEMA ${name}`);
    await admin.query(`CREATE TABLE ${name}.parcels (id serial primary key, label text)`);
  };

  beforeAll(async () => {
    const pg = (await import('pg')).default;
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await makeSchema(mine);
    const url = new URL(base!);
    url.searchParams.set('options', `-c search_path=${mine}`);
    handle = await openDb({ databaseUrl: url.toString(), dataDir: ':memory:', poolSize: 2 });
  });

  afterAll(async () => {
    await handle?.destroy();
    await admin?.query(`DROP SCHEMA IF EXISTS ${mine} CASCADE`);
    await admin?.end();
  });

  it('lists the tables of its schema, with their columns, and none of another schema', async () => {
    const other = `t_${crypto.randomBytes(6).toString('hex')}`;
    await makeSchema(other);
    try {
      const tables = await handle.db.introspection.getTables();
      expect(tables.map((t) => [t.schema, t.name])).toEqual([[mine, 'parcels']]);
      expect(tables[0]!.columns.map((c) => [c.name, c.isAutoIncrementing, c.isNullable])).toEqual([
        ['id', true, false],
        ['label', false, true],
      ]);
    } finally {
      await admin.query(`DROP SCHEMA ${other} CASCADE`);
    }
  });

  it('survives another schema dropped while it reads, where Kysely’s own introspector fails', async () => {
    // A repeatable-read snapshot still shows the other schema in pg_namespace after it is dropped,
    // while catalogue functions look names up live: the race of parallel suites, made to happen.
    const race = async (read: (trx: any) => Promise<unknown>) => {
      const other = `t_${crypto.randomBytes(6).toString('hex')}`;
      await makeSchema(other);
      return handle.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          await sql`select count(*) from pg_catalog.pg_namespace`.execute(trx);
          await admin.query(`DROP SCHEMA ${other} CASCADE`);
          return read(trx);
        });
    };
    await expect(race((trx) => new PostgresIntrospector(trx).getTables())).rejects.toThrow(/does not exist/);
    const tables = (await race((trx) => trx.introspection.getTables())) as Array<{ name: string }>;
    expect(tables.map((t) => t.name)).toEqual(['parcels']);
  });
});
