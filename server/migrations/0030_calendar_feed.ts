import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The calendar feed (issue 36 item 4, docs/calendar-feed.md): a company's private iCalendar URL
 * (`GET /ical/<token>.ics`). One row per company at most (`company_id` unique): no row means the feed is off.
 * Only the SHA-256 of the URL's 256-bit token is stored (`token_hash`, unique: the feed is looked up by it);
 * regenerating replaces it (the old URL stops at once), turning the feed off deletes the row.
 * `created_by` names who made the current URL (no foreign key, as api_keys: the row outlives a deleted
 * user, with `created_by_name`). `last_fetched_at` moves at most once an hour (the card says whether a
 * calendar reads the feed). The row goes with its company (ON DELETE CASCADE).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('calendar_feeds'))
    .addColumn('company_id', 'integer', (c) => c.notNull().unique().references('companies.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_fetched_at', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').ifExists().execute();
}
