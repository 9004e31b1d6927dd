import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The address book (issue 34; declaration model/resources/address-book.ts, `tenancy: 'company'`): a company's
 * frequent pickup and delivery places. `company_id` comes with the tenancy (not a declared field); a company's
 * places go with it (ON DELETE CASCADE, as its API keys and webhooks do: they are its own notes, not records
 * others rely on). The name is unique per company (the unique index the generated store and the import lean
 * on under a race); every list reads by company (`address_book_company`: the unique index's leading column
 * would serve too, but every company table gets its own by one rule, whether it declares a unique field or not).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('address_book'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('both'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('province', 'text')
    .addColumn('country_id', 'integer', (c) => c.notNull().references('countries.id'))
    .addColumn('contact', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('opening_hours', 'text')
    .addColumn('notes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('address_book_company_name').on('address_book').columns(['company_id', 'name']).unique().execute();
  await db.schema.createIndex('address_book_company').on('address_book').column('company_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('address_book').ifExists().execute();
}
