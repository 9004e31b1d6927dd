import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { addDays, romeDate } from '../lib/romeTime.js';
import { insertRequest, recordEvents } from '../lib/requestEvents/record.js';
import { requestEventsRepo, type EventActor } from '../repositories/requestEvents.js';
import { STATUS, type NewRequest, type NewShipment } from '../repositories/transportRequests.js';

const DAY = 86_400_000;

type Place = { location_name: string; address: string; postal_code: string; city: string; province: string };
const BOLOGNA: Place = { location_name: 'Rossi Logistica S.r.l.', address: 'Via Emilia 120', postal_code: '40133', city: 'Bologna', province: 'BO' };
const places: Record<string, Place> = {
  RM: { location_name: 'Ferramenta Colosseo', address: 'Via Labicana 44', postal_code: '00184', city: 'Roma', province: 'RM' },
  MI: { location_name: 'Arredi Navigli S.r.l.', address: 'Ripa di Porta Ticinese 21', postal_code: '20143', city: 'Milano', province: 'MI' },
  NA: { location_name: 'Market Vomero', address: 'Via Scarlatti 60', postal_code: '80129', city: 'Napoli', province: 'NA' },
  TO: { location_name: 'Officine Lingotto', address: 'Via Nizza 230', postal_code: '10126', city: 'Torino', province: 'TO' },
  PA: { location_name: 'Cantina Conca d’Oro', address: 'Via Libertà 12', postal_code: '90143', city: 'Palermo', province: 'PA' },
  FI: { location_name: 'Pelletteria Oltrarno', address: 'Via Maggio 8', postal_code: '50125', city: 'Firenze', province: 'FI' },
};

interface Demo {
  daysAgo: number;
  status: number;
  to: keyof typeof places;
  ref: string;
  express?: { cls: 'SILVER' | 'GOLD'; pallets: Array<[number, number, number, number, string]>; lead: number };
  standard?: { units: number; weight: string; volume: string; type: 'CBM' | 'LM'; ratio: string; lead: number };
  hand?: { units: number; weight: string; volume: string; type: 'CBM' | 'LM' | 'FTL' };
  cost: number | null;
  fee: number | null;
  reason?: string;
  notes?: string;
}

/** A year of the demo end user's requests with the demo carrier: quoted and by hand, in every status. */
const DEMOS: Demo[] = [
  {
    daysAgo: 0,
    status: STATUS.OP,
    to: 'RM',
    ref: 'ORD-2417',
    express: {
      cls: 'GOLD',
      pallets: [
        [250, 120, 80, 90, 'p300'],
        [140, 120, 80, 70, 'p150'],
      ],
      lead: 1,
    },
    cost: 24310,
    fee: 450,
  },
  {
    daysAgo: 1,
    status: STATUS.OP,
    to: 'NA',
    ref: 'ORD-2415',
    standard: { units: 6, weight: '380', volume: '1.8', type: 'CBM', ratio: 'CBM300', lead: 3 },
    cost: 18740,
    fee: 450,
  },
  {
    daysAgo: 3,
    status: STATUS.OP,
    to: 'TO',
    ref: 'ORD-2410',
    hand: { units: 33, weight: '18500', volume: '0', type: 'FTL' },
    cost: null,
    fee: null,
    notes: 'Carico completo, bilico centinato.',
  },
  {
    daysAgo: 6,
    status: STATUS.CF,
    to: 'MI',
    ref: 'ORD-2398',
    express: { cls: 'SILVER', pallets: [[480, 120, 100, 140, 'p550']], lead: 2 },
    cost: 10230,
    fee: 450,
  },
  {
    daysAgo: 13,
    status: STATUS.CF,
    to: 'FI',
    ref: 'ORD-2377',
    standard: { units: 12, weight: '720', volume: '3.2', type: 'CBM', ratio: 'CBM300', lead: 2 },
    cost: 23590,
    fee: 450,
  },
  {
    daysAgo: 27,
    status: STATUS.RF,
    to: 'PA',
    ref: 'ORD-2351',
    express: { cls: 'GOLD', pallets: [[900, 120, 100, 200, 'p1000']], lead: 3 },
    cost: 31900,
    fee: 450,
    reason: 'Ritiro non disponibile nella data richiesta.',
  },
  {
    daysAgo: 45,
    status: STATUS.DL,
    to: 'RM',
    ref: 'ORD-2302',
    express: {
      cls: 'SILVER',
      pallets: [
        [250, 120, 80, 90, 'p300'],
        [250, 120, 80, 90, 'p300'],
      ],
      lead: 2,
    },
    cost: 18700,
    fee: 450,
  },
  {
    daysAgo: 80,
    status: STATUS.DL,
    to: 'NA',
    ref: 'ORD-2231',
    standard: { units: 20, weight: '1150', volume: '5', type: 'CBM', ratio: 'CBM300', lead: 3 },
    cost: 41280,
    fee: 450,
  },
  {
    daysAgo: 130,
    status: STATUS.CN,
    to: 'MI',
    ref: 'ORD-2140',
    express: { cls: 'GOLD', pallets: [[300, 120, 80, 100, 'p300']], lead: 1 },
    cost: 13090,
    fee: 450,
  },
  {
    daysAgo: 170,
    status: STATUS.DL,
    to: 'TO',
    ref: 'ORD-2088',
    standard: { units: 4, weight: '210', volume: '0.9', type: 'CBM', ratio: 'CBM300', lead: 2 },
    cost: 9870,
    fee: 450,
  },
];

/**
 * Demo requests (server.md §10 "and some requests") of the demo end user Rossi with its carrier Acme.
 * Runs once: skipped when that end user already has requests, or when the demo set is missing.
 */
