import { toBuffer } from 'bwip-js/node';
import type { Lang } from '../i18n/index.js';
import { translate } from '../i18n/index.js';
import { GREY, newPdf, numberText, pdfBytes, placeImage } from './pdf.js';
import { ssccText } from '../../model/sscc.js';

/** One pallet's label: who sends it to whom, which pallet of how many, its weight, its SSCC and its tracking page. */
export interface PalletLabel {
  requestId: number;
  carrier: string;
  /** the pickup place: name first, then address, postal code and city, country */
  sender: string[];
  /** the delivery place, as the sender */
  consignee: string[];
  reference: string | null;
  /** this pallet's place among its shipment's pallets (1-based) and how many there are */
  n: number;
  total: number;
  /** kilograms, as stored (decimal text), null when not given */
  weight: string | null;
  sscc: string;
  trackingUrl: string;
}

/** A6 (105 × 148 mm) in points, the label size pallet networks print on; 4 × 6 in for ZPL at 203 dpi (812 × 1218 dots). */
const A6: [number, number] = [297.64, 419.53];
const M = 14;

/**
 * The labels as a PDF, one A6 page per pallet (issue 36 item 3, docs/pallet-labels.md): the request number and
 * the carrier, sender and consignee, pallet n of m and its weight, a QR code to the request's public tracking
 * page, and at the bottom the SSCC as a GS1-128 barcode with AI (00) (bwip-js `gs1-128`, which adds the FNC1
 * and checks the check digit) with its human-readable text under it. Long names are cut with an ellipsis, never
 * wrapped over the barcode.
 */
export async function palletLabelsPdf(lang: Lang, labels: PalletLabel[]): Promise<Buffer> {
  const k = newPdf(lang, `${translate(lang, 'labels.title')} ${labels[0]?.requestId ?? ''}`.trim(), { size: A6, margin: M });
  const { doc, t, width: W } = k;
  const line = (text: string, x: number, y: number, w: number, size: number, bold = false, color = 'black', align: 'left' | 'right' | 'center' = 'left') => {
    doc
      .font(bold ? 'bold' : 'body')
      .fontSize(size)
      .fillColor(color)
      .text(text || ' ', x, y, { width: w, height: size * 1.25, ellipsis: true, lineBreak: false, align });
    return y + size * 1.22;
  };
  const rule = (y: number) =>
    doc
      .lineWidth(0.8)
      .strokeColor('black')
      .moveTo(M, y)
      .lineTo(M + W, y)
      .stroke();

  for (const [i, l] of labels.entries()) {
    if (i > 0) doc.addPage({ size: A6, margin: M });
    const [barcode, qr] = await Promise.all([
      // 1D barcode: modules 4 px, quiet zones of 10 modules either side are part of the picture
      toBuffer({ bcid: 'gs1-128', text: `(00)${l.sscc}`, scale: 4, height: 22, includetext: false, paddingwidth: 10, backgroundcolor: 'FFFFFF' }),
      toBuffer({ bcid: 'qrcode', text: l.trackingUrl, scale: 4, paddingwidth: 2, paddingheight: 2, backgroundcolor: 'FFFFFF' }),
    ]);
    // Header: carrier and request number.
    line(l.carrier, M, M, W * 0.55, 8, true, GREY);
    line(t('labels.request', { id: l.requestId }), M + W * 0.4, M - 2, W * 0.6, 12, true, 'black', 'right');
    rule(M + 16);
    // Sender, small.
    let y = line(t('labels.sender').toUpperCase(), M, M + 20, W, 6.5, true, GREY);
    l.sender.slice(0, 4).forEach((s, j) => (y = line(s, M, y, W, 8, j === 0)));
    rule(y + 2);
    // Consignee, large: what the depot reads from a distance.
    y = line(t('labels.consignee').toUpperCase(), M, y + 6, W, 6.5, true, GREY);
    l.consignee.slice(0, 4).forEach((s, j) => (y = line(s, M, y, W, j === 0 || j === 2 ? 12 : 10, j === 0 || j === 2)));
    rule(y + 3);
    // Pallet n of m, weight, reference; the QR code to the tracking page on the right.
    const rowTop = y + 8;
    const qrSize = 78;
    let ly = line(t('labels.pallet', { n: l.n, total: l.total }), M, rowTop, W - qrSize - 8, 15, true);
    ly = line(`${t('labels.weight')}: ${l.weight === null ? '—' : t('labels.kg', { kg: numberText(lang, l.weight) })}`, M, ly + 4, W - qrSize - 8, 10);
    if (l.reference) line(`${t('labels.reference')} ${l.reference}`, M, ly + 2, W - qrSize - 8, 9);
    placeImage(doc, qr, M + W - qrSize, rowTop - 2, { width: qrSize, height: qrSize });
    line(t('labels.track'), M + W - qrSize, rowTop + qrSize - 2, qrSize, 6.5, false, GREY, 'center');
    // The SSCC at the bottom: caption, barcode, human-readable text.
    const bottom = doc.page.height - M;
    const textY = bottom - 14;
    const barH = 76;
    const barY = textY - barH - 2;
    rule(barY - 14);
    line('SSCC', M, barY - 11, W, 6.5, true, GREY);
    placeImage(doc, barcode, M, barY, { width: W, height: barH });
    line(ssccText(l.sscc), M, textY, W, 11, true, 'black', 'center');
  }
  return pdfBytes(doc);
}

