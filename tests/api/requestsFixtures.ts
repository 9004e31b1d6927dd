import { sql } from 'kysely';
import { hashPassword } from '../../server/lib/passwords.js';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { nowIso } from '../../server/lib/tokens.js';
import type { TestPortal } from './helpers.js';

export const PASSWORD = 'Secret123';

export interface World {
  acme: number;
  rossi: number;
  beta: number;
  bianchi: number;
  it: number;
  docType: number;
  tokens: { admin: string; acme: string; rossi: string; beta: string; bianchi: string };
}

/**
 * On top of the demo set (carrier Acme, its end user Rossi): a second carrier Beta with its end-user
 * company Bianchi and their users, a document type, and signed-in tokens for every role.
 */
export async function createWorld(p: TestPortal): Promise<World> {
  const db = p.db.db;
  const now = nowIso();
  const it = Number((await db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirstOrThrow()).id);
  const companyId = async (name: string) => Number((await db.selectFrom('companies').select('id').where('legal_name', '=', name).executeTakeFirstOrThrow()).id);
  const acme = await companyId('Acme Trasporti S.r.l.');
  const rossi = await companyId('Rossi Logistica S.r.l.');
  const company = (values: Record<string, unknown>) =>
    db
      .insertInto('companies')
      .values({
        status_id: 1,
        is_inbound: 1,
        type: 'Customer',
        country_id: it,
        address: 'Via Po 1',
        city: 'Torino',
        postal_code: '10121',
        created_at: now,
        updated_at: now,
        ...values,
      } as any)
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.id));
  const beta = await company({ legal_name: 'Beta Spedizioni S.p.A.', company_role_id: 2 });
  const bianchi = await company({ legal_name: 'Bianchi Mobili S.n.c.', company_role_id: 3, carrier_id: beta });
  const hash = await hashPassword(PASSWORD);
  const user = (company_id: number, role_id: number, email: string) =>
    db
      .insertInto('users')
      .values({
        role_id,
        company_id,
        first_name: 'Test',
        last_name: 'User',
        email,
        password_hash: hash,
        status_id: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  await user(beta, 3, 'owner@beta.test');
  await user(bianchi, 6, 'mario@bianchi.test');
  const docType = await ensureDocumentType(p);
  // The demo requests are left out: each test counts the rows it makes.
  await db.deleteFrom('transport_requests').execute();
  return {
    acme,
    rossi,
    beta,
    bianchi,
    it,
    docType,
    tokens: {
      admin: await p.login('admin@portal.demo'),
      acme: await p.login('carrier@portal.demo'),
      rossi: await p.login('enduser@portal.demo'),
      beta: await p.login('owner@beta.test', PASSWORD),
      bianchi: await p.login('mario@bianchi.test', PASSWORD),
    },
  };
}

/** An active document type (the reference data seeds some; a bare database gets one). */
export async function ensureDocumentType(p: TestPortal): Promise<number> {
  const db = p.db.db;
  const found = await db.selectFrom('document_types').select('id').where('active', '=', '1').orderBy('id').executeTakeFirst();
  if (found) return Number(found.id);
  const row = await db
    .insertInto('document_types')
    .values({ name: 'DDT', description: 'Documento di trasporto', active: '1', created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export const tomorrow = () => addDays(romeDate(), 1);

/** The per-shipment fields of one shipment entered by hand (multipart names with []). */
export function handShipment(i = 0, over: Record<string, string> = {}): Record<string, string> {
  return {
    shipperref: `RIF-${i + 1}`,
    consigneeref: `DEST-${i + 1}`,
    adr: '0',
    taillift: '0',
    pickupdate: tomorrow(),
    pickuptimefrom: '08:00',
    pickuptimeto: '12:00',
    pickuplocationname: 'Magazzino Rossi',
    pickupaddress: 'Via Emilia 120',
    pickuppostalcode: '40133',
    pickupcity: 'Bologna',
    pickupprovince: 'BO',
    pickupcountry: 'IT',
    pickupnotes: '',
    deliverydate: '',
    deliverytimefrom: '',
    deliverytimeto: '',
    deliverylocationname: 'Cliente Roma',
    deliveryaddress: 'Via Appia 5',
    deliverypostalcode: '00183',
    deliverycity: 'Roma',
    deliveryprovince: 'RM',
    deliverycountry: 'IT',
    deliverynotes: '',
    units: '3',
    weight: '450.5',
    volume: '2.4',
    volumeType: 'CBM',
    ...over,
  };
}

type Part = string | { filename: string; type: string; data: Buffer };

/** A multipart body: per-shipment lists and repeated fields as `name[]`, files as blobs. */
export async function multipart(fields: Record<string, Part | Part[]>, headers: Record<string, string> = {}) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    const list = Array.isArray(v) ? v : [v];
    const name = Array.isArray(v) ? `${k}[]` : k;
    for (const item of list) {
      if (typeof item === 'object') fd.append(name, new Blob([new Uint8Array(item.data)], { type: item.type }), item.filename);
      else fd.append(name, item);
    }
  }
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { ...headers, 'content-type': res.headers.get('content-type')! } };
}

/** Shipments entered by hand as the create form sends them: each field a list with one entry per shipment. */
export function shipmentLists(shipments: Array<Record<string, string>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of shipments) for (const [k, v] of Object.entries(s)) (out[k] ??= []).push(v);
  return out;
}

