import { translate, type Lang } from '../i18n/index.js';
import type { QuoteValidity } from './quoteNumbers.js';
import { centsOf, euros } from './amounts.js';
import type { CostRequestBody } from './quoteRequest.js';
import type { QuoteData } from '../pricing/types.js';
import { MARGIN, GREY, boxRow, caption, dayText, finish, moneyText, newPdf, numberText, type PdfKit } from './pdf.js';

/** A breakdown line as the caller's JSON quote shows it (lib/quoteText.ts translateLines). */
export interface ShownLine {
  key: string;
  label: string;
  amount: number | null;
}

const place = (country: string, postalCode: string, locality?: string, province?: string) =>
  [postalCode, locality, province ? `(${province.toUpperCase()})` : '', country.toUpperCase()].filter(Boolean).join(' ');

/** A two-column table of label and amount; answers the y below it. */
function amounts(k: PdfKit, y: number, rows: Array<{ label: string; value: string; bold?: boolean }>): number {
  const { doc } = k;
  for (const r of rows) {
    if (y > doc.page.height - MARGIN - 40) {
      doc.addPage();
      y = MARGIN;
    }
    doc.font(r.bold ? 'bold' : 'body').fontSize(9);
    const h = doc.heightOfString(r.label, { width: k.width * 0.72 });
    doc.text(r.label, MARGIN + 4, y + 3, { width: k.width * 0.72 });
    doc.text(r.value, MARGIN + k.width * 0.72, y + 3, { width: k.width * 0.28 - 4, align: 'right' });
    y += Math.max(h, 11) + 5;
    doc
      .lineWidth(0.4)
      .strokeColor('#cccccc')
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + k.width, y)
      .stroke();
  }
  doc.font('body');
  return y + 8;
}

/** "novembre 2026" / "November 2026" / "novembre 2026": a fuel month (YYYY-MM) in the reader's language. */
const monthText = (lang: Lang, month: string) =>
  new Intl.DateTimeFormat(lang === 'it' ? 'it-IT' : lang === 'fr' ? 'fr-FR' : 'en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T12:00:00Z`),
  );

/** The line under the date: until when the quote holds and why (lib/quoteNumbers.ts `quoteValidity`). */
function validityText(k: PdfKit, v: QuoteValidity): string {
  const { t, lang } = k;
  if (!v.validTo) return t('quotePdf.noValidity');
  if (v.reason === 'fuel' && v.month) return t('quotePdf.validityFuel', { date: dayText(lang, v.validTo), month: monthText(lang, v.month) });
  return t('quotePdf.validity', { date: dayText(lang, v.validTo) });
}

/** What heads a quote: its number, and its validity or (a stored request's quote) the line naming the request. */
export type QuoteHead = { number: string; validity: QuoteValidity } | { number: string; line: string };

/**
 * The quote as a PDF (issue 22): exactly what the caller's JSON quote shows (`visibleTo`, then the
 * breakdown in its language): the places and goods asked, the caller's price per class (express) or the
 * standard price, the admin fee, the total, the lead time, the breakdown lines; its number (issue 36), the
 * date, the validity (the end of its fuel month, or the sell sheet's last day: lib/quoteNumbers.ts) and the
 * portal's name.
 */
