import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/typed.js';
import { ApiError, notFound, restOfWindow, tooMany } from '../../lib/errors.js';
import { settleAfterError } from '../../lib/fileSweep.js';
import { romeDate } from '../../lib/romeTime.js';
import { rateLimitsRepo } from '../../repositories/rateLimits.js';
import { transportRequestsRepo, type NewRequest, type NewShipment, type ShipmentInput } from '../../repositories/transportRequests.js';
import { DOCUMENTS_AREA } from './list.js';
import {
  DOCUMENT_FIELDS,
  Problems,
  QUOTE_FIELDS,
  SHIPMENT_FIELDS,
  SHIPMENT_REQUIRED,
  describedShipmentFields,
  amountField,
  parseDocuments,
  parseShipments,
  type DocumentInput,
  type QuoteFields,
} from './payload.js';
import { present } from '../../lib/presentRequest.js';
import { repriceQuote, type Repriced } from './reprice.js';
import { Type } from 'typebox';
import { diff } from '../../repositories/auditLog.js';
import { createRequest } from '../../lib/requestEvents/change.js';
import { discriminatorOf, int, obj, sharedSchema, str, type JsonSchema } from '../../lib/answers.js';
import { requestAnswer } from '../../lib/requestAnswer.js';
import { EXPRESS_CLASSES } from '../../../model/quote.js';

const HOUR = 3_600_000;
/** Choice: a visitor address may save 20 requests an hour (every attempt counts), enough for an office behind one address. */
export const VISITOR_SAVES_PER_HOUR = 20;

const amount = { type: 'string', maxLength: 16 } as const;
const classField = { type: 'string', enum: EXPRESS_CLASSES } as const;

/** POST /enduser/transport_requests/newRequest: the create payload, from a quote or entered by hand. */
const enduserBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...describedShipmentFields(),
    ...DOCUMENT_FIELDS,
    ...QUOTE_FIELDS,
    shipmentclass: classField,
    cost: amount,
    admin_fees: amount,
    notes: { type: 'string', maxLength: 2000 },
  },
} as const;

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S' }) as const;
/** The visitor save-request payload, plus the visitor's contact details (issue 9). */
const visitorBody = (service: 'palletExpress' | 'standard') =>
  ({
    type: 'object',
    additionalProperties: false,
    required: [
      'zone',
      'originCountry',
      'originPostalCode',
      'destinationCountry',
      'destinationPostalCode',
      'shipmentprice',
      'adminfee',
      'firstname',
      'lastname',
      'email',
      'phone',
      ...(service === 'palletExpress' ? ['shipmentclass'] : []),
    ],
    properties: {
      ...SHIPMENT_FIELDS,
      ...DOCUMENT_FIELDS,
      ...QUOTE_FIELDS,
      service: { type: 'string', enum: [service] },
      shipmentclass: classField,
      shipmentprice: amount,
      adminfee: amount,
      shipmentleadtime: { type: 'string', maxLength: 10 },
      enduser_id: { type: 'string', maxLength: 12 },
      notes: { type: 'string', maxLength: 2000 },
      visitor_company: text(150),
      company: text(150),
      firstname: text(100),
      lastname: text(100),
      email: { type: 'string', format: 'email', maxLength: 254 },
      phone: { type: 'string', minLength: 5, maxLength: 30, pattern: '^[0-9+()./ -]+$' },
    },
  }) as const;

type Body = Record<string, unknown> & Partial<QuoteFields> & { shipmentclass?: 'SILVER' | 'GOLD'; notes?: string; adr?: string[]; taillift?: string[] };
type VisitorBody = Body & {
  shipmentprice: string;
  adminfee: string;
  visitor_company?: string;
  company?: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
};
/**
 * `{status: true, message, data}` once stored; `{status: false, message}` (200, nothing stored) when the
 * quote no longer prices or its price is not the server's. Two closed alternatives rather than one object
 * with an optional `data`: a client reads `data` after checking `status`, without a cast. The end user's
 * `data` is the stored request as its show route answers it (without the timeline); a visitor's only its id.
 * `outcome` (`booked` / `not_booked`) tells them apart as a discriminator over named schemas (issue 33), made
 * while this module loads (lib/answers.ts sharedSchema); `status` says the same as a boolean, as before.
 */
