import type { App } from '../../lib/typed.js';
import { bool, obj, okAnswer, str } from '../../lib/answers.js';
import { invalid, tooMany } from '../../lib/errors.js';
import { composeMail, createMailer } from '../../lib/mail.js';
import { hashPassword, passwordProblem } from '../../lib/passwords.js';
import { hashToken, nowIso } from '../../lib/tokens.js';
import { passwordResetsRepo } from '../../repositories/passwordResets.js';
import { throttleRepo } from '../../repositories/throttle.js';
import { tokensRepo } from '../../repositories/tokens.js';
import { auditEvent } from '../../plugins/audit.js';

const HOUR = 3_600_000;
/** Not in the documents: unknown tokens per address and hour before a 429 (a token is 256 random bits). */
const WRONG_TOKENS_PER_HOUR_PER_ADDRESS = 30;

const token = { type: 'string', minLength: 1, maxLength: 200 } as const;
const pw = { type: 'string', maxLength: 1024 } as const;
/** A link that no longer works: 422 whose message (and the `token` field's) says why, as the reset code's refusals. */
const refuse = (key: string) => invalid({ token: key }, key);

/**
 * The invitation link of a user created without a password (issue 35 item 9; lib/invitations.ts sends it):
 * `checkInvitation` tells the set-password page whose account it is (or why the link no longer works) and
 * `acceptInvitation` sets the password once. A link that is unknown, used, expired, or whose account has
 * been deactivated meanwhile answers 422 with a message saying so, in the caller's language, and what to do
 * (ask for a reset code with the same e-mail: the forgotten-password flow works for an invited account).
 */
export default async function invitationRoutes(app: App) {
  const resets = passwordResetsRepo(app.db);
  const throttle = throttleRepo(app.db);
  const tokens = tokensRepo(app.db);
  const mailer = createMailer(app.config, app.log);

  /** The open invitation of a token, with its account; a clear refusal otherwise. */
  async function open(ip: string, raw: string) {
    const row = await resets.findInvite(hashToken(raw.trim()));
    if (!row) {
      if (!(await throttle.take(`invite:wrong-ip:${ip}`, HOUR, WRONG_TOKENS_PER_HOUR_PER_ADDRESS))) throw tooMany(HOUR);
      throw refuse('invitations.unknown');
    }
    if (row.consumed_at) throw refuse('invitations.used');
    if (row.expires_at <= nowIso()) throw refuse('invitations.expired');
    const user = await app.db
      .selectFrom('users as u')
      .innerJoin('companies as c', 'c.id', 'u.company_id')
      .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.language_id', 'u.company_id'])
      .where('u.id', '=', row.user_id)
      .where('u.status_id', '=', 1)
      .where('c.status_id', '=', 1)
      .executeTakeFirst();
    if (!user) throw refuse('invitations.inactive');
    return { row, user };
  }

  app.post(
    '/visitor/checkInvitation',
    {
      config: { policy: 'public', notAudited: 'a read (a POST so the token stays out of URLs and logs): changes nothing' },
      schema: {
        tags: ['visitor'],
        summary: 'Whose account an invitation link opens, and until when (422 when it no longer works).',
        body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token } },
        response: { 200: obj({ status: bool, data: obj({ email: str, first_name: str, expires_at: str }) }) },
      },
    },
    async (req) => {
      const { row, user } = await open(req.ip, req.body.token);
      return { status: true, data: { email: user.email, first_name: user.first_name, expires_at: row.expires_at } };
    },
  );

  app.post(
    '/visitor/acceptInvitation',
    {
      // The passwords are checked by the handler (one 422 with every problem): required in the document.
      config: { policy: 'public', bodyRequired: ['password', 'password_confirmation'] },
      schema: {
        tags: ['visitor'],
        summary: 'Sets the password of an invited account with its link (once).',
        body: {
          type: 'object',
          required: ['token'],
          additionalProperties: false,
          properties: { token, password: pw, password_confirmation: pw },
        },
        response: { 200: okAnswer },
      },
    },
    async (req) => {
      const { password = '', password_confirmation = '' } = req.body;
      const { row, user } = await open(req.ip, req.body.token);
      const problems: Record<string, string> = {};
      if (!password) problems.password = 'validation.required';
      else if (passwordProblem(password)) problems.password = passwordProblem(password)!;
      if (password !== password_confirmation) problems.password_confirmation = 'accounts.resetMismatch';
      if (Object.keys(problems).length) throw invalid(problems);
      // One use: of two requests with the same link, one wins.
      if (!(await resets.consume(row.id))) throw refuse('invitations.used');
      await app.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password), updated_at: nowIso() })
        .where('id', '=', user.id)
        .execute();
      await resets.voidAllOf(user.id);
      await tokens.revokeAllOf(user.id);
      void mailer.sendLater(
        await composeMail(app.db, { to: user.email, languageId: user.language_id, key: 'mail.passwordChanged', params: { name: user.first_name } }),
      );
      await auditEvent(app, req, { action: 'password_reset', resource: 'users', resource_id: user.id, user_id: user.id, company_id: user.company_id });
      return { status: true, message: req.t('invitations.accepted') };
    },
  );
}
