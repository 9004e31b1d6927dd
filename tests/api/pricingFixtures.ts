/**
 * Test fixtures for pricing through the API: the reference places a quote checks, companies and users,
 * and tariff rows inserted straight into the tables (euros here, cents in the database).
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../server/db/index.js';
import { withId } from '../../server/migrations/helpers.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import { toCents } from '../../server/pricing/money.js';
import { invalidatePlaceReference } from '../../server/repositories/placeReference.js';
import { COMPANY_ROLE } from '../../model/roles.js';

export const PASSWORD = 'demo1234';

const PROVINCES = [
  ['MI', 'Milano', 'Lombardia'],
  ['RM', 'Roma', 'Lazio'],
  ['BO', 'Bologna', 'Emilia-Romagna'],
  ['TO', 'Torino', 'Piemonte'],
  ['TN', 'Trento', 'Trentino-Alto Adige'],
  ['PA', 'Palermo', 'Sicilia'],
  ['ME', 'Messina', 'Sicilia'],
  ['LI', 'Livorno', 'Toscana'],
  ['NA', 'Napoli', 'Campania'],
  ['FI', 'Firenze', 'Toscana'],
];
const MUNICIPALITIES = [
  ['Milano', 'MI', '20121'],
  ['Roma', 'RM', '00118'],
  ['Bologna', 'BO', '40121'],
  ['Torino', 'TO', '10121'],
  ['Samone', 'TO', '10010'],
  ['Samone', 'TN', '38059'],
  ['Palermo', 'PA', '90121'],
  ['Lipari', 'ME', '98055'],
  ['Portoferraio', 'LI', '57037'],
  ['Napoli', 'NA', '80121'],
  ['Firenze', 'FI', '50121'],
  ['Sesto San Giovanni', 'MI', '20099'],
];
const ISLAND_PLACES = [
  ['Sicilia', 'Palermo', 'PA'],
  ['Eolie', 'Lipari', 'ME'],
  ['Elba', 'Portoferraio', 'LI'],
];

/**
 * The reference tables belong to the reference-data area; until its migration has created them, the
 * tests create them with the same columns. Rows are added only when missing.
 */
