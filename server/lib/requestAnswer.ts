import { int, intN, list, nullable, obj, str, strN, type JsonSchema } from './answers.js';
import { TRANSPORT_REQUEST_STATUSES } from '../../model/transportStatuses.js';
import { REQUEST_EVENTS, TIMELINE_ROLES, type RequestEvent, type TimelineRole } from '../../model/requestTimeline.js';
import { EXPRESS_CLASSES, quoteFieldsSchema } from '../../model/quote.js';
import { POD_FILE_TYPES, POD_KINDS } from '../../model/proofOfDelivery.js';

/**
 * The JSON schema of a transport request as lib/presentRequest.ts `present` answers it (issue 33): one
 * declaration for every reader of that shape, so they cannot drift apart: the list and show routes
 * (routes/requests/list.ts), the create and edit answers (create.ts, edit.ts), the dashboard's lists
 * (statistics.ts) and the webhooks' payload (lib/webhooks/payload.ts, the document's `webhooks`). Every
 * object is closed (`obj`: `additionalProperties: false`) and lists every property `present` writes.
 *
 * Nullability follows the code and the database (db/types.ts, migrations 0001, 0008), not the test data:
 * - a column that may be NULL is `…N` (or `nullable`) even when today's writers always fill it, unless the
 *   value is built by `present` itself (`to_be_quoted`, `documents[].file_path`) or a constraint forbids NULL;
 * - an inner join (status, carrier) or a foreign key with a NOT NULL column (the end user's `legal_name`)
 *   gives a value; a left join to a table without a foreign key (`document_types`) may give null;
 * - country names are nullable columns of `countries` (only `name` is NOT NULL, and `present` does not read it).
 *
 * Enumerations take their values from the one place the code defines them (model/), never retyped here;
 * what each value means is written in the `description`.
 */

/** `{enum, description: "v = meaning; …"}` from a constant list and the meaning of each of its values. */
function described<T extends string | number>(base: JsonSchema, values: readonly T[], meaning: Record<T, string>, intro = ''): JsonSchema {
  return { ...base, enum: [...values], description: intro + values.map((v) => `${String(v)} = ${meaning[v]}`).join('; ') };
}

type StatusCode = (typeof TRANSPORT_REQUEST_STATUSES)[number]['code'];
/** What each status means (server.md §5, routes/requests/status.ts, edit.ts). Keyed by code so a new status must be described here. */
const STATUS_MEANING: Record<StatusCode, string> = {
  OP: 'booked, waiting for the carrier to confirm or refuse it; the only status in which a carrier may edit it',
  CF: 'the carrier accepted it; the consignment note (waybill) can be downloaded while the request is CF, IT or DL',
  RF: 'the carrier declined it, with a note saying why',
  IT: 'on its way (set by an administrator)',
  DL: 'delivered to the consignee (set by an administrator)',
  CN: 'called off (set by an administrator)',
};
const STATUS_IDS = TRANSPORT_REQUEST_STATUSES.map((s) => s.id);
const statusMeaning = Object.fromEntries(TRANSPORT_REQUEST_STATUSES.map((s) => [s.id, `${s.code} (${s.name}): ${STATUS_MEANING[s.code]}`])) as Record<
  number,
  string
>;

/** A transport request status id (model/transportStatuses.ts), each value described. */
export const statusIdAnswer: JsonSchema = described(int, STATUS_IDS, statusMeaning, 'Transport request status (model/transportStatuses.ts): ');

const EVENT_MEANING: Record<RequestEvent, string> = {
  created: 'the request was booked',
  repriced: 'its price or admin fee was changed',
  edited: 'other fields or its shipments were changed',
  status_changed: 'its status was changed (`status_id` is the new one; a refusal carries the note)',
  document_added: 'a document was attached',
};
/** A timeline event name (model/requestTimeline.ts). */
export const requestEventAnswer: JsonSchema = described(str, REQUEST_EVENTS, EVENT_MEANING, 'What happened: ');

