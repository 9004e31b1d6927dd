/**
 * The data of `npm run bench:requests`: a million transport requests over two years, each with one
 * shipment, its pickup and delivery addresses and one goods row, as the create route stores them.
 *
 * Half are the demo carrier's (1 in 50 of those the demo end user's, 1 in 5 visitors', the rest over
 * 100 more end users of that carrier); the other half spread over 50 more carriers with 10 end users
 * each (1 in 5 visitors'). Statuses uniform over the six, cost empty ("to be quoted") for 1 in 50.
 * Rows are written in chunks of one JSON parameter each (json_each / json_array_elements), so filling
 * takes seconds, not minutes; shipments, addresses and goods are derived in SQL from the new rows.
 */
import { sql } from 'kysely';
import type { Db } from '../server/db/index.js';
import { mulberry32 } from './benchKit.js';
import { romeDate } from '../server/lib/romeTime.js';

export interface Fixture {
  carrier: number;
  enduser: number;
  /** every carrier, the demo one first */
  carriers: number[];
  /** end-user companies per carrier id */
  endusers: Map<number, number[]>;
  /** Rome days that hold requests, oldest first */
  days: string[];
}

/** A small seeded generator: the same rows and the same calls on every run. */
export const random = mulberry32;

const STATUSES = [1, 3, 4, 5, 6, 7];

