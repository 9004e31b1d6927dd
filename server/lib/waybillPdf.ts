import { toBuffer } from 'bwip-js/node';
import type { Lang } from '../i18n/index.js';
import type { LoadedRequest } from '../repositories/transportRequests.js';
import { podBlock } from './podPdf.js';
import { MARGIN, GREY, boxRow, caption, dayText, finish, newPdf, numberText, placeImage, type PdfKit } from './pdf.js';

type Place = LoadedRequest['shipments'][number]['pickup'];
type Shipment = LoadedRequest['shipments'][number];

/** The parties the document names beside the places: the carrier's company and the customer. */
export interface WaybillParties {
  carrier: { legal_name: string; address: string | null; postal_code: string | null; city: string | null; province: string | null; phone: string | null };
  customer: string[];
  /** the proof of delivery's image, when small enough to be drawn (lib/podPdf.ts, issue 36) */
  podImage?: Buffer | null;
}

const countryOf = (lang: Lang, a: NonNullable<Place>) => (lang === 'it' ? a.country_it : lang === 'fr' ? a.country_fr : a.country_en) ?? a.country_en ?? '';

function placeLines(lang: Lang, a: Place): string[] {
  if (!a) return ['—'];
  return [a.location_name, a.address, `${a.postal_code} ${a.city ?? ''}${a.province ? ` (${a.province})` : ''}`.trim(), countryOf(lang, a)].filter(Boolean);
}

const windowText = (from: string | null, to: string | null) => (from || to ? `${from ?? ''}–${to ?? ''}` : '—');

function goodsTable(k: PdfKit, y: number, s: Shipment): number {
  const { doc, t, lang } = k;
  const pallets = s.details.filter((d) => d.shipment_type_id === 1);
  const units = s.details.filter((d) => d.shipment_type_id === 2);
  const head = pallets.length
    ? [t('waybill.pallet'), t('waybill.weight'), t('waybill.measures'), t('waybill.band')]
    : [t('waybill.units'), t('waybill.weight'), t('waybill.volume'), t('waybill.volumeType')];
  const rows = pallets.length
    ? pallets.map((p, i) => [
        String(i + 1),
        numberText(lang, p.pallet_weight),
        `${numberText(lang, p.pallet_width)} × ${numberText(lang, p.pallet_length)} × ${numberText(lang, p.pallet_height)}`,
        p.pallet_type ?? '—',
      ])
    : units.map((u) => [numberText(lang, u.total_units), numberText(lang, u.gross_weight), numberText(lang, u.volume), u.volume_type ?? '—']);
  const total = [...pallets.map((p) => Number(p.pallet_weight ?? 0)), ...units.map((u) => Number(u.gross_weight ?? 0))].reduce((a, b) => a + b, 0);
  const cols = [0.15, 0.25, 0.35, 0.25].map((f) => f * k.width);
  caption(k, t('waybill.goods'), MARGIN, y, k.width);
  y += 12;
  const line = (cells: string[], bold: boolean) => {
    let x = MARGIN;
    doc.font(bold ? 'bold' : 'body').fontSize(9);
    cells.forEach((c, i) => {
      doc.text(c, x + 4, y + 3, { width: cols[i] - 8 });
      x += cols[i];
    });
    doc
      .lineWidth(0.4)
      .strokeColor('#bbbbbb')
      .moveTo(MARGIN, y + 16)
      .lineTo(MARGIN + k.width, y + 16)
      .stroke();
    y += 17;
  };
  line(head, true);
  for (const r of rows) line(r, false);
  doc
    .font('bold')
    .fontSize(9)
    .text(t('waybill.totalWeight', { kg: numberText(lang, total) }), MARGIN + 4, y + 4, { width: k.width - 8, align: 'right' });
  doc.font('body');
  return doc.y + 10;
}

/**
 * The transport document of a confirmed request (a lettera di vettura, CMR-style; issue 22): one page per
 * shipment with the request number as text and as a Code 128 barcode, sender and consignee (the pickup
 * and delivery places), carrier and customer, dates and time windows, the goods with weights and
 * measures, ADR and tail lift, the instructions and three signature boxes.
 */