const ROLE_MEANING: Record<TimelineRole, string> = {
  admin: 'a portal administrator',
  carrier: "a user of the request's carrier",
  enduser: "a user of the request's end-user company",
  support: 'a support user',
  visitor: 'the visitor who booked from the public quote page (no account)',
};

const ZONE_MEANING: Record<(typeof quoteFieldsSchema.zone.enum)[number], string> = {
  national: 'within Italy (the NAT rate sheets)',
  international: 'to or from another country (the INT rate sheets)',
};
const SERVICE_MEANING: Record<(typeof quoteFieldsSchema.service.enum)[number], string> = {
  standard: 'groupage priced by weight and volume (units)',
  palletExpress: 'pallet express priced per pallet, in the SILVER or GOLD class',
};
const FLOW_MEANING: Record<(typeof quoteFieldsSchema.flow.enum)[number], string> = {
  IN: 'inbound (towards the carrier’s hub)',
  OUT: 'outbound (from the carrier’s hub)',
};
/** The class of a priced request: an express class (model/quote.ts EXPRESS_CLASSES) or STANDARD (create.ts writes it for a standard quote). */
const SERVICE_CLASSES = [...EXPRESS_CLASSES, 'STANDARD'] as const;
const CLASS_MEANING: Record<(typeof SERVICE_CLASSES)[number], string> = {
  SILVER: 'pallet express, the standard lead time',
  GOLD: 'pallet express, the faster lead time',
  STANDARD: 'a standard (groupage) request',
};
const serviceClass: JsonSchema = described(str, SERVICE_CLASSES, CLASS_MEANING);
const transportClass: JsonSchema = nullable(obj({ name: serviceClass }));

/** One entry of a request's timeline (model/requestTimeline.ts `TimelineEntry`, repositories/requestEvents.ts). */
export const timelineEntryAnswer: JsonSchema = obj({
  at: { type: 'string', description: 'ISO-8601 UTC' },
  event: requestEventAnswer,
  status_id: { ...statusIdAnswer, description: `The request's status after the change. ${statusIdAnswer.description as string}` },
  by: obj({
    name: { type: ['string', 'null'], description: 'The name of who acted, as it was then; null when unknown' },
    role: described(str, TIMELINE_ROLES, ROLE_MEANING, 'Who acted: '),
  }),
  note: { type: ['string', 'null'], description: 'The note written with the change (a refusal always has one)' },
});
/** The request's timeline, oldest first. */
export const timelineAnswer: JsonSchema = { ...list(timelineEntryAnswer), description: 'The timeline, oldest first' };

/** A shipment's place (`shipment_addresses`); `country` from `countries` (a foreign key: always a row, its names nullable). */
export const addressAnswer: JsonSchema = obj({
  id: int,
  location_name: str,
  address: str,
  postal_code: str,
  city: strN,
  province: strN,
  country_id: int,
  country: obj({
    id: int,
    en: { type: ['string', 'null'], description: 'The English name' },
    name: { type: ['string', 'null'], description: "The name in the caller's language (English when that one is missing)" },
    iso_alpha_2: strN,
  }),
});
// Each shipment is stored with both its places (repositories/transportRequests.ts insert) and they are only
// ever updated, never deleted; the presenter still answers null for a missing row, so null stays declared.
const placeAnswer: JsonSchema = nullable(addressAnswer);

