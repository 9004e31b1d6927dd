import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * API keys (issue 23, docs/integrations.md): a company's machine access (ERP, WMS). Only the SHA-256 of a
 * key is stored (`hash`, unique); `prefix` is the start shown in lists (`fpk_live_ab12`). `scopes` is a
 * comma-separated list (model/apiKeys.ts). `created_by` is the user whose role the key acts with (no
 * foreign key: when that user is deleted the row stays listed, with `created_by_name`, and the key stops
 * working, as when the user is deactivated). The rows go with their company (ON DELETE CASCADE).
 * `last_used_at` moves at most once a minute; `revoked_at` set means revoked (the row stays for the list).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('api_keys'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_company').on('api_keys').columns(['company_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').ifExists().execute();
}