export async function waybillPdf(lang: Lang, r: LoadedRequest, parties: WaybillParties, issuedOn: string): Promise<Buffer> {
  const k = newPdf(lang, `${translateTitle(lang)} ${r.id}`);
  const { doc, t } = k;
  const barcode = await toBuffer({ bcid: 'code128', text: String(r.id), scale: 3, height: 12, includetext: false, paddingwidth: 0 });
  const c = parties.carrier;
  const carrierLines = [
    c.legal_name,
    c.address ?? '',
    `${c.postal_code ?? ''} ${c.city ?? ''}${c.province ? ` (${c.province})` : ''}`.trim(),
    c.phone ?? '',
  ].filter(Boolean);
  const yes = (v: number) => t(v ? 'pdf.yes' : 'pdf.no');

  r.shipments.forEach((s, i) => {
    if (i > 0) doc.addPage();
    // Header: title on the left, the number and its barcode on the right.
    doc.font('body').fontSize(8).fillColor(GREY).text(t('pdf.portal'), MARGIN, MARGIN);
    doc
      .font('bold')
      .fontSize(20)
      .fillColor('black')
      .text(t('waybill.title'), MARGIN, MARGIN + 11);
    doc
      .font('body')
      .fontSize(9)
      .fillColor(GREY)
      .text(t('waybill.subtitle'), MARGIN, MARGIN + 37);
    const bw = 170;
    placeImage(doc, barcode, MARGIN + k.width - bw, MARGIN, { width: bw, height: 40 });
    doc
      .font('bold')
      .fontSize(12)
      .fillColor('black')
      .text(t('waybill.request', { id: r.id }), MARGIN + k.width - bw, MARGIN + 44, { width: bw, align: 'center' });
    const service = s.transport_request_type_id === 1 ? t('waybill.express') : t('waybill.standard');
    const cls = s.transport_class && s.transport_class !== 'STANDARD' ? ` ${s.transport_class}` : '';
    doc
      .font('body')
      .fontSize(9)
      .text(
        [
          t('waybill.issued', { date: dayText(lang, issuedOn) }),
          t('waybill.shipment', { n: i + 1, total: r.shipments.length }),
          `${t('waybill.service')}: ${service}${cls}`,
        ].join('   ·   '),
        MARGIN,
        MARGIN + 66,
        { width: k.width },
      );
    let y = MARGIN + 82;
    y = boxRow(k, y, [
      { title: t('waybill.sender'), lines: [...placeLines(lang, s.pickup), `${t('waybill.reference')}: ${s.shipper_reference}`], strong: true },
      {
        title: t('waybill.consignee'),
        lines: [...placeLines(lang, s.delivery), `${t('waybill.reference')}: ${s.consignee_reference ?? '—'}`],
        strong: true,
      },
    ]);
    y = boxRow(k, y, [
      { title: t('waybill.carrier'), lines: carrierLines, strong: true },
      { title: t('waybill.customer'), lines: parties.customer, strong: true },
    ]);
    y = boxRow(k, y, [
      {
        title: t('waybill.pickup'),
        lines: [
          `${t('waybill.date')}: ${dayText(lang, s.pickup_date)}`,
          `${t('waybill.window')}: ${windowText(s.pickup_time_from, s.pickup_time_to)}`,
          ...(s.pickup_notes ? [`${t('waybill.notes')}: ${s.pickup_notes}`] : []),
        ],
      },
      {
        title: t('waybill.delivery'),
        lines: [
          `${t('waybill.date')}: ${dayText(lang, s.delivery_date)}`,
          `${t('waybill.window')}: ${windowText(s.delivery_time_from, s.delivery_time_to)}`,
          ...(s.delivery_notes ? [`${t('waybill.notes')}: ${s.delivery_notes}`] : []),
        ],
      },
    ]);
    y = goodsTable(k, y, s);
    y = boxRow(k, y, [
      { title: t('waybill.adr'), lines: [yes(s.adr)] },
      { title: t('waybill.tailLift'), lines: [yes(s.tail_lift)] },
    ]);
    if (r.notes) y = boxRow(k, y, [{ title: t('waybill.generalNotes'), lines: [r.notes] }]);
    if (r.pod) y = podBlock(k, y, r.pod, parties.podImage);
    const date = `${t('waybill.signDate')}: ____________`;
    boxRow(
      k,
      Math.max(y, doc.page.height - MARGIN - 20 - 100),
      [
        { title: t('waybill.signSender'), lines: ['', '', '', date] },
        { title: t('waybill.signCarrier'), lines: ['', '', '', date] },
        { title: t('waybill.signConsignee'), lines: ['', '', '', date] },
      ],
      100,
    );
  });
  return finish(k, `${t('waybill.title')} · ${t('waybill.request', { id: r.id })}`);
}

const translateTitle = (lang: Lang) => ({ it: 'Lettera di vettura', en: 'Consignment note', fr: 'Lettre de voiture' })[lang];
