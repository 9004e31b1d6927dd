import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { isUniqueViolation } from '../lib/dependents.js';
import { nowIso } from '../lib/tokens.js';
import { isPostgres } from '../migrations/helpers.js';

/** What a quote PDF records when it is issued (migration 0031). */
export interface IssuedQuote {
  /** the quote's date (YYYY-MM-DD, Europe/Rome): its year numbers it */
  date: string;
  companyId: number | null;
  userId: number | null;
  carrierId: number | null;
  /** cents */
  total: number | null;
  validTo: string | null;
  inputsHash: string;
}

/** Tries before giving up on a yearly number under concurrent issues (each retry follows a unique-index refusal). */
const ATTEMPTS = 50;

/**
 * The issued quotes (issue 36 item 5, docs/request-documents.md "Quote numbers"): `issue` numbers a quote in
 * ONE insert, `INSERT … SELECT` of the year's highest `seq` + 1 with its number text built by the database
 * (`P-2026-000123`, at least six digits, never cut). Race-safe on both databases: SQLite runs one write at a
 * time; on PostgreSQL two concurrent inserts can read the same highest seq, the second then waits for the
 * first and fails on the unique `(year, seq)` index, and takes the next number on its next try.
 * Choice over a counter row (UPDATE … RETURNING then INSERT): one statement for the download, no row to seed
 * per year, and the table alone says which numbers were issued.
 */
export function issuedQuotesRepo(db: Db) {
  const pg = isPostgres(db);
  return {
    async issue(q: IssuedQuote): Promise<{ id: number; number: string }> {
      const year = Number(q.date.slice(0, 4));
      const next = sql<number>`coalesce(max(seq), 0) + 1`;
      const number = pg
        ? sql<string>`'P-' || cast(${String(year)} as text) || '-' || lpad((coalesce(max(seq), 0) + 1)::text, greatest(6, length((coalesce(max(seq), 0) + 1)::text)), '0')`
        : sql<string>`'P-' || cast(${String(year)} as text) || '-' || printf('%06d', coalesce(max(seq), 0) + 1)`;
      for (let attempt = 1; ; attempt++) {
        try {
          return await db
            .insertInto('issued_quotes')
            .columns(['number', 'year', 'seq', 'company_id', 'user_id', 'carrier_id', 'created_at', 'total', 'valid_to', 'inputs_hash'])
            .expression(
              db
                .selectFrom('issued_quotes')
                .select([
                  number.as('number'),
                  sql.lit(year).as('year'),
                  next.as('seq'),
                  sql`cast(${q.companyId} as integer)`.as('company_id'),
                  sql`cast(${q.userId} as integer)`.as('user_id'),
                  sql`cast(${q.carrierId} as integer)`.as('carrier_id'),
                  sql`cast(${nowIso()} as text)`.as('created_at'),
                  sql`cast(${q.total} as integer)`.as('total'),
                  sql`cast(${q.validTo} as text)`.as('valid_to'),
                  sql`cast(${q.inputsHash} as text)`.as('inputs_hash'),
                ])
                .where('year', '=', year),
            )
            .returning(['id', 'number'])
            .executeTakeFirstOrThrow();
        } catch (err) {
          if (!isUniqueViolation(err) || attempt >= ATTEMPTS) throw err;
        }
      }
    },
  };
}
