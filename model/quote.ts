import type { Static } from 'typebox';

/**
 * The quote, declared once (issue 17): the body of POST /visitor/costRequest (calculator document §3 "Cost
 * request", pricing.md §0) and its answer (pricing.md §5). Plain JSON schemas written `as const`: the server
 * validates with them (AJV, as every route) and documents them; both sides take the static types from them
 * (`QuoteRequest`, `QuoteAnswer`; the browser with `import type`, so nothing of this file is bundled).
 */

/** The calculation ratios of the calculator document §9; CBM ones go with volume type CBM, LM ones with LM. */
export const RATIOS = ['CBM250', 'CBM300', 'CBM350', 'CBM400', 'CBM450', 'CBM500', 'LM1500', 'LM1750'] as const;
/** The classes of a pallet-express request (the body's `shipmentclass`): SILVER the standard lead time, GOLD the faster one. */
export const EXPRESS_CLASSES = ['SILVER', 'GOLD'] as const;
/** Choice: at most 33 pallet rows, a full articulated trailer of EUR pallets. */
export const MAX_PALLETS = 33;

const positive = { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 } as const;
const palletList = { type: 'array', maxItems: MAX_PALLETS, items: positive } as const;
const country = { type: 'string', minLength: 2, maxLength: 2, pattern: '^[A-Za-z]{2}$' } as const;
const postalCode = { type: 'string', minLength: 1, maxLength: 16, pattern: '\\S' } as const;
const italianOnly = 'Required when the country is IT (an Italian place); ignored abroad.';
const locality = { type: 'string', maxLength: 100, description: `The city. ${italianOnly}` } as const;
const province = { type: 'string', maxLength: 10, description: `The province code (MI, RM…). ${italianOnly}` } as const;
// Rules JSON Schema's `required` cannot say, written where a client reads them (issue 33).
const standardOnly = 'Required when service is standard.';
const expressOnly = 'Required when service is palletExpress: one entry per pallet, all four lists the same length.';

/**
 * The fields of a quote (the cost request, and the quote part of a transport request that is created from
 * one): zone, service, places, goods. Without `company_id` / `enduser_id` (who prices) and without `required`.
 */
export const quoteFieldsSchema = {
  zone: { type: 'string', enum: ['national', 'international'] },
  service: { type: 'string', enum: ['standard', 'palletExpress'] },
  flow: { type: 'string', enum: ['IN', 'OUT'], default: 'OUT' },
  island: { type: ['string', 'null'], maxLength: 100 },
  adr: { type: 'integer', enum: [0, 1], default: 0 },
  taillift: { type: 'integer', enum: [0, 1], default: 0 },
  originCountry: country,
  originPostalCode: postalCode,
  originLocality: locality,
  originProvince: province,
  destinationCountry: country,
  destinationPostalCode: postalCode,
  destinationLocality: locality,
  destinationProvince: province,
  standardunits: { type: 'integer', minimum: 1, maximum: 100_000, description: `The number of units. ${standardOnly}` },
  standardweight: { ...positive, description: `The total weight in kilograms. ${standardOnly}` },
  standardvolume: { type: 'number', minimum: 0, maximum: 1_000_000, description: `The volume, in the unit of standardvolumeType. ${standardOnly}` },
  standardvolumeType: { type: 'string', enum: ['CBM', 'LM'], description: `CBM: cubic metres; LM: loading metres. ${standardOnly}` },
  calculationRatio: {
    type: 'string',
    enum: [...RATIOS],
    description: "The weight-to-volume ratio. Required when a carrier or an admin prices a standard shipment; end users and visitors get their company's.",
  },
  palletWeight: { ...palletList, description: `Each pallet's weight in kilograms. ${expressOnly}` },
  palletWidth: { ...palletList, description: `Each pallet's width in centimetres. ${expressOnly}` },
  palletLength: { ...palletList, description: `Each pallet's length in centimetres. ${expressOnly}` },
  palletHeight: { ...palletList, description: `Each pallet's height in centimetres. ${expressOnly}` },
} as const;

/** The cost request of the calculator document §3 (JSON, or form data with `[]` on the pallet arrays). */
export const quoteRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['zone', 'service', 'originCountry', 'originPostalCode', 'destinationCountry', 'destinationPostalCode'],
  properties: {
    ...quoteFieldsSchema,
    company_id: {
      type: 'integer',
      minimum: 1,
      description: 'The carrier whose tariffs price the quote. Required when an admin asks; others price with their own.',
    },
    enduser_id: {
      type: ['integer', 'null'],
      minimum: 1,
      description: "A carrier or an admin may price for one of the carrier's end users (their categories apply).",
    },
  },
} as const;

/** The body of POST /visitor/costRequest (what the schema lets through; defaults filled by the server). */
export type QuoteRequest = Static<typeof quoteRequestSchema>;

