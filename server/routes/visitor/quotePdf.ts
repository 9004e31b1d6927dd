import type { App } from '../../lib/typed.js';
import { ApiError, forbidden } from '../../lib/errors.js';
import { binaryAnswer, downloadHeaders, withHeaders } from '../../lib/answers.js';
import { callerKind, costRequestSchema } from '../../lib/quoteRequest.js';
import { quoterOf, visitorQuoteGuard } from '../../lib/quoteService.js';
import { translateLines } from '../../lib/quoteText.js';
import { quotePdf } from '../../lib/quotePdf.js';
import { attachment, downloadName } from '../../lib/downloadNames.js';
import { inputsHash, lowestTotal, quoteValidity } from '../../lib/quoteNumbers.js';
import { visibleTo } from '../../pricing/quote.js';
import { issuedQuotesRepo } from '../../repositories/issuedQuotes.js';

/**
 * POST /visitor/costRequest/pdf (issue 22, docs/request-documents.md): the same body, policy and visitor
 * throttle as POST /visitor/costRequest (the same `quote:ip:` counter), answered as a PDF of what that
 * caller's JSON quote shows (`visibleTo`), with the date and its validity: the end of its fuel month, or the
 * sell sheet's last day (lib/quoteNumbers.ts). A quote the engine cannot price is 422 with the engine's reason
 * (the screen offers the PDF only on a priced result). Each PDF is numbered (issue 36 item 5): one insert into
 * `issued_quotes` (repositories/issuedQuotes.ts) records the number, who asked, the total, the validity and
 * the inputs' hash; the file is `preventivo-P-2026-000123.pdf` / `quote-…` / `devis-…`.
 */
export default async function quotePdfRoutes(app: App) {
  const quoter = quoterOf(app);
  const issued = issuedQuotesRepo(app.db);

  app.post(
    '/visitor/costRequest/pdf',
    {
      config: { policy: 'public', notAudited: 'a quote as a PDF: its only write is the issued quote’s own record (issued_quotes)' },
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
      const validity = quoteValidity(result.date, result.data, result.carrier, result.validTo);
      const { number } = await issued.issue({
        date: result.date,
        companyId: req.user?.company_id ?? null,
        userId: req.user?.id ?? null,
        carrierId: result.carrier.id,
        total: lowestTotal(visible),
        validTo: validity.validTo,
        inputsHash: inputsHash(kind, req.body),
      });
      const pdf = await quotePdf(req.lang, req.body, visible, translateLines(req.lang, visible.breakdown), result.date, { number, validity });
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(downloadName.quote(req.lang, number)))
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
