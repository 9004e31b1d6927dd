import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { isPositiveDecimal, parseCents, parseDecimal } from '../../lib/amounts.js';
import { ApiError, type FieldErrors } from '../../lib/errors.js';
import { isDate } from '../../lib/romeTime.js';
import { isUploadedFile, type UploadedFile } from '../../plugins/forms.js';
import { costRequestSchema } from '../../lib/quoteRequest.js';
import { MULTIPART_FILE_MAX, filePart } from '../../../model/fileParts.js';
import type { AddressInput, GoodsInput, ShipmentInput } from '../../repositories/transportRequests.js';
import type { QuoteRequest } from '../../../model/quote.js';

/**
 * The create-request payload (calculator document §3 "Create-request payload", "Visitor save-request
 * payload"; §5 "Create transport request"): per-shipment fields as arrays (`name[]` in form data, a
 * single value counts as a list of one), the goods when entered by hand, the documents with one
 * document type each, and the quote's fields when the request comes from a calculation.
 *
 * Choices the documents leave open, made here:
 * - Delivery date and times are optional (the carrier plans delivery from the lead time); when given,
 *   the date is not before the pickup date and each time window ends after it starts.
 * - The pickup date is today (Europe/Rome) or later.
 * - A country is given as a country id or an ISO alpha-2 code.
 * - At most 20 shipments and 10 documents per request; a document may be any type of file.
 */
export const MAX_SHIPMENTS = 20;
export const MAX_DOCUMENTS = 10;

const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
const list = (max: number) => ({ type: 'array', maxItems: MAX_SHIPMENTS, items: text(max) }) as const;

/** Per-shipment fields: every one is a list with one entry per shipment. */
export const SHIPMENT_FIELDS = {
  shipperref: list(100),
  consigneeref: list(100),
  consigneeemail: list(254),
  adr: list(1),
  taillift: list(1),
  pickupdate: list(10),
  pickuptimefrom: list(8),
  pickuptimeto: list(8),
  pickuplocationname: list(150),
  pickupaddress: list(200),
  pickuppostalcode: list(16),
  pickupcity: list(100),
  pickupprovince: list(50),
  pickupcountry: list(10),
  pickupnotes: list(1000),
  deliverydate: list(10),
  deliverytimefrom: list(8),
  deliverytimeto: list(8),
  deliverylocationname: list(150),
  deliveryaddress: list(200),
  deliverypostalcode: list(16),
  deliverycity: list(100),
  deliveryprovince: list(50),
  deliverycountry: list(10),
  deliverynotes: list(1000),
  units: list(10),
  weight: list(16),
  volume: list(16),
  volumeType: list(3),
} as const;
export type ShipmentField = keyof typeof SHIPMENT_FIELDS;

/** The per-shipment lists every new request must carry (parseShipments refuses each when missing). */
export const SHIPMENT_REQUIRED: ShipmentField[] = [
  'shipperref',
  'pickupdate',
  'pickuptimefrom',
  'pickuptimeto',
  'pickuplocationname',
  'pickupaddress',
  'deliverylocationname',
  'deliveryaddress',
];

/**
 * The per-shipment lists of a new request with their conditions written out (JSON Schema's `required` cannot
 * say "unless"): the places come from the quote when there is one, the goods are typed only without one.
 */
export function describedShipmentFields() {
  const when = (f: ShipmentField, description: string) => ({ ...SHIPMENT_FIELDS[f], description });
  const place = "Required unless the request is booked from a quote (`zone` and the quote fields given): then the quote's place is used.";
  const goods = 'Required when the goods are entered by hand (no quote): one entry per shipment.';
  return {
    ...SHIPMENT_FIELDS,
    pickuppostalcode: when('pickuppostalcode', place),
    pickupcountry: when('pickupcountry', `${place} An id or an ISO alpha-2 code.`),
    deliverypostalcode: when('deliverypostalcode', place),
    deliverycountry: when('deliverycountry', `${place} An id or an ISO alpha-2 code.`),
    units: when('units', goods),
    weight: when('weight', `${goods} Kilograms, a decimal.`),
    volume: when('volume', `${goods} A decimal, in the unit of \`volumeType\`.`),
    volumeType: when('volumeType', `${goods} CBM (cubic metres), LM (loading metres) or FTL (full truck load).`),
  };
}

