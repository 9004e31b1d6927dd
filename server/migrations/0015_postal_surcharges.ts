import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Postal-code surcharges (pricing.md §8; spec model/tariffs.ts `postal_surcharges`): the seventh tariff
 * table, one set per carrier. `fixed` in integer cents like the other money columns, `percent` as exact
 * decimal text like the other percentages; an empty country is stored as IT, an empty flow as NULL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('postal_surcharges'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('flow', 'text')
    .addColumn('fixed', 'integer')
    .addColumn('percent', 'text')
    .execute();
  await db.schema.createIndex('postal_surcharges_company').on('postal_surcharges').column('company_id').execute();
  // the later pricing reads a carrier's rows by country and code (prefix rows match on their leading part)
  await db.schema.createIndex('postal_surcharges_postal').on('postal_surcharges').columns(['company_id', 'country', 'postal_code']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('postal_surcharges').ifExists().execute();
}
