import type { FastifyInstance, FastifyRequest } from 'fastify';
import { centsOf } from '../../lib/amounts.js';
import type { CostRequestBody } from '../../lib/quoteRequest.js';
import { quoterOf } from '../../lib/quoteService.js';
import type { QuoteFields } from './payload.js';

/** The server's own price of a quoted request, in cents, and who sells it to whom. */
export type Repriced = {
  ok: true;
  carrierId: number;
  endUserCompanyId: number | null;
  cost: number;
  adminFee: number;
  leadTime: number | null;
  /** the quote date (Europe/Rome) */
  date: string;
  /** the ratio that priced a standard quote, as the calculator names it (CBM250…, LM1750) */
  ratio: string | null;
  /** the band of each pallet (express) */
  palletTypes: string[];
  /** the fuel surcharge it was priced with (pricing.md §7), stored on the request; null without one */
  fuel: { month: string; price: string; percent: string } | null;
};

/**
 * Prices a request's quote again with the costRequest route's quote function (server.md §5): the same
 * caller (end user, or visitor for the visitor calls), the same fields, today's tariffs. The price is
 * the offer of the chosen class (`x_total_<class>_sell`) or the standard `shipment_cost`, without the
 * admin fee, which comes apart (pricing.md §1, §6).
 */
export async function repriceQuote(
  app: FastifyInstance,
  req: FastifyRequest,
  caller: 'enduser' | 'visitor',
  quote: QuoteFields & { adr: number; taillift: number },
  serviceClass: 'SILVER' | 'GOLD' | null,
): Promise<Repriced | { ok: false; message: string }> {
  const express = quote.service === 'palletExpress';
  const body: CostRequestBody = {
    zone: quote.zone,
    service: quote.service,
    flow: quote.flow ?? 'OUT',
    island: quote.island ?? null,
    adr: quote.adr ? 1 : 0,
    taillift: quote.taillift ? 1 : 0,
    originCountry: quote.originCountry,
    originPostalCode: quote.originPostalCode,
    originLocality: quote.originLocality,
    originProvince: quote.originProvince,
    destinationCountry: quote.destinationCountry,
    destinationPostalCode: quote.destinationPostalCode,
    destinationLocality: quote.destinationLocality,
    destinationProvince: quote.destinationProvince,
    ...(express
      ? { palletWeight: quote.palletWeight, palletWidth: quote.palletWidth, palletLength: quote.palletLength, palletHeight: quote.palletHeight }
      : {
          standardunits: quote.standardunits,
          standardweight: quote.standardweight,
          standardvolume: quote.standardvolume,
          standardvolumeType: quote.standardvolumeType,
          calculationRatio: quote.calculationRatio,
        }),
  };
  const r = await quoterOf(app).quote(req, caller, body);
  if (!r.ok) return r;
  const base = { ok: true as const, carrierId: r.carrier.id, endUserCompanyId: r.endUser?.id ?? null, date: r.date, fuel: r.data.fuel };
  if (express) {
    const p = r.data.prices_list!;
    const k = serviceClass === 'GOLD' ? 'gold' : 'silver';
    return {
      ...base,
      cost: centsOf(p[`x_total_${k}_sell`]),
      adminFee: centsOf(p.admin_fee),
      leadTime: p[`max_leadtime_sell_${k}`],
      ratio: null,
      palletTypes: (r.data.palletData ?? []).map((d) => d.type),
    };
  }
  const c = r.data.costo_complete!;
  const u = r.data.units;
  return {
    ...base,
    cost: centsOf(c.shipment_cost),
    adminFee: centsOf(c.admin_fee),
    leadTime: c.lead_time,
    ratio: u ? `${u.standardvolumeType}${u.ratio}` : null,
    palletTypes: [],
  };
}