export const DOCUMENT_FIELDS = {
  documents: {
    type: 'array',
    maxItems: MAX_DOCUMENTS,
    description: `The request's documents (a waybill, a packing list…), at most ${MAX_DOCUMENTS}, each with its type in \`doctypes\` at the same position.`,
    items: filePart({ what: 'A document of the request, of any type', types: ['application/octet-stream'], maxBytes: MULTIPART_FILE_MAX, fileOnly: true }),
  },
  doctypes: { type: 'array', maxItems: MAX_DOCUMENTS, items: { type: 'integer', minimum: 1 } },
} as const;

/**
 * The quote a request is made from: the cost request's own fields and checks (calculator document §3
 * "Cost request"; lib/quoteRequest.ts), but ADR and tail lift, which the create payload carries per
 * shipment, and the admin's company and end-user choice, which a request never carries.
 */
const { adr: _adr, taillift: _taillift, company_id: _company, enduser_id: _enduser, ...quoteProps } = costRequestSchema.properties;
export const QUOTE_FIELDS = quoteProps;

/** The quote part of a create payload (model/quote.ts without who prices, ADR and tail lift). */
export type QuoteFields = Omit<QuoteRequest, 'adr' | 'taillift' | 'company_id' | 'enduser_id'>;

export interface DocumentInput {
  file: UploadedFile;
  document_type_id: number;
}

type Body = Record<string, unknown>;

/** Collects field errors; `label` names a field of the n-th shipment when there are several. */
export class Problems {
  readonly errors: FieldErrors = {};
  constructor(
    private req: FastifyRequest,
    private count = 1,
  ) {}
  add(field: string, i: number | null, key: string, params: Record<string, unknown> = {}) {
    const name = i === null || this.count === 1 ? field : `${field}.${i}`;
    const label = i === null || this.count === 1 ? field : this.req.t('requests.shipmentNumber', { field: this.req.t(`field.${field}`), n: i + 1 });
    (this.errors[name] ??= []).push({ key, params: { field: label, ...params } });
  }
  get any() {
    return Object.keys(this.errors).length > 0;
  }
  throwIfAny() {
    if (this.any) throw new ApiError(422, 'errors.validation', undefined, this.errors);
  }
}

const asList = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map((x) => String(x ?? '')) : [String(v)]);

/** Countries by id and by ISO alpha-2 code, for the ones a payload names. */
export async function countryIndex(db: Db, values: string[]) {
  const ids = values.filter((v) => /^\d+$/.test(v)).map(Number);
  const codes = values.filter((v) => /^[A-Za-z]{2}$/.test(v)).map((v) => v.toUpperCase());
  if (!ids.length && !codes.length) return new Map<string, number>();
  const rows = await db
    .selectFrom('countries')
    .select(['id', 'iso_alpha_2', 'code_alpha'])
    .where((eb) =>
      eb.or([
        ...(ids.length ? [eb('id', 'in', ids)] : []),
        ...(codes.length ? [eb(sql<string>`upper(iso_alpha_2)`, 'in', codes), eb(sql<string>`upper(code_alpha)`, 'in', codes)] : []),
      ]),
    )
    .execute();
  const map = new Map<string, number>();
  for (const r of rows) {
    map.set(String(r.id), r.id);
    if (r.iso_alpha_2) map.set(r.iso_alpha_2.toUpperCase(), r.id);
    map.set(r.code_alpha.toUpperCase(), r.id);
  }
  return map;
}

export interface ParseOptions {
  /**
   * 'quote': one shipment whose goods and places come from the quote; 'hand': goods typed per shipment;
   * 'edit': an existing request's shipments (the pickup date may be past, goods only when sent)
   */
  mode: 'quote' | 'hand' | 'edit';
  today: string;
  /** the quote's places override the address fields (calculator document §3) */
  quote?: QuoteFields;
}

