import type { FastifyInstance } from 'fastify';
import { composeMail, createMailer, mailLanguage, type Mailer } from './mail.js';
import { hashToken, newToken } from './tokens.js';
import { passwordResetsRepo } from '../repositories/passwordResets.js';

/** An invitation link works for 72 hours (issue 35 item 9), once. */
export const INVITATION_TTL = 72 * 3_600_000;

/** The public page a link opens (src/custom/setPassword/SetPasswordPage.tsx). */
export const setPasswordPath = (token: string, lang: string) => `/#/set-password?token=${encodeURIComponent(token)}&lang=${lang}`;

const mailers = new WeakMap<object, Mailer>();
const mailerOf = (app: FastifyInstance) => {
  let m = mailers.get(app.config);
  if (!m) mailers.set(app.config, (m = createMailer(app.config, app.log)));
  return m;
};

/**
 * The mail of a new account (issue 35 item 9), in the new user's language. Without a password from its
 * creator: a link to choose one, whose token is stored only as its SHA-256 (a `password_resets` row of kind
 * `invite`, migration 0027), valid INVITATION_TTL and once; a newer invitation voids the older one. With a
 * password: a welcome that says where to sign in (never the password itself: the creator hands it over).
 * The delivery goes on in the background (the route does not wait for it, and a refused one is logged).
 */
export async function mailNewAccount(
  app: FastifyInstance,
  user: { id: number; email: string; first_name: string; language_id: number | null },
  opts: { invite: boolean; by: string },
): Promise<void> {
  const lang = await mailLanguage(app.db, user.language_id);
  const base = { name: user.first_name, by: opts.by, email: user.email };
  if (!opts.invite) {
    void mailerOf(app).sendLater(
      await composeMail(app.db, { to: user.email, lang, key: 'mail.welcome', params: { ...base, link: `${app.config.publicUrl}/#/login` } }),
    );
    return;
  }
  const token = newToken();
  await passwordResetsRepo(app.db).issue(user.id, hashToken(token), INVITATION_TTL, 'invite');
  const link = app.config.publicUrl + setPasswordPath(token, lang);
  void mailerOf(app).sendLater(await composeMail(app.db, { to: user.email, lang, key: 'mail.invitation', params: { ...base, link, hours: 72 } }));
}
