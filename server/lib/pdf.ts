import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { translate, type Lang } from '../i18n/index.js';
import { isShowableImage } from './images.js';

/**
 * The PDFs the server makes (docs/request-documents.md): A4, DejaVu Sans embedded (server/assets/fonts,
 * its licence beside it) so accented names print, the text in the caller's language, a page footer.
 */
const font = (file: string) => fileURLToPath(new URL(`../assets/fonts/${file}`, import.meta.url));
const REGULAR = font('DejaVuSans.ttf');
const BOLD = font('DejaVuSans-Bold.ttf');

export const MARGIN = 40;
export const GREY = '#555555';
export const LINE = '#999999';

export type Pdf = PDFKit.PDFDocument;

export interface PdfKit {
  doc: Pdf;
  lang: Lang;
  t: (key: string, params?: Record<string, unknown>) => string;
  /** the usable width between the margins */
  width: number;
}

/**
 * The one way a PDF embeds a picture (issue 31): pdfkit decodes a PNG whole (its zlib data inflated
 * in memory), so a picture whose header declares more pixels than an upload may have (lib/imageHeader.ts)
 * or whose header cannot be read is left out, and false answered. Today only the waybill's barcode (made
 * here, from the request's number) is embedded; no stored logo or profile picture is. One embedded later
 * goes through here, so a file stored before the upload checks existed cannot hurt.
 */
export function placeImage(doc: Pdf, data: Buffer, x: number, y: number, options: PDFKit.Mixins.ImageOption): boolean {
  if (!isShowableImage(data)) return false;
  doc.image(data, x, y, options);
  return true;
}

/** A page other than A4 with its margin (the pallet labels' A6, lib/palletLabels.ts). */
export interface PageFormat {
  size: [number, number];
  margin: number;
}

export function newPdf(lang: Lang, title: string, page: PageFormat = { size: [595.28, 841.89], margin: MARGIN }): PdfKit {
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, key, params);
  const doc = new PDFDocument({
    size: page.size,
    margin: page.margin,
    bufferPages: true,
    lang,
    info: { Title: title, Creator: t('pdf.portal'), Producer: t('pdf.portal') },
  });
  doc.registerFont('body', REGULAR);
  doc.registerFont('bold', BOLD);
  doc.font('body').fontSize(9).fillColor('black');
  return { doc, lang, t, width: doc.page.width - 2 * page.margin };
}

/** Writes the footer of every page (the portal, a page number) and answers the finished file. */
export function finish(k: PdfKit, footer: string): Promise<Buffer> {
  const { doc, t } = k;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN + 12;
    doc.font('body').fontSize(7).fillColor(GREY);
    doc.text(footer, MARGIN, y, { width: k.width * 0.7, lineBreak: false });
    doc.text(t('pdf.page', { n: i - range.start + 1, total: range.count }), MARGIN, y, { width: k.width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  return pdfBytes(doc);
}

/** Ends the document and answers its bytes. */
export function pdfBytes(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

const LOCALE: Record<Lang, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };

/** A day (YYYY-MM-DD, or the day of an ISO instant in Europe/Rome) the way the language writes it: 25/11/2026 in Italian. */
export function dayText(lang: Lang, value: string | null | undefined): string {
  if (!value) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], 12)) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(LOCALE[lang], { timeZone: m ? 'UTC' : 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);
}

/** A number the way the language writes it (grouping, up to 2 decimals). */
export function numberText(lang: Lang, v: number | string | null | undefined): string {
  if (v === null || v === undefined || v === '') return '—';
  const n = Number(v);
  // Grouped from four digits (1.350,5 kg), as the screens write it (src/custom/calculator/numbers.ts): Italian
  // CLDR data would otherwise leave 1350,5 ungrouped.
  return Number.isNaN(n)
    ? String(v)
    : new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 2, useGrouping: 'always' } as Intl.NumberFormatOptions).format(n);
}

/** Euros (a value already in euros) the way the language writes them. */
export function moneyText(lang: Lang, euros: number | null | undefined): string {
  if (euros === null || euros === undefined) return '—';
  // As src/components/format.ts: 1.234,56 € (grouped from four digits in Italian too).
  return new Intl.NumberFormat(LOCALE[lang], { style: 'currency', currency: 'EUR', useGrouping: 'always' } as Intl.NumberFormatOptions).format(euros);
}

/** A small bold caption. */
export function caption(k: PdfKit, text: string, x: number, y: number, width: number) {
  k.doc.font('bold').fontSize(7.5).fillColor(GREY).text(text.toUpperCase(), x, y, { width });
  k.doc.font('body').fontSize(9).fillColor('black');
}

/** The height a box with a caption and these lines takes at this width. */
export function boxHeight(k: PdfKit, lines: string[], width: number): number {
  k.doc.font('body').fontSize(9);
  return 8 + 11 + lines.reduce((h, l) => h + k.doc.heightOfString(l || ' ', { width: width - 12 }) + 1, 0) + 6;
}

/** A framed box: caption, then lines (the first bold when `strong`). */
export function box(k: PdfKit, x: number, y: number, width: number, height: number, title: string, lines: string[], strong = false) {
  const { doc } = k;
  doc.lineWidth(0.6).strokeColor(LINE).rect(x, y, width, height).stroke();
  caption(k, title, x + 6, y + 6, width - 12);
  let cy = y + 19;
  lines.forEach((l, i) => {
    doc.font(strong && i === 0 ? 'bold' : 'body').fontSize(9);
    doc.text(l || ' ', x + 6, cy, { width: width - 12 });
    cy = doc.y + 1;
  });
  doc.font('body');
}

/** A row of boxes of equal width and the height of the tallest; answers the y below it. */
export function boxRow(k: PdfKit, y: number, boxes: Array<{ title: string; lines: string[]; strong?: boolean }>, minHeight = 0): number {
  const gap = 8;
  const w = (k.width - gap * (boxes.length - 1)) / boxes.length;
  const h = Math.max(minHeight, ...boxes.map((b) => boxHeight(k, b.lines, w)));
  if (y + h > k.doc.page.height - MARGIN - 20) {
    k.doc.addPage();
    y = MARGIN;
  }
  boxes.forEach((b, i) => box(k, MARGIN + i * (w + gap), y, w, h, b.title, b.lines, b.strong));
  return y + h + gap;
}
