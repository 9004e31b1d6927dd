import type { Db } from '../db/index.js';
import { nowIso } from '../lib/tokens.js';

/** A code takes at most this many tries; the last wrong one voids it (server.md §3). */
export const MAX_CODE_TRIES = 5;

/** Password reset codes, stored hashed (server.md §3). */
export function passwordResetsRepo(db: Db) {
  return {
    /**
     * Stores a new code (or, `kind: 'invite'`, an invitation link's token hash) for the user and voids every
     * older open one of the same kind, in one transaction. A reset code asked for by anyone who knows the
     * address leaves an open invitation alone (and the reverse); a reset or a password change voids both
     * (`voidAllOf`).
     */
    async issue(userId: number, codeHash: string, ttlMs: number, kind: 'code' | 'invite' = 'code') {
      const at = Date.now();
      const now = new Date(at).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('password_resets')
          .set({ consumed_at: now })
          .where('user_id', '=', userId)
          .where('kind', '=', kind)
          .where('consumed_at', 'is', null)
          .execute();
        await trx
          .insertInto('password_resets')
          .values({
            user_id: userId,
            code_hash: codeHash,
            kind,
            created_at: now,
            expires_at: new Date(at + ttlMs).toISOString(),
          })
          .execute();
      });
    },

    /** An invitation by its token's hash, whatever its state (the link's page says used or expired). */
    findInvite(tokenHash: string) {
      return db
        .selectFrom('password_resets')
        .select(['id', 'user_id', 'expires_at', 'consumed_at'])
        .where('kind', '=', 'invite')
        .where('code_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /** The user's current code: the newest one not used, voided or expired. */
    current(userId: number) {
      return db
        .selectFrom('password_resets')
        .select(['id', 'code_hash'])
        .where('user_id', '=', userId)
        .where('kind', '=', 'code')
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
