import type { Db } from '../db/index.js';
import { COMPANY_ROLE, USER_ROLE } from '../../model/roles.js';
import { hashPassword } from '../lib/passwords.js';
import { nowIso } from '../lib/tokens.js';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_LOGINS = [
  { role: 'Admin', email: 'admin@portal.demo' },
  { role: 'Carrier', email: 'carrier@portal.demo' },
  { role: 'Enduser', email: 'enduser@portal.demo' },
];

async function idOf(db: Db, table: 'countries' | 'languages', col: 'code_alpha' | 'code', value: string) {
  const row = await (db as any).selectFrom(table).select('id').where(col, '=', value).executeTakeFirst();
  return row?.id as number | undefined;
}

/**
 * The demo set (server.md §10): an admin, a carrier with its carrier user, an end-user company of
 * that carrier with its end user. Runs once: skipped when the demo admin exists.
 */
export async function seedDemo(db: Db) {
  const exists = await db.selectFrom('users').select('id').where('email', '=', 'admin@portal.demo').executeTakeFirst();
  if (exists) return false;
  const now = nowIso();
  const it = await idOf(db, 'countries', 'code_alpha', 'IT');
  const lang = await idOf(db, 'languages', 'code', 'it');
  const hash = await hashPassword(DEMO_PASSWORD);
  const base = { country_id: it ?? null, language_id: lang ?? null, status_id: 1, is_inbound: 1, type: 'Customer', created_at: now, updated_at: now };

  try {
    await db.transaction().execute(async (trx) => {
      const admin = await trx
        .insertInto('companies')
        .values({
          ...base,
          legal_name: 'Portale Trasporti',
          company_role_id: COMPANY_ROLE.ADMIN,
          address: 'Via Roma 1',
          city: 'Milano',
          province: 'MI',
          postal_code: '20121',
          fax: 'admin@portal.demo',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const carrier = await trx
        .insertInto('companies')
        .values({
          ...base,
          legal_name: 'Acme Trasporti S.r.l.',
          company_role_id: COMPANY_ROLE.CARRIER,
          address: 'Via Mecenate 76',
          city: 'Milano',
          province: 'MI',
          postal_code: '20138',
          phone: '+39 02 5555 0101',
          domestic_email: 'ops@acme-trasporti.demo',
          fax: 'carrier@portal.demo',
          website_url: 'https://acme-trasporti.demo',
          national_admin_fee: 350,
          international_admin_fee: 900,
          combo_cbm_ratio: 250,
          combo_lm_ratio: 1750,
          adr_surcharge_percent: '15',
          taillift_fee: 2500,
          visitor_price_multiplier: '1.1',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const enduser = await trx
        .insertInto('companies')
        .values({
          ...base,
          legal_name: 'Rossi Logistica S.r.l.',
          company_role_id: COMPANY_ROLE.ENDUSER,
          carrier_id: carrier.id,
          address: 'Via Emilia 120',
          city: 'Bologna',
          province: 'BO',
          postal_code: '40133',
          phone: '+39 051 555 0202',
          domestic_email: 'spedizioni@rossi-logistica.demo',
          fax: 'enduser@portal.demo',
          increase_percent: '10',
          national_admin_fee: 450,
          international_admin_fee: 1200,
          combo_cbm_ratio: 300,
          combo_lm_ratio: 1750,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      // Visitors' quotes (the public /quote page) are priced by the demo carrier (pricing.md §1).
      // (the reference data seeds the key empty; an admin's choice is never overwritten)
      await trx
        .insertInto('settings')
        .values({ key: 'visitor_company_id', value: String(carrier.id), public: 1 })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({ value: String(carrier.id) })
            .where('settings.value', 'is', null),
        )
        .execute();

      const user = { language_id: lang ?? null, country_id: it ?? null, password_hash: hash, status_id: 1, created_at: now, updated_at: now };
      await trx
        .insertInto('users')
        .values([
          {
            ...user,
            role_id: USER_ROLE.ADMIN,
            company_id: admin.id,
            title: 'Sig.',
            first_name: 'Anna',
            last_name: 'Amministratrice',
            email: 'admin@portal.demo',
            city: 'Milano',
          },
          {
            ...user,
            role_id: USER_ROLE.CARRIER,
            company_id: carrier.id,
            title: 'Sig.',
            first_name: 'Carlo',
            last_name: 'Corriere',
            email: 'carrier@portal.demo',
            city: 'Milano',
          },
          {
            ...user,
            role_id: USER_ROLE.ENDUSER,
            company_id: enduser.id,
            title: 'Sig.ra',
            first_name: 'Elena',
            last_name: 'Rossi',
            email: 'enduser@portal.demo',
            city: 'Bologna',
          },
        ])
        .execute();
    });
  } catch (err) {
    // Another server process seeded the demo first (the unique email index refused ours).
    if (await db.selectFrom('users').select('id').where('email', '=', 'admin@portal.demo').executeTakeFirst()) return false;
    throw err;
  }
  // The demo companies get the first price category (a required field of the company forms), when seeded.
  const priceCategory = await db.selectFrom('price_categories').select('id').orderBy('id').executeTakeFirst();
  if (priceCategory) {
    await db
      .updateTable('companies')
      .set({ price_category_id: priceCategory.id })
      .where('legal_name', 'in', ['Portale Trasporti', 'Acme Trasporti S.r.l.', 'Rossi Logistica S.r.l.'])
      .where('price_category_id', 'is', null)
      .execute();
  }
  return true;
}
