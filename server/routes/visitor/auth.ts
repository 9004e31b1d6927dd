import type { App } from '../../lib/typed.js';
import { bool, int, intN, obj, okAnswer, str } from '../../lib/answers.js';
import { USER_ROLES, type UserRoleId } from '../../../model/roles.js';
import { ApiError, tooMany } from '../../lib/errors.js';
import { burnVerify, verifyPassword } from '../../lib/passwords.js';
import { rateLimitsRepo } from '../../repositories/rateLimits.js';
import { tokensRepo } from '../../repositories/tokens.js';
import { usersRepo } from '../../repositories/users.js';
import { passwordStepChallenge } from '../../lib/secondFactor.js';

const MINUTE = 60_000;
const MAX_FAILURES = 5;

/** The signed-in user's profile (repositories/users.ts `profile`). */
export const profileSchema = obj({ id: int, email: str, first_name: str, last_name: str, role_id: int, company_id: intN });

/** Sign-in, sign-out and the profile (server.md §1, §3). */
export default async function authRoutes(app: App) {
  const users = usersRepo(app.db);
  const tokens = tokensRepo(app.db);
  const limits = rateLimitsRepo(app.db);

  app.post(
    '/visitor/login',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['visitor'],
        summary: 'Signs in and answers a bearer token.',
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
    async (req) => {
      const { email, password, remember = false } = req.body;
      const emailKey = `login:email:${email.trim().toLowerCase()}`;
      const ipKey = `login:ip:${req.ip}`;
      // At most 5 failures a minute per email and per address (server.md §3). Every attempt is counted
      // before the password is checked, in one atomic step per counter, and taken back when it proves
      // right: reading the counts first and counting failures afterwards let a burst of concurrent
      // guesses all pass the check while the count stood at 4.
      const emailHits = await limits.hit(emailKey, MINUTE);
      const ipHits = await limits.hit(ipKey, MINUTE);
      if (emailHits > MAX_FAILURES || ipHits > MAX_FAILURES) throw tooMany();
      const found = await users.findForLogin(email);
      const ok = found ? await verifyPassword(found.password_hash, password) : await burnVerify(password);
      if (!found || !ok) throw new ApiError(401, 'auth.invalidCredentials');
      await limits.release(emailKey, MINUTE);
      await limits.release(ipKey, MINUTE);
      if (found.status_id !== 1) throw new ApiError(403, 'auth.userInactive');
      if (found.company_status_id !== 1) throw new ApiError(403, 'auth.companyInactive');
      const second = await passwordStepChallenge(app.db, app.config, req, found, remember);
      if (second) return second;
      const token = await tokens.issue(found.id, remember);
      const user = await users.profile(found.id);
      const role = USER_ROLES[found.role_id as UserRoleId];
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
