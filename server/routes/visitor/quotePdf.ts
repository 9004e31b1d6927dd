import type { App } from '../../lib/typed.js';
import { ApiError, forbidden } from '../../lib/errors.js';
import { binaryAnswer, downloadHeaders, withHeaders } from '../../lib/answers.js';
import { callerKind, costRequestSchema } from '../../lib/quoteRequest.js';
import { quoterOf, visitorQuoteGuard } from '../../lib/quoteService.js';
import { translateLines } from '../../lib/quoteText.js';
import { quotePdf } from '../../lib/quotePdf.js';
import { visibleTo } from '../../pricing/quote.js';

/**
 * POST /visitor/costRequest/pdf (issue 22, docs/request-documents.md): the same body, policy and visitor
 * throttle as POST /visitor/costRequest (the same `quote:ip:` counter), answered as a PDF of what that
 * caller's JSON quote shows (`visibleTo`), with the date and the sell sheet's last day as validity.
 * A quote the engine cannot price is 422 with the engine's reason (the screen offers the PDF only on a
 * priced result). Stores nothing.
 */
export default async function quotePdfRoutes(app: App) {
  const quoter = quoterOf(app);

  app.post(
    '/visitor/costRequest/pdf',
    {
      config: { policy: 'public', notAudited: 'a quote as a PDF: computes a price and stores nothing' },
      schema: {
        tags: ['visitor'],
        summary: 'Prices a shipment and answers the quote the caller may see as a PDF.',
        security: [{ apiPassword: [] }, { apiPassword: [], bearer: [] }],
        body: costRequestSchema,
        response: { 200: withHeaders(binaryAnswer('The quote', 'application/pdf'), downloadHeaders) },
      },
      preValidation: visitorQuoteGuard(app),
    },
    async (req, reply) => {
      const kind = callerKind(req.user?.kind);
      if (!kind) throw forbidden(); // support users do not quote
      const result = await quoter.quote(req, kind, req.body);
      if (!result.ok) throw new ApiError(422, 'requests.quoteRefused', { message: result.message });
      const visible = visibleTo(kind, result.data);
      const pdf = await quotePdf(req.lang, req.body, visible, translateLines(req.lang, visible.breakdown), result.date, result.validTo);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${req.t('quotePdf.title')}-${result.date}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
