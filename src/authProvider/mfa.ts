import { apiRequest } from '../api/http';
import { writeSession } from './session';

/**
 * The sign-in's second step (docs/two-factor.md). The password step of an enrolled user answers a
 * challenge instead of a token: `authProvider.login` throws it as an `MfaChallengeError`, the login
 * page asks the code and calls `login({ challenge, code, remember })`. An admin who must enrol first
 * (`setup`) gets the QR code from `mfaLoginSetup` and finishes with `finishMfaSetup`.
 */
export interface MfaChallenge {
  challenge: string;
  /** An admin without TOTP under REQUIRE_ADMIN_MFA=1: the challenge only allows enrolment. */
  setup: boolean;
  message: string;
}

export class MfaChallengeError extends Error {
  constructor(public readonly mfa: MfaChallenge) {
    super(mfa.message);
    this.name = 'MfaChallengeError';
  }
}

export interface LoginAnswer {
  message: string;
  token?: string;
  role?: string;
  user?: any;
  challenge?: string;
  mfa_required?: boolean;
  mfa_setup_required?: boolean;
  recovery_codes?: string[];
}

/** The challenge of a password step's answer, when a second step must follow. */
export function challengeOf(res: LoginAnswer): MfaChallenge | null {
  if (!res.challenge || !(res.mfa_required || res.mfa_setup_required)) return null;
  return { challenge: res.challenge, setup: !!res.mfa_setup_required, message: res.message };
}

export const secondStep = (challenge: string, code: string) => apiRequest<LoginAnswer>('/visitor/login/mfa', { method: 'POST', body: { challenge, code } });

/** The QR code and the secret of an enrolment at sign-in (a `setup` challenge). */
export const mfaLoginSetup = (challenge: string) =>
  apiRequest<{ data: { secret: string; uri: string; qr: string } }>('/visitor/login/mfa/setup', { method: 'POST', body: { challenge } }).then((r) => r.data);

/**
 * Confirms an enrolment at sign-in with the app's code: answers the recovery codes to show once, and
 * `enter`, which opens the session (called when the user has kept them).
 */
export async function finishMfaSetup(challenge: string, code: string, remember: boolean, onEnter: (user: any) => void) {
  const res = await secondStep(challenge, code);
  return {
    recoveryCodes: res.recovery_codes ?? [],
    enter: () => {
      writeSession(res.token!, res.role!, remember);
      onEnter(res.user);
    },
  };
}
