import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';

/** A code takes at most this many tries; the last wrong one voids it (server.md §3). */
export const MAX_CODE_TRIES = 5;

/** Password reset codes, stored hashed (server.md §3). */
export function passwordResetsRepo(db: Db) {
  return {
    /** Stores a new code for the user and voids every older one, in one transaction. */
    async issue(userId: number, codeHash: string, ttlMs: number) {
      const at = Date.now();
      const now = new Date(at).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('password_resets').set({ consumed_at: now }).where('user_id', '=', userId).where('consumed_at', 'is', null).execute();
        await trx
          .insertInto('password_resets')
          .values({
            user_id: userId,
            code_hash: codeHash,
            created_at: now,
            expires_at: new Date(at + ttlMs).toISOString(),
          })
          .execute();
      });
    },

    /** The user's current code: the newest one not used, voided or expired. */
    current(userId: number) {
      return db
        .selectFrom('password_resets')
        .select(['id', 'code_hash'])
        .where('user_id', '=', userId)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', nowIso())
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /**
     * Counts one try on the code before it is checked, in one conditional update, so parallel guesses
     * cannot take more than MAX_CODE_TRIES between them. Answers the tries so far, or null when the code
     * has none left (used, voided, or tried MAX_CODE_TRIES times).
     */
    async countTry(id: number): Promise<number | null> {
      const row = await db
        .updateTable('password_resets')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .where('attempts', '<', MAX_CODE_TRIES)
        .returning('attempts')
        .executeTakeFirst();
      return row ? Number(row.attempts) : null;
    },

    /** Marks the code used (or void): true for exactly one caller, so a code works once. */
    async consume(id: number): Promise<boolean> {
      const row = await db
        .updateTable('password_resets')
        .set({ consumed_at: nowIso() })
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return !!row;
    },

    /** Voids every open code of the user (after a reset or a password change). */
    async voidAllOf(userId: number) {
      await db.updateTable('password_resets').set({ consumed_at: nowIso() }).where('user_id', '=', userId).where('consumed_at', 'is', null).execute();
    },
  };
}