const createdAnswer = (booked: string, data: JsonSchema): JsonSchema => ({
  oneOf: [
    sharedSchema({
      $id: booked,
      title: booked,
      ...obj({ outcome: { type: 'string', enum: ['booked'], description: 'Stored: `data` is the request.' }, status: { const: true }, message: str, data }),
    }),
    sharedSchema({
      $id: 'NotBooked',
      title: 'NotBooked',
      ...obj({
        outcome: { type: 'string', enum: ['not_booked'], description: 'Nothing was stored.' },
        status: { const: false },
        message: { type: 'string', description: 'Why nothing was stored (the price changed, or no price for this lane)' },
      }),
    }),
  ],
  discriminator: discriminatorOf('outcome', { booked, not_booked: 'NotBooked' }),
});
const ENDUSER_CREATED = createdAnswer('Booked', requestAnswer);
const VISITOR_CREATED = createdAnswer('VisitorBooked', obj({ id: int }));

/** The shipments of a request, with their goods: the quote's pallets or units, or those typed by hand. */
function shipmentsOf(inputs: ShipmentInput[], quote: (QuoteFields & { shipmentclass?: string }) | null, priced: Repriced | null): NewShipment[] {
  return inputs.map((s) => {
    if (!quote || !priced) {
      const g = s.goods!;
      return {
        ...s,
        transport_request_type_id: 2,
        transport_class: null,
        details: [{ shipment_type_id: 2, total_units: g.units, gross_weight: g.weight, volume: g.volume, volume_type: g.volumeType }],
      };
    }
    if (quote.service === 'palletExpress') {
      return {
        ...s,
        transport_request_type_id: 1,
        transport_class: quote.shipmentclass ?? null,
        details: (quote.palletWeight ?? []).map((w, i) => ({
          shipment_type_id: 1,
          pallet_weight: String(w),
          pallet_width: String(quote.palletWidth![i]),
          pallet_length: String(quote.palletLength![i]),
          pallet_height: String(quote.palletHeight![i]),
          pallet_type: priced.palletTypes[i] ?? null,
        })),
      };
    }
    return {
      ...s,
      transport_request_type_id: 2,
      transport_class: 'STANDARD',
      details: [
        {
          shipment_type_id: 2,
          total_units: quote.standardunits ?? null,
          gross_weight: String(quote.standardweight),
          volume: String(quote.standardvolume),
          volume_type: quote.standardvolumeType ?? null,
        },
      ],
    };
  });
}

