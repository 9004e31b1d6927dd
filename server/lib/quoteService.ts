import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COMPANY_ROLE } from '../../model/roles.js';
import { notFound, restOfWindow, tooMany } from './errors.js';
import { HitBatcher } from './hitBatcher.js';
import { toQuoteRequest, type CostRequestBody } from './quoteRequest.js';
import { refusalMessage } from './quoteText.js';
import { romeToday } from './romeDate.js';
import { priceQuote } from '../pricing/quote.js';
import type { CallerKind, CarrierSettings, EndUserSettings, QuoteData, QuoteInput, QuoteRequest } from '../pricing/types.js';
import { placeReference, placeReferenceNow } from '../repositories/placeReference.js';
import { isSeller, pricingDataRepo, toCarrierSettings, toEndUserSettings, type PricingCompany } from '../repositories/pricingData.js';
import { VISITOR_COMPANY } from '../repositories/settings.js';

type Parties = { carrier: CarrierSettings; endUser: EndUserSettings | null } | { unavailable: true };

export type QuoteOutcome =
  | {
      ok: true;
      kind: CallerKind;
      request: QuoteRequest;
      date: string;
      carrier: CarrierSettings;
      endUser: EndUserSettings | null;
      data: QuoteData;
      /** the last day (YYYY-MM-DD) of the sell sheet that priced it: the quote PDF's validity */
      validTo: string | null;
    }
  | { ok: false; message: string };

export interface Quoter {
  /**
   * Prices a cost request for a caller (pricing.md): the request checked against the reference places
   * (422 on a malformed one), who prices with which sheets (§1), the tariffs on today's date in
   * Europe/Rome, the engine. A refusal (no sheet, no rate, the visitor carrier missing) comes back as
   * `{ok: false, message}` in the caller's language. The whole answer, before `visibleTo`; with
   * `view: 'public'` the engine leaves out what `visibleTo` takes away from an end user or a visitor
   * (pricing/types.ts QuoteInput.view): for an answer that goes straight to one of them.
   */
  quote(req: FastifyRequest, kind: CallerKind, body: CostRequestBody, view?: QuoteInput['view']): Promise<QuoteOutcome>;
}

const quoters = new WeakMap<FastifyInstance, Quoter>();

/** The visitors' carrier: none configured, or no longer an active carrier, means no public prices. */
function visitorParties(c: PricingCompany | undefined): Parties {
  if (!c || !isSeller(c) || c.status_id !== 1) return { unavailable: true };
  return { carrier: toCarrierSettings(c), endUser: null };
}

/** An end user's own company and its carrier (404 when either is gone or the carrier no longer sells). */
function endUserParties(carrier: PricingCompany | undefined, own: PricingCompany | undefined): Parties {
  if (!carrier || !isSeller(carrier) || !own) throw notFound();
  return { carrier: toCarrierSettings(carrier), endUser: toEndUserSettings(own) };
}

/**
 * The one quote function of the portal, shared by POST /visitor/costRequest and by the transport
 * requests, which price a request again before storing it (server.md §5).
 */
export function quoterOf(app: FastifyInstance): Quoter {
  const known = quoters.get(app);
  if (known) return known;
  const data = pricingDataRepo(app.db, app.config.pricingCacheMs);

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
        return visitorParties(id ? await data.company(id) : undefined);
      }
      case 'enduser': {
        const [carrier, own] = await Promise.all([u!.carrier_id ? data.company(u!.carrier_id) : undefined, data.company(u!.company_id)]);
        return endUserParties(carrier, own);
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

  /**
   * `parties` answered at once when every lookup it needs is cached (visitors and end users, the public quote's
   * callers; issue 37: each `await` of a cached lookup cost a turn of the microtask queue), else undefined.
   */
  function partiesNow(req: FastifyRequest, kind: CallerKind): Parties | undefined {
    const u = req.user;
    if (kind === 'visitor') {
      const setting = data.now.setting(VISITOR_COMPANY);
      if (!setting) return undefined;
      const id = Number(setting.v) || null;
      if (!id) return visitorParties(undefined);
      const c = data.now.company(id);
      return c && visitorParties(c.v);
    }
    if (kind === 'enduser') {
      const carrier = u!.carrier_id ? data.now.company(u!.carrier_id) : { v: undefined };
      const own = data.now.company(u!.company_id);
      return carrier && own && endUserParties(carrier.v, own.v);
    }
    return undefined;
  }

  const quoter: Quoter = {
    async quote(req, kind, body, view = 'full') {
      const request = toQuoteRequest(body, kind, placeReferenceNow(app.db) ?? (await placeReference(app.db)));
      const who = partiesNow(req, kind) ?? (await parties(req, kind, body));
      if ('unavailable' in who) return { ok: false, message: req.t('pricing.visitorUnavailable') };
      const date = romeToday();
      const tariffs = data.now.tariffsFor(request, who.carrier, who.endUser, date)?.v ?? (await data.tariffsFor(request, who.carrier, who.endUser, date));
      const result = priceQuote({ request, date, carrier: who.carrier, endUser: who.endUser, ...tariffs, view });
      if (!result.ok) return { ok: false, message: refusalMessage(req.lang, result.key, result.params) };
      const validTo = tariffs.sheets.sell?.validate_to?.slice(0, 10) ?? null;
      return { ok: true, kind, request, date, carrier: who.carrier, endUser: who.endUser, data: result.data, validTo };
    },
  };
  quoters.set(app, quoter);
  return quoter;
}

const visitorGuards = new WeakMap<FastifyInstance, (req: FastifyRequest) => Promise<void>>();
/**
 * The visitor throttle of the quote routes (POST /visitor/costRequest and its PDF): one `quote:ip:` counter
 * per address, QUOTE_RATE_LIMIT a minute, every attempt counted; signed-in callers are not throttled here.
 * One batcher per app, so both routes count into the same window.
 */
export function visitorQuoteGuard(app: FastifyInstance): (req: FastifyRequest) => Promise<void> {
  let guard = visitorGuards.get(app);
  if (!guard) {
    const hits = new HitBatcher(app.db, 60_000);
    guard = async (req) => {
      if (req.user) return;
      if ((await hits.hit(`quote:ip:${req.ip}`)) > app.config.quoteRateLimit) throw tooMany(restOfWindow(60_000));
    };
    visitorGuards.set(app, guard);
  }
  return guard;
}