/** Text for a ZPL field: ^FH escapes `^`, `~` and `_` as hex (so a name cannot end the field), control characters dropped. */
const zplText = (s: string) =>
  s.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[_^~]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * The same labels in ZPL II for 4 × 6 in thermal printers at 203 dpi (812 × 1218 dots), one ^XA…^XZ per pallet,
 * UTF-8 text (^CI28). The SSCC is a Code 128 (^BCN, interpretation line off: we print our own "(00) …" under
 * it) whose data starts in subset C with FNC1 (`>;>8`, Zebra's GS1-128 syntax) then `00` and the 18 digits; the
 * tracking page is a QR code (^BQN model 2, error correction M).
 */
export function palletLabelsZpl(lang: Lang, labels: PalletLabel[]): string {
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, key, params);
  const text = (x: number, y: number, size: number, value: string, width = 732) =>
    `^FO${x},${y}^A0N,${size},${size}^FB${width},1,0,L,0^FH^FD${zplText(value)}^FS`;
  return labels
    .map((l) => {
      const out = ['^XA', '^CI28', '^PW812', '^LL1218', '^LH0,0'];
      out.push(text(40, 30, 26, l.carrier, 430));
      out.push(`^FO420,26^A0N,34,34^FB352,1,0,R,0^FH^FD${zplText(t('labels.request', { id: l.requestId }))}^FS`);
      out.push('^FO40,70^GB732,3,3^FS');
      let y = 84;
      out.push(text(40, y, 20, t('labels.sender').toUpperCase()));
      y += 26;
      for (const s of l.sender.slice(0, 4)) {
        out.push(text(40, y, 26, s));
        y += 30;
      }
      out.push(`^FO40,${y + 4}^GB732,3,3^FS`);
      y += 18;
      out.push(text(40, y, 20, t('labels.consignee').toUpperCase()));
      y += 26;
      l.consignee.slice(0, 4).forEach((s, j) => {
        const size = j === 0 || j === 2 ? 44 : 34;
        out.push(text(40, y, size, s));
        y += size + 8;
      });
      out.push(`^FO40,${y + 4}^GB732,3,3^FS`);
      y += 24;
      out.push(text(40, y, 50, t('labels.pallet', { n: l.n, total: l.total }), 480));
      out.push(text(40, y + 64, 34, `${t('labels.weight')}: ${l.weight === null ? '—' : t('labels.kg', { kg: numberText(lang, l.weight) })}`, 480));
      if (l.reference) out.push(text(40, y + 110, 28, `${t('labels.reference')} ${l.reference}`, 480));
      // QR (BWIPP's default error correction M on the PDF too): magnification 5 (about 165–200 dots for a portal address), top right of the row
      out.push(`^FO560,${y - 10}^BQN,2,5^FH^FDMA,${zplText(l.trackingUrl)}^FS`);
      // SSCC: caption, barcode 4 dots a module (0.5 mm), 220 dots high, text under it
      out.push('^FO40,860^GB732,3,3^FS');
      out.push(text(40, 872, 22, 'SSCC'));
      out.push(`^FO90,900^BY4^BCN,220,N,N,N^FD>;>800${l.sscc}^FS`);
      out.push(`^FO40,1140^A0N,40,40^FB732,1,0,C,0^FD${ssccText(l.sscc)}^FS`);
      out.push('^XZ');
      return out.join('\n');
    })
    .join('\n');
}