const decimalN: JsonSchema = { type: ['number', 'null'], description: 'A stored decimal, as a number' };
/** One line of goods: a pallet (shipment_type_id 1, express) or a group of units (2, standard or typed by hand). */
export const shipmentDetailAnswer: JsonSchema = {
  oneOf: [
    obj({
      id: int,
      shipment_type_id: { const: 1, description: '1 = a pallet (pallet express)' },
      pallet_weight: decimalN,
      pallet_width: decimalN,
      pallet_length: decimalN,
      pallet_height: decimalN,
      pallet_type: { type: ['string', 'null'], description: 'The pallet band the quote priced it in (pricing/types.ts `Band`)' },
    }),
    obj({
      id: int,
      shipment_type_id: { const: 2, description: '2 = units (standard, or goods typed by hand)' },
      total_units: intN,
      gross_weight: decimalN,
      volume: decimalN,
      volume_type: { type: ['string', 'null'], description: 'CBM (cubic metres), LM (loading metres) or FTL (full truck load)' },
    }),
  ],
};

const flag: JsonSchema = { type: 'integer', enum: [0, 1] };
const dateN: JsonSchema = { type: ['string', 'null'], description: 'YYYY-MM-DD' };
const timeN: JsonSchema = { type: ['string', 'null'], description: 'HH:MM' };
/** A shipment of a request with its places and goods (the documents' field names, `shipment_addess_pick_up` spelling included). */
export const shipmentAnswer: JsonSchema = obj({
  id: int,
  transport_request_type_id: { type: 'integer', enum: [1, 2], description: '1 = pallet express (pallets); 2 = units (standard, or typed by hand)' },
  shipper_reference: str,
  consignee_reference: strN,
  consignee_email: { type: ['string', 'null'], description: "The consignee's address for its status mails" },
  transport_class: transportClass,
  adr: { ...flag, description: '1 = dangerous goods (ADR)' },
  tail_lift: { ...flag, description: '1 = a tail lift is needed' },
  pickup_date: dateN,
  pickup_time_from: timeN,
  pickup_time_to: timeN,
  pickup_notes: strN,
  delivery_date: dateN,
  delivery_time_from: timeN,
  delivery_time_to: timeN,
  delivery_notes: strN,
  shipment_addess_pick_up: placeAnswer,
  shipment_address_delivery: placeAnswer,
  shipment_detail: list(shipmentDetailAnswer),
});

/** A document attached to a request; `file_path` is where the caller's namespace downloads it (with its bearer token). */
export const documentAnswer: JsonSchema = obj({
  id: int,
  filename: str,
  file_path: str,
  size: { type: 'integer', description: 'Bytes' },
  document_type_id: int,
  // document_type_id has no foreign key (migration 0008): the left join may find no type
  document_type: strN,
});

const quotePlace = (which: string): JsonSchema =>
  obj({
    // create.ts writes the country and postal code of both ends whenever it writes `service` (the quote requires them)
    country: { type: 'string', description: `ISO 3166-1 alpha-2 of the ${which}` },
    postal_code: str,
    locality: strN,
    province: strN,
  });
/**
 * The quote a request was priced from (null for a request entered by hand). create.ts is the only writer of
 * these columns and writes zone, service, priced_on and both ends' country and postal code together, so
 * inside a non-null quote they are given; the others may be null.
 */
export const requestQuoteAnswer: JsonSchema = obj({
  zone: described(str, quoteFieldsSchema.zone.enum, ZONE_MEANING),
  service: described(str, quoteFieldsSchema.service.enum, SERVICE_MEANING),
  flow: { ...described(str, quoteFieldsSchema.flow.enum, FLOW_MEANING), type: ['string', 'null'], enum: [...quoteFieldsSchema.flow.enum, null] },
  island: strN,
  class: { ...serviceClass, type: ['string', 'null'], enum: [...SERVICE_CLASSES, null] },
  calculation_ratio: { type: ['string', 'null'], description: 'The ratio that priced a standard quote (CBM250 … LM1750); null for pallet express' },
  lead_time: { type: ['integer', 'null'], description: 'Working days' },
  priced_on: { type: 'string', description: 'The quote date, YYYY-MM-DD (Europe/Rome)' },
  origin: quotePlace('origin'),
  destination: quotePlace('destination'),
});

