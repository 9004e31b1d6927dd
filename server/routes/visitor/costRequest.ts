import type { App } from '../../lib/typed.js';
import { forbidden } from '../../lib/errors.js';
import { callerKind, costRequestSchema } from '../../lib/quoteRequest.js';
import { quoteNotPricedSchema, quotePricedSchema } from '../../../model/quote.js';
import { discriminatorOf, sharedSchema } from '../../lib/answers.js';

/** The two answers as named schemas told apart by `outcome` (issue 33), made while this module loads. */
const QUOTE_ANSWER = {
  oneOf: [sharedSchema({ $id: 'Quote', title: 'Quote', ...quotePricedSchema }), sharedSchema({ $id: 'NoQuote', title: 'NoQuote', ...quoteNotPricedSchema })],
  discriminator: discriminatorOf('outcome', { priced: 'Quote', not_priced: 'NoQuote' }),
};
import { quoterOf, visitorQuoteGuard } from '../../lib/quoteService.js';
import { translateLines } from '../../lib/quoteText.js';
import { visibleLines, visibleParts } from '../../pricing/quote.js';

/**
 * POST /visitor/costRequest (pricing.md; calculator document §3, §7): the portal's quote function
 * (lib/quoteService.ts: who prices with which sheets, today's date in Europe/Rome) and the answer
 * each caller may see.
 * Visitors are throttled per address (QUOTE_RATE_LIMIT a minute, every attempt counts). Signed-in
 * callers are not: they are known customers, and a misused account can be deactivated.
 */
export default async function costRequestRoutes(app: App) {
  const quoter = quoterOf(app);

  app.post(
    '/visitor/costRequest',
    {
      // compiledAnswer: the hot path (issue 37); its two answers are closed schemas (plugins/answers.ts compileAnswer)
      config: { policy: 'public', notAudited: 'a quote: computes a price and stores nothing', compiledAnswer: true },
      schema: {
        tags: ['visitor'],
        summary: 'Prices a shipment: the quote the caller may see (model/quote.ts).',
        security: [{ apiPassword: [] }, { apiPassword: [], bearer: [] }],
        body: costRequestSchema,
        // Documents and (in tests) checks the answer; the serializer compiled from its branch writes it (plugins/answers.ts).
        response: { 200: QUOTE_ANSWER },
      },
      preValidation: visitorQuoteGuard(app),
    },
    async (req) => {
      const kind = callerKind(req.user?.kind);
      if (!kind) throw forbidden(); // support users do not quote
      // an end user's or a visitor's answer: the engine skips what they may not see (no buy side; issue 37)
      const result = await quoter.quote(req, kind, req.body, kind === 'enduser' || kind === 'visitor' ? 'public' : 'full');
      if (!result.ok) return { outcome: 'not_priced' as const, status: false as const, message: result.message };
      // what the caller may see (pricing/quote.ts visibleTo), the breakdown translated straight from the engine's lines
      const data = Object.assign(visibleParts(kind, result.data), { breakdown: translateLines(req.lang, visibleLines(kind, result.data.breakdown)) });
      return { outcome: 'priced' as const, status: true as const, message: '', data };
    },
  );
}
