import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Issue 36 item 5: the quote PDF carries a number. `issued_quotes` keeps one row per quote PDF the calculator
 * issued (lib/quoteNumbers.ts): its number `P-<year>-<seq, 6 digits at least>` (a yearly sequence, Europe/Rome
 * year of the quote's date), who asked (company and user, both null for a visitor; plain ids, no foreign key:
 * the record outlives a deleted company or user, as the audit log does), the carrier whose sheets priced it,
 * when, the lowest total it offered in cents, the validity it printed, and the SHA-256 of its inputs (the body
 * of the cost request, the caller's kind) so the same question can be found again.
 * `(year, seq)` is unique: the insert takes the year's highest seq + 1 and a concurrent one that took the same
 * number fails on this index and tries again (lib/quoteNumbers.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('issued_quotes'))
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('carrier_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('total', 'integer')
    .addColumn('valid_to', 'text')
    .addColumn('inputs_hash', 'text', (c) => c.notNull())
    .addUniqueConstraint('issued_quotes_year_seq', ['year', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('issued_quotes').ifExists().execute();
}
