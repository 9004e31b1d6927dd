import type { LoadedRequest } from '../repositories/transportRequests.js';
import { MARGIN, boxHeight, boxRow, dayText, placeImage, type PdfKit } from './pdf.js';
import { romeDate } from './romeTime.js';
import { POD_SIGNATURE_MAX } from '../../model/proofOfDelivery.js';

type Pod = NonNullable<LoadedRequest['pod']>;

/** The Rome wall-clock time HH:MM of an instant. */
const romeClock = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso));

/**
 * Whether the POD's image is drawn into the request's PDF (issue 36): only a small PNG or JPEG (pdfkit draws
 * no WebP), at most the drawn signature's limit — the drawn signature always; a photo of the signed document
 * rarely (a phone photo is MBs: the PDF would grow by as much, and the file is on the portal). A PDF never.
 */
export const podImageEmbeddable = (pod: Pick<Pod, 'content_type' | 'bytes'>) =>
  (pod.content_type === 'image/png' || pod.content_type === 'image/jpeg') && pod.bytes <= POD_SIGNATURE_MAX;

/**
 * The proof-of-delivery block of the request's PDF (lib/waybillPdf.ts calls it once per page, after the goods
 * and notes): who received the goods, when (Europe/Rome), the reservations, and the signature's image when
 * small (`image`, the stored bytes; placeImage refuses a picture past the portal's pixel limits). Answers
 * the y below the block.
 */
export function podBlock(k: PdfKit, y: number, pod: Pod, image: Buffer | null | undefined): number {
  const { t, lang } = k;
  const lines = [
    `${t('pod.receivedBy')}: ${pod.name}`,
    `${t('pod.deliveredAt')}: ${dayText(lang, romeDate(pod.delivered_at))} ${romeClock(pod.delivered_at)}`,
    ...(pod.notes ? [`${t('pod.reservations')}: ${pod.notes}`] : []),
    ...(!image
      ? [t('pod.documentAttached', { type: pod.content_type === 'application/pdf' ? 'PDF' : pod.content_type.replace('image/', '').toUpperCase() })]
      : []),
  ];
  if (!image) return boxRow(k, y, [{ title: t('pod.title'), lines, strong: true }]);
  const gap = 8;
  const w = (k.width - gap) / 2;
  const minHeight = 80;
  const h = Math.max(minHeight, boxHeight(k, lines, w), boxHeight(k, [''], w));
  const below = boxRow(
    k,
    y,
    [
      { title: t('pod.title'), lines, strong: true },
      { title: t('pod.signature'), lines: [] },
    ],
    minHeight,
  );
  const top = below - gap - h;
  placeImage(k.doc, image, MARGIN + w + gap + 8, top + 20, { fit: [w - 16, h - 26], align: 'center', valign: 'center' });
  return below;
}