export function quotePdf(lang: Lang, body: CostRequestBody, data: QuoteData, breakdown: ShownLine[], date: string, head: QuoteHead): Promise<Buffer> {
  const k = newPdf(lang, `${translate(lang, 'quotePdf.numbered', { number: head.number })} · ${dayText(lang, date)}`);
  const { doc, t } = k;
  const express = body.service === 'palletExpress';
  doc.font('body').fontSize(8).fillColor(GREY).text(t('pdf.portal'), MARGIN, MARGIN);
  doc
    .font('bold')
    .fontSize(20)
    .fillColor('black')
    .text(t('quotePdf.title'), MARGIN, MARGIN + 11);
  doc
    .font('bold')
    .fontSize(10)
    .text(t('quotePdf.numbered', { number: head.number }), MARGIN, MARGIN + 37);
  doc
    .font('body')
    .fontSize(9)
    .text(t('quotePdf.date', { date: dayText(lang, date) }), MARGIN, MARGIN + 52)
    .text('line' in head ? head.line : validityText(k, head.validity));
  let y = doc.y + 10;

  const yes = (v: number | undefined) => t(v ? 'pdf.yes' : 'pdf.no');
  const goods = express
    ? (body.palletWeight ?? []).map((w, i) =>
        t('quotePdf.palletLine', {
          n: i + 1,
          weight: numberText(lang, w),
          width: numberText(lang, body.palletWidth?.[i]),
          length: numberText(lang, body.palletLength?.[i]),
          height: numberText(lang, body.palletHeight?.[i]),
        }),
      )
    : [
        t('quotePdf.unitsLine', {
          units: numberText(lang, body.standardunits),
          weight: numberText(lang, body.standardweight),
          volume: numberText(lang, body.standardvolume),
          type: body.standardvolumeType ?? '',
        }),
      ];
  y = boxRow(k, y, [
    {
      title: t('quotePdf.route'),
      lines: [
        `${t('quotePdf.from')}: ${place(body.originCountry, body.originPostalCode, body.originLocality, body.originProvince)}`,
        `${t('quotePdf.to')}: ${place(body.destinationCountry, body.destinationPostalCode, body.destinationLocality, body.destinationProvince)}`,
        `${t('quotePdf.service')}: ${t(express ? 'waybill.express' : 'waybill.standard')}${express ? ` (${body.flow ?? 'OUT'})` : ''}`,
      ],
    },
    { title: t('quotePdf.goods'), lines: [...goods, t('quotePdf.extras', { adr: yes(body.adr), taillift: yes(body.taillift) })] },
  ]);

  caption(k, t('quotePdf.prices'), MARGIN, y, k.width);
  y += 12;
  const days = (n: number | null | undefined) =>
    n === null || n === undefined ? '—' : `${numberText(lang, n)} ${lang === 'it' ? 'gg' : lang === 'fr' ? 'j' : 'd'}`;
  if (express && data.prices_list) {
    const p = data.prices_list;
    for (const [cls, sell, lead] of [
      ['SILVER', p.x_total_silver_sell, p.max_leadtime_sell_silver],
      ['GOLD', p.x_total_gold_sell, p.max_leadtime_sell_gold],
    ] as const) {
      y = amounts(k, y, [
        { label: `${t('quotePdf.class')} ${cls} · ${t('quotePdf.shipment')}`, value: moneyText(lang, sell) },
        { label: t('quotePdf.adminFee'), value: moneyText(lang, p.admin_fee) },
        { label: `${t('quotePdf.total')} ${cls}`, value: moneyText(lang, euros(centsOf(sell) + centsOf(p.admin_fee))), bold: true },
        { label: t('quotePdf.leadTime'), value: days(lead) },
      ]);
    }
  } else if (data.costo_complete) {
    const c = data.costo_complete;
    y = amounts(k, y, [
      { label: t('quotePdf.shipment'), value: moneyText(lang, c.shipment_cost) },
      { label: t('quotePdf.adminFee'), value: moneyText(lang, c.admin_fee) },
      { label: t('quotePdf.total'), value: moneyText(lang, c.totla), bold: true },
      { label: t('quotePdf.leadTime'), value: days(c.lead_time) },
    ]);
  }
  if (breakdown.length) {
    caption(k, t('quotePdf.breakdown'), MARGIN, y, k.width);
    y = amounts(
      k,
      y + 12,
      breakdown.map((l) => ({ label: l.label, value: l.amount === null ? '' : moneyText(lang, l.amount) })),
    );
  }
  return finish(k, `${t('pdf.portal')} · ${t('quotePdf.numbered', { number: head.number })} · ${dayText(lang, date)}`);
}