/** The fuel surcharge the request was priced with (pricing.md §7), kept as it was: exact decimal text. */
export const requestFuelAnswer: JsonSchema = nullable(
  obj({
    month: { type: 'string', description: 'YYYY-MM' },
    price: { type: 'string', description: 'Diesel €/l' },
    percent: { type: 'string', description: 'Percent' },
  }),
);

const euro = (what: string): JsonSchema => ({ type: ['number', 'null'], description: `${what} in euros (to the cent)` });

/** A request's proof of delivery (issue 36, model/proofOfDelivery.ts, docs/proof-of-delivery.md); null before delivery. */
export const podAnswer: JsonSchema = nullable(
  obj({
    name: { type: 'string', description: "The receiver's name, as signed" },
    notes: { type: ['string', 'null'], description: 'Reservations written on delivery (damaged goods, missing pallets)' },
    kind: { type: 'string', enum: [...POD_KINDS], description: 'file = a photo or PDF of the signed document; signature = a signature drawn on the screen' },
    content_type: { type: 'string', enum: [...POD_FILE_TYPES], description: "The file's media type" },
    bytes: { type: 'integer', description: "The file's size in bytes" },
    width: { type: ['integer', 'null'], description: "An image's width in pixels; null for a PDF" },
    height: { type: ['integer', 'null'], description: "An image's height in pixels; null for a PDF" },
    delivered_at: { type: 'string', description: 'When the goods were delivered, ISO-8601 UTC' },
    created_at: { type: 'string', description: 'When the POD was recorded, ISO-8601 UTC' },
    file_path: { type: 'string', description: "Where the caller's namespace reads the file (GET, with the bearer header or an API key with requests:read)" },
  }),
);

/** A transport request as every namespace answers it (lib/presentRequest.ts `present`): list rows, show, create, edit, statistics, webhooks. */
export const requestAnswer: JsonSchema = obj({
  id: int,
  created: { type: 'string', description: 'ISO-8601 UTC (the same as created_at, the name the documents use)' },
  created_at: { type: 'string', description: 'ISO-8601 UTC' },
  updated_at: { type: 'string', description: 'ISO-8601 UTC' },
  cost: euro('The price without the admin fee; null = to be quoted'),
  admin_fees: euro('The admin fee'),
  total: euro('cost + admin_fees; null when both are null'),
  to_be_quoted: { type: 'boolean', description: 'true when cost is null' },
  fuel: requestFuelAnswer,
  firstname: strN,
  lastname: strN,
  email: strN,
  phone: strN,
  visitor_company: { type: ['string', 'null'], description: "The visitor's company (a visitor's request)" },
  notes: strN,
  reason: strN,
  contact: strN,
  transport_request_status_id: statusIdAnswer,
  transport_request_status: obj({
    id: statusIdAnswer,
    name: { type: 'string', description: 'The stored English name' },
    label: { type: 'string', description: "The name in the caller's language" },
  }),
  transport_class: transportClass,
  carrier_id: int,
  carrier: obj({ id: int, legal_name: str }),
  enduser_id: intN,
  // a foreign key (migration 0008) and a NOT NULL legal_name: when the request has an end user, its name is there
  enduser: nullable(obj({ id: int, legal_name: str })),
  user_id: {
    type: ['integer', 'null'],
    description: 'The end user who booked it (the only one who may cancel it while open); null for a visitor’s request',
  },
  quote: nullable(requestQuoteAnswer),
  lead_time: { type: ['integer', 'null'], description: 'Working days' },
  documents: list(documentAnswer),
  shipment: list(shipmentAnswer),
  picked_up_at: { type: ['string', 'null'], description: 'When the goods were picked up (ISO-8601 UTC), set with the move to in transit' },
  pod: podAnswer,
});

/** The show route's `data` (and a webhook's): the request with its timeline. */
export const requestShowAnswer: JsonSchema = obj({ ...(requestAnswer.properties as Record<string, JsonSchema>), timeline: timelineAnswer });
