import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Notifications (issue 22 item 4, docs/notifications.md):
 * - `notifications`: the in-app bell, one row per recipient of a request's event (created, each status
 *   change), written in the transaction of the change (repositories/notifications.ts). `event_id` names the
 *   timeline entry (migration 0018) it tells of; the rows go with their user, request and event. Indexed for
 *   the caller's newest-first page and for the unread count (`read_at is null`).
 * - `consignee_mail_off`: the statuses for which a carrier switched its consignees' mail off; no row means
 *   on (the default), so existing carriers change nothing.
 * - `shipments.consignee_email`: the consignee's address for its mail, optional, per shipment as the
 *   consignee's reference is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('notifications'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('transport_request_id', 'integer', (c) => c.notNull().references('transport_requests.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('transport_request_events.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('status_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id', 'read_at', 'created_at', 'id']).execute();
  await db.schema.createIndex('notifications_request').on('notifications').column('transport_request_id').execute();
  await db.schema.createIndex('notifications_event').on('notifications').column('event_id').execute();

  await withId(db, db.schema.createTable('consignee_mail_off'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('status_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('consignee_mail_off_company').on('consignee_mail_off').columns(['company_id', 'status_id']).unique().execute();

  await db.schema.alterTable('shipments').addColumn('consignee_email', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('shipments').dropColumn('consignee_email').execute();
  await db.schema.dropTable('consignee_mail_off').ifExists().execute();
  await db.schema.dropTable('notifications').ifExists().execute();
}
