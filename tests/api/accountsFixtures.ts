import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import type { TestPortal } from './helpers.js';

/** A password that fits the rule, for the users the fixtures create. */
export const PASSWORD = 'Secret123';

export interface Tenants {
  itCountry: number;
  itLanguage: number;
  enLanguage: number;
  priceCategory: number;
  priceCategory2: number;
  adminCompany: number;
  acme: number;
  rossi: number;
  acmeExp: number;
  acmeStd: number;
  beta: number;
  bianchi: number;
  betaExp: number;
  /** Users by role: ids and emails. */
  acmeOwner: { id: number; email: string };
  acmeStaff: { id: number; email: string };
  rossiUser: { id: number; email: string };
  betaOwner: { id: number; email: string };
  bianchiUser: { id: number; email: string };
}

/**
 * Two tenants on top of the demo set: the demo carrier Acme (with its end-user company Rossi) and a
 * second carrier Beta with its end-user company Bianchi, each with categories and users; plus two
 * price categories (the reference data of another area may or may not have seeded some).
 */
export async function createTenants(p: TestPortal): Promise<Tenants> {
  const db = p.db.db;
  const now = nowIso();
  const id = async (q: Promise<{ id: number } | undefined>) => Number((await q)!.id);
  const itCountry = await id(db.selectFrom('countries').select('id').where('code_alpha', '=', 'IT').executeTakeFirst());
  const itLanguage = await id(db.selectFrom('languages').select('id').where('code', '=', 'it').executeTakeFirst());
  const enLanguage = await id(db.selectFrom('languages').select('id').where('code', '=', 'en').executeTakeFirst());
  const priceCategory = await ensurePriceCategory(p, 'Test standard');
  const priceCategory2 = await ensurePriceCategory(p, 'Test premium');
  const companyId = (name: string) => id(db.selectFrom('companies').select('id').where('legal_name', '=', name).executeTakeFirst());
  const adminCompany = await companyId('Portale Trasporti');
  const acme = await companyId('Acme Trasporti S.r.l.');
  const rossi = await companyId('Rossi Logistica S.r.l.');
  // The demo companies get a price category when none is seeded with them (a required field).
  await db.updateTable('companies').set({ price_category_id: priceCategory }).where('price_category_id', 'is', null).execute();
  const userId = (email: string) => id(db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst());

  const company = (values: Record<string, unknown>) =>
    db
      .insertInto('companies')
      .values({
        status_id: 1,
        is_inbound: 1,
        type: 'Customer',
        country_id: itCountry,
        language_id: itLanguage,
        price_category_id: priceCategory,
        address: 'Via Test 1',
        city: 'Torino',
        postal_code: '10121',
        created_at: now,
        updated_at: now,
        ...values,
      } as any)
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.id));
  const category = (companyId: number, code: string, rate_type: string) =>
    db
      .insertInto('categories')
      .values({ company_id: companyId, code, rate_type, zone: 'NAT', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.id));
  const hash = await hashPassword(PASSWORD);
  const user = async (companyId: number, role_id: number, email: string, first_name: string) => ({
    email,
    id: await db
      .insertInto('users')
      .values({
        role_id,
        company_id: companyId,
        first_name,
        last_name: 'Test',
        email,
        password_hash: hash,
        status_id: 1,
        language_id: itLanguage,
        country_id: itCountry,
        title: 'Sig.',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.id)),
  });

  const beta = await company({ legal_name: 'Beta Spedizioni S.p.A.', company_role_id: 2, fax: 'beta@test.demo' });
  const bianchi = await company({
    legal_name: 'Bianchi Mobili S.n.c.',
    company_role_id: 3,
    carrier_id: beta,
    fax: 'bianchi@test.demo',
    combo_cbm_ratio: 300,
    combo_lm_ratio: 1500,
  });
  return {
    itCountry,
    itLanguage,
    enLanguage,
    priceCategory,
    priceCategory2,
    adminCompany,
    acme,
    rossi,
    beta,
    bianchi,
    acmeExp: await category(acme, 'AC-EXP-NAT', 'EXP'),
    acmeStd: await category(acme, 'AC-STD-NAT', 'STD'),
    betaExp: await category(beta, 'BE-EXP-NAT', 'EXP'),
    acmeOwner: { id: await userId('carrier@portal.demo'), email: 'carrier@portal.demo' },
    acmeStaff: await user(acme, 5, 'staff@acme.test', 'Sara'),
    rossiUser: { id: await userId('enduser@portal.demo'), email: 'enduser@portal.demo' },
    betaOwner: await user(beta, 3, 'owner@beta.test', 'Bruno'),
    bianchiUser: await user(bianchi, 6, 'mario@bianchi.test', 'Mario'),
  };
}

export async function ensurePriceCategory(p: TestPortal, name: string) {
  const db = p.db.db;
  const found = await db.selectFrom('price_categories').select('id').where('name', '=', name).executeTakeFirst();
  if (found) return Number(found.id);
  return Number((await db.insertInto('price_categories').values({ name }).returning('id').executeTakeFirstOrThrow()).id);
}

/** Every row of companies and users, for before/after comparisons. */
export async function snapshot(p: TestPortal) {
  const db = p.db.db;
  return {
    companies: await db.selectFrom('companies').selectAll().orderBy('id').execute(),
    users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
  };
}

/** A valid end-user company body (wire units: euros, decimal text). */
export function endUserBody(t: Tenants, extra: Record<string, unknown> = {}) {
  return {
    legal_name: 'Verdi Alimentari S.r.l.',
    address: 'Corso Francia 10',
    city: 'Torino',
    province: 'TO',
    postal_code: '10143',
    country_id: t.itCountry,
    language_id: t.itLanguage,
    price_category_id: t.priceCategory,
    fax: 'amministrazione@verdi.test',
    domestic_email: 'ordini@verdi.test',
    phone: '+39 011 555 0303',
    website_url: 'www.verdi.test',
    company_role_id: 3,
    carrier_id: t.acme,
    exp_category_id: t.acmeExp,
    std_category_id: t.acmeStd,
    increase_percent: '12.50',
    national_admin_fee: 4.5,
    international_admin_fee: 12,
    combo_cbm_ratio: 300,
    combo_lm_ratio: 1750,
    ...extra,
  };
}

/** A valid user body. */
export function userBody(t: Tenants, extra: Record<string, unknown> = {}) {
  return {
    title: 'Sig.ra',
    first_name: 'Giulia',
    last_name: 'Verdi',
    address: 'Corso Francia 10',
    city: 'Torino',
    postal_code: '10143',
    country_id: t.itCountry,
    language_id: t.itLanguage,
    email: 'giulia@verdi.test',
    password: PASSWORD,
    password_confirmation: PASSWORD,
    phone: '+39 333 123 4567',
    ...extra,
  };
}

/** A multipart body with the given fields and files, for `p.api(..., {payload, headers})`. */
export function multipart(fields: Record<string, unknown>, files: Record<string, { name: string; type: string; data: Buffer }> = {}) {
  const boundary = `----portal${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null) continue;
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`));
  }
  for (const [k, f] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`));
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The smallest valid PNG (1×1), padded to a size when asked. */
export function png(size = 0) {
  const base = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
    'hex',
  );
  return size > base.length ? Buffer.concat([base, Buffer.alloc(size - base.length)]) : base;
}