export default async function requestCreateRoutes(app: App) {
  const repo = transportRequestsRepo(app.db);
  const limits = rateLimitsRepo(app.db);

  /**
   * Validates, prices a quoted request again (server.md §5: the client's price must be the server's to
   * the cent, else `status: false` and nothing is stored), stores the documents and the request.
   */
  async function create(
    req: FastifyRequest,
    caller: 'enduser' | 'visitor',
    body: Body,
    clientPrice: { cost: unknown; fee: unknown; costField: string; feeField: string },
    extra: Partial<NewRequest>,
  ) {
    const quote = body.service ? (body as QuoteFields & { shipmentclass?: 'SILVER' | 'GOLD' }) : null;
    const today = romeDate();
    if (quote) {
      const p = new Problems(req);
      if (quote.service === 'palletExpress' && !body.shipmentclass) p.add('shipmentclass', null, 'validation.required');
      for (const f of ['zone', 'originCountry', 'originPostalCode', 'destinationCountry', 'destinationPostalCode'] as const) {
        if (!quote[f]) p.add(f, null, 'validation.required');
      }
      if (clientPrice.cost === undefined || clientPrice.cost === '') p.add(clientPrice.costField, null, 'validation.required');
      if (clientPrice.fee === undefined || clientPrice.fee === '') p.add(clientPrice.feeField, null, 'validation.required');
      p.throwIfAny();
    }
    const cost = quote ? amountField(req, clientPrice.costField, clientPrice.cost) : null;
    const fee = quote ? amountField(req, clientPrice.feeField, clientPrice.fee) : null;
    const shipments = await parseShipments(req, app.db, body, { mode: quote ? 'quote' : 'hand', today, quote: quote ?? undefined });
    const documents = await parseDocuments(req, app.db, body);

    let priced: Repriced | null = null;
    let carrierId: number;
    let enduserCompanyId: number | null = null;
    if (quote) {
      const r = await repriceQuote(
        app,
        req,
        caller,
        {
          ...quote,
          adr: Number(body.adr?.[0] === '1' || body.adr?.[0] === 'true'),
          taillift: Number(body.taillift?.[0] === '1' || body.taillift?.[0] === 'true'),
        },
        body.shipmentclass ?? null,
      );
      if (!r.ok || r.cost !== cost || r.adminFee !== fee) req.auditNothing(); // a 200 {status: false}: nothing stored
      if (!r.ok) return { outcome: 'not_booked', status: false, message: r.message };
      if (r.cost !== cost || r.adminFee !== fee) return { outcome: 'not_booked', status: false, message: req.t('requests.priceChanged') };
      priced = r;
      carrierId = r.carrierId;
      enduserCompanyId = r.endUserCompanyId;
    } else {
      if (caller !== 'enduser') throw new ApiError(422, 'errors.validation');
      const u = req.user!;
      if (!u.carrier_id) throw notFound();
      carrierId = u.carrier_id;
      enduserCompanyId = u.company_id;
    }

    const stored = await storeDocuments(documents);
    let id: number;
    try {
      // The request, its first events, the statistics' drop and the live event commit together (lib/requestEvents).
      id = await createRequest(app, {
        carrier_id: carrierId,
        enduser_company_id: enduserCompanyId,
        user_id: req.user?.id ?? null,
        cost: priced ? priced.cost : null,
        admin_fees: priced ? priced.adminFee : null,
        notes: body.notes?.trim() || null,
        lang: req.lang,
        ...(quote && priced
          ? {
              zone: quote.zone,
              service: quote.service,
              flow: quote.service === 'palletExpress' ? (quote.flow ?? 'OUT') : null,
              island: quote.island?.trim() || null,
              service_class: quote.service === 'palletExpress' ? (body.shipmentclass ?? null) : 'STANDARD',
              calculation_ratio: priced.ratio,
              lead_time: priced.leadTime,
              priced_on: priced.date,
              fuel_month: priced.fuel?.month ?? null,
              fuel_price: priced.fuel?.price ?? null,
              fuel_percent: priced.fuel?.percent ?? null,
              origin_country: quote.originCountry.toUpperCase(),
              origin_postal_code: quote.originPostalCode,
              origin_locality: quote.originLocality ?? null,
              origin_province: quote.originProvince?.toUpperCase() ?? null,
              destination_country: quote.destinationCountry.toUpperCase(),
              destination_postal_code: quote.destinationPostalCode,
              destination_locality: quote.destinationLocality ?? null,
              destination_province: quote.destinationProvince?.toUpperCase() ?? null,
            }
          : {}),
        ...extra,
        shipments: shipmentsOf(shipments, quote, priced),
        documents: stored,
      });
    } catch (err) {
      // The rows decide: a commit that happened before the error (a connection lost after it) keeps its files.
      await settleAfterError(
        app.db,
        app.files,
        DOCUMENTS_AREA,
        stored.map((d) => d.stored_name),
      );
      throw err;
    }
    for (const d of stored) await app.files.settle(DOCUMENTS_AREA, d.stored_name, true);
    req.audit({
      action: 'create',
      resource: 'transport_requests',
      resource_id: id,
      company_id: enduserCompanyId ?? carrierId,
      tenant_id: carrierId,
      changes: diff(null, {
        carrier_id: carrierId,
        enduser_company_id: enduserCompanyId,
        cost: priced ? priced.cost : null,
        admin_fees: priced ? priced.adminFee : null,
        service: quote?.service ?? null,
        shipments: shipments.length,
        documents: stored.length,
      }),
    });
    const [row] = await repo.load([id]);
    return { outcome: 'booked', status: true, message: req.t('requests.created'), data: caller === 'visitor' ? { id } : present(req, 'enduser', row) };
  }

  /**
   * Writes each document under a server-made name (server.md §5, §8), marked pending until the request
   * is committed (lib/files.ts: a process dying before that leaves them to the sweep); removes them all if one fails.
   */
  async function storeDocuments(documents: DocumentInput[]) {
    const stored: NewRequest['documents'] = [];
    try {
      for (const d of documents) {
        const ext = path.extname(d.file.filename).toLowerCase();
        const name = await app.files.storePending(DOCUMENTS_AREA, d.file.data, /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '.bin');
        stored.push({
          document_type_id: d.document_type_id,
          filename: path.basename(d.file.filename).slice(0, 255) || 'document',
          stored_name: name,
          size: d.file.data.length,
        });
      }
    } catch (err) {
      for (const d of stored) await app.files.settle(DOCUMENTS_AREA, d.stored_name, false);
      throw err;
    }
    return stored;
  }

  app.post(
    '/enduser/transport_requests/newRequest',
    {
      // The shipment lists are checked together, every problem in one 422 (payload.ts): required in the document only.
      config: { policy: ['enduser'], bodyRequired: SHIPMENT_REQUIRED },
      schema: {
        tags: ['transport requests'],
        summary: "Stores an end user's transport request, from a quote (priced again) or entered by hand.",
        consumes: ['multipart/form-data', 'application/json'],
        body: Type.Unsafe<Body & { cost?: string; admin_fees?: string }>(enduserBody),
        response: { 200: ENDUSER_CREATED },
      },
    },
    async (req) => {
      const body = req.body;
      return create(req, 'enduser', body, { cost: body.cost, fee: body.admin_fees, costField: 'cost', feeField: 'admin_fees' }, {});
    },
  );

  // Visitors book from the public quote page; their requests go to the visitor carrier (server.md §5).
  for (const [url, service] of [
    ['/visitor/saveExpressRequest', 'palletExpress'],
    ['/visitor/saveStandardRequest', 'standard'],
  ] as const) {
    app.post(
      url,
      {
        config: { policy: 'public', bodyRequired: SHIPMENT_REQUIRED },
        schema: {
          tags: ['visitor'],
          summary:
            service === 'palletExpress' ? "Stores a visitor's pallet-express request from its quote." : "Stores a visitor's standard request from its quote.",
          consumes: ['multipart/form-data', 'application/json'],
          body: Type.Unsafe<VisitorBody>(visitorBody(service)),
          response: { 200: VISITOR_CREATED },
        },
        preValidation: async (req) => {
          if ((await limits.hit(`visitor-request:ip:${req.ip}`, HOUR)) > VISITOR_SAVES_PER_HOUR) throw tooMany(restOfWindow(HOUR));
        },
      },
      async (req) => {
        const body = req.body;
        const company = (body.visitor_company ?? body.company)?.trim();
        if (!company) {
          const p = new Problems(req);
          p.add('visitor_company', null, 'validation.required');
          p.throwIfAny();
        }
        // The visitor call prices as a visitor whoever calls it: the carrier is the visitor carrier, never one named in the body.
        return create(
          req,
          'visitor',
          { ...body, service },
          { cost: body.shipmentprice, fee: body.adminfee, costField: 'shipmentprice', feeField: 'adminfee' },
          {
            user_id: null,
            firstname: body.firstname.trim(),
            lastname: body.lastname.trim(),
            email: body.email.trim().toLowerCase(),
            phone: body.phone.trim(),
            visitor_company: company,
          },
        );
      },
    );
  }
}
