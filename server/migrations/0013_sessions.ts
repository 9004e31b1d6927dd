import type { Kysely } from 'kysely';

/**
 * Active sessions (server.md §3 "Sessions"): a session is a row of `auth_tokens`; it now records the
 * browser and address it was opened from and when it was last used (refreshed at most once a minute,
 * repositories/tokens.ts). Rows from before this migration keep NULL (shown as "unknown" and their start).
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('auth_tokens').addColumn('last_used_at', 'text').execute();
  await db.schema.alterTable('auth_tokens').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('auth_tokens').addColumn('ip', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['ip', 'user_agent', 'last_used_at']) await db.schema.alterTable('auth_tokens').dropColumn(c).execute();
}
