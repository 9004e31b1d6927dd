import { translate, type Lang } from '../i18n/index.js';
import type { Mail } from './mail.js';

/** The portal's colours (src/layout/brandTheme.ts): deep harbour blue, signal amber, the page's grey. */
const BRAND = { primary: '#0b4f6c', accent: '#f6ae2d', page: '#f4f6f8', text: '#1d1d1d', muted: '#5f6b73' };

export interface StatusMailInput {
  to: string;
  lang: Lang;
  /** the portal's name as its mail signs (the display name of MAIL_FROM) */
  portal: string;
  /** the customer who booked (its own request), or the consignee named on a shipment */
  audience: 'customer' | 'consignee';
  statusId: number;
  params: { id: number; name: string; date: string; route: string; carrier: string; total?: string | null };
  /** the note written with the change (the timeline's), quoted to the customer only */
  note?: { by: string; text: string } | null;
  /** the proof of delivery of a delivered request (issue 36): who signed, the day (DD/MM/YYYY), the reservations */
  pod?: { name: string; date: string; notes: string | null } | null;
  /** absolute address: the request's screen (customer) or the public tracking page */
  link: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The portal's name from a MAIL_FROM such as `Portale Trasporti <no-reply@host>`; the address when it has no name. */
export function portalName(mailFrom: string): string {
  const m = /^\s*"?([^"<]*?)"?\s*<[^>]+>\s*$/.exec(mailFrom);
  return (m?.[1] || mailFrom).trim() || 'Portale Trasporti';
}

/**
 * One status mail (issue 22 item 4): the template of the status and audience in the recipient's language
 * (server/i18n/notifications.ts), as plain text and as HTML with the portal's name and colours, with one link.
 * Every value put into the HTML is escaped.
 */
export function statusMail(m: StatusMailInput): Mail {
  // A sentence ending on a name that ends with its own full stop ("… da Acme Trasporti S.r.l.") takes no second one.
  const t = (key: string, params?: Record<string, unknown>) => translate(m.lang, key, params).replace(/(\w)\.\.(\s|$)/g, '$1.$2');
  const p = m.params;
  const customer = m.audience === 'customer';
  const subject = t(customer ? `mail.status.${m.statusId}.subject` : `mail.consignee.${m.statusId}.subject`, p);
  const hello = customer ? t('mail.hello', { name: p.name }).replace(/ ,$/, ',') : t('mail.helloConsignee');
  const line = t(customer ? `mail.status.${m.statusId}.customer` : `mail.consignee.${m.statusId}.text`, p);
  const total = customer && p.total ? t('mail.total', { total: p.total }) : null;
  // Delivered: who signed for the goods and what they noted (both audiences: the goods are theirs)
  const signed = m.pod ? t('pod.mailSignedBy', { date: m.pod.date, name: m.pod.name }) : null;
  const reservations = m.pod?.notes ? t('pod.mailReservations', { notes: m.pod.notes }) : null;
  const note = customer && m.note?.text ? { head: t('mail.note', { by: m.note.by }), text: m.note.text } : null;
  const action = t(customer ? 'mail.openRequest' : 'mail.trackShipment');
  const footer = [t('mail.footer', { portal: m.portal }), ...(customer ? [] : [t('mail.footerConsignee')])];

  const text = [
    hello,
    '',
    line,
    ...(signed ? [signed] : []),
    ...(reservations ? [reservations] : []),
    ...(total ? [total] : []),
    ...(note ? ['', note.head, ...note.text.split('\n').map((l) => `> ${l}`)] : []),
    '',
    t('mail.linkIntro', { link: m.link }),
    '',
    '-- ',
    ...footer,
    '',
  ].join('\n');

  const para = (s: string, style = '') => `<p style="margin:0 0 12px;${style}">${esc(s)}</p>`;
  const html = `<!doctype html>
<html lang="${m.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(subject)}</title></head>
<body style="margin:0;padding:0;background:${BRAND.page};font-family:Roboto,Helvetica,Arial,sans-serif;color:${BRAND.text};">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:${BRAND.page};padding:24px 0;"><tr><td align="center">
<table role="presentation" width="600" cellspacing="0" cellpadding="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;overflow:hidden;">
<tr><td style="background:${BRAND.primary};color:#ffffff;padding:18px 24px;font-size:20px;font-weight:bold;border-bottom:4px solid ${BRAND.accent};">${esc(m.portal)}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5;">
${para(hello)}${para(line)}${signed ? para(signed) : ''}${reservations ? para(reservations, 'white-space:pre-line;') : ''}${total ? para(total, 'font-weight:bold;') : ''}${
    note
      ? `<p style="margin:16px 0 4px;color:${BRAND.muted};">${esc(note.head)}</p><blockquote style="margin:0 0 16px;padding:8px 12px;border-left:4px solid ${BRAND.accent};background:${BRAND.page};white-space:pre-line;">${esc(note.text)}</blockquote>`
      : ''
  }
<p style="margin:24px 0;"><a href="${esc(m.link)}" style="display:inline-block;background:${BRAND.primary};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:4px;font-weight:bold;">${esc(action)}</a></p>
<p style="margin:0;font-size:12px;color:${BRAND.muted};word-break:break-all;">${esc(m.link)}</p>
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:${BRAND.muted};border-top:1px solid #e0e4e8;">${footer.map((f) => esc(f)).join('<br>')}</td></tr>
</table></td></tr></table></body></html>
`;
  return { to: m.to, subject, text, html };
}
