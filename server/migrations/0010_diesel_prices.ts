import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/** Diesel reference prices (pricing.md §7; declaration model/resources/diesel-prices.ts): one row a month. */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('diesel_prices'))
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('price', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('diesel_prices_month').on('diesel_prices').column('month').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('diesel_prices').ifExists().execute();
}
