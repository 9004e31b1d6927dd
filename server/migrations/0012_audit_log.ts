import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The audit log (server.md §3, issue 19; declaration model/resources/auditLog.ts, docs/audit-log.md): one
 * row per recorded write or security event, only ever inserted (the server removes rows older than
 * AUDIT_DAYS). The actor's name, role and company name are copied as they were at the time; no foreign
 * keys, so an entry outlives the user or company it names. `tenant_id` is the carrier company whose scope
 * the entry falls in (null: global reference data, or an event with no tenant); `target_company_id` the
 * company the write was about. `changes` is JSON text (`{field: {before, after}}`), `at` ISO-8601 UTC.
 *
 * Indexes serve the list's filters, each ending in `at` (the list is newest first): everything by `at`;
 * one record's history (resource, resource_id); a tenant's log; a user's; a company's (as actor or target).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'text')
    .addColumn('user_role_id', 'integer')
    .addColumn('company_id', 'integer')
    .addColumn('company_name', 'text')
    .addColumn('tenant_id', 'integer')
    .addColumn('target_company_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'integer')
    .addColumn('changes', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_resource').on('audit_log').columns(['resource', 'resource_id', 'at']).execute();
  await db.schema.createIndex('audit_log_tenant').on('audit_log').columns(['tenant_id', 'at']).execute();
  await db.schema.createIndex('audit_log_user').on('audit_log').columns(['user_id', 'at']).execute();
  await db.schema.createIndex('audit_log_company').on('audit_log').columns(['company_id', 'at']).execute();
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_company_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').ifExists().execute();
}