/** Shipments of a create payload; every problem is collected and answered at once as a 422. */
export async function parseShipments(req: FastifyRequest, db: Db, body: Body, opts: ParseOptions): Promise<ShipmentInput[]> {
  const lists = Object.fromEntries((Object.keys(SHIPMENT_FIELDS) as ShipmentField[]).map((f) => [f, asList(body[f])])) as Record<ShipmentField, string[]>;
  const count = Math.max(1, lists.shipperref.length);
  const p = new Problems(req, count);
  if (count > MAX_SHIPMENTS) p.add('shipperref', null, 'requests.tooManyShipments', { limit: MAX_SHIPMENTS });
  if (opts.mode === 'quote' && count !== 1) p.add('shipperref', null, 'requests.oneShipmentFromQuote');
  p.throwIfAny();

  // A list given for some shipments but not all is a mistake; an absent optional list is fine.
  for (const [f, values] of Object.entries(lists)) {
    if (values.length && values.length !== count) p.add(f, null, 'requests.perShipment', { count });
  }
  p.throwIfAny();

  const q = opts.quote;
  if (q) {
    // The quote's places win over the address fields (calculator document §3).
    lists.pickuppostalcode = [q.originPostalCode];
    lists.pickupcity = [q.originLocality ?? ''];
    lists.pickupprovince = [q.originProvince ?? ''];
    lists.pickupcountry = [q.originCountry];
    lists.deliverypostalcode = [q.destinationPostalCode];
    lists.deliverycity = [q.destinationLocality ?? ''];
    lists.deliveryprovince = [q.destinationProvince ?? ''];
    lists.deliverycountry = [q.destinationCountry];
  }
  const countries = await countryIndex(
    db,
    [...lists.pickupcountry, ...lists.deliverycountry].map((s) => s.trim()),
  );

  const out: ShipmentInput[] = [];
  for (let i = 0; i < count; i++) {
    const v = (f: ShipmentField) => (lists[f][i] ?? '').trim();
    const opt = (f: ShipmentField) => v(f) || null;
    const req1 = (f: ShipmentField) => {
      if (!v(f)) p.add(f, i, 'validation.required');
      return v(f);
    };
    const flag = (f: ShipmentField): 0 | 1 => {
      const s = v(f);
      if (s === '' || s === '0' || s === 'false') return 0;
      if (s === '1' || s === 'true') return 1;
      p.add(f, i, 'validation.enum');
      return 0;
    };
    const date = (f: ShipmentField, required: boolean) => {
      const s = v(f);
      if (!s) {
        if (required) p.add(f, i, 'validation.required');
        return null;
      }
      if (!isDate(s)) {
        p.add(f, i, 'validation.format', { format: req.t('format.date') });
        return null;
      }
      return s;
    };
    const time = (f: ShipmentField, required: boolean) => {
      const s = v(f);
      if (!s) {
        if (required) p.add(f, i, 'validation.required');
        return null;
      }
      if (!TIME.test(s)) {
        p.add(f, i, 'validation.format', { format: req.t('format.time') });
        return null;
      }
      return s.slice(0, 5);
    };
    const address = (end: 'pickup' | 'delivery'): AddressInput => {
      const country = v(`${end}country` as ShipmentField);
      const countryId = countries.get(country.toUpperCase());
      if (!country) p.add(`${end}country`, i, 'validation.required');
      else if (!countryId) p.add(`${end}country`, i, 'requests.unknownCountry', { value: country });
      return {
        location_name: req1(`${end}locationname` as ShipmentField),
        address: req1(`${end}address` as ShipmentField),
        postal_code: req1(`${end}postalcode` as ShipmentField),
        city: opt(`${end}city` as ShipmentField),
        province: opt(`${end}province` as ShipmentField)?.toUpperCase() ?? null,
        country_id: countryId ?? 0,
      };
    };

    const shipper = req1('shipperref');
    const consigneeEmail = opt('consigneeemail');
    if (consigneeEmail && !EMAIL.test(consigneeEmail)) p.add('consigneeemail', i, 'validation.format', { format: req.t('format.email') });
    const pickupDate = date('pickupdate', true);
    if (pickupDate && pickupDate < opts.today && opts.mode !== 'edit') p.add('pickupdate', i, 'requests.pickupPast');
    const pFrom = time('pickuptimefrom', true);
    const pTo = time('pickuptimeto', true);
    if (pFrom && pTo && pTo <= pFrom) p.add('pickuptimeto', i, 'requests.timeOrder');
    const deliveryDate = date('deliverydate', false);
    if (deliveryDate && pickupDate && deliveryDate < pickupDate) p.add('deliverydate', i, 'requests.deliveryBeforePickup');
    const dFrom = time('deliverytimefrom', false);
    const dTo = time('deliverytimeto', false);
    if (dFrom && dTo && dTo <= dFrom) p.add('deliverytimeto', i, 'requests.timeOrder');

    let goods: GoodsInput | null = null;
    if (opts.mode === 'hand' || (opts.mode === 'edit' && lists.units.length)) {
      const units = v('units');
      if (!units) p.add('units', i, 'validation.required');
      else if (!/^\d{1,6}$/.test(units) || Number(units) < 1) p.add('units', i, 'validation.minimum', { limit: 1 });
      const weight = parseDecimal(v('weight'));
      if (weight === null) p.add('weight', i, 'validation.required');
      else if (weight === undefined || !isPositiveDecimal(weight)) p.add('weight', i, 'requests.decimal');
      const volume = parseDecimal(v('volume'));
      if (volume === null) p.add('volume', i, 'validation.required');
      else if (volume === undefined) p.add('volume', i, 'requests.decimal');
      const volumeType = v('volumeType').toUpperCase();
      if (!volumeType) p.add('volumeType', i, 'validation.required');
      else if (!['CBM', 'LM', 'FTL'].includes(volumeType)) p.add('volumeType', i, 'validation.enum');
      goods = { units: Number(units), weight: weight ?? '0', volume: volume ?? '0', volumeType: volumeType as GoodsInput['volumeType'] };
    }

    out.push({
      shipper_reference: shipper,
      consignee_reference: opt('consigneeref'),
      consignee_email: consigneeEmail,
      adr: flag('adr'),
      tail_lift: flag('taillift'),
      pickup_date: pickupDate ?? '',
      pickup_time_from: pFrom ?? '',
      pickup_time_to: pTo ?? '',
      pickup_notes: opt('pickupnotes'),
      delivery_date: deliveryDate,
      delivery_time_from: dFrom,
      delivery_time_to: dTo,
      delivery_notes: opt('deliverynotes'),
      pickup: address('pickup'),
      delivery: address('delivery'),
      goods,
    });
  }
  p.throwIfAny();
  return out;
}

