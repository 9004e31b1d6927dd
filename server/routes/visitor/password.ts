import crypto from 'node:crypto';
import type { App } from '../../lib/typed.js';
import { okAnswer } from '../../lib/answers.js';
import { invalid, tooMany } from '../../lib/errors.js';
import { composeMail, createMailer } from '../../lib/mail.js';
import { burnVerify, hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords.js';
import { accountsRepo } from '../../repositories/accounts.js';
import { MAX_CODE_TRIES, passwordResetsRepo } from '../../repositories/passwordResets.js';
import { throttleRepo } from '../../repositories/throttle.js';
import { tokensRepo } from '../../repositories/tokens.js';
import { auditEvent } from '../../plugins/audit.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const CODE_TTL = 10 * MINUTE;
/** server.md §3: at most 3 codes an hour and 10 wrong tries a day per account. */
const CODES_PER_HOUR = 3;
const WRONG_TRIES_PER_DAY = 10;
/**
 * Not in the documents: limits per address, so one client cannot spray codes and guesses over many
 * accounts (each account's own limits stay as server.md gives them).
 */
const CODES_PER_HOUR_PER_ADDRESS = 20;
const WRONG_TRIES_PER_HOUR_PER_ADDRESS = 30;
/** Not in the documents: wrong old passwords in a password change, per user, before a 429. */
const WRONG_OLD_PASSWORDS = 5;
const WRONG_OLD_WINDOW = 15 * MINUTE;

const str = (max: number) => ({ type: 'string', maxLength: max }) as const;
const emailKey = (email: string) => email.trim().toLowerCase();

/** Forgotten password (a 4-digit code by mail), reset with the code, and change of a known password (server.md §3). */
export default async function passwordRoutes(app: App) {
  const accounts = accountsRepo(app.db);
  const resets = passwordResetsRepo(app.db);
  const throttle = throttleRepo(app.db);
  const tokens = tokensRepo(app.db);
  const mailer = createMailer(app.config, app.log);

  const notifyPasswordChanged = async (user: { email: string; first_name: string; language_id: number | null }) => {
    void mailer.sendLater(
      await composeMail(app.db, { to: user.email, languageId: user.language_id, key: 'mail.passwordChanged', params: { name: user.first_name } }),
    );
  };

  app.post(
    '/visitor/forgetPassword',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['visitor'],
        summary: 'Mails a 4-digit password reset code.',
        body: { type: 'object', required: ['email'], additionalProperties: false, properties: { email: { type: 'string', format: 'email', maxLength: 254 } } },
        response: { 200: okAnswer },
      },
    },
    async (req) => {
      const email = emailKey(req.body.email);
      // Counted for every email, known or not, so a 429 tells nothing about which emails have accounts.
      if (!(await throttle.take(`reset:send-ip:${req.ip}`, HOUR, CODES_PER_HOUR_PER_ADDRESS))) throw tooMany(HOUR);
      if (!(await throttle.take(`reset:send:${email}`, HOUR, CODES_PER_HOUR))) throw tooMany(HOUR);
      const code = String(crypto.randomInt(0, 10_000)).padStart(4, '0');
      // Hashed for unknown emails too: the same work and the same answer either way. The mail leaves in
      // the background, so its delivery time does not show either.
      const codeHash = await hashPassword(code);
      const user = await accounts.findActiveByEmail(email);
      if (user) {
        await resets.issue(user.id, codeHash, CODE_TTL);
        void mailer.sendLater(
          await composeMail(app.db, { to: user.email, languageId: user.language_id, key: 'mail.resetCode', params: { name: user.first_name, code } }),
        );
      }
      await auditEvent(app, req, {
        action: 'password_reset',
        resource: 'password_resets',
        user_id: user?.id ?? null,
        changes: { email: { before: null, after: email } },
      });
      return { status: true, message: req.t('accounts.resetSent') };
    },
  );

  app.post(
    '/visitor/resetPassword',
    {
      // otp and password are checked by the handler with the rest (one 422): required in the document.
      config: { policy: 'public', bodyRequired: ['otp', 'password'] },
      schema: {
        tags: ['visitor'],
        summary: 'Sets a new password with a reset code.',
        response: { 200: okAnswer },
        body: {
          type: 'object',
          required: ['email'],
          additionalProperties: false,
          properties: { otp: str(16), email: { type: 'string', format: 'email', maxLength: 254 }, password: str(1024), password_confirmation: str(1024) },
        },
      },
    },
    async (req) => {
      const { otp = '', email, password = '', password_confirmation = '' } = req.body;
      const problems: Record<string, string> = {};
      if (!otp.trim()) problems.otp = 'accounts.otpRequired';
      else if (!/^\d{4}$/.test(otp.trim())) problems.otp = 'accounts.otpInvalid';
      if (!password) problems.password = 'validation.required';
      else if (passwordProblem(password)) problems.password = passwordProblem(password)!;
      if (password !== password_confirmation) problems.password_confirmation = 'accounts.resetMismatch';
      if (Object.keys(problems).length) throw invalid(problems);

      // Every try counts as wrong until it proves right; known or unknown emails alike.
      const ipTry = await throttle.take(`reset:try-ip:${req.ip}`, HOUR, WRONG_TRIES_PER_HOUR_PER_ADDRESS);
      if (!ipTry) throw tooMany(HOUR);
      const accountTry = await throttle.take(`reset:try:${emailKey(email)}`, DAY, WRONG_TRIES_PER_DAY);
      if (!accountTry) {
        await throttle.release(ipTry);
        throw tooMany(DAY);
      }

      const user = await accounts.findActiveByEmail(email);
      const code = user ? await resets.current(user.id) : undefined;
      const tries = code ? await resets.countTry(code.id) : null;
      const right = code && tries !== null ? await verifyPassword(code.code_hash, otp.trim()) : await burnVerify(otp);
      if (!right || !code || !user) {
        // The fifth wrong try voids the code.
        if (code && tries !== null && tries >= MAX_CODE_TRIES) await resets.consume(code.id);
        throw invalid({ otp: 'accounts.otpInvalid' });
      }
      // One use: of two requests with the right code, one wins.
      if (!(await resets.consume(code.id))) throw invalid({ otp: 'accounts.otpInvalid' });
      await throttle.release(ipTry);
      await throttle.release(accountTry);

      await accounts.setPassword(user.id, await hashPassword(password));
      await resets.voidAllOf(user.id);
      await tokens.revokeAllOf(user.id);
      await notifyPasswordChanged(user);
      await auditEvent(app, req, { action: 'password_reset', resource: 'users', resource_id: user.id, user_id: user.id });
      return { status: true, message: req.t('accounts.resetDone') };
    },
  );

  app.post(
    '/visitor/changePassword',
    {
      config: { policy: 'signedIn', bodyRequired: ['oldPassword', 'password'] },
      schema: {
        tags: ['visitor'],
        summary: "Changes the caller's password.",
        response: { 200: okAnswer },
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            oldPassword: str(1024),
            password: str(1024),
            password_confirmation: { ...str(1024), description: 'Required when `password` is given: the same password again.' },
          },
        },
      },
    },
    async (req) => {
      const { oldPassword = '', password = '', password_confirmation = '' } = req.body ?? {};
      const problems: Record<string, string> = {};
      if (!oldPassword) problems.oldPassword = 'accounts.oldPasswordRequired';
      if (!password) problems.password = 'validation.required';
      else if (passwordProblem(password)) problems.password = passwordProblem(password)!;
      if (password !== password_confirmation) problems.password_confirmation = 'accounts.changeMismatch';
      if (Object.keys(problems).length) throw invalid(problems);

      const me = req.user!;
      const attempt = await throttle.take(`password-change:${me.id}`, WRONG_OLD_WINDOW, WRONG_OLD_PASSWORDS);
      if (!attempt) throw tooMany(WRONG_OLD_WINDOW);
      const user = (await accounts.findById(me.id))!;
      if (!(await verifyPassword(user.password_hash, oldPassword))) throw invalid({ oldPassword: 'accounts.oldPasswordWrong' });
      await throttle.release(attempt);

      await accounts.setPassword(me.id, await hashPassword(password));
      await resets.voidAllOf(me.id);
      // Every other session ends; the one that made the change stays signed in.
      await tokens.revokeAllOf(me.id, me.token_id);
      await notifyPasswordChanged(user);
      req.audit({ action: 'password_change', resource: 'users', resource_id: me.id, company_id: me.company_id });
      return { status: true, message: req.t('accounts.passwordChanged') };
    },
  );
}
