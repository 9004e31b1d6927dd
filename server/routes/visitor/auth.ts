import type { App } from '../../lib/typed.js';
import { bool, discriminatorOf, list, obj, okAnswer, sharedSchema, str } from '../../lib/answers.js';
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

/**
 * The sign-in's two answers (issue 33), told apart by `step` (a discriminator, so a generated client narrows
 * on it without a cast): `signed_in` carries the bearer token, `verify` the challenge of the second step
 * (docs/two-factor.md). Every older property stays (the browser's authProvider reads token, challenge,
 * mfa_required and mfa_setup_required). Each branch's `step` is a one-value enum, which generated types read
 * as a literal.
 */
const signedInBody = obj(
  {
    step: { type: 'string', enum: ['signed_in'], description: 'Signed in: `token` is the bearer token.' },
    status: bool,
    message: str,
    token: str,
    type: { ...str, description: 'The role name (as `role`)' },
    role: str,
    user: profileSchema,
    recovery_codes: { ...list(str), description: 'Only after an enrolment at POST /visitor/login/mfa: shown once.' },
  },
  ['recovery_codes'],
);
const challengeBody = obj(
  {
    step: { type: 'string', enum: ['verify'], description: 'A second step follows: POST /visitor/login/mfa (or …/mfa/setup first) with `challenge`.' },
    status: bool,
    message: str,
    challenge: str,
    mfa_required: { ...bool, description: 'An enrolled user: send a TOTP or recovery code.' },
    mfa_setup_required: { ...bool, description: 'An admin who must enrol first (REQUIRE_ADMIN_MFA=1): POST /visitor/login/mfa/setup.' },
  },
  ['mfa_required', 'mfa_setup_required'],
);
/** Named (components.schemas.SignedIn, SignInChallenge): redocly wants a discriminator's branches as $refs. */
export const signedInSchema = sharedSchema({ $id: 'SignedIn', title: 'SignedIn', ...signedInBody });
export const challengeSchema = sharedSchema({ $id: 'SignInChallenge', title: 'SignInChallenge', ...challengeBody });
export const signInAnswerSchema = {
  oneOf: [signedInSchema, challengeSchema],
  discriminator: discriminatorOf('step', { signed_in: 'SignedIn', verify: 'SignInChallenge' }),
};

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
          // `step: signed_in` with the token, or `step: verify` with the challenge of two-step verification.
          200: signInAnswerSchema,
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
      return { step: 'signed_in', status: true, message: req.t('auth.loginSuccess'), token, type: role, role, user };
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
