import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { LANGS, translate, type Lang } from '../i18n/index.js';

/** One message: plain text, and optionally an HTML alternative of the same content (the status mails). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Delivers the message now; rejects when the SMTP server refuses it or cannot be reached. */
  send(mail: Mail): Promise<void>;
  /**
   * Delivers in the background: the caller answers at once (so a reply never tells, by its timing,
   * whether a message was sent) and a failure is logged, never thrown. Answers the delivery promise
   * (resolving true or false) for callers that want to wait after all.
   */
  sendLater(mail: Mail): Promise<boolean>;
}

/**
 * What the mail of one app (one config) is doing, for `/metrics` and the graceful stop (issue 32). There is
 * no queue: a message is handed to SMTP (or the outbox) when it is composed, the request that caused it
 * does not wait (sendLater), and nothing retries a refused one. So what can be seen is the messages being
 * handed over now, and those handed over or refused since the start.
 */
export interface MailStats {
  /** messages handed to SMTP (or being written to the outbox) and not yet answered */
  sending: number;
  sent: number;
  failed: number;
  /** the deliveries under way, which the graceful stop waits for (server/lib/shutdown.ts) */
  readonly inFlight: Set<Promise<unknown>>;
}

/** Kept per config object (one per app), so two apps in one process (the tests) count apart. */
const statsByConfig = new WeakMap<object, MailStats>();

export function mailStatsOf(config: object): MailStats {
  let s = statsByConfig.get(config);
  if (!s) statsByConfig.set(config, (s = { sending: 0, sent: 0, failed: 0, inFlight: new Set() }));
  return s;
}

/** Resolves when the messages being handed over now are answered (sent or refused). */
export async function mailsSettled(config: object): Promise<void> {
  const s = mailStatsOf(config);
  while (s.inFlight.size) await Promise.allSettled([...s.inFlight]);
}

/**
 * The portal's mail (server.md §3): through SMTP when `SMTP_URL` is set (nodemailer), otherwise each
 * message is written as JSON ({date, from, to, subject, text, html?}) to `DATA_DIR/outbox/` and logged, so a
 * local user can read a reset code. Production refuses to start without SMTP_URL (config.ts), so the
 * outbox is never used there.
 *
 * Usage from a route: `const mailer = createMailer(app.config, app.log)` once at registration, then
 * `mailer.sendLater(await composeMail(app.db, {to, languageId, key: 'mail.x', params}))`, with the
 * texts `mail.x.subject` and `mail.x.text` in the area's server/i18n file.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom'>, log: FastifyBaseLogger): Mailer {
  let transport: Transporter | undefined;
  const outbox = path.join(config.dataDir, 'outbox');
  const stats = mailStatsOf(config);

  /** One delivery, counted (MailStats). */
  function send(mail: Mail): Promise<void> {
    stats.sending++;
    const p = deliver(mail).then(
      () => {
        stats.sent++;
      },
      (err: unknown) => {
        stats.failed++;
        throw err;
      },
    );
    const tracked = p.finally(() => {
      stats.sending--;
      stats.inFlight.delete(tracked);
    });
    tracked.catch(() => {}); // the caller gets the rejection through `p`; this copy is only waited on
    stats.inFlight.add(tracked);
    return p;
  }

  async function deliver(mail: Mail) {
    if (config.smtpUrl) {
      transport ??= nodemailer.createTransport(config.smtpUrl);
      await transport.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
      log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      return;
    }
    await fs.mkdir(outbox, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.json`;
    const body = JSON.stringify({ date: new Date().toISOString(), from: config.mailFrom, ...mail }, null, 2);
    // Written under a temporary name and renamed, so a reader never sees half a message.
    await fs.writeFile(path.join(outbox, `.${name}.tmp`), body);
    await fs.rename(path.join(outbox, `.${name}.tmp`), path.join(outbox, name));
    log.info({ to: mail.to, subject: mail.subject, file: path.join(outbox, name), text: mail.text }, 'mail written to the outbox (no SMTP_URL)');
  }

  return {
    send,
    sendLater(mail) {
      return send(mail).then(
        () => true,
        (err) => {
          log.error({ err, to: mail.to, subject: mail.subject }, 'mail could not be delivered');
          return false;
        },
      );
    },
  };
}

/** The language a person reads mail in: their language's code when it is it, en or fr; Italian otherwise. */
export async function mailLanguage(db: Db, languageId: number | null | undefined): Promise<Lang> {
  if (!languageId) return 'it';
  const row = await db.selectFrom('languages').select('code').where('id', '=', languageId).executeTakeFirst();
  return row && (LANGS as string[]).includes(row.code) ? (row.code as Lang) : 'it';
}

/** A message from the translated texts `<key>.subject` and `<key>.text`, in the recipient's language. */
export async function composeMail(
  db: Db,
  opts: { to: string; languageId?: number | null; lang?: Lang; key: string; params?: Record<string, unknown> },
): Promise<Mail> {
  const lang = opts.lang ?? (await mailLanguage(db, opts.languageId));
  return {
    to: opts.to,
    subject: translate(lang, `${opts.key}.subject`, opts.params),
    text: translate(lang, `${opts.key}.text`, opts.params),
  };
}
