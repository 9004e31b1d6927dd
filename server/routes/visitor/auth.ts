import type { FastifyInstance } from 'fastify';
import { USER_ROLES, type UserRoleId } from '../../../model/roles.js';
import { ApiError, tooMany } from '../../lib/errors.js';
import { burnVerify, verifyPassword } from '../../lib/passwords.js';
import { rateLimitsRepo } from '../../repositories/rateLimits.js';
import { tokensRepo } from '../../repositories/tokens.js';
import { usersRepo } from '../../repositories/users.js';

const MINUTE = 60_000;
const MAX_FAILURES = 5;

const profileSchema = { type: 'object', additionalProperties: true } as const;

/** Sign-in, sign-out and the profile (server.md §1, §3). */
export default async function authRoutes(app: FastifyInstance) {
  const users = usersRepo(app.db);
  const tokens = tokensRepo(app.db);
  const limits = rateLimitsRepo(app.db);

  app.post('/visitor/login', {
    config: { policy: 'public' },
    schema: {
      tags: ['visitor'],
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
  }, async (req) => {
    const { email, password, remember } = req.body as { email: string; password: string; remember: boolean };
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
    const token = await tokens.issue(found.id, remember);
    const user = await users.profile(found.id);
    const role = USER_ROLES[found.role_id as UserRoleId];
    return { status: true, message: req.t('auth.loginSuccess'), token, type: role, role, user };
  });

  app.get('/visitor/logout', {
    config: { policy: 'signedIn' },
    schema: { tags: ['visitor'] },
  }, async (req) => {
    await tokens.revoke(req.user!.token_id);
    return { status: true, message: req.t('auth.loggedOut') };
  });

  app.get('/visitor/getProfile', {
    config: { policy: 'signedIn' },
    schema: { tags: ['visitor'], response: { 200: { type: 'object', properties: { status: { type: 'boolean' }, data: profileSchema, user: profileSchema } } } },
  }, async (req) => {
    const user = await users.profile(req.user!.id);
    return { status: true, data: user, user };
  });
}
