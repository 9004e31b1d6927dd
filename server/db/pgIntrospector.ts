import { PostgresDialect, sql, type DatabaseIntrospector, type Kysely, type SchemaMetadata, type TableMetadata, type ColumnMetadata } from 'kysely';

/**
 * Kysely's PostgreSQL introspector reads the tables of every schema of the database and calls
 * `has_schema_privilege(name)` and `pg_get_serial_sequence(name)` on each. Those functions look names
 * up in the live catalogue, not in the query's snapshot: a schema dropped by someone else while the
 * query runs (a parallel test suite, a second installation being removed) makes the portal's own
 * migration fail with `schema "t_…" does not exist`, a schema it never touches. (CI stop 27 failed on
 * exactly that.) The portal only ever works in one schema, the connection's `current_schema()`, so
 * this introspector reads that one and nothing else; the functions run only on its rows.
 */
export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<any>;

  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const rows = await this.#db.selectFrom('pg_catalog.pg_namespace').select('nspname').execute();
    return rows.map((r: { nspname: string }) => ({ name: r.nspname }));
  }

  async getTables(options: { withInternalKyselyTables?: boolean } = {}): Promise<TableMetadata[]> {
    let query = this.#db
      .selectFrom('pg_catalog.pg_attribute as a')
      .innerJoin('pg_catalog.pg_class as c', 'a.attrelid', 'c.oid')
      .innerJoin('pg_catalog.pg_namespace as ns', 'c.relnamespace', 'ns.oid')
      .innerJoin('pg_catalog.pg_type as typ', 'a.atttypid', 'typ.oid')
      .innerJoin('pg_catalog.pg_namespace as dtns', 'typ.typnamespace', 'dtns.oid')
      .select([
        'a.attname as column',
        'a.attnotnull as not_null',
        'a.atthasdef as has_default',
        'c.relname as table',
        'c.relkind as table_type',
        'ns.nspname as schema',
        'typ.typname as type',
        'dtns.nspname as type_schema',
        sql<string | null>`col_description(a.attrelid, a.attnum)`.as('column_description'),
        sql<string | null>`pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname)`.as('auto_incrementing'),
      ])
      .where('c.relkind', 'in', ['r', 'v', 'p'])
      .where('ns.nspname', '=', sql<string>`current_schema()`)
      .where('a.attnum', '>=', 0)
      .where('a.attisdropped', '!=', true)
      .orderBy('c.relname')
      .orderBy('a.attnum');
    if (!options.withInternalKyselyTables) {
      query = query.where('c.relname', 'not in', ['kysely_migration', 'kysely_migration_lock']);
    }
    const rows = (await query.execute()) as Array<{
      column: string;
      not_null: boolean;
      has_default: boolean;
      table: string;
      table_type: string;
      schema: string;
      type: string;
      type_schema: string;
      column_description: string | null;
      auto_incrementing: string | null;
    }>;
    const tables = new Map<string, { name: string; schema: string; isView: boolean; columns: ColumnMetadata[] }>();
    for (const r of rows) {
      let t = tables.get(r.table);
      if (!t) tables.set(r.table, (t = { name: r.table, schema: r.schema, isView: r.table_type === 'v', columns: [] }));
      t.columns.push({
        name: r.column,
        dataType: r.type,
        dataTypeSchema: r.type_schema,
        hasDefaultValue: r.has_default,
        isAutoIncrementing: r.auto_incrementing !== null,
        isNullable: !r.not_null,
        comment: r.column_description ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: { withInternalKyselyTables?: boolean }) {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely knows it, with the introspector above. */
export class PortalPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
