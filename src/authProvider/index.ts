import type { AuthProvider } from 'react-admin';
import { kindOfRoleName } from '../../model/roles';
import type { Action } from '../../model/permissions';
import { apiRequest } from '../api/http';
import { clearSession, readRole, readToken, writeSession } from './session';
import { challengeOf, finishMfaSetup, MfaChallengeError, secondStep, type LoginAnswer } from './mfa';

export { installSession } from './startup';
export { MfaChallengeError, mfaLoginSetup, type MfaChallenge } from './mfa';

export interface LoginParams {
  email?: string;
  password?: string;
  remember?: boolean;
  /** The second step (docs/two-factor.md): the password step's challenge and the app's or a recovery code. */
  challenge?: string;
  code?: string;
}

let profilePromise: Promise<any> | null = null;
/** The profile (me), fetched once per session and refreshed after the account settings change it. */
export function fetchProfile(force = false) {
  if (force || !profilePromise) {
    profilePromise = apiRequest<{ user: any }>('/visitor/getProfile').then((r) => r.user);
    profilePromise.catch(() => {
      profilePromise = null;
    });
  }
  return profilePromise;
}

/** The enrolment of an admin at sign-in (REQUIRE_ADMIN_MFA=1): the recovery codes, then `enter` opens the session. */
export const finishMfaEnrolment = (challenge: string, code: string, remember: boolean) =>
  finishMfaSetup(challenge, code, remember, (user) => {
    profilePromise = Promise.resolve(user);
  });

export const authProvider: AuthProvider = {
  async login({ email, password, remember, challenge, code }: LoginParams) {
    const res: LoginAnswer = challenge
      ? await secondStep(challenge, code ?? '')
      : await apiRequest<LoginAnswer>('/visitor/login', { method: 'POST', body: { email, password, remember: !!remember } });
    // An enrolled user (or an admin who must enrol): no token yet, the login page asks the code.
    const mfa = challengeOf(res);
    if (mfa) throw new MfaChallengeError(mfa);
    writeSession(res.token!, res.role!, !!remember);
    profilePromise = Promise.resolve(res.user);
    return { redirectTo: '/' };
  },

  async logout() {
    if (readToken()) await apiRequest('/visitor/logout').catch(() => undefined); // errors only clear the session
    clearSession();
    profilePromise = null;
    // The document: logout clears the authorization state and reloads the page (no stale caches
    // survive). Already on the login page there is nothing to reload.
    if (!/^#\/login(\?|$)/.test(window.location.hash)) {
      window.location.replace(`${window.location.pathname}${window.location.search}#/login`);
      window.location.reload();
      return false;
    }
    return '/login';
  },

  async checkAuth() {
    if (!readToken()) throw new Error('ra.auth.auth_check_error');
  },

  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      clearSession();
      profilePromise = null;
      throw new Error('ra.auth.auth_check_error');
    }
  },

  async getIdentity() {
    if (!readToken()) throw new Error('ra.auth.auth_check_error');
    const user = await fetchProfile();
    return {
      id: user.id,
      fullName: `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim(),
      avatar: user.image ?? undefined,
      ...user,
    };
  },

  async getPermissions() {
    return readToken() ? kindOfRoleName(readRole()) : null;
  },

  /** react-admin asks this before showing a resource page; the answer comes from the one permission table. */
  async canAccess({ resource, action }) {
    if (!readToken()) return false;
    // Loaded when first asked (the signed-in shell has it already): the public shell never needs the table.
    const { canAccess } = await import('../../model/permissions');
    return canAccess(kindOfRoleName(readRole()), resource, action as Action);
  },
};