export async function fill(db: Db, dialect: 'sqlite' | 'postgres', rows: number): Promise<Fixture> {
  const stamp = new Date().toISOString();
  const ids = (r: Array<{ id: number }>) => r.map((x) => Number(x.id));
  const demoCarrier = await db
    .selectFrom('users as u')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select('c.id')
    .where('u.email', '=', 'carrier@portal.demo')
    .executeTakeFirstOrThrow();
  const demoEnduser = await db
    .selectFrom('users as u')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select('c.id')
    .where('u.email', '=', 'enduser@portal.demo')
    .executeTakeFirstOrThrow();
  const company = (legal_name: string, company_role_id: number, carrier_id: number | null) => ({
    legal_name,
    company_role_id,
    carrier_id,
    status_id: 1,
    is_inbound: 1,
    type: 'Customer',
    created_at: stamp,
    updated_at: stamp,
  });
  const others = ids(
    await db
      .insertInto('companies')
      .values(Array.from({ length: 50 }, (_, i) => company(`Bench carrier ${i}`, 2, null)))
      .returning('id')
      .execute(),
  );
  const endusers = new Map<number, number[]>();
  endusers.set(
    demoCarrier.id,
    ids(
      await db
        .insertInto('companies')
        .values(Array.from({ length: 100 }, (_, i) => company(`Bench customer ${i}`, 3, demoCarrier.id)))
        .returning('id')
        .execute(),
    ),
  );
  for (const c of others) {
    endusers.set(
      c,
      ids(
        await db
          .insertInto('companies')
          .values(Array.from({ length: 10 }, (_, i) => company(`Bench customer ${c}/${i}`, 3, c)))
          .returning('id')
          .execute(),
      ),
    );
  }
  const it = await db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirstOrThrow();
  const before = await db
    .selectFrom('transport_requests')
    .select(sql<number>`coalesce(max(id), 0)`.as('m'))
    .executeTakeFirstOrThrow();
  const shipBefore = await db
    .selectFrom('shipments')
    .select(sql<number>`coalesce(max(id), 0)`.as('m'))
    .executeTakeFirstOrThrow();

  const rnd = random(11);
  const span = 730 * 86_400_000;
  const now = Date.now() - 3_600_000;
  const chunk = 20_000;
  const days = new Set<string>();
  for (let i = 0; i < rows; i += chunk) {
    const values: unknown[][] = [];
    for (let j = i; j < Math.min(rows, i + chunk); j++) {
      const at = new Date(now - Math.floor(((rows - j) / rows) * span)).toISOString();
      const on = romeDate(at);
      days.add(on);
      const k = j >> 1;
      let carrier: number;
      let enduser: number | null;
      if (j % 2 === 0) {
        carrier = demoCarrier.id;
        enduser = k % 50 === 0 ? demoEnduser.id : k % 5 === 1 ? null : endusers.get(carrier)![k % 100];
      } else {
        carrier = others[k % 50];
        enduser = Math.floor(k / 50) % 5 === 0 ? null : endusers.get(carrier)![Math.floor(k / 50) % 10];
      }
      const status = STATUSES[Math.floor(rnd() * 6)];
      const cost = rnd() < 0.02 ? null : 5000 + Math.floor(rnd() * 60000);
      const express = rnd() < 0.6 ? 1 : 0;
      values.push([carrier, enduser, status, cost, express, on, at]);
    }
    const json = JSON.stringify(values);
    if (dialect === 'sqlite') {
      await sql`insert into transport_requests (carrier_id, enduser_company_id, transport_request_status_id, cost, admin_fees,
          firstname, lastname, email, phone, visitor_company, lang, zone, service, flow, service_class, calculation_ratio, lead_time,
          origin_country, origin_postal_code, origin_locality, origin_province, destination_country, destination_postal_code,
          destination_locality, destination_province, priced_on, created_on, created_at, updated_at)
        select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
          case when json_extract(value, '$[3]') is null then null else 450 end,
          'Mario', 'Bianchi', 'mario.bianchi@example.com', '+39 051 123456', case when json_extract(value, '$[1]') is null then 'Bianchi S.r.l.' end,
          'it', 'national', case json_extract(value, '$[4]') when 1 then 'palletExpress' else 'standard' end, 'OUT',
          case json_extract(value, '$[4]') when 1 then 'GOLD' end, case json_extract(value, '$[4]') when 1 then null else 'CBM300' end, 2,
          'IT', '40133', 'Bologna', 'BO', 'IT', '00184', 'Roma', 'RM', json_extract(value, '$[5]'),
          json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[6]')
        from json_each(${json})`.execute(db);
    } else {
      await sql`insert into transport_requests (carrier_id, enduser_company_id, transport_request_status_id, cost, admin_fees,
          firstname, lastname, email, phone, visitor_company, lang, zone, service, flow, service_class, calculation_ratio, lead_time,
          origin_country, origin_postal_code, origin_locality, origin_province, destination_country, destination_postal_code,
          destination_locality, destination_province, priced_on, created_on, created_at, updated_at)
        select (v->>0)::int, (v->>1)::int, (v->>2)::int, (v->>3)::int, case when v->>3 is null then null else 450 end,
          'Mario', 'Bianchi', 'mario.bianchi@example.com', '+39 051 123456', case when v->>1 is null then 'Bianchi S.r.l.' end,
          'it', 'national', case (v->>4) when '1' then 'palletExpress' else 'standard' end, 'OUT',
          case (v->>4) when '1' then 'GOLD' end, case (v->>4) when '1' then null else 'CBM300' end, 2,
          'IT', '40133', 'Bologna', 'BO', 'IT', '00184', 'Roma', 'RM', v->>5, v->>5, v->>6, v->>6
        from json_array_elements(${json}::json) v`.execute(db);
    }
  }
  const b = Number(before.m);
  const sb = Number(shipBefore.m);
  await sql`insert into shipments (transport_request_id, position, transport_request_type_id, transport_class, shipper_reference,
      consignee_reference, adr, tail_lift, pickup_date, pickup_time_from, pickup_time_to, delivery_date)
    select id, 0, case when service = 'palletExpress' then 1 else 2 end, service_class, 'ORD-' || id, null, 0, 0,
      created_on, '08:00', '12:00', created_on
    from transport_requests where id > ${b} order by id`.execute(db);
  await sql`insert into shipment_addresses (shipment_id, kind, location_name, address, postal_code, city, province, country_id)
    select id, 'pickup', 'Rossi Logistica S.r.l.', 'Via Emilia 120', '40133', 'Bologna', 'BO', cast(${it.id} as integer) from shipments where id > ${sb}
    union all
    select id, 'delivery', 'Ferramenta Colosseo', 'Via Labicana 44', '00184', 'Roma', 'RM', cast(${it.id} as integer) from shipments where id > ${sb}`.execute(
    db,
  );
  await sql`insert into shipment_details (shipment_id, position, shipment_type_id, pallet_weight, pallet_width, pallet_length,
      pallet_height, pallet_type, total_units, gross_weight, volume, volume_type)
    select id, 0, transport_request_type_id,
      case when transport_request_type_id = 1 then '250' end, case when transport_request_type_id = 1 then '120' end,
      case when transport_request_type_id = 1 then '80' end, case when transport_request_type_id = 1 then '90' end,
      case when transport_request_type_id = 1 then 'p300' end,
      case when transport_request_type_id = 2 then 6 end, case when transport_request_type_id = 2 then '380' end,
      case when transport_request_type_id = 2 then '1.8' end, case when transport_request_type_id = 2 then 'CBM' end
    from shipments where id > ${sb}`.execute(db);
  return {
    carrier: demoCarrier.id,
    enduser: demoEnduser.id,
    carriers: [demoCarrier.id, ...others],
    endusers,
    days: [...days],
  };
}