export async function ensureReferencePlaces(db: Db) {
  const k = db as unknown as Kysely<any>;
  // (kept for a database migrated before the reference area's tables existed; a no-op now)
  await withId(k, k.schema.createTable('provinces').ifNotExists())
    .addColumn('sigla', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('region', 'text')
    .execute();
  await withId(k, k.schema.createTable('municipalities').ifNotExists())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text')
    .addColumn('istat_code', 'text')
    .execute();
  await withId(k, k.schema.createTable('island_places').ifNotExists())
    .addColumn('island', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    .execute();
  const have = new Set((await k.selectFrom('provinces').select('sigla').execute()).map((r: any) => r.sigla));
  for (const [sigla, name, region] of PROVINCES) if (!have.has(sigla)) await k.insertInto('provinces').values({ sigla, name, region }).execute();
  const towns = new Set((await k.selectFrom('municipalities').select(['name', 'province']).execute()).map((r: any) => `${r.name}|${r.province}`));
  for (const [name, province, postal_code] of MUNICIPALITIES) {
    if (!towns.has(`${name}|${province}`))
      await k
        .insertInto('municipalities')
        .values({ name, province, postal_code, istat_code: `T${postal_code}${province}` })
        .execute();
  }
  // one island per place (a minor island rather than its region)
  const isl = new Set((await k.selectFrom('island_places').select(['city', 'province']).execute()).map((r: any) => `${r.city}|${r.province}`));
  for (const [island, city, province] of ISLAND_PLACES) {
    if (!isl.has(`${city}|${province}`)) {
      await k.insertInto('island_places').values({ island, city, province }).execute();
      isl.add(`${city}|${province}`);
    }
  }
  invalidatePlaceReference(db);
}

type CompanyValues = Partial<Record<string, string | number | null>>;

export async function makeCompany(db: Db, legal_name: string, company_role_id: number, values: CompanyValues = {}): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('companies')
    .values({
      legal_name,
      company_role_id,
      status_id: 1,
      is_inbound: 1,
      type: 'Customer',
      created_at: now,
      updated_at: now,
      ...values,
    } as any)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let hash: Promise<string> | undefined;
export async function makeUser(db: Db, companyId: number, role_id: number, email: string): Promise<number> {
  hash ??= hashPassword(PASSWORD);
  const now = nowIso();
  const row = await db
    .insertInto('users')
    .values({
      role_id,
      company_id: companyId,
      first_name: 'Test',
      last_name: email.split('@')[0],
      email,
      password_hash: await hash,
      status_id: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface SheetOptions {
  rateType: 'EXP' | 'STD';
  zone: 'NAT' | 'INT';
  area?: 'Customer' | 'Supplier';
  isStandard?: 0 | 1;
  from?: string;
  to?: string;
  categoryId?: number;
  code?: string;
}

let codeSeq = 0;
/** A rate sheet version (in a new category unless one is given); answers both ids. */
export async function addSheet(db: Db, companyId: number, o: SheetOptions): Promise<{ sheetId: number; categoryId: number }> {
  const now = nowIso();
  const code = o.code ?? `T${o.rateType}${o.zone}${++codeSeq}`;
  const categoryId =
    o.categoryId ??
    (
      await db
        .insertInto('categories')
        .values({
          company_id: companyId,
          code,
          rate_type: o.rateType,
          zone: o.zone,
          description: null,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const sheet = await db
    .insertInto('rate_sheets')
    .values({
      company_id: companyId,
      category_id: categoryId,
      code,
      description: null,
      zone: o.zone,
      rate_type: o.rateType,
      area: o.area ?? 'Customer',
      is_standard: o.isStandard ?? 1,
      validate_from: o.from ?? '2000-01-01',
      validate_to: o.to ?? '2099-12-31',
      file_path: null,
      file_name: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { sheetId: sheet.id, categoryId };
}

const cents = (v: number | null | undefined) => (v === null || v === undefined ? null : toCents(v));
type Bands = Partial<Record<'p150' | 'p300' | 'p550' | 'ps550' | 'p1000', number | null>>;

export async function addExpressRows(db: Db, sheetId: number, rows: Array<{ province: string; type_id: 1 | 2; leadtime?: number } & Bands>) {
  await db
    .insertInto('express_rate_rows')
    .values(
      rows.map((r) => ({
        rate_sheet_id: sheetId,
        province: r.province,
        type_id: r.type_id,
        leadtime: r.leadtime ?? null,
        p150: cents(r.p150),
        p300: cents(r.p300),
        p550: cents(r.p550),
        ps550: cents(r.ps550),
        p1000: cents(r.p1000),
      })),
    )
    .execute();
}

export async function addStandardRows(
  db: Db,
  sheetId: number,
  rows: Array<{
    country: string;
    zone_code: string;
    from: number;
    to: number;
    price: number;
    unit: 'Q' | 'S';
    minimum?: number;
    leadtime?: number;
    rate_code?: string;
  }>,
) {
  await db
    .insertInto('standard_rate_rows')
    .values(
      rows.map((r) => ({
        rate_sheet_id: sheetId,
        rate_code: r.rate_code ?? null,
        country: r.country,
        zone_code: r.zone_code,
        weight_from: String(r.from),
        weight_to: String(r.to),
        price: toCents(r.price),
        unit: r.unit,
        minimum: cents(r.minimum),
        leadtime: r.leadtime ?? null,
      })),
    )
    .execute();
}

/** Rows of a tariff table of one company; money columns given in euros. */
export async function addTariffRows(
  db: Db,
  table: 'express_hub_costs' | 'express_hub_codes' | 'express_island_zones' | 'express_special_zones' | 'standard_special_zones' | 'standard_no_passage',
  companyId: number,
  rows: Array<Record<string, unknown>>,
) {
  const money = new Set(['silver', 'gold', 'quintal_cost', 'p150', 'p300', 'p550', 'ps550', 'p1000', 'cost', 'cost2']);
  await (db as any)
    .insertInto(table)
    .values(
      rows.map((r) => Object.fromEntries([['company_id', companyId], ...Object.entries(r).map(([k, v]) => [k, money.has(k) ? cents(v as number | null) : v])])),
    )
    .execute();
}

export async function setSetting(db: Db, key: string, value: string | null) {
  await db
    .insertInto('settings')
    .values({ key, value, public: 1 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export { COMPANY_ROLE };

export interface PricingWorld {
  carrier: number;
  endUser: number;
  endUser2: number;
  other: number;
  otherEndUser: number;
  logins: { carrier: string; endUser: string; endUser2: string; other: string; otherEndUser: string; support: string };
}

/**
 * Carrier C with the tariffs of the worked example (pricing.md §6) and a few more rules, its end users E
 * (+10 %, fee 4.50, CBM 300) and E2 (its own standard list, −5 %), and carrier O with its own prices and
 * end user, to prove one carrier's data never prices another's quote. Prices in euros.
 */
export async function buildPricingWorld(db: Db, tag: string): Promise<PricingWorld> {
  await ensureReferencePlaces(db);
  const carrier = await makeCompany(db, `Corriere Centrale ${tag}`, COMPANY_ROLE.CARRIER, {
    province: 'MI',
    national_admin_fee: 300,
    international_admin_fee: 800,
    visitor_price_multiplier: '1.1',
    adr_surcharge_percent: '10',
    taillift_fee: 2000,
    combo_cbm_ratio: 250,
    combo_lm_ratio: 1750,
  });
  const other = await makeCompany(db, `Altro Vettore ${tag}`, COMPANY_ROLE.CARRIER, { national_admin_fee: 100 });

  // Carrier C: express national, sell (standard) and buy sheets, plus an expired and a future version.
  const sell = await addSheet(db, carrier, { rateType: 'EXP', zone: 'NAT' });
  await addExpressRows(db, sell.sheetId, [
    { province: 'RM', type_id: 1, p150: 60, p300: 80, p550: 100, ps550: 120, p1000: 150, leadtime: 2 },
    { province: 'RM', type_id: 2, p150: 90, p300: 110, p550: 140, ps550: 160, p1000: 200, leadtime: 1 },
    { province: 'ME', type_id: 1, p300: 95, leadtime: 3 },
    { province: 'ME', type_id: 2, p300: 125, leadtime: 2 },
    { province: 'NA', type_id: 1, p300: 85, leadtime: 2 },
    { province: 'NA', type_id: 2, p300: 115, leadtime: 1 },
    { province: 'MI', type_id: 1, p300: 50, leadtime: 1 },
    { province: 'MI', type_id: 2, p300: 70, leadtime: 1 },
    { province: 'PA', type_id: 1, p300: 90, leadtime: 3 },
    { province: 'PA', type_id: 2, p300: 120, leadtime: 2 },
  ]);
  const expired = await addSheet(db, carrier, {
    rateType: 'EXP',
    zone: 'NAT',
    categoryId: sell.categoryId,
    from: '2000-01-01',
    to: '2001-01-01',
    code: `OLD${tag}`,
  });
  await addExpressRows(db, expired.sheetId, [
    { province: 'RM', type_id: 1, p300: 1 },
    { province: 'RM', type_id: 2, p300: 1 },
  ]);
  const future = await addSheet(db, carrier, {
    rateType: 'EXP',
    zone: 'NAT',
    categoryId: sell.categoryId,
    from: '2098-01-01',
    to: '2099-12-31',
    code: `NEW${tag}`,
  });
  await addExpressRows(db, future.sheetId, [
    { province: 'RM', type_id: 1, p300: 2 },
    { province: 'RM', type_id: 2, p300: 2 },
  ]);
  const buy = await addSheet(db, carrier, { rateType: 'EXP', zone: 'NAT', area: 'Supplier', isStandard: 0 });
  await addExpressRows(db, buy.sheetId, [
    { province: 'RM', type_id: 1, p300: 60, leadtime: 3 },
    { province: 'RM', type_id: 2, p300: 90, leadtime: 2 },
  ]);
  await addTariffRows(db, 'express_hub_codes', carrier, [
    { code: 'MI', hub: 'HUBMI' },
    { code: '20099', hub: 'HUBSESTO' },
    { code: 'RM', hub: 'HUBRM' },
  ]);
  await addTariffRows(db, 'express_hub_costs', carrier, [
    { code: 'HUBMI', silver: 5, gold: 9 },
    { code: 'HUBSESTO', silver: 3, gold: 4 },
    { code: 'HUBRM', silver: 6, gold: 7 },
  ]);
  await addTariffRows(db, 'express_island_zones', carrier, [
    { island: 'Eolie', multiplier: '1.2', p300: 10, quintal_cost: 2, type_id: 1 },
    { island: 'Eolie', multiplier: '1.25', p300: 12, quintal_cost: 3, type_id: 2 },
  ]);
  await addTariffRows(db, 'express_special_zones', carrier, [{ province: 'NA', city: 'Napoli', postal_code: '80121' }]);

  // Carrier C: standard national and international.
  const std = await addSheet(db, carrier, { rateType: 'STD', zone: 'NAT' });
  await addStandardRows(db, std.sheetId, [
    { country: 'IT', zone_code: 'RM', from: 0, to: 100, price: 20, unit: 'Q', minimum: 30, leadtime: 3 },
    { country: 'IT', zone_code: 'RM', from: 100, to: 1000, price: 15, unit: 'Q', leadtime: 3 },
    { country: 'IT', zone_code: 'RM', from: 1000, to: 5000, price: 12, unit: 'Q', leadtime: 4 },
    { country: 'IT', zone_code: 'ZS1', from: 0, to: 1000, price: 25, unit: 'Q', leadtime: 5 },
    { country: 'IT', zone_code: 'FI', from: 0, to: 1000, price: 18, unit: 'Q', leadtime: 2 },
  ]);
  await addTariffRows(db, 'standard_special_zones', carrier, [{ province: 'FI', code: 'ZS1', city: null, postal_code: '50121' }]);
  await addTariffRows(db, 'standard_no_passage', carrier, [
    { postal_code: null, city: 'Firenze', province: 'FI', flow: 'OUT', cost: 5, cost2: 1, rate_code: null },
  ]);
  const intl = await addSheet(db, carrier, { rateType: 'STD', zone: 'INT' });
  await addStandardRows(db, intl.sheetId, [
    { country: 'DE', zone_code: '80', from: 0, to: 1000, price: 30, unit: 'Q', minimum: 40, leadtime: 5 },
    { country: 'DE', zone_code: '*', from: 0, to: 1000, price: 40, unit: 'Q', leadtime: 6 },
  ]);
  // End user E2's own standard list (not the carrier's standard one).
  const e2std = await addSheet(db, carrier, { rateType: 'STD', zone: 'NAT', isStandard: 0 });
  await addStandardRows(db, e2std.sheetId, [{ country: 'IT', zone_code: 'RM', from: 0, to: 1000, price: 10, unit: 'Q', leadtime: 2 }]);

  const endUser = await makeCompany(db, `Edilizia Esempio ${tag}`, COMPANY_ROLE.ENDUSER, {
    carrier_id: carrier,
    increase_percent: '10',
    national_admin_fee: 450,
    international_admin_fee: 1000,
    combo_cbm_ratio: 300,
    address: 'Via Torino 5',
    city: 'Milano',
    province: 'MI',
    postal_code: '20121',
  });
  const endUser2 = await makeCompany(db, `Seconda Ditta ${tag}`, COMPANY_ROLE.ENDUSER, {
    carrier_id: carrier,
    decrease_percent: '5',
    std_category_id: e2std.categoryId,
  });

  // Carrier O: dearer prices for the same province, and an end user of its own.
  const osell = await addSheet(db, other, { rateType: 'EXP', zone: 'NAT' });
  await addExpressRows(db, osell.sheetId, [
    { province: 'RM', type_id: 1, p300: 999, leadtime: 9 },
    { province: 'RM', type_id: 2, p300: 999, leadtime: 9 },
  ]);
  await addTariffRows(db, 'express_hub_codes', other, [{ code: 'MI', hub: 'HUBMI' }]);
  await addTariffRows(db, 'express_hub_costs', other, [{ code: 'HUBMI', silver: 100, gold: 100 }]);
  const otherEndUser = await makeCompany(db, `Cliente Altro ${tag}`, COMPANY_ROLE.ENDUSER, { carrier_id: other });

  const logins = {
    carrier: `carrier-${tag}@pricing.test`,
    endUser: `enduser-${tag}@pricing.test`,
    endUser2: `enduser2-${tag}@pricing.test`,
    other: `other-${tag}@pricing.test`,
    otherEndUser: `other-enduser-${tag}@pricing.test`,
    support: `support-${tag}@pricing.test`,
  };
  await makeUser(db, carrier, 3, logins.carrier);
  await makeUser(db, endUser, 6, logins.endUser);
  await makeUser(db, endUser2, 6, logins.endUser2);
  await makeUser(db, other, 3, logins.other);
  await makeUser(db, otherEndUser, 6, logins.otherEndUser);
  await makeUser(db, carrier, 7, logins.support);
  await setSetting(db, 'visitor_company_id', String(carrier));
  return { carrier, endUser, endUser2, other, otherEndUser, logins };
}
