import { sql, type Kysely } from 'kysely';

/**
 * Issue 35 item 9, invitations and the portal's languages.
 *
 * 1. A user created without a password gets a link to choose one (server/routes/visitor/invitation.ts). The
 *    link's token is a row of `password_resets` (the reset codes' table and machinery: one open row per user,
 *    consumed once, voided by a reset or a password change), told apart by `kind`: `code` (the 4-digit reset
 *    codes, argon2 hashes) or `invite` (the SHA-256 of the link's 256-bit token, looked up by that hash).
 *
 * 2. The languages a user or a company picks are the portal's: it, en, fr (model/languages.ts). Installations
 *    seeded before this issue also hold German and Spanish. Our choice: whoever pointed at one of them now
 *    points at English — the portal never spoke German or Spanish (its mail fell back to Italian), and English
 *    is the language a German- or Spanish-speaking customer of an Italian portal most likely reads — and the
 *    two rows are removed, so no form, import or API call can pick them again. Not reversible (`down` leaves
 *    the mapped rows in English).
 */
const OFFERED = ['it', 'en', 'fr'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('password_resets')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('code'))
    .execute();
  await db.schema.createIndex('password_resets_code_hash').on('password_resets').column('code_hash').execute();
  await moveToPortalLanguages(db);
}

/** Point 2 above (exported for its test: a fresh database has no German or Spanish row to move). */
export async function moveToPortalLanguages(db: Kysely<any>): Promise<void> {
  const english = await db.selectFrom('languages').select('id').where('code', '=', 'en').executeTakeFirst();
  const others = await db.selectFrom('languages').select('id').where('code', 'not in', OFFERED).execute();
  if (others.length) {
    const ids = others.map((r) => Number(r.id));
    const to = english ? Number(english.id) : null;
    await db.updateTable('users').set({ language_id: to }).where('language_id', 'in', ids).execute();
    await db.updateTable('companies').set({ language_id: to }).where('language_id', 'in', ids).execute();
    // An access request's language is required: without an English row (never, the seed writes it) it keeps its own.
    if (to !== null) await db.updateTable('access_requests').set({ carrier_language_id: to }).where('carrier_language_id', 'in', ids).execute();
    await db
      .deleteFrom('languages')
      .where('id', 'in', ids)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('access_requests').select(sql.lit(1).as('x')).whereRef('carrier_language_id', '=', 'languages.id'))),
      )
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('password_resets_code_hash').ifExists().execute();
  await db.schema.alterTable('password_resets').dropColumn('kind').execute();
}
