import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Tariff data of a carrier (pricing.md §1–3): categories and their dated rate-sheet versions with the
 * parsed rows, and the six tariff tables. Money in integer cents, decimals (multipliers, weights of a
 * bracket) as exact text, postal codes stored normalised (upper case, no spaces or hyphens).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('categories'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('rate_type', 'text', (c) => c.notNull())
    .addColumn('zone', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('categories_company_code').on('categories').columns(['company_id', 'code']).unique().execute();

  await withId(db, db.schema.createTable('rate_sheets'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('zone', 'text', (c) => c.notNull())
    .addColumn('rate_type', 'text', (c) => c.notNull())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('is_standard', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('validate_from', 'text', (c) => c.notNull())
    .addColumn('validate_to', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text')
    .addColumn('file_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_sheets_company').on('rate_sheets').columns(['company_id', 'rate_type', 'zone']).execute();
  await db.schema.createIndex('rate_sheets_category').on('rate_sheets').column('category_id').execute();

  await withId(db, db.schema.createTable('express_rate_rows'))
    .addColumn('rate_sheet_id', 'integer', (c) => c.notNull().references('rate_sheets.id').onDelete('cascade'))
    .addColumn('rate_code', 'text')
    .addColumn('carrier_zone', 'text')
    .addColumn('country', 'text')
    .addColumn('department', 'text')
    .addColumn('hub', 'text')
    .addColumn('province', 'text', (c) => c.notNull())
    .addColumn('p150', 'integer')
    .addColumn('p300', 'integer')
    .addColumn('p550', 'integer')
    .addColumn('ps550', 'integer')
    .addColumn('p1000', 'integer')
    .addColumn('leadtime', 'integer')
    .addColumn('type_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('express_rate_rows_key').on('express_rate_rows').columns(['rate_sheet_id', 'province', 'type_id']).unique().execute();

  await withId(db, db.schema.createTable('standard_rate_rows'))
    .addColumn('rate_sheet_id', 'integer', (c) => c.notNull().references('rate_sheets.id').onDelete('cascade'))
    .addColumn('rate_code', 'text')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('zone_code', 'text', (c) => c.notNull())
    .addColumn('weight_from', 'text', (c) => c.notNull())
    .addColumn('weight_to', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('minimum', 'integer')
    .addColumn('leadtime', 'integer')
    .execute();
  await db.schema.createIndex('standard_rate_rows_key').on('standard_rate_rows').columns(['rate_sheet_id', 'country', 'zone_code']).execute();

  const table = (name: string) => withId(db, db.schema.createTable(name)).addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'));

  await table('express_hub_costs')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('silver', 'integer')
    .addColumn('gold', 'integer')
    .execute();
  await table('express_island_zones')
    .addColumn('island', 'text', (c) => c.notNull())
    .addColumn('special_zone', 'text')
    .addColumn('quintal_cost', 'integer')
    .addColumn('multiplier', 'text')
    .addColumn('p150', 'integer')
    .addColumn('p300', 'integer')
    .addColumn('p550', 'integer')
    .addColumn('ps550', 'integer')
    .addColumn('p1000', 'integer')
    .addColumn('type_id', 'integer', (c) => c.notNull())
    .execute();
  await table('express_hub_codes')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('hub', 'text', (c) => c.notNull())
    .execute();
  await table('express_special_zones').addColumn('province', 'text').addColumn('city', 'text').addColumn('postal_code', 'text').execute();
  await table('standard_special_zones')
    .addColumn('province', 'text')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('postal_code', 'text')
    .execute();
  await table('standard_no_passage')
    .addColumn('postal_code', 'text')
    .addColumn('city', 'text')
    .addColumn('cost', 'integer')
    .addColumn('province', 'text')
    .addColumn('flow', 'text')
    .addColumn('special_zone', 'text')
    .addColumn('company_iso_2', 'text')
    .addColumn('code', 'text')
    .addColumn('rate_code', 'text')
    .addColumn('cost2', 'integer')
    .addColumn('col_11', 'text')
    .execute();
  for (const t of [
    'express_hub_costs',
    'express_island_zones',
    'express_hub_codes',
    'express_special_zones',
    'standard_special_zones',
    'standard_no_passage',
  ]) {
    await db.schema.createIndex(`${t}_company`).on(t).column('company_id').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'standard_no_passage',
    'standard_special_zones',
    'express_special_zones',
    'express_hub_codes',
    'express_island_zones',
    'express_hub_costs',
    'standard_rate_rows',
    'express_rate_rows',
    'rate_sheets',
    'categories',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
