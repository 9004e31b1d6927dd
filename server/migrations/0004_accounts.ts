import type { Kysely } from 'kysely';
import { bigintType, withId } from './helpers.js';

/**
 * Accounts (server.md §3–4): password reset codes, the throttling log of the account flows, and the
 * access requests of new carriers and of a carrier's customers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per code sent. Only the hash is kept; `consumed_at` is set when the code is used, voided by
  // a newer code or a reset, or has taken its 5 wrong tries.
  await withId(db, db.schema.createTable('password_resets'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

  // Sliding-window throttling: one row per counted event, shared by every server process.
  await withId(db, db.schema.createTable('throttle_events'))
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('at', bigintType(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('throttle_events_bucket_at').on('throttle_events').columns(['bucket', 'at']).execute();
  await db.schema.createIndex('throttle_events_at').on('throttle_events').column('at').execute();

  await withId(db, db.schema.createTable('access_requests'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('OP'))
    // Set when the request came from a carrier's invitation link: that carrier reviews it.
    .addColumn('carrier_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('carrier_name', 'text', (c) => c.notNull())
    .addColumn('carrier_email', 'text', (c) => c.notNull())
    .addColumn('carrier_phone', 'text', (c) => c.notNull())
    .addColumn('carrier_city', 'text', (c) => c.notNull())
    .addColumn('carrier_country_id', 'integer', (c) => c.notNull().references('countries.id'))
    .addColumn('carrier_language_id', 'integer', (c) => c.notNull().references('languages.id'))
    .addColumn('carrier_postal_code', 'text', (c) => c.notNull())
    .addColumn('carrier_province', 'text', (c) => c.notNull())
    .addColumn('carrier_website_url', 'text', (c) => c.notNull())
    .addColumn('carrier_address', 'text', (c) => c.notNull())
    .addColumn('carrier_logo', 'text')
    .addColumn('user_first_name', 'text', (c) => c.notNull())
    .addColumn('user_last_name', 'text', (c) => c.notNull())
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('user_phone', 'text', (c) => c.notNull())
    .addColumn('user_password_hash', 'text', (c) => c.notNull())
    .addColumn('created_company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('created_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('reviewed_by', 'integer', (c) => c.references('users.id'))
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_requests_carrier').on('access_requests').columns(['carrier_id', 'status']).execute();
  await db.schema.createIndex('access_requests_created').on('access_requests').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['access_requests', 'throttle_events', 'password_resets']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
