import type { Kysely } from 'kysely';
import { bigintType, withId } from './helpers.js';

/**
 * Two-factor sign-in with a TOTP app (server.md §3 "Sessions"; docs/two-factor.md): the user's secret,
 * the hashed one-time recovery codes, and the short-lived challenges between the password and the code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per user who started or finished enrolment. `enabled_at` null: the secret was shown but not
  // yet confirmed with a code. `last_step`: the TOTP time step of the last accepted code (a code is used once).
  await withId(db, db.schema.createTable('user_mfa'))
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled_at', 'text')
    .addColumn('last_step', bigintType(db))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Ten per enrolment (or regeneration); only the SHA-256 is kept; `used_at` set when spent.
  await withId(db, db.schema.createTable('mfa_recovery_codes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mfa_recovery_codes_user').on('mfa_recovery_codes').column('user_id').execute();

  // The password step's answer for an enrolled user (purpose `verify`) or an admin who must enrol
  // (`setup`): random, stored hashed, five minutes, one use, bound to the user and to `remember`.
  await withId(db, db.schema.createTable('mfa_challenges'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('challenge_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('mfa_challenges_user').on('mfa_challenges').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['mfa_challenges', 'mfa_recovery_codes', 'user_mfa']) await db.schema.dropTable(t).ifExists().execute();
}
