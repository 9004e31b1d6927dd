import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { bool, dataAnswer, int, list, obj, okAnswer, str, strN, writeAnswer } from '../../lib/answers.js';
import { ApiError, conflict, invalid } from '../../lib/errors.js';
import { signInThrottle } from '../../lib/signInThrottle.js';
import { verifyPassword } from '../../lib/passwords.js';
import { mfaRequiredFor, spendCode } from '../../lib/secondFactor.js';
import { acceptedStep, cleanCode, newRecoveryCodes, newTotpSecret, otpauthUri, qrDataUrl } from '../../lib/totp.js';
import { mfaRepo } from '../../repositories/mfa.js';
import { usersRepo } from '../../repositories/users.js';
import { enrolmentSchema } from './mfaLogin.js';
import { signInFailed } from '../../plugins/audit.js';

const codeProp = { type: 'string', minLength: 1, maxLength: 40 } as const;
/** A current TOTP (or recovery) code, or the password: what turning off and new recovery codes ask. */
const proofBody = {
  type: 'object',
  additionalProperties: false,
  properties: { code: codeProp, password: { type: 'string', minLength: 1, maxLength: 1024 } },
} as const;
const codesAnswer = writeAnswer(obj({ recovery_codes: list(str) }));

/** The signed-in user's own two-step verification, in the account settings (docs/two-factor.md). */
export default async function mfaRoutes(app: App) {
  const mfa = mfaRepo(app.db);
  const users = usersRepo(app.db);
  const throttle = signInThrottle(app);

  /** The proof of `proofBody`: a code of the enrolled user or the password, counted like a sign-in. */
  async function checkProof(req: FastifyRequest, body: { code?: string; password?: string }) {
    const me = req.user!;
    if (!body.code && !body.password) throw invalid({ code: 'mfa.proofNeeded' }, 'mfa.proofNeeded');
    const attempt = await throttle.begin(req, me.email);
    let ok = false;
    if (body.code) ok = await spendCode(app.db, me.id, body.code);
    else {
      const found = await users.findForLogin(me.email);
      ok = !!found && (await verifyPassword(found.password_hash, body.password!));
    }
    if (!ok) {
      await throttle.failed(attempt);
      await signInFailed(app, req, me.email, me.id, body.code ? 'mfa_failed' : 'login_failed');
      throw invalid({ [body.code ? 'code' : 'password']: 'mfa.wrongProof' }, 'mfa.wrongProof');
    }
    await throttle.passed(attempt);
  }

  app.get(
    '/visitor/mfa',
    {
      config: { policy: 'signedIn' },
      schema: {
        tags: ['visitor'],
        summary: "Whether the caller's two-step verification is on, since when, and the recovery codes left.",
        response: { 200: dataAnswer(obj({ enabled: bool, enabled_at: strN, recovery_codes_left: int, required: bool })) },
      },
    },
    async (req) => {
      const me = req.user!;
      const state = await mfa.state(me.id);
      const enabled = !!state?.enabled_at;
      return {
        status: true,
        data: {
          enabled,
          enabled_at: state?.enabled_at ?? null,
          recovery_codes_left: enabled ? await mfa.recoveryCodesLeft(me.id) : 0,
          required: mfaRequiredFor(app.config, me.role_id),
        },
      };
    },
  );

  app.post(
    '/visitor/mfa/setup',
    {
      config: { policy: 'signedIn', notAudited: 'a pending secret, in force only once confirmed (mfa_enable is logged)' },
      schema: {
        tags: ['visitor'],
        summary: 'Starts enrolment: a new TOTP secret and its QR code (confirmed by /visitor/mfa/enable).',
        response: { 200: writeAnswer(enrolmentSchema) },
      },
    },
    async (req) => {
      const me = req.user!;
      const secret = newTotpSecret();
      if (!(await mfa.startEnrolment(me.id, secret))) throw conflict('mfa.alreadyEnabled');
      const uri = otpauthUri(me.email, secret);
      return { status: true, message: req.t('mfa.setupStarted'), data: { secret, uri, qr: qrDataUrl(uri) } };
    },
  );

  app.post(
    '/visitor/mfa/enable',
    {
      config: { policy: 'signedIn' },
      schema: {
        tags: ['visitor'],
        summary: 'Confirms enrolment with a code from the app; answers the ten recovery codes (shown once).',
        response: { 200: codesAnswer },
        body: { type: 'object', required: ['code'], additionalProperties: false, properties: { code: codeProp } },
      },
    },
    async (req) => {
      const me = req.user!;
      const state = await mfa.state(me.id);
      if (!state) throw conflict('mfa.notStarted');
      if (state.enabled_at) throw conflict('mfa.alreadyEnabled');
      // Not throttled: the caller holds the secret just shown; a wrong code here opens nothing.
      const step = await acceptedStep(state.secret, cleanCode(req.body.code), null);
      if (step === null) throw invalid({ code: 'mfa.invalidCode' }, 'mfa.invalidCode');
      const codes = newRecoveryCodes();
      if (!(await mfa.enable(me.id, step, codes))) throw conflict('mfa.alreadyEnabled');
      req.audit({ action: 'mfa_enable', resource: 'users', resource_id: me.id, company_id: me.company_id });
      return { status: true, message: req.t('mfa.enabled'), data: { recovery_codes: codes } };
    },
  );

  app.post(
    '/visitor/mfa/disable',
    {
      config: { policy: 'signedIn' },
      schema: {
        tags: ['visitor'],
        summary: 'Turns two-step verification off (asks a current code or the password).',
        response: { 200: okAnswer },
        body: proofBody,
      },
    },
    async (req) => {
      const me = req.user!;
      if (!(await mfa.isEnabled(me.id))) throw conflict('mfa.notEnabled');
      if (mfaRequiredFor(app.config, me.role_id)) throw new ApiError(403, 'mfa.requiredForAdmins');
      await checkProof(req, req.body);
      await mfa.disable(me.id);
      req.audit({ action: 'mfa_disable', resource: 'users', resource_id: me.id, company_id: me.company_id });
      return { status: true, message: req.t('mfa.disabled') };
    },
  );

  app.post(
    '/visitor/mfa/recovery_codes',
    {
      config: { policy: 'signedIn' },
      schema: {
        tags: ['visitor'],
        summary: 'Replaces the recovery codes with ten new ones, shown once (asks a current code or the password).',
        response: { 200: codesAnswer },
        body: proofBody,
      },
    },
    async (req) => {
      const me = req.user!;
      if (!(await mfa.isEnabled(me.id))) throw conflict('mfa.notEnabled');
      await checkProof(req, req.body);
      const codes = newRecoveryCodes();
      await mfa.replaceRecoveryCodes(me.id, codes);
      req.audit({
        action: 'update',
        resource: 'users',
        resource_id: me.id,
        company_id: me.company_id,
        changes: { recovery_codes: { before: null, after: codes.length } },
      });
      return { status: true, message: req.t('mfa.codesRegenerated'), data: { recovery_codes: codes } };
    },
  );
}
