import type { Db } from '../db/index.js';
import { hashToken, newToken, nowIso } from '../lib/tokens.js';
import { hashRecoveryCode } from '../lib/totp.js';

/** How long the password step's challenge lives, and how many wrong codes it takes before it is void. */
export const CHALLENGE_MINUTES = 5;
export const CHALLENGE_TRIES = 5;
export type ChallengePurpose = 'verify' | 'setup';

/** Two-factor sign-in: the secret, the recovery codes, the challenges (migration 0014_mfa). */
export function mfaRepo(db: Db) {
  return {
    async state(userId: number) {
      const row = await db.selectFrom('user_mfa').selectAll().where('user_id', '=', userId).executeTakeFirst();
      return row ? { ...row, last_step: row.last_step == null ? null : Number(row.last_step) } : undefined;
    },

    async isEnabled(userId: number) {
      const row = await db.selectFrom('user_mfa').select('id').where('user_id', '=', userId).where('enabled_at', 'is not', null).executeTakeFirst();
      return !!row;
    },

    /** A new secret awaiting its first code; replaces a pending one, never an enabled one (answers false then). */
    async startEnrolment(userId: number, secret: string): Promise<boolean> {
      const now = nowIso();
      const done = await db
        .insertInto('user_mfa')
        .values({ user_id: userId, secret, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, updated_at: now, last_step: null }).where('user_mfa.enabled_at', 'is', null))
        .executeTakeFirst();
      return Number(done.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Turns a pending enrolment on with the step of the confirming code and fresh recovery codes. */
    async enable(userId: number, step: number, codes: string[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const now = nowIso();
        const r = await trx
          .updateTable('user_mfa')
          .set({ enabled_at: now, last_step: step, updated_at: now })
          .where('user_id', '=', userId)
          .where('enabled_at', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('mfa_recovery_codes')
          .values(codes.map((c) => ({ user_id: userId, code_hash: hashRecoveryCode(c), created_at: now })))
          .execute();
        return true;
      });
    },

    /** Records an accepted code's step, once: false when this step (or a later one) was already used. */
    async acceptStep(userId: number, step: number): Promise<boolean> {
      const r = await db
        .updateTable('user_mfa')
        .set({ last_step: step, updated_at: nowIso() })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async disable(userId: number) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
        await trx.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
        await trx.deleteFrom('user_mfa').where('user_id', '=', userId).execute();
      });
    },

    async replaceRecoveryCodes(userId: number, codes: string[]) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
        const now = nowIso();
        await trx
          .insertInto('mfa_recovery_codes')
          .values(codes.map((c) => ({ user_id: userId, code_hash: hashRecoveryCode(c), created_at: now })))
          .execute();
      });
    },

    /** Spends a recovery code: false when it is unknown or already used. */
    async useRecoveryCode(userId: number, code: string): Promise<boolean> {
      const r = await db
        .updateTable('mfa_recovery_codes')
        .set({ used_at: nowIso() })
        .where('user_id', '=', userId)
        .where('code_hash', '=', hashRecoveryCode(code))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async recoveryCodesLeft(userId: number): Promise<number> {
      const row = await db
        .selectFrom('mfa_recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A new challenge (the older ones of the user are dropped): its random value, stored hashed. */
    async createChallenge(userId: number, purpose: ChallengePurpose, remember: boolean): Promise<string> {
      const token = newToken();
      const now = new Date();
      await db.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
      await db
        .insertInto('mfa_challenges')
        .values({
          user_id: userId,
          challenge_hash: hashToken(token),
          purpose,
          remember: remember ? 1 : 0,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000).toISOString(),
        })
        .execute();
      return token;
    },

    /** A live challenge (known, unexpired, unused, with tries left) and its user's e-mail and state. */
    async findChallenge(token: string) {
      const row = await db
        .selectFrom('mfa_challenges as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .innerJoin('companies as c', 'c.id', 'u.company_id')
        .select(['m.id', 'm.user_id', 'm.purpose', 'm.remember', 'm.attempts', 'u.email', 'u.role_id', 'u.status_id', 'c.status_id as company_status_id'])
        .where('m.challenge_hash', '=', hashToken(token))
        .where('m.used_at', 'is', null)
        .where('m.expires_at', '>', nowIso())
        .where('m.attempts', '<', CHALLENGE_TRIES)
        .executeTakeFirst();
      return row ? { ...row, purpose: row.purpose as ChallengePurpose, remember: Number(row.remember) === 1 } : undefined;
    },

    /** One wrong code against a challenge (the fifth voids it). */
    async challengeFailed(id: number) {
      await db
        .updateTable('mfa_challenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    /** Uses the challenge up, once: false when another request did first. */
    async consumeChallenge(id: number): Promise<boolean> {
      const r = await db.updateTable('mfa_challenges').set({ used_at: nowIso() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