const numN = { type: ['number', 'null'] } as const;
const num = { type: 'number' } as const;
const numOrText = { type: ['number', 'string'] } as const;

/** One pallet row of an express quote. */
export const palletDataSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['row', 'weight', 'width', 'length', 'height', 'measure', 'type'],
  properties: { row: num, weight: numOrText, width: numOrText, length: numOrText, height: numOrText, measure: { type: 'string' }, type: { type: 'string' } },
} as const;

/** The express price list (buy prices null for end users and visitors). */
export const pricesListSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'total_silver_buy',
    'total_gold_buy',
    'max_leadtime_buy_silver',
    'max_leadtime_buy_gold',
    'total_silver_sell',
    'total_gold_sell',
    'admin_fee',
    'x_total_silver_sell',
    'x_total_gold_sell',
    'max_leadtime_sell_silver',
    'max_leadtime_sell_gold',
  ],
  properties: {
    total_silver_buy: numN,
    total_gold_buy: numN,
    max_leadtime_buy_silver: numN,
    max_leadtime_buy_gold: numN,
    total_silver_sell: numN,
    total_gold_sell: numN,
    admin_fee: num,
    x_total_silver_sell: num,
    x_total_gold_sell: num,
    max_leadtime_sell_silver: numN,
    max_leadtime_sell_gold: numN,
  },
} as const;

/** The standard price (lane costs null for end users and visitors; `totla` as the documents spell it). */
export const costoCompleteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['final_cost_lane_one', 'final_cost_lane_two', 'shipment_cost', 'admin_fee', 'totla', 'lead_time'],
  properties: { final_cost_lane_one: numN, final_cost_lane_two: numN, shipment_cost: num, admin_fee: num, totla: num, lead_time: numN },
} as const;

/** The goods of a standard quote and their chargeable weight. */
export const unitsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['standardunits', 'standardweight', 'standardvolume', 'standardvolumeType', 'ratio', 'chargeable_weight'],
  properties: {
    standardunits: num,
    standardweight: numOrText,
    standardvolume: numOrText,
    standardvolumeType: { type: 'string', enum: ['CBM', 'LM'] },
    ratio: num,
    chargeable_weight: num,
  },
} as const;

/** A line of the price breakdown, labelled in the caller's language (amount in euros, null for information). */
export const breakdownLineSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'label', 'amount'],
  properties: { key: { type: 'string' }, label: { type: 'string' }, amount: numN },
} as const;

/** The fuel surcharge a quote was priced with (pricing.md §7): month YYYY-MM, diesel €/l and percent, exact decimal text. */
export const fuelSchema = {
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      additionalProperties: false,
      required: ['month', 'price', 'percent'],
      properties: { month: { type: 'string' }, price: { type: 'string' }, percent: { type: 'string' } },
    },
  ],
} as const;

/** The data of a priced quote (pricing.md §5; `fuel` null without a fuel surcharge, §7). */
export const quoteDataSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['fuel', 'breakdown'],
  properties: {
    fuel: fuelSchema,
    // Absent rather than null: a pallet-express quote has palletData and prices_list, a standard one
    // costo_complete and units (pricing/quote.ts visibleTo copies only those present).
    palletData: { type: 'array', items: palletDataSchema, description: 'Pallet express only: one row per pallet' },
    prices_list: { ...pricesListSchema, description: 'Pallet express only: the SILVER and GOLD prices' },
    costo_complete: { ...costoCompleteSchema, description: 'Standard only: the price' },
    units: { ...unitsSchema, description: 'Standard only: the goods and their chargeable weight' },
    breakdown: {
      type: 'array',
      items: breakdownLineSchema,
      description: 'How the price was made, line by line (only the public lines for end users and visitors)',
    },
  },
} as const;

/** The answer of POST /visitor/costRequest: a priced quote, or `status: false` with the reason (no price for this lane). */
/** A price: `outcome: 'priced'` (issue 33: the discriminator of the two answers; `status` says it too). */
export const quotePricedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['outcome', 'status', 'message', 'data'],
  properties: {
    outcome: { type: 'string', enum: ['priced'], description: 'A price: `data` is the quote.' },
    status: { const: true },
    message: { type: 'string' },
    data: quoteDataSchema,
  },
} as const;
/** No price for this lane: `outcome: 'not_priced'`. */
export const quoteNotPricedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['outcome', 'status', 'message'],
  properties: {
    outcome: { type: 'string', enum: ['not_priced'], description: 'No price: `message` says why.' },
    status: { const: false },
    message: { type: 'string', description: 'Why there is no price for this lane, in the caller’s language' },
  },
} as const;
/** The answer's type (the server declares it as a oneOf with a discriminator over the two, routes/visitor/costRequest.ts). */
export const quoteAnswerSchema = { anyOf: [quotePricedSchema, quoteNotPricedSchema] } as const;

export type QuoteAnswer = Static<typeof quoteAnswerSchema>;
export type QuoteData = Static<typeof quoteDataSchema>;
