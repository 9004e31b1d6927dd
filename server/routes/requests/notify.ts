import type { FastifyInstance } from 'fastify';
import { LANGS, translate, type Lang } from '../../i18n/index.js';
import { composeMail, createMailer, type Mailer } from '../../lib/mail.js';
import { romeDate } from '../../lib/romeTime.js';
import { STATUS } from '../../repositories/transportRequests.js';

const mailers = new WeakMap<FastifyInstance, Mailer>();
/** The portal's mailer (server/lib/mail.ts: SMTP, or DATA_DIR/outbox without SMTP_URL), one per app. */
function mailerOf(app: FastifyInstance): Mailer {
  let m = mailers.get(app);
  if (!m) mailers.set(app, (m = createMailer(app.config, app.log)));
  return m;
}

const MONEY: Record<Lang, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };

/**
 * Tells the person who made a request that its carrier confirmed or refused it (issue 9, server.md §3):
 * the end user who booked it (in its language), or the visitor at the email it gave (in the language
 * it booked in). Sent in the background: the answer never waits for the mail server; a failure is logged.
 */
export async function notifyStatus(app: FastifyInstance, requestId: number, status: number): Promise<void> {
  if (status !== STATUS.CF && status !== STATUS.RF) return;
  const r = await app.db
    .selectFrom('transport_requests as tr')
    .innerJoin('companies as car', 'car.id', 'tr.carrier_id')
    .leftJoin('users as u', 'u.id', 'tr.user_id')
    .leftJoin('languages as l', 'l.id', 'u.language_id')
    .select([
      'tr.id',
      'tr.created_at',
      'tr.cost',
      'tr.admin_fees',
      'tr.reason',
      'tr.email as visitor_email',
      'tr.firstname',
      'tr.lang',
      'car.legal_name as carrier',
      'u.email as user_email',
      'u.first_name',
      'u.status_id as user_status',
      'l.code as user_lang',
    ])
    .where('tr.id', '=', requestId)
    .executeTakeFirst();
  if (!r) return;
  const to = r.user_email && r.user_status === 1 ? r.user_email : r.visitor_email;
  if (!to) return;
  const pick = (l: string | null | undefined) => ((LANGS as string[]).includes(l ?? '') ? (l as Lang) : null);
  const lang = pick(r.user_lang) ?? pick(r.lang) ?? 'it';
  const places = await app.db
    .selectFrom('shipments as s')
    .innerJoin('shipment_addresses as a', 'a.shipment_id', 's.id')
    .select(['a.kind', 'a.city', 'a.postal_code'])
    .where('s.transport_request_id', '=', requestId)
    .where('s.position', '=', 0)
    .execute();
  const where = (kind: string) => {
    const a = places.find((p) => p.kind === kind);
    return a ? a.city || a.postal_code : '?';
  };
  const [y, m, d] = romeDate(r.created_at).split('-');
  const total =
    r.cost === null
      ? translate(lang, 'mail.toBeQuoted')
      : new Intl.NumberFormat(MONEY[lang], { style: 'currency', currency: 'EUR' }).format(((r.cost ?? 0) + (r.admin_fees ?? 0)) / 100);
  const key = status === STATUS.CF ? 'mail.requestConfirmed' : 'mail.requestRefused';
  const params = {
    id: r.id,
    name: r.first_name ?? r.firstname ?? '',
    date: `${d}/${m}/${y}`,
    route: `${where('pickup')} → ${where('delivery')}`,
    carrier: r.carrier,
    total,
    reason: r.reason ? translate(lang, 'mail.reason', { reason: r.reason }) : '',
  };
  await mailerOf(app).send(await composeMail(app.db, { to, lang, key, params }));
}

/** Runs notifyStatus without making the caller wait; failures are logged, never thrown. */
export function notifyLater(app: FastifyInstance, requestId: number, status: number): Promise<void> {
  return notifyStatus(app, requestId, status).catch((err) => app.log.error({ err, requestId }, 'status mail could not be delivered'));
}
