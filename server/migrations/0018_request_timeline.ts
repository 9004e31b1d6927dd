import { sql, type Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The request timeline (issue 22, docs/request-documents.md): one row per change of a transport request
 * (model/requestTimeline.ts: created, repriced, edited, status_changed, document_added), written in the
 * same transaction as the change. The actor's name and role are copied as they were at the time; no
 * foreign key on the user, so an entry outlives the account. `status_id` is the request's status after
 * the change. A product feature for the request's parties, kept apart from the audit log.
 *
 * Existing requests get their `created` event from `created_at` (the instant of `created_on`) and the
 * user who stored them (a visitor's own name when none): no other history is invented.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('transport_request_events'))
    .addColumn('transport_request_id', 'integer', (c) => c.notNull().references('transport_requests.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('status_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'text')
    .addColumn('user_role', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .execute();
  await db.schema.createIndex('transport_request_events_request').on('transport_request_events').columns(['transport_request_id', 'id']).execute();
  await sql`
    insert into transport_request_events (transport_request_id, at, event, status_id, user_id, user_name, user_role, note)
    select tr.id, tr.created_at, 'created', 1, tr.user_id,
      case when u.id is not null then u.first_name || ' ' || u.last_name
           else nullif(trim(coalesce(tr.firstname, '') || ' ' || coalesce(tr.lastname, '')), '') end,
      case when u.id is null then 'visitor'
           when u.role_id in (1, 2) then 'admin'
           when u.role_id in (3, 4, 5) then 'carrier'
           when u.role_id = 7 then 'support'
           else 'enduser' end,
      null
    from transport_requests tr left join users u on u.id = tr.user_id
    order by tr.id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transport_request_events').ifExists().execute();
}
