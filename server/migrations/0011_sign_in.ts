import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Sign-in throttling with device tokens (server.md §3 "Login", OWASP device cookies): the browsers a user
 * has signed in from. Only the SHA-256 of a token is kept; a token is valid a year from its last sign-in
 * and is deleted when it takes 10 wrong passwords in 15 minutes. The failure counts themselves are rows
 * of `throttle_events` (0004), shared by every server process.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('device_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_tokens_user').on('device_tokens').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_tokens').ifExists().execute();
}
