import type { App } from '../../lib/typed.js';
import { notFound } from '../../lib/errors.js';
import { binaryAnswer, withHeaders } from '../../lib/answers.js';
import { STORED_NAME } from '../../lib/files.js';
import { POD_AREA, proofOfDeliveryRepo } from '../../repositories/proofOfDelivery.js';
import { POD_FILE_TYPES } from '../../../model/proofOfDelivery.js';
import { NAMESPACES, attachmentName, scopeOf } from './list.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'application/pdf': 'pdf' };

/**
 * GET /{ns}/transport_requests/pod/{id} (issue 36, docs/proof-of-delivery.md): the proof of delivery of request
 * {id} — the photo or PDF of the signed document, or the drawn signature — with its own type, for the carrier,
 * the admin and the end user of that request (an API key with requests:read too). Outside the caller's scope,
 * or before a POD exists: 404. Served `inline` (the request screen shows it) but only its checked kinds
 * (PNG, JPEG, WebP by their bytes, PDF by its magic: lib/podInput.ts), with `nosniff` and a sandboxing CSP so
 * nothing in the file runs against the portal's origin. Public tracking never reaches it.
 */
export default async function requestPodRoutes(app: App) {
  for (const { ns, policy } of NAMESPACES) {
    app.get(
      `/${ns}/transport_requests/pod/:id`,
      {
        config: { policy },
        schema: {
          tags: ['transport requests'],
          summary: 'Reads the proof of delivery (signed document or drawn signature) of a delivered transport request.',
          params: idParams,
          response: {
            200: withHeaders(binaryAnswer('The proof of delivery: its image or PDF', ...POD_FILE_TYPES), {
              'Content-Disposition': { type: 'string', description: '`inline` with the file\'s name: `inline; filename="POD 12.png"`' },
            }),
          },
        },
      },
      async (req, reply) => {
        const { id } = req.params;
        const pod = await proofOfDeliveryRepo(app.db).scoped(id, scopeOf(req, ns));
        const file = pod && STORED_NAME.test(pod.stored_name) ? await app.files.open(POD_AREA, pod.stored_name) : null;
        if (!pod || !file) throw notFound();
        return reply
          .type(pod.content_type)
          .header('content-length', file.size)
          .header('content-disposition', attachmentName(`POD ${id}.${EXT[pod.content_type] ?? 'bin'}`).replace(/^attachment/, 'inline'))
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "sandbox; default-src 'none'")
          .send(file.stream);
      },
    );
  }
}
