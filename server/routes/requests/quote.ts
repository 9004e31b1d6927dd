import type { App } from '../../lib/typed.js';
import type { Db } from '../../db/index.js';
import type { Selectable } from 'kysely';
import type { TransportRequestTable } from '../../db/types.js';
import { conflict, notFound } from '../../lib/errors.js';
import { binaryAnswer, downloadHeaders, withHeaders } from '../../lib/answers.js';
import { euros } from '../../lib/amounts.js';
import { dayText } from '../../lib/pdf.js';
import { quotePdf } from '../../lib/quotePdf.js';
import type { CostRequestBody } from '../../lib/quoteRequest.js';
import type { QuoteData } from '../../pricing/types.js';
import { transportRequestsRepo } from '../../repositories/transportRequests.js';
import { attachment, downloadName } from '../../lib/downloadNames.js';
import { NAMESPACES, scopeOf } from './list.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * The cost request a stored request stands for, as the quote PDF prints it: the quote's own fields when the
 * request was made from a quote, else (entered by hand) its first shipment's places; the goods of every shipment
 * (the pallets of an express request, else units, weight and volume added up).
 */
async function bodyOf(db: Db, tr: Selectable<TransportRequestTable>): Promise<CostRequestBody> {
  const [places, goods, flags] = await Promise.all([
    db
      .selectFrom('shipments as s')
      .innerJoin('shipment_addresses as a', 'a.shipment_id', 's.id')
      .leftJoin('countries as c', 'c.id', 'a.country_id')
      .select(['a.kind', 'a.postal_code', 'a.city', 'a.province', 'c.code_alpha as country'])
      .where('s.transport_request_id', '=', tr.id)
      .orderBy('s.position')
      .execute(),
    db
      .selectFrom('shipments as s')
      .innerJoin('shipment_details as d', 'd.shipment_id', 's.id')
      .select(['d.pallet_weight', 'd.pallet_width', 'd.pallet_length', 'd.pallet_height', 'd.total_units', 'd.gross_weight', 'd.volume', 'd.volume_type'])
      .where('s.transport_request_id', '=', tr.id)
      .orderBy('s.position')
      .orderBy('d.position')
      .execute(),
    db.selectFrom('shipments').select(['adr', 'tail_lift']).where('transport_request_id', '=', tr.id).orderBy('position').executeTakeFirst(),
  ]);
  const pickup = places.find((p) => p.kind === 'pickup');
  const delivery = places.find((p) => p.kind === 'delivery');
  const express = tr.service === 'palletExpress';
  const num = (v: string | number | null | undefined) => Number(v ?? 0) || 0;
  const pallets = goods.filter((g) => g.pallet_weight !== null);
  const standard = goods.filter((g) => g.pallet_weight === null);
  return {
    zone: (tr.zone ?? 'national') as CostRequestBody['zone'],
    service: (express ? 'palletExpress' : 'standard') as CostRequestBody['service'],
    flow: (tr.flow ?? 'OUT') as CostRequestBody['flow'],
    island: tr.island,
    adr: flags?.adr ? 1 : 0,
    taillift: flags?.tail_lift ? 1 : 0,
    originCountry: tr.origin_country ?? pickup?.country ?? '',
    originPostalCode: tr.origin_postal_code ?? pickup?.postal_code ?? '',
    originLocality: tr.origin_locality ?? pickup?.city ?? undefined,
    originProvince: tr.origin_province ?? pickup?.province ?? undefined,
    destinationCountry: tr.destination_country ?? delivery?.country ?? '',
    destinationPostalCode: tr.destination_postal_code ?? delivery?.postal_code ?? '',
    destinationLocality: tr.destination_locality ?? delivery?.city ?? undefined,
    destinationProvince: tr.destination_province ?? delivery?.province ?? undefined,
    ...(express
      ? {
          palletWeight: pallets.map((g) => num(g.pallet_weight)),
          palletWidth: pallets.map((g) => num(g.pallet_width)),
          palletLength: pallets.map((g) => num(g.pallet_length)),
          palletHeight: pallets.map((g) => num(g.pallet_height)),
        }
      : {
          standardunits: standard.reduce((n, g) => n + num(g.total_units), 0),
          standardweight: standard.reduce((n, g) => n + num(g.gross_weight), 0),
          standardvolume: standard.reduce((n, g) => n + num(g.volume), 0),
          standardvolumeType: (standard[0]?.volume_type === 'LM' ? 'LM' : 'CBM') as CostRequestBody['standardvolumeType'],
        }),
  } as CostRequestBody;
}

/**
 * GET /{ns}/transport_requests/quote/{id} (issue 35 item 4): the quote of a stored request as a PDF, the
 * calculator's quote PDF (lib/quotePdf.ts) filled with what the request holds: its places and goods, its price
 * (`cost`), admin fee and total as stored (not priced again: the price the customer booked, or the one the
 * carrier set), its lead time, dated the day it was booked. Every namespace, in the caller's scope (another
 * tenant's id is 404); a request still to be quoted has no price to print (409).
 */
export default async function requestQuoteRoutes(app: App) {
  const repo = transportRequestsRepo(app.db);

  for (const { ns, policy } of NAMESPACES) {
    app.get(
      `/${ns}/transport_requests/quote/:id`,
      {
        config: { policy },
        schema: {
          tags: ['transport requests'],
          summary: 'Downloads the quote of a transport request (its stored price) as a PDF.',
          params: idParams,
          response: { 200: withHeaders(binaryAnswer('The quote', 'application/pdf'), downloadHeaders) },
        },
      },
      async (req, reply) => {
        const { id } = req.params;
        const found = await repo.findScoped(id, scopeOf(req, ns));
        if (!found) throw notFound();
        if (found.cost === null) throw conflict('requests.quoteNotPriced');
        const fees = found.admin_fees ?? 0;
        const data = {
          costo_complete: {
            final_cost_lane_one: null,
            final_cost_lane_two: null,
            shipment_cost: euros(found.cost)!,
            admin_fee: euros(fees)!,
            totla: euros(found.cost + fees)!,
            lead_time: found.lead_time,
          },
          fuel: null,
          breakdown: [],
        } as unknown as QuoteData;
        const line = req.t('requestQuote.forRequest', { id, date: dayText(req.lang, found.created_on) });
        // Its number is the request's (`P-R-42`), not one of the calculator's yearly numbers: the price printed is
        // the request's own (booked or set by the carrier), its history is the request's timeline (`repriced`),
        // so the request number traces it; printing it again issues nothing and stores nothing (a GET).
        const pdf = await quotePdf(req.lang, await bodyOf(app.db, found), data, [], found.created_on, { number: `P-R-${id}`, line });
        return reply
          .type('application/pdf')
          .header('content-disposition', attachment(downloadName.requestQuote(req.lang, id)))
          .header('cache-control', 'private, no-store')
          .send(pdf);
      },
    );
  }
}
