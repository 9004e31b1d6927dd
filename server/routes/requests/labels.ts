import type { App } from '../../lib/typed.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { binaryAnswer, downloadHeaders, withHeaders } from '../../lib/answers.js';
import { palletLabelsPdf, palletLabelsZpl, type PalletLabel } from '../../lib/palletLabels.js';
import { STATUS, transportRequestsRepo, type LoadedRequest } from '../../repositories/transportRequests.js';
import { palletLabelsRepo } from '../../repositories/palletLabels.js';
import { trackingPath } from '../../../model/tracking.js';
import type { Lang } from '../../i18n/index.js';
import { NAMESPACES, scopeOf } from './list.js';
import { attachment, downloadName } from '../../lib/downloadNames.js';

/** As the waybill: labels go on pallets that will move, from confirmation on. */
const CONFIRMED: number[] = [STATUS.CF, STATUS.IT, STATUS.DL];

export const LABEL_FORMATS = ['pdf', 'zpl'] as const;

const params = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    format: {
      type: 'string',
      enum: LABEL_FORMATS,
      default: 'pdf',
      description: 'pdf = one A6 page per pallet (default); zpl = ZPL II text for 4 × 6 in thermal printers at 203 dpi, one ^XA…^XZ per pallet',
    },
  },
} as const;

type Place = LoadedRequest['shipments'][number]['pickup'];
const countryOf = (lang: Lang, a: NonNullable<Place>) => (lang === 'it' ? a.country_it : lang === 'fr' ? a.country_fr : a.country_en) ?? a.country_en ?? '';
const placeLines = (lang: Lang, a: Place): string[] =>
  a
    ? [a.location_name, a.address, `${a.postal_code} ${a.city ?? ''}${a.province ? ` (${a.province})` : ''}`.trim(), countryOf(lang, a)].filter(Boolean)
    : ['—'];

/**
 * GET /{ns}/transport_requests/labels/{id} (issue 36 item 3, docs/pallet-labels.md): one label per pallet of a
 * confirmed request with its SSCC, as a PDF (A6 pages) or with `?format=zpl` as ZPL text. The first print numbers
 * the pallets from the carrier's counter (repositories/palletLabels.ts); later prints show the same numbers.
 *
 * Who: the carrier kind (its own requests), the admin, and the end user (its company's requests): a shipper
 * often labels its pallets before the truck comes, and the number is the carrier's whoever prints first. An API
 * key with `requests:read` may call it, as the waybill (model/apiKeys.ts). Outside the scope: 404; not confirmed,
 * no pallets, or no GS1 prefix set by the carrier: 409 saying so (to the carrier: where to set it).
 */
export default async function requestLabelRoutes(app: App) {
  const repo = transportRequestsRepo(app.db);
  const labels = palletLabelsRepo(app.db);

  for (const { ns, policy } of NAMESPACES) {
    app.get(
      `/${ns}/transport_requests/labels/:id`,
      {
        config: { policy },
        schema: {
          tags: ['transport requests'],
          summary: 'Downloads the pallet labels (GS1-128 SSCC, A6 PDF or ZPL) of a confirmed transport request, numbering its pallets at the first print.',
          params,
          querystring,
          response: {
            200: withHeaders(binaryAnswer('The labels: a PDF of A6 pages, or ZPL text (`format=zpl`)', 'application/pdf', 'text/plain'), downloadHeaders),
          },
        },
      },
      async (req, reply) => {
        const { id } = req.params;
        const format = req.query.format ?? 'pdf';
        const found = await repo.findScoped(id, scopeOf(req, ns));
        if (!found) throw notFound();
        if (!CONFIRMED.includes(found.transport_request_status_id)) {
          throw conflict('labels.notConfirmed', { status: req.t(`status.${found.transport_request_status_id}`) });
        }
        const [row] = await repo.load([id]);
        if (!row.shipments.some((s) => s.details.some((d) => d.shipment_type_id === 1))) throw conflict('labels.noPallets');
        const numbered = await labels.numberPallets(id, found.carrier_id);
        if (numbered === 'noPrefix') {
          // Each caller is told what it can do: the carrier where to set it, the admin whose it is, the customer to wait.
          if (ns === 'company') throw conflict('labels.noPrefix');
          if (ns === 'admin') throw conflict('labels.noPrefixAdmin', { carrier: row.carrier_legal_name });
          throw conflict('labels.noPrefixCustomer');
        }
        const ssccOf = new Map(numbered.map((p) => [p.id, p.sscc]));
        const out: PalletLabel[] = row.shipments.flatMap((s) => {
          const pallets = s.details.filter((d) => d.shipment_type_id === 1);
          const url = app.config.publicUrl + trackingPath(String(row.id), s.delivery?.postal_code ?? '');
          return pallets.map((d, i) => ({
            requestId: row.id,
            carrier: row.carrier_legal_name,
            sender: placeLines(req.lang, s.pickup),
            consignee: placeLines(req.lang, s.delivery),
            reference: s.consignee_reference ?? s.shipper_reference ?? null,
            n: i + 1,
            total: pallets.length,
            weight: d.pallet_weight,
            sscc: ssccOf.get(d.id) ?? '',
            trackingUrl: url,
          }));
        });
        // a pallet added between the numbering and the load (never today: pallets are not added after booking)
        if (out.some((l) => !l.sscc)) throw new ApiError(409, 'errors.conflict');
        reply.header('cache-control', 'private, no-store');
        if (format === 'zpl') {
          return reply
            .type('text/plain; charset=utf-8')
            .header('content-disposition', attachment(downloadName.labels(req.lang, id, 'zpl')))
            .send(Buffer.from(palletLabelsZpl(req.lang, out), 'utf8'));
        }
        return reply
          .type('application/pdf')
          .header('content-disposition', attachment(downloadName.labels(req.lang, id, 'pdf')))
          .send(await palletLabelsPdf(req.lang, out));
      },
    );
  }
}
