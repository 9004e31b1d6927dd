import type { Kysely } from 'kysely';
import { bigintType, withId } from './helpers.js';

/**
 * Core schema: roles, languages, countries, price categories, companies, users, sessions, throttling
 * and settings. Timestamps are ISO-8601 UTC text on both databases; money is integer cents;
 * percentages and multipliers are exact decimal text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['user_roles', 'company_roles', 'support_roles']) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
  }

  await withId(db, db.schema.createTable('languages'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('en', 'text', (c) => c.notNull())
    .addColumn('native', 'text')
    .execute();

  await withId(db, db.schema.createTable('countries'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code_alpha', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text')
    .addColumn('active', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('de', 'text')
    .addColumn('en', 'text')
    .addColumn('es', 'text')
    .addColumn('fr', 'text')
    .addColumn('it', 'text')
    .addColumn('iso_alpha_2', 'text')
    .addColumn('iso_alpha_3', 'text')
    .addColumn('un_code', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('countries_code_alpha').on('countries').column('code_alpha').unique().execute();

  await withId(db, db.schema.createTable('price_categories'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .execute();

  await withId(db, db.schema.createTable('companies'))
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('address_2', 'text')
    .addColumn('city', 'text')
    .addColumn('province', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('country_id', 'integer', (c) => c.references('countries.id'))
    .addColumn('language_id', 'integer', (c) => c.references('languages.id'))
    .addColumn('phone', 'text')
    .addColumn('phone_2', 'text')
    .addColumn('domestic_email', 'text')
    .addColumn('international_email', 'text')
    .addColumn('fax', 'text')
    .addColumn('website_url', 'text')
    .addColumn('company_role_id', 'integer', (c) => c.notNull().references('company_roles.id'))
    .addColumn('carrier_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('price_category_id', 'integer', (c) => c.references('price_categories.id'))
    .addColumn('status_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_inbound', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('Customer'))
    .addColumn('site_header_logo', 'text')
    .addColumn('logo', 'text')
    .addColumn('exp_category_id', 'integer')
    .addColumn('std_category_id', 'integer')
    .addColumn('increase_percent', 'text')
    .addColumn('decrease_percent', 'text')
    .addColumn('international_admin_fee', 'integer')
    .addColumn('national_admin_fee', 'integer')
    .addColumn('combo_cbm_ratio', 'integer')
    .addColumn('combo_lm_ratio', 'integer')
    .addColumn('visitor_price_multiplier', 'text')
    .addColumn('adr_surcharge_percent', 'text')
    .addColumn('taillift_fee', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('companies_carrier').on('companies').column('carrier_id').execute();
  await db.schema.createIndex('companies_role').on('companies').column('company_role_id').execute();

  await withId(db, db.schema.createTable('users'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('user_roles.id'))
    .addColumn('support_role_id', 'integer', (c) => c.references('support_roles.id'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('language_id', 'integer', (c) => c.references('languages.id'))
    .addColumn('title', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('city', 'text')
    .addColumn('country_id', 'integer', (c) => c.references('countries.id'))
    .addColumn('phone', 'text')
    .addColumn('phone_2', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('status_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('support_skype', 'text')
    .addColumn('support_email', 'text')
    .addColumn('image', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Emails are stored lower-cased, so this index makes them unique without case.
  await db.schema.createIndex('users_email').on('users').column('email').unique().execute();
  await db.schema.createIndex('users_company').on('users').column('company_id').execute();

  await withId(db, db.schema.createTable('auth_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_tokens_user').on('auth_tokens').column('user_id').execute();

  // Fixed-window counters shared by every server process (login throttling and the like).
  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('window_start', bigintType(db), (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text')
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'settings',
    'rate_limits',
    'auth_tokens',
    'users',
    'companies',
    'price_categories',
    'countries',
    'languages',
    'support_roles',
    'company_roles',
    'user_roles',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
