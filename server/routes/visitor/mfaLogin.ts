import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { dataAnswer, obj, str } from '../../lib/answers.js';
import { ApiError, invalid } from '../../lib/errors.js';
import { signInThrottle } from '../../lib/signInThrottle.js';
import { signInAnswer, spendCode } from '../../lib/secondFactor.js';
import { acceptedStep, cleanCode, newRecoveryCodes, newTotpSecret, otpauthUri, qrDataUrl } from '../../lib/totp.js';
import { mfaRepo } from '../../repositories/mfa.js';
import { signedInSchema } from './auth.js';
import { auditEvent, signInFailed } from '../../plugins/audit.js';

const challengeProp = { type: 'string', minLength: 1, maxLength: 200 } as const;
const codeProp = { type: 'string', minLength: 1, maxLength: 40 } as const;
/** What the enrolment shows: the secret for manual entry, its otpauth:// address and the QR code (an SVG data URL). */
export const enrolmentSchema = obj({ secret: str, uri: str, qr: str });

/**
 * The sign-in's second step (docs/two-factor.md): the code of an enrolled user, or the enrolment of an
 * admin who must have one (REQUIRE_ADMIN_MFA=1). Public: the challenge of the password step is the key.
 */
export default async function mfaLoginRoutes(app: App) {
  const mfa = mfaRepo(app.db);
  const throttle = signInThrottle(app);

  /**
   * A live challenge (of this purpose when given), or a 401 counted against the address alone (a forged,
   * expired, used or voided one: no account is known, so the e-mail counted is empty).
   */
  async function liveChallenge(req: FastifyRequest, token: string, purpose?: 'setup') {
    const found = await mfa.findChallenge(token);
    if (!found || (purpose && found.purpose !== purpose)) {
      await throttle.failed(await throttle.begin(req, ''));
      await auditEvent(app, req, { action: 'mfa_failed', resource: 'auth', changes: { challenge: { before: null, after: 'invalid' } } });
      throw new ApiError(401, 'mfa.challengeInvalid');
    }
    return found;
  }
  function checkActive(found: { status_id: number; company_status_id: number }) {
    if (found.status_id !== 1) throw new ApiError(403, 'auth.userInactive');
    if (found.company_status_id !== 1) throw new ApiError(403, 'auth.companyInactive');
  }

  app.post(
    '/visitor/login/mfa',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['visitor'],
        summary: 'Second sign-in step: a TOTP or recovery code for the challenge; answers the bearer token.',
        security: [{ apiPassword: [] }],
        response: {
          // The password step's `signed_in` answer (never a second challenge), with the recovery codes after an enrolment.
          200: signedInSchema,
        },
        body: {
          type: 'object',
          required: ['challenge', 'code'],
          additionalProperties: false,
          properties: { challenge: challengeProp, code: codeProp },
        },
      },
    },
    async (req, reply) => {
      const { challenge: token, code } = req.body;
      const challenge = await liveChallenge(req, token);
      checkActive(challenge);
      const attempt = await throttle.begin(req, challenge.email);
      try {
        let recoveryCodes: string[] | undefined;
        if (challenge.purpose === 'verify') {
          if (!(await spendCode(app.db, challenge.user_id, code))) {
            await mfa.challengeFailed(challenge.id);
            await throttle.failed(attempt);
            await signInFailed(app, req, challenge.email, challenge.user_id, 'mfa_failed');
            throw invalid({ code: 'mfa.invalidCode' }, 'mfa.invalidCode');
          }
        } else {
          // Enrolment of an admin who must have the second factor: the code confirms the secret shown.
          const state = await mfa.state(challenge.user_id);
          const pending = state && !state.enabled_at ? state : undefined;
          const step = pending ? await acceptedStep(pending.secret, cleanCode(code), null) : null;
          if (step === null) {
            await mfa.challengeFailed(challenge.id);
            await throttle.failed(attempt);
            await signInFailed(app, req, challenge.email, challenge.user_id, 'mfa_failed');
            throw invalid({ code: pending ? 'mfa.invalidCode' : 'mfa.notStarted' }, 'mfa.invalidCode');
          }
          recoveryCodes = newRecoveryCodes();
          if (!(await mfa.enable(challenge.user_id, step, recoveryCodes))) throw new ApiError(401, 'mfa.challengeInvalid');
        }
        if (!(await mfa.consumeChallenge(challenge.id))) throw new ApiError(401, 'mfa.challengeInvalid');
        // The whole sign-in succeeded: the device token of lib/signInThrottle.ts comes now, not after the password.
        await throttle.succeeded(attempt, reply, challenge.user_id);
        const answer = await signInAnswer(app.db, req, challenge.user_id, challenge.role_id, challenge.remember);
        if (recoveryCodes) await auditEvent(app, req, { action: 'mfa_enable', resource: 'users', resource_id: challenge.user_id, user_id: challenge.user_id });
        await auditEvent(app, req, { action: 'login', resource: 'auth', resource_id: challenge.user_id, user_id: challenge.user_id });
        return recoveryCodes ? { ...answer, recovery_codes: recoveryCodes } : answer;
      } catch (err) {
        await throttle.passed(attempt); // nothing when `failed` or `succeeded` settled it
        throw err;
      }
    },
  );

  app.post(
    '/visitor/login/mfa/setup',
    {
      config: { policy: 'public', notAudited: 'a pending secret, in force only once confirmed at /visitor/login/mfa (mfa_enable is logged)' },
      schema: {
        tags: ['visitor'],
        summary: 'For an admin who must enrol before signing in: a new TOTP secret and its QR code for the challenge.',
        security: [{ apiPassword: [] }],
        response: { 200: dataAnswer(enrolmentSchema) },
        body: { type: 'object', required: ['challenge'], additionalProperties: false, properties: { challenge: challengeProp } },
      },
    },
    async (req) => {
      const challenge = await liveChallenge(req, req.body.challenge, 'setup');
      checkActive(challenge);
      const secret = newTotpSecret();
      if (!(await mfa.startEnrolment(challenge.user_id, secret))) throw new ApiError(409, 'mfa.alreadyEnabled');
      const uri = otpauthUri(challenge.email, secret);
      return { status: true, data: { secret, uri, qr: qrDataUrl(uri) } };
    },
  );
}