/** The documents and their types: one active document type per file, files not empty. */
export async function parseDocuments(req: FastifyRequest, db: Db, body: Body): Promise<DocumentInput[]> {
  const files = (Array.isArray(body.documents) ? body.documents : body.documents === undefined ? [] : [body.documents]) as unknown[];
  const types = (Array.isArray(body.doctypes) ? body.doctypes : body.doctypes === undefined ? [] : [body.doctypes]).map(Number);
  const p = new Problems(req);
  if (files.length > MAX_DOCUMENTS) p.add('documents', null, 'requests.tooManyDocuments', { limit: MAX_DOCUMENTS });
  if (files.length !== types.length) p.add('doctypes', null, 'requests.documentsMismatch');
  p.throwIfAny();
  if (!files.length) return [];
  const known = new Set(
    (await db.selectFrom('document_types').select('id').where('active', '=', '1').where('id', 'in', types.filter(Number.isInteger)).execute()).map((r) =>
      Number(r.id),
    ),
  );
  const out: DocumentInput[] = [];
  files.forEach((f, i) => {
    if (!isUploadedFile(f)) return p.add('documents', null, 'requests.notFile');
    if (!f.data.length) return p.add('documents', null, 'requests.emptyFile', { name: f.filename });
    if (!known.has(types[i])) return p.add('doctypes', null, 'requests.unknownDocumentType');
    out.push({ file: f, document_type_id: types[i] });
  });
  p.throwIfAny();
  return out;
}

/** A client's amount in euros (number or text) as cents; a 422 on the field when unreadable. */
export function amountField(req: FastifyRequest, field: string, value: unknown): number | null {
  const cents = parseCents(value);
  if (cents === undefined) {
    const p = new Problems(req);
    p.add(field, null, 'requests.amount');
    p.throwIfAny();
  }
  return cents ?? null;
}
