import type { Kysely } from 'kysely';

/**
 * A support ticket may be about one transport request (issue 35 item 4): `tickets.transport_request_id`, null
 * for a general question. The end user opens it from the request (the request must be one of its company's);
 * the ticket names the request and the request lists its tickets (`tickets_request`). A request is never
 * deleted while a ticket names it (the reference's default): the conversation about it stays readable.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tickets')
    .addColumn('transport_request_id', 'integer', (c) => c.references('transport_requests.id'))
    .execute();
  await db.schema.createIndex('tickets_request').on('tickets').column('transport_request_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tickets_request').ifExists().execute();
  await db.schema.alterTable('tickets').dropColumn('transport_request_id').execute();
}
