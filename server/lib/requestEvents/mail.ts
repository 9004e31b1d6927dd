import type { FastifyInstance } from 'fastify';
import { LANGS, translate, type Lang } from '../../i18n/index.js';
import { createMailer, type Mailer } from '../mail.js';
import { portalName, statusMail } from '../statusMail.js';
import { romeDate } from '../romeTime.js';
import { consigneeMailRepo } from '../../repositories/notifications.js';
import { proofOfDeliveryRepo } from '../../repositories/proofOfDelivery.js';
import { STATUS } from '../../repositories/transportRequests.js';
import { trackingPath } from '../../../model/tracking.js';
import { requestScreenPath } from '../../../model/notifications.js';

const mailers = new WeakMap<FastifyInstance, Mailer>();
/** The portal's mailer (server/lib/mail.ts: SMTP, or DATA_DIR/outbox without SMTP_URL), one per app. */
function mailerOf(app: FastifyInstance): Mailer {
  let m = mailers.get(app);
  if (!m) mailers.set(app, (m = createMailer(app.config, app.log)));
  return m;
}

const MONEY: Record<Lang, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };
const pick = (l: string | null | undefined) => ((LANGS as string[]).includes(l ?? '') ? (l as Lang) : null);

/**
 * Tells of a request's new status by mail (issue 22 item 4, docs/notifications.md), for every status it
 * moves to: the customer (the end user who booked it, in its language; else the visitor at the e-mail it
 * gave, in the language it booked in), with a link to the request's screen (a visitor: to the public
 * tracking page) and the note written with the change (the timeline's); and each consignee e-mail the
 * shipments name, in the customer's language, with a link to the public tracking page, unless the carrier
 * switched that status's consignee mail off. Each message is delivered on its own: a failure is logged.
 */
export async function notifyStatus(app: FastifyInstance, requestId: number, status: number): Promise<void> {
  const r = await app.db
    .selectFrom('transport_requests as tr')
    .innerJoin('companies as car', 'car.id', 'tr.carrier_id')
    .leftJoin('users as u', 'u.id', 'tr.user_id')
    .leftJoin('languages as l', 'l.id', 'u.language_id')
    .select([
      'tr.id',
      'tr.carrier_id',
      'tr.created_at',
      'tr.cost',
      'tr.admin_fees',
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
  const [places, event, pods] = await Promise.all([
    app.db
      .selectFrom('shipments as s')
      .innerJoin('shipment_addresses as a', 'a.shipment_id', 's.id')
      .select(['s.position', 's.consignee_email', 'a.kind', 'a.city', 'a.postal_code'])
      .where('s.transport_request_id', '=', requestId)
      .orderBy('s.position')
      .execute(),
    // the entry the change wrote: its note and who wrote it
    app.db
      .selectFrom('transport_request_events')
      .select(['note', 'user_name', 'user_role'])
      .where('transport_request_id', '=', requestId)
      .where('event', '=', 'status_changed')
      .where('status_id', '=', status)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    // delivered: the proof's name and reservations (issue 36; never its image)
    status === STATUS.DL ? proofOfDeliveryRepo(app.db).ofRequests([requestId]) : [],
  ]);
  const place = (position: number, kind: string) => places.find((p) => p.position === position && p.kind === kind);
  const where = (position: number, kind: string) => {
    const a = place(position, kind);
    return a ? a.city || a.postal_code : '?';
  };
  const route = (position: number) => `${where(position, 'pickup')} → ${where(position, 'delivery')}`;
  const [y, m, d] = romeDate(r.created_at).split('-');
  const account = !!r.user_email && r.user_status === 1;
  const lang = (account ? pick(r.user_lang) : null) ?? pick(r.lang) ?? 'it';
  const base = { id: r.id, date: `${d}/${m}/${y}`, carrier: r.carrier };
  const portal = portalName(app.config.mailFrom);
  const url = app.config.publicUrl;
  const mailer = mailerOf(app);
  const podRow = pods[0];
  const pod = podRow ? { name: podRow.name, notes: podRow.notes, date: romeDate(podRow.delivered_at).split('-').reverse().join('/') } : null;
  const sends: Array<Promise<boolean>> = [];

  const to = account ? r.user_email : r.visitor_email;
  if (to) {
    const total =
      r.cost === null
        ? translate(lang, 'mail.toBeQuoted')
        : new Intl.NumberFormat(MONEY[lang], { style: 'currency', currency: 'EUR' }).format(((r.cost ?? 0) + (r.admin_fees ?? 0)) / 100);
    const note = event?.note ? { by: event.user_role === 'carrier' ? r.carrier : (event.user_name ?? r.carrier), text: event.note } : null;
    const link = account ? url + requestScreenPath(r.id) : url + trackingPath(String(r.id), place(0, 'delivery')?.postal_code ?? '');
    sends.push(
      mailer.sendLater(
        statusMail({
          to,
          lang,
          portal,
          audience: 'customer',
          statusId: status,
          params: { ...base, name: (account ? r.first_name : r.firstname) ?? '', route: route(0), total: [3, 5, 6].includes(status) ? total : null },
          note,
          pod,
          link,
        }),
      ),
    );
  }

  // One mail per consignee address and delivery place, when the carrier keeps this status's mail on.
  const consignees = new Map<string, number>();
  for (const p of places) {
    if (p.kind !== 'delivery' || !p.consignee_email) continue;
    const key = `${p.consignee_email.toLowerCase()}|${p.postal_code}`;
    if (!consignees.has(key)) consignees.set(key, p.position);
  }
  if (consignees.size && (await consigneeMailRepo(app.db).isOn(r.carrier_id, status))) {
    for (const position of consignees.values()) {
      const p = place(position, 'delivery')!;
      sends.push(
        mailer.sendLater(
          statusMail({
            to: p.consignee_email!,
            lang,
            portal,
            audience: 'consignee',
            statusId: status,
            params: { ...base, name: '', route: route(position) },
            pod,
            link: url + trackingPath(String(r.id), p.postal_code),
          }),
        ),
      );
    }
  }
  await Promise.all(sends);
}

/** Runs notifyStatus without making the caller wait (lib/requestEvents/change.ts, after the commit); failures are logged, never thrown. */
export function notifyLater(app: FastifyInstance, requestId: number, status: number): Promise<void> {
  return notifyStatus(app, requestId, status).catch((err) => app.log.error({ err, requestId }, 'status mail could not be delivered'));
}
