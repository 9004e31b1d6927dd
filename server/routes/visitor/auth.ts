import type { App } from '../../lib/typed.js';
import { bool, obj, okAnswer, str } from '../../lib/answers.js';
import { profileAnswer } from '../../lib/accountAnswers.js';
import { USER_ROLES, type UserRoleId } from '../../../model/roles.js';
import { ApiError } from '../../lib/errors.js';
import { signInThrottle } from '../../lib/signInThrottle.js';
import { burnVerify, verifyPassword } from '../../lib/passwords.js';
import { tokensRepo } from '../../repositories/tokens.js';
import { usersRepo } from '../../repositories/users.js';
import { passwordStepChallenge } from '../../lib/secondFactor.js';
import { auditEvent, signInFailed } from '../../plugins/audit.js';

/** The signed-in user's profile (repositories/users.ts `profile`): closed and complete, in lib/accountAnswers.ts. */
export const profileSchema = profileAnswer;

/** Sign-in, sign-out and the profile (server.md §1, §3). */
export default async function authRoutes(app: App) {
  const users = usersRepo(app.db);
  const tokens = tokensRepo(app.db);
  const throttle = signInThrottle(app);

  app.post(
    '/visitor/login',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['visitor'],
        summary: 'Signs in and answers a bearer token.',
        description:
          'A success sets the `deviceToken` cookie (HttpOnly, SameSite=Strict, Path=/api, one year): the browser is trusted for this user. ' +
          'API clients may send it back as `X-Device-Token`. Failures are throttled (10 per device token, 10 per account and 100 per address ' +
          'from untrusted devices, in 15 minutes): a 429 carries `Retry-After` in seconds.',
        security: [{ apiPassword: [] }],
        response: {
          200: {
            anyOf: [
              obj({ status: bool, message: str, token: str, type: str, role: str, user: profileSchema }),
              // Two-step verification (docs/two-factor.md): no token yet; the challenge goes to /visitor/login/mfa.
              obj({ status: bool, message: str, challenge: str, mfa_required: bool, mfa_setup_required: bool }, ['mfa_required', 'mfa_setup_required']),
            ],
          },
        },
        body: {
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: {
            email: { type: 'string', minLength: 1, maxLength: 254 },
            password: { type: 'string', minLength: 1, maxLength: 1024 },
            remember: { type: 'boolean', default: false },
          },
        },
      },
    },
    async (req, reply) => {
      const { email, password, remember = false } = req.body;
      // Counted before the password is checked (lib/signInThrottle.ts, server.md §3): 429 when locked.
      const attempt = await throttle.begin(req, email);
      const found = await users.findForLogin(email);
      const ok = found ? await verifyPassword(found.password_hash, password) : await burnVerify(password);
      if (!found || !ok) {
        // Sign-in failure.
        await throttle.failed(attempt);
        await signInFailed(app, req, email, found?.id);
        throw new ApiError(401, 'auth.invalidCredentials');
      }
      if (found.status_id !== 1 || found.company_status_id !== 1) {
        await throttle.passed(attempt);
        throw new ApiError(403, found.status_id !== 1 ? 'auth.userInactive' : 'auth.companyInactive');
      }
      // Two-step verification (docs/two-factor.md): the password was right, a code follows; no device token yet.
      const second = await passwordStepChallenge(app.db, app.config, req, found, remember);
      if (second) {
        await throttle.passed(attempt);
        // Not signed in yet: the entry is the second step's ('login', or 'mfa_failed').
        req.auditNothing();
        return second;
      }
      // Sign-in success.
      await throttle.succeeded(attempt, reply, found.id);
      const token = await tokens.issue(found.id, remember, { userAgent: req.headers['user-agent'], ip: req.ip });
      const user = await users.profile(found.id);
      const role = USER_ROLES[found.role_id as UserRoleId];
      await auditEvent(app, req, { action: 'login', resource: 'auth', resource_id: found.id, user_id: found.id });
      return { status: true, message: req.t('auth.loginSuccess'), token, type: role, role, user };
    },
  );

  app.get(
    '/visitor/logout',
    {
      config: { policy: 'signedIn' },
      schema: { tags: ['visitor'], summary: 'Signs out (revokes the token).', response: { 200: okAnswer } },
    },
    async (req) => {
      await tokens.revoke(req.user!.token_id);
      req.audit({ action: 'logout', resource: 'auth', resource_id: req.user!.id });
      return { status: true, message: req.t('auth.loggedOut') };
    },
  );

  app.get(
    '/visitor/getProfile',
    {
      config: { policy: 'signedIn' },
      schema: {
        tags: ['visitor'],
        summary: "The signed-in user's profile.",
        response: { 200: obj({ status: bool, data: profileSchema, user: profileSchema }) },
      },
    },
    async (req) => {
      const user = await users.profile(req.user!.id);
      return { status: true, data: user, user };
    },
  );
}
