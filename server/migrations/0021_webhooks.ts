import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Webhooks (issue 23, docs/webhooks.md). `webhook_endpoints`: a company's receivers; `events` is a
 * comma-separated list (model/webhooks.ts); `secret` (`whsec_…`) is kept as it is, because every delivery
 * is signed with it (HMAC needs the secret itself, not a hash); it is answered once, at creation, and never
 * listed, logged or audited. `lang` is the creator's language, in which payloads name statuses. `status`
 * is `active` or `failing` (a delivery gave up after the retry window; a later success sets it back).
 *
 * `webhook_deliveries`: one row per event and endpoint, inserted in the transaction of the change that
 * causes it (repositories/requestEvents.ts), so a rolled-back change has none and a committed one is never
 * lost. The worker (lib/webhooks/worker.ts) sends the earliest pending row of each `ordering_key`
 * (`tr:<request id>`) per endpoint; `locked_until` is its lease, so a killed process's claim expires.
 * Pending: `delivered_at` and `gave_up_at` both null. The rows go with their endpoint (ON DELETE CASCADE).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('webhook_endpoints'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('failing_since', 'text')
    .execute();
  await db.schema.createIndex('webhook_endpoints_company').on('webhook_endpoints').columns(['company_id', 'created_at']).execute();

  await withId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('transport_request_id', 'integer', (c) => c.notNull())
    .addColumn('ordering_key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_attempt_at', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('gave_up_at', 'text')
    .addColumn('locked_until', 'text')
    .execute();
  // the worker's scan: pending rows by due time; the order check: an endpoint's rows of one request
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['endpoint_id', 'ordering_key', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
  await db.schema.dropTable('webhook_endpoints').ifExists().execute();
}
