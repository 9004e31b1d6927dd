import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Issue 36 items 1 and 2: the carrier moves its own requests to in transit and delivered
 * (docs/proof-of-delivery.md).
 *
 * 1. `transport_requests.picked_up_at`: when the goods were picked up (ISO text), set with the move to in
 *    transit (5); null before, and for requests moved there before this migration.
 * 2. `transport_request_pods`: the proof of delivery, one per request (unique): the receiver's name, the
 *    reservations written on the document, what was sent (`kind`: `file` a photo or PDF of the signed
 *    document, `signature` a signature drawn on the screen), the stored file (area `pods`, lib/files.ts) with its
 *    type, size and pixel size (null for a PDF), when it was delivered and by whom it was recorded.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transport_requests').addColumn('picked_up_at', 'text').execute();
  await withId(db, db.schema.createTable('transport_request_pods'))
    .addColumn('transport_request_id', 'integer', (c) => c.notNull().unique().references('transport_requests.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('stored_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('delivered_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transport_request_pods_stored_name').on('transport_request_pods').column('stored_name').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transport_request_pods').ifExists().execute();
  await db.schema.alterTable('transport_requests').dropColumn('picked_up_at').execute();
}
