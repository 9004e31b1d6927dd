import type { Static } from 'typebox';
import { REQUEST_EVENTS } from './requestTimeline';
import { TRANSPORT_REQUEST_STATUSES, TRANSPORT_REQUEST_STATUS_IDS } from './transportStatuses';

/**
 * Public tracking (issue 22 item 5, docs/tracking.md): GET /visitor/track's query and answer, declared
 * once as plain JSON schemas written `as const` (the server validates and documents with them; the
 * browser takes the types with `import type`). The page's address is `trackingPath` (model/tracking.ts).
 */

/** The longest code and postal code the route reads (anything longer is refused by the schema, 422). */
export const TRACK_CODE_MAX = 32;
export const TRACK_POSTAL_CODE_MAX = 16;

export const trackQuerySchema = {
  type: 'object',
  required: ['code', 'postal_code'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', minLength: 1, maxLength: TRACK_CODE_MAX, pattern: '\\S', description: 'The request number, as on the transport document' },
    postal_code: { type: 'string', minLength: 1, maxLength: TRACK_POSTAL_CODE_MAX, pattern: '\\S', description: 'The destination postal code' },
  },
} as const;
export type TrackQuery = Static<typeof trackQuerySchema>;

/** A status id, one of model/transportStatuses.ts (issue 33: an enumeration, each value named in the description). */
const statusId = {
  type: 'integer',
  enum: TRANSPORT_REQUEST_STATUS_IDS,
  description: TRANSPORT_REQUEST_STATUSES.map((s) => `${s.id} = ${s.code} (${s.name})`).join('; '),
} as const;

const textOrNull = (description: string) => ({ type: ['string', 'null'], description }) as const;

/**
 * What a visitor holding both keys may read: the status, the timeline's dates and events, the route's
 * cities and countries, the carrier's company name and the expected delivery day (issue 35 item 14); no
 * prices, notes, streets, place names or people's names; of a delivery its time only, never the receiver's name
 * or the proof of delivery (issue 36).
 */
export const trackAnswerSchema = {
  type: 'object',
  required: ['status', 'data'],
  additionalProperties: false,
  properties: {
    status: { const: true },
    data: {
      type: 'object',
      required: [
        'code',
        'status_id',
        'status',
        'origin_city',
        'origin_country',
        'destination_city',
        'destination_country',
        'carrier_name',
        'lead_time',
        'expected_delivery',
        'delivered_at',
        'events',
      ],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'The request number' },
        status_id: { ...statusId, description: `The request's status: ${statusId.description}` },
        status: { type: 'string', description: "The status's name in the caller's language" },
        origin_city: textOrNull('The pickup city (no street, no place name)'),
        origin_country: textOrNull('The pickup country, ISO 3166-1 alpha-2'),
        destination_city: textOrNull('The delivery city (no street, no place name)'),
        destination_country: textOrNull('The delivery country, ISO 3166-1 alpha-2'),
        carrier_name: textOrNull("The carrier's company name"),
        lead_time: { type: ['integer', 'null'], description: 'The lead time in working days, as priced' },
        expected_delivery: {
          type: ['string', 'null'],
          format: 'date',
          description:
            'The expected delivery day (YYYY-MM-DD): the pickup day (else the day the request was made) plus the lead time in working days, Monday to Friday without Italian national holidays; null without a lead time or once refused, delivered or cancelled',
        },
        delivered_at: {
          type: ['string', 'null'],
          description:
            'When the goods were delivered (ISO-8601 UTC), once delivered: the time the carrier recorded with its proof of delivery (issue 36), else the time of the change; never who signed or the proof itself',
        },
        events: {
          type: 'array',
          description: 'The timeline, oldest first',
          items: {
            type: 'object',
            required: ['at', 'event', 'status_id'],
            additionalProperties: false,
            properties: {
              at: { type: 'string', description: 'ISO-8601 UTC' },
              event: { type: 'string', enum: REQUEST_EVENTS },
              status_id: { ...statusId, description: `The request's status after the event: ${statusId.description}` },
            },
          },
        },
      },
    },
  },
} as const;
export type TrackAnswer = Static<typeof trackAnswerSchema>;
export type TrackData = TrackAnswer['data'];

/**
 * The request id a typed code names, or null: the number as the transport document prints it ("123"),
 * also written "#123", "n. 123", "N° 123" or with spaces; digits only, within a 32-bit id.
 */
export function requestIdOfCode(code: string): number | null {
  const digits = code
    .trim()
    .replace(/^(#|n\s*[.°º]|no\.?|nr\.?)\s*/i, '')
    .replace(/\s+/g, '');
  if (!/^\d{1,10}$/.test(digits)) return null;
  const id = Number(digits);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** A postal code as compared: spaces removed, upper case ("sw1a 1aa" and "SW1A1AA" are the same). */
export const normalPostalCode = (value: string) => value.replace(/\s+/g, '').toUpperCase();
