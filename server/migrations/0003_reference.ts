import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Reference data (accounts document §3, §7; server.md §9): currencies, document types, shipment types,
 * transport classes, ticket categories, and the Italian places: provinces, municipalities with their
 * postal codes, and the island list (one row per municipality on an island).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('currencies'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code_alpha', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text')
    .addColumn('active', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('currencies_code_alpha').on('currencies').column('code_alpha').unique().execute();

  await withId(db, db.schema.createTable('document_types'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('active', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  for (const t of ['shipment_types', 'transport_classes']) {
    await withId(db, db.schema.createTable(t))
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  }

  await withId(db, db.schema.createTable('ticket_categories'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .execute();

  await withId(db, db.schema.createTable('provinces'))
    .addColumn('sigla', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('municipalities'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    // The postal code when the municipality has one; null for multi-code cities (see municipality_postal_codes).
    .addColumn('postal_code', 'text')
    .addColumn('istat_code', 'text', (c) => c.notNull().unique())
    .execute();
  await db.schema.createIndex('municipalities_province').on('municipalities').column('province').execute();
  await db.schema.createIndex('municipalities_name').on('municipalities').column('name').execute();

  // Every postal code of every municipality (Roma has 82): what postal_code_list answers.
  await withId(db, db.schema.createTable('municipality_postal_codes'))
    .addColumn('municipality_id', 'integer', (c) => c.notNull().references('municipalities.id').onDelete('cascade'))
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('municipality_postal_codes_key').on('municipality_postal_codes').columns(['postal_code', 'municipality_id']).unique().execute();
  await db.schema.createIndex('municipality_postal_codes_m').on('municipality_postal_codes').column('municipality_id').execute();

  await withId(db, db.schema.createTable('island_places'))
    .addColumn('island', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('island_places_place').on('island_places').columns(['city', 'province']).unique().execute();
  await db.schema.createIndex('island_places_island').on('island_places').column('island').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'island_places',
    'municipality_postal_codes',
    'municipalities',
    'provinces',
    'ticket_categories',
    'transport_classes',
    'shipment_types',
    'document_types',
    'currencies',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
