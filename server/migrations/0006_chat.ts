import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Support chat (server.md §7): a ticket has one chat (`chat_id` = ticket id) and its messages.
 *
 * Unread tracking: a chat has two sides, the end-user company and the carrier (its carrier users and
 * support users share one inbox). Each message records its `sender_side`; `read_at` is set when someone
 * of the other side reads it, so "unread for me" = messages of the other side without `read_at`.
 * The categories are `ticket_categories(id, name)` of the reference data (0003_reference).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('tickets'))
    .addColumn('ticket_category_id', 'integer', (c) => c.references('ticket_categories.id'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('enduser_company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('enduser_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('carrier_company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_message_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('closed_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('tickets_carrier_last').on('tickets').columns(['carrier_company_id', 'last_message_at']).execute();
  await db.schema.createIndex('tickets_enduser_last').on('tickets').columns(['enduser_company_id', 'last_message_at']).execute();

  await withId(db, db.schema.createTable('chat_messages'))
    .addColumn('chat_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('sender_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('sender_name', 'text', (c) => c.notNull())
    .addColumn('sender_side', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  // Incremental reads (`after` = last id seen) and the unread counts per side.
  await db.schema.createIndex('chat_messages_chat').on('chat_messages').columns(['chat_id', 'id']).execute();
  await db.schema.createIndex('chat_messages_unread').on('chat_messages').columns(['chat_id', 'sender_side', 'read_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_messages').ifExists().execute();
  await db.schema.dropTable('tickets').ifExists().execute();
}
