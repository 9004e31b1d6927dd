import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COMPANY_ROLE } from '../../../src/schema/roles.js';
import { forbidden, notFound, tooMany } from '../../lib/errors.js';
import { HitBatcher } from '../../lib/hitBatcher.js';
import { callerKind, costRequestSchema, toQuoteRequest, type CostRequestBody } from '../../lib/quoteRequest.js';
import { refusalMessage, translateLines } from '../../lib/quoteText.js';
import { romeToday } from '../../lib/romeDate.js';
import { priceQuote, visibleTo } from '../../pricing/quote.js';
import type { CallerKind, CarrierSettings, EndUserSettings } from '../../pricing/types.js';
import { placeReference } from '../../repositories/placeReference.js';
import { isSeller, pricingDataRepo, toCarrierSettings, toEndUserSettings } from '../../repositories/pricingData.js';
import { VISITOR_COMPANY } from '../../repositories/settings.js';

const MINUTE = 60_000;

const answerSchema = {
  type: 'object',
  properties: {
    status: { type: 'boolean' },
    message: { type: 'string' },
    data: { type: 'object', additionalProperties: true },
  },
} as const;

type Parties = { carrier: CarrierSettings; endUser: EndUserSettings | null } | { unavailable: true };

/**
 * POST /visitor/costRequest (pricing.md; calculator document §3, §7): who prices with which sheets
 * (pricing.md §1), the quote on today's date in Europe/Rome, and the answer each caller may see.
 * Visitors are throttled per address (QUOTE_RATE_LIMIT a minute, every attempt counts). Signed-in
 * callers are not: they are known customers, and a misused account can be deactivated.
 */
export default async function costRequestRoutes(app: FastifyInstance) {
  const data = pricingDataRepo(app.db, app.config.pricingCacheMs);
  const visitorHits = new HitBatcher(app.db, MINUTE);

  /** An end-user company of that carrier, else 404 (pricing.md §1). */
  async function endUserOf(carrierId: number, id: number | null | undefined): Promise<EndUserSettings | null> {
    if (!id) return null;
    const c = await data.company(id);
    if (!c || c.company_role_id !== COMPANY_ROLE.ENDUSER || c.carrier_id !== carrierId) throw notFound();
    return toEndUserSettings(c);
  }

  async function parties(req: FastifyRequest, kind: CallerKind, body: CostRequestBody): Promise<Parties> {
    const u = req.user;
    switch (kind) {
      case 'visitor': {
        const id = Number(await data.setting(VISITOR_COMPANY)) || null;
        const c = id ? await data.company(id) : undefined;
        // no visitor carrier configured, or it is no longer an active carrier: no public prices
        if (!c || !isSeller(c) || c.status_id !== 1) return { unavailable: true };
        return { carrier: toCarrierSettings(c), endUser: null };
      }
      case 'enduser': {
        const [carrier, own] = await Promise.all([u!.carrier_id ? data.company(u!.carrier_id) : undefined, data.company(u!.company_id)]);
        if (!carrier || !isSeller(carrier) || !own) throw notFound();
        return { carrier: toCarrierSettings(carrier), endUser: toEndUserSettings(own) };
      }
      case 'carrier': {
        const carrier = await data.company(u!.company_id);
        if (!carrier || !isSeller(carrier)) throw notFound();
        return { carrier: toCarrierSettings(carrier), endUser: await endUserOf(carrier.id, body.enduser_id) };
      }
      case 'admin': {
        const carrier = await data.company(body.company_id!);
        if (!carrier || !isSeller(carrier)) throw notFound();
        return { carrier: toCarrierSettings(carrier), endUser: await endUserOf(carrier.id, body.enduser_id) };
      }
    }
  }

  app.post('/visitor/costRequest', {
    config: { policy: 'public' },
    schema: { tags: ['visitor'], body: costRequestSchema, response: { 200: answerSchema } },
    // The answer's data is free-form (its shape is pricing.md §5): plain JSON.stringify writes it
    // faster than a schema serializer walking additionalProperties; the schema stays for the API docs.
    serializerCompiler: () => (data) => JSON.stringify(data),
    preValidation: async (req) => {
      if (req.user) return;
      if ((await visitorHits.hit(`quote:ip:${req.ip}`)) > app.config.quoteRateLimit) throw tooMany();
    },
  }, async (req) => {
    const kind = callerKind(req.user?.kind);
    if (!kind) throw forbidden(); // support users do not quote
    const body = req.body as CostRequestBody;
    const request = toQuoteRequest(body, kind, await placeReference(app.db));
    const who = await parties(req, kind, body);
    if ('unavailable' in who) return { status: false, message: req.t('pricing.visitorUnavailable') };
    const date = romeToday();
    const tariffs = await data.tariffsFor(request, who.carrier, who.endUser, date);
    const result = priceQuote({ request, date, carrier: who.carrier, endUser: who.endUser, ...tariffs });
    if (!result.ok) return { status: false, message: refusalMessage(req.lang, result.key, result.params) };
    const visible = visibleTo(kind, result.data);
    return { status: true, message: '', data: { ...visible, breakdown: translateLines(req.lang, visible.breakdown) } };
  });
}
