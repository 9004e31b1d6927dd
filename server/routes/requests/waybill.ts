import type { App } from '../../lib/typed.js';
import { conflict, notFound } from '../../lib/errors.js';
import { binaryAnswer, downloadHeaders, withHeaders } from '../../lib/answers.js';
import { romeDate } from '../../lib/romeTime.js';
import { waybillPdf } from '../../lib/waybillPdf.js';
import { podImageEmbeddable } from '../../lib/podPdf.js';
import { POD_AREA, proofOfDeliveryRepo } from '../../repositories/proofOfDelivery.js';
import { STATUS, transportRequestsRepo } from '../../repositories/transportRequests.js';
import { NAMESPACES, attachmentName, scopeOf } from './list.js';

/** The statuses of a request whose transport goes ahead: the document exists from confirmation on. */
const CONFIRMED: number[] = [STATUS.CF, STATUS.IT, STATUS.DL];

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * GET /{ns}/transport_requests/waybill/{id} (issue 22, docs/request-documents.md): the transport document
 * of a confirmed request as a PDF in the caller's language (lib/waybillPdf.ts). An id outside the caller's
 * scope is 404; a request not confirmed (open, refused, cancelled) is 409 with its status named.
 */
export default async function requestWaybillRoutes(app: App) {
  const repo = transportRequestsRepo(app.db);

  for (const { ns, policy } of NAMESPACES) {
    app.get(
      `/${ns}/transport_requests/waybill/:id`,
      {
        config: { policy },
        schema: {
          tags: ['transport requests'],
          summary: 'Downloads the transport document (consignment note) of a confirmed transport request as a PDF.',
          params: idParams,
          response: { 200: withHeaders(binaryAnswer('The consignment note', 'application/pdf'), downloadHeaders) },
        },
      },
      async (req, reply) => {
        const { id } = req.params;
        const found = await repo.findScoped(id, scopeOf(req, ns));
        if (!found) throw notFound();
        if (!CONFIRMED.includes(found.transport_request_status_id)) {
          throw conflict('requests.waybillNotConfirmed', { status: req.t(`status.${found.transport_request_status_id}`) });
        }
        const [[row], carrier, customer] = await Promise.all([
          repo.load([id]),
          app.db
            .selectFrom('companies')
            .select(['legal_name', 'address', 'postal_code', 'city', 'province', 'phone'])
            .where('id', '=', found.carrier_id)
            .executeTakeFirstOrThrow(),
          found.enduser_company_id
            ? app.db
                .selectFrom('companies')
                .select(['legal_name', 'address', 'postal_code', 'city', 'province', 'phone'])
                .where('id', '=', found.enduser_company_id)
                .executeTakeFirst()
            : undefined,
        ]);
        const customerLines = customer
          ? [
              customer.legal_name,
              customer.address ?? '',
              `${customer.postal_code ?? ''} ${customer.city ?? ''}${customer.province ? ` (${customer.province})` : ''}`.trim(),
              customer.phone ?? '',
            ]
          : [found.visitor_company ?? '', [found.firstname, found.lastname].filter(Boolean).join(' '), found.email ?? '', found.phone ?? ''];
        // the proof of delivery's image, drawn when small (lib/podPdf.ts); its file read through the store
        const podFile = row.pod && podImageEmbeddable(row.pod) ? await proofOfDeliveryRepo(app.db).scoped(id, { all: true }) : null;
        const podImage = podFile ? await app.files.read(POD_AREA, podFile.stored_name) : null;
        const pdf = await waybillPdf(req.lang, row, { carrier, customer: customerLines.filter(Boolean), podImage }, romeDate());
        return reply
          .type('application/pdf')
          .header('content-disposition', attachmentName(`${req.t('waybill.title')} ${id}.pdf`))
          .header('cache-control', 'private, no-store')
          .send(pdf);
      },
    );
  }
}