/** Inserts a request row directly (statistics and list tests), with one shipment and its addresses. */
export async function insertRequest(
  p: TestPortal,
  r: {
    carrier_id: number;
    enduser_company_id: number | null;
    status?: number;
    cost: number | null;
    admin_fees: number | null;
    created_at: string;
  },
) {
  const db = p.db.db;
  const { id } = await db
    .insertInto('transport_requests')
    .values({
      carrier_id: r.carrier_id,
      enduser_company_id: r.enduser_company_id,
      user_id: null,
      transport_request_status_id: r.status ?? 1,
      cost: r.cost,
      admin_fees: r.admin_fees,
      created_on: romeDate(r.created_at),
      created_at: r.created_at,
      updated_at: r.created_at,
      firstname: null,
      lastname: null,
      email: null,
      phone: null,
      visitor_company: null,
      notes: null,
      reason: null,
      contact: null,
      lang: 'it',
      zone: null,
      service: null,
      flow: null,
      island: null,
      service_class: null,
      calculation_ratio: null,
      lead_time: null,
      origin_country: null,
      origin_postal_code: null,
      origin_locality: null,
      origin_province: null,
      destination_country: null,
      destination_postal_code: null,
      destination_locality: null,
      destination_province: null,
      priced_on: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

/** Rows currently stored, for "stores nothing" checks. */
export async function counts(p: TestPortal) {
  const db = p.db.db;
  const n = async (t: 'transport_requests' | 'shipments' | 'transport_request_documents') =>
    Number(
      (
        await db
          .selectFrom(t)
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { requests: await n('transport_requests'), shipments: await n('shipments'), documents: await n('transport_request_documents') };
}

/**
 * The worked example of pricing.md §6 as one carrier's tariffs: an EXP/NAT sell sheet with RM rows
 * (SILVER p300 80.00 lead time 2, GOLD p300 110.00 lead time 1), hub MI → HUBMI costing 5.00 / 9.00;
 * and a STD/NAT sell sheet with one RM bracket (0–1000 kg at 20.00 per 100 kg, minimum 30.00, 3 days).
 */
export async function insertWorkedExample(p: TestPortal, carrierId: number) {
  const db = p.db.db;
  const now = nowIso();
  for (const [rate_type, code] of [
    ['EXP', 'WE-EXP'],
    ['STD', 'WE-STD'],
  ] as const) {
    const cat = await db
      .insertInto('categories')
      .values({ company_id: carrierId, code, rate_type, zone: 'NAT', description: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sheet = await db
      .insertInto('rate_sheets')
      .values({
        company_id: carrierId,
        category_id: cat.id,
        code,
        description: null,
        zone: 'NAT',
        rate_type,
        area: 'Customer',
        is_standard: 1,
        validate_from: '2000-01-01',
        validate_to: '2099-12-31',
        file_path: null,
        file_name: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (rate_type === 'EXP') {
      const row = {
        rate_sheet_id: sheet.id,
        rate_code: null,
        carrier_zone: null,
        country: 'IT',
        department: null,
        hub: null,
        province: 'RM',
        p150: null,
        p550: null,
        ps550: null,
        p1000: null,
      };
      await db
        .insertInto('express_rate_rows')
        .values([
          { ...row, type_id: 1, p300: 8000, leadtime: 2 },
          { ...row, type_id: 2, p300: 11000, leadtime: 1 },
        ])
        .execute();
    } else {
      await db
        .insertInto('standard_rate_rows')
        .values({
          rate_sheet_id: sheet.id,
          rate_code: 'R1',
          country: 'IT',
          zone_code: 'RM',
          weight_from: '0',
          weight_to: '1000',
          price: 2000,
          unit: 'Q',
          minimum: 3000,
          leadtime: 3,
        })
        .execute();
    }
  }
  await db.insertInto('express_hub_codes').values({ company_id: carrierId, code: 'MI', hub: 'HUBMI' }).execute();
  await db.insertInto('express_hub_costs').values({ company_id: carrierId, code: 'HUBMI', silver: 500, gold: 900 }).execute();
}
