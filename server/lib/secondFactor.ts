import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { USER_ROLE, USER_ROLES, type UserRoleId } from '../../model/roles.js';
import { mfaRepo } from '../repositories/mfa.js';
import { tokensRepo } from '../repositories/tokens.js';
import { usersRepo } from '../repositories/users.js';
import { acceptedStep, cleanCode, isTotpCode } from './totp.js';

/** REQUIRE_ADMIN_MFA=1 and an admin (Admin, Admin Users): no session without a TOTP app. */
export const mfaRequiredFor = (config: Config, roleId: number) => config.requireAdminMfa && (roleId === USER_ROLE.ADMIN || roleId === USER_ROLE.ADMIN_USERS);

/**
 * The password step's answer when a second step must follow (docs/two-factor.md): a challenge for the
 * code of an enrolled user, or one that only allows enrolment for an admin who must enrol. Null: none.
 */
export async function passwordStepChallenge(db: Db, config: Config, req: FastifyRequest, user: { id: number; role_id: number }, remember: boolean) {
  const mfa = mfaRepo(db);
  if (await mfa.isEnabled(user.id)) {
    const challenge = await mfa.createChallenge(user.id, 'verify', remember);
    return { step: 'verify', status: true, message: req.t('mfa.codeNeeded'), mfa_required: true, challenge };
  }
  if (mfaRequiredFor(config, user.role_id)) {
    const challenge = await mfa.createChallenge(user.id, 'setup', remember);
    return { step: 'verify', status: true, message: req.t('mfa.setupNeeded'), mfa_setup_required: true, challenge };
  }
  return null;
}

/**
 * Checks a code of an enrolled user and spends it: six digits are a TOTP code (within ±1 step, later
 * than the last accepted one), anything else a recovery code (each once). False when it does not hold.
 */
export async function spendCode(db: Db, userId: number, code: string): Promise<boolean> {
  const mfa = mfaRepo(db);
  const state = await mfa.state(userId);
  if (!state?.enabled_at) return false;
  if (isTotpCode(code)) {
    const step = await acceptedStep(state.secret, cleanCode(code), state.last_step);
    return step !== null && (await mfa.acceptStep(userId, step));
  }
  return mfa.useRecoveryCode(userId, code);
}

/** The normal sign-in answer `{step: 'signed_in', status, message, token, type, role, user}` (routes/visitor/auth.ts signedInSchema). */
export async function signInAnswer(db: Db, req: FastifyRequest, userId: number, roleId: number, remember: boolean) {
  const token = await tokensRepo(db).issue(userId, remember, { userAgent: req.headers['user-agent'], ip: req.ip });
  const user = await usersRepo(db).profile(userId);
  const role = USER_ROLES[roleId as UserRoleId];
  return { step: 'signed_in', status: true, message: req.t('auth.loginSuccess'), token, type: role, role, user };
}