export async function seedDemoRequests(db: Db) {
  const eu = await db
    .selectFrom('users as u')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select(['u.id as user_id', 'c.id as company_id', 'c.carrier_id'])
    .where('u.email', '=', 'enduser@portal.demo')
    .executeTakeFirst();
  const it = await db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirst();
  if (!eu?.carrier_id || !it) return false;
  if (await db.selectFrom('transport_requests').select('id').where('enduser_company_id', '=', eu.company_id).executeTakeFirst()) return false;
  // Each request with its first events in a transaction of its own; nothing after the commit (no live event, no statistics).
  const create = (input: NewRequest, at: string) => db.transaction().execute((trx) => insertRequest(trx, input, at));
  const now = Date.now();
  const seeded: number[] = [];
  for (const d of DEMOS) {
    const at = new Date(now - d.daysAgo * DAY - 3_600_000).toISOString();
    const pickup = addDays(romeDate(at), 1);
    const dest = places[d.to];
    const address = (p: Place) => ({ ...p, country_id: it.id });
    const details: NewShipment['details'] = d.express
      ? d.express.pallets.map(([w, width, l, h, band]) => ({
          shipment_type_id: 1,
          pallet_weight: String(w),
          pallet_width: String(width),
          pallet_length: String(l),
          pallet_height: String(h),
          pallet_type: band,
        }))
      : [
          {
            shipment_type_id: 2,
            ...(() => {
              const g = d.standard ?? d.hand!;
              return { total_units: g.units, gross_weight: g.weight, volume: g.volume, volume_type: g.type };
            })(),
          },
        ];
    const quoted = d.express ?? d.standard;
    const id = await create(
      {
        carrier_id: eu.carrier_id,
        enduser_company_id: eu.company_id,
        user_id: eu.user_id,
        cost: d.cost,
        admin_fees: d.fee,
        notes: d.notes ?? null,
        reason: d.reason ?? null,
        lang: 'it',
        ...(quoted
          ? {
              zone: 'national',
              service: d.express ? 'palletExpress' : 'standard',
              flow: d.express ? 'OUT' : null,
              service_class: d.express?.cls ?? 'STANDARD',
              calculation_ratio: d.standard?.ratio ?? null,
              lead_time: quoted.lead,
              priced_on: romeDate(at),
              origin_country: 'IT',
              origin_postal_code: BOLOGNA.postal_code,
              origin_locality: BOLOGNA.city,
              origin_province: BOLOGNA.province,
              destination_country: 'IT',
              destination_postal_code: dest.postal_code,
              destination_locality: dest.city,
              destination_province: dest.province,
            }
          : {}),
        shipments: [
          {
            transport_request_type_id: d.express ? 1 : 2,
            transport_class: d.express?.cls ?? (d.standard ? 'STANDARD' : null),
            shipper_reference: d.ref,
            consignee_reference: `C-${d.ref.slice(4)}`,
            consignee_email: null,
            adr: 0,
            tail_lift: d.to === 'PA' ? 1 : 0,
            pickup_date: pickup,
            pickup_time_from: '08:30',
            pickup_time_to: '12:30',
            pickup_notes: 'Citofonare al magazzino.',
            delivery_date: quoted ? addDays(pickup, quoted.lead) : null,
            delivery_time_from: quoted ? '09:00' : null,
            delivery_time_to: quoted ? '17:00' : null,
            delivery_notes: null,
            pickup: address(BOLOGNA),
            delivery: address(dest),
            goods: null,
            details,
          },
        ],
        documents: [],
      },
      at,
    );
    if (d.status !== STATUS.OP) {
      await db.updateTable('transport_requests').set({ transport_request_status_id: d.status }).where('id', '=', id).execute();
      await demoHistory(db, id, eu.carrier_id, d, at);
    }
    seeded.push(id);
  }
  // The demo's history is old news: its bell entries are there to browse, already read (docs/notifications.md).
  await db
    .updateTable('notifications')
    .set({ read_at: sql<string>`created_at` })
    .where('transport_request_id', 'in', seeded)
    .where('read_at', 'is', null)
    .execute();
  return true;
}

/** The way a demo request went, status by status: each step a few hours after the one before. */
const PATHS: Record<number, number[]> = {
  [STATUS.CF]: [STATUS.CF],
  [STATUS.RF]: [STATUS.RF],
  [STATUS.IT]: [STATUS.CF, STATUS.IT],
  [STATUS.DL]: [STATUS.CF, STATUS.IT, STATUS.DL],
  [STATUS.CN]: [STATUS.CN],
};

/**
 * The timeline of a demo request past "open" (issue 22): the carrier's user confirms, refuses (with the
 * request's reason as the note), loads and delivers; the customer cancels. So the detail screen and the
 * public tracking page show a real history, not only "created".
 */
async function demoHistory(db: Db, id: number, carrierId: number, d: Demo, at: string) {
  const carrierUser = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .where('company_id', '=', carrierId)
    .orderBy('id')
    .executeTakeFirst();
  const carrier: EventActor = {
    user_id: carrierUser?.id ?? null,
    name: carrierUser ? `${carrierUser.first_name} ${carrierUser.last_name}`.trim() : null,
    role: 'carrier',
  };
  const customer = await requestEventsRepo(db).actorOfRequest(id);
  let step = 0;
  for (const status of PATHS[d.status] ?? []) {
    step += 1;
    const when = new Date(Math.min(Date.parse(at) + step * 5 * 3_600_000, Date.now())).toISOString();
    const note = status === STATUS.RF ? (d.reason ?? null) : null;
    await recordEvents(db, id, status === STATUS.CN ? customer : carrier, [{ event: 'status_changed', status_id: status, note, at: when }]);
  }
}
