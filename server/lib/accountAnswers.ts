/**
 * The answer schemas of accounts (issue 33): a company, a managed user and the signed-in profile, each
 * written once and shared by every route that answers it (both namespaces' list, show, store, update and
 * changeStatus; the sign-in answers and getProfile). Closed and complete, checked by the compiler against
 * the presenters' return types (lib/columns.ts): a property added to `presentCompany`, `presentUser` or
 * `usersRepo().profile` fails `tsc` until it is declared here.
 *
 * Enumerations take their values from the constants the code defines (model/roles.ts, model/companies.ts).
 */
import { ACCOUNT_STATUSES, COMPANY_ROLES, SUPPORT_ROLES, USER_ROLES } from '../../model/roles.js';
import { COMBO_CBM_RATIOS, COMBO_LM_RATIOS, COMPANY_TYPES, companyFields, type CompanyField } from '../../model/companies.js';
import type { CompanyTable } from '../db/types.js';
import type { presentCompany } from '../repositories/companies.js';
import type { presentUser } from '../repositories/userManagement.js';
import type { Profile } from '../repositories/users.js';
import { cInt, cIntN, cMediaN, col, columnsOf, cStr, cStrN, cTime, fieldColumns, oneOf, orNull, type Col, type NullableOf } from './columns.js';
import type { JsonSchema } from './answers.js';

/** 1 = Admin, 2 = Carrier, 3 = Enduser company, 4 = Reseller (model/roles.ts COMPANY_ROLES). */
export const companyRoleId = oneOf(COMPANY_ROLES, 'The company role');
/** 1 = Admin … 7 = Support (model/roles.ts USER_ROLES). */
export const userRoleId = oneOf(USER_ROLES, 'The user role');
/** The user role's name (model/roles.ts USER_ROLES); `Admin`, `Admin Users` are admins, `Carrier`, `Reseller`, `Carrier Users` carriers. */
export const userRoleName = oneOf(Object.values(USER_ROLES), 'The user role');
/** 1 = First line, 2 = Second line, 3 = Supervisor (model/roles.ts SUPPORT_ROLES); only Support users have one. */
export const supportRoleId = oneOf(SUPPORT_ROLES, 'The support role (Support users only)');
/** 1 active, 0 deactivated (model/roles.ts ACCOUNT_STATUSES). */
export const accountStatus = oneOf(ACCOUNT_STATUSES, 'The account status (changeStatus switches it)');

// ---- companies ----------------------------------------------------------------------------------------

/** The companies table's nullability (server/db/types.ts CompanyTable): the compiler checks each value. */
const COMPANY_NULLABLE: NullableOf<CompanyTable> = {
  id: false,
  legal_name: false,
  address: true,
  address_2: true,
  city: true,
  province: true,
  postal_code: true,
  country_id: true,
  language_id: true,
  phone: true,
  phone_2: true,
  domestic_email: true,
  international_email: true,
  fax: true,
  website_url: true,
  company_role_id: false,
  carrier_id: true,
  price_category_id: true,
  status_id: false,
  is_inbound: false,
  type: false,
  site_header_logo: true,
  logo: true,
  exp_category_id: true,
  std_category_id: true,
  increase_percent: true,
  decrease_percent: true,
  international_admin_fee: true,
  national_admin_fee: true,
  combo_cbm_ratio: true,
  combo_lm_ratio: true,
  visitor_price_multiplier: true,
  fuel_base_price: true,
  fuel_step: true,
  fuel_step_percent: true,
  fuel_max_percent: true,
  adr_surcharge_percent: true,
  taillift_fee: true,
  created_at: false,
  updated_at: false,
};

type PresentedCompany = ReturnType<typeof presentCompany>;
/** The declared fields' nullability, typed by key so that `fieldColumns` hands each key its own. */
const companyFieldNullable = Object.fromEntries(Object.keys(companyFields).map((f) => [f, COMPANY_NULLABLE[f as CompanyField]])) as {
  [K in CompanyField]: (typeof COMPANY_NULLABLE)[K];
};

/**
 * A company as every companies route answers it (repositories/companies.ts `presentCompany`): the
 * declared fields (model/companies.ts `companyFields`, nullable as the table's columns), the columns no
 * form edits, and the names of its references. Fields that do not apply to a company's role are stored
 * null (companyRules.ts), so they are nullable here.
 */
export const companyAnswer: JsonSchema = columnsOf<PresentedCompany>()({
  id: cInt,
  ...fieldColumns(companyFields, companyFieldNullable, {
    company_role_id: companyRoleId,
    type: oneOf(COMPANY_TYPES, 'Customer or Supplier'),
    is_inbound: oneOf([0, 1], '1: the company receives inbound shipments (the default), 0: not'),
    combo_cbm_ratio: oneOf(COMBO_CBM_RATIOS, 'kg per cubic metre of the combined weight'),
    combo_lm_ratio: oneOf(COMBO_LM_RATIOS, 'kg per loading metre of the combined weight'),
    site_header_logo: { type: 'string', description: 'URL of the logo shown in the site header (`/media/<name>`)' },
  }),
  status_id: accountStatus,
  logo: cMediaN,
  created_at: cTime,
  updated_at: cTime,
  // joined names (null when the reference is empty)
  role_name: cStrN,
  price_category_name: cStrN,
  carrier_name: cStrN,
  language_name: cStrN,
  language_code: cStrN,
  country_name: cStrN,
  country_code: orNull({ type: 'string', description: 'ISO alpha-2 of country_id' }),
  exp_category_code: cStrN,
  std_category_code: cStrN,
  users_count: col({ type: 'integer', minimum: 0, description: "The company's users" }),
});

// ---- users --------------------------------------------------------------------------------------------

type PresentedUser = ReturnType<typeof presentUser>;

/** A user's own columns (repositories/users.ts USER_COLUMNS), as user management and the profile answer them. */
const userOwn = {
  id: cInt,
  role_id: userRoleId,
  support_role_id: orNull(supportRoleId),
  company_id: cInt,
  language_id: cIntN,
  title: cStrN,
  first_name: cStr,
  last_name: cStr,
  address: cStrN,
  postal_code: cStrN,
  city: cStrN,
  country_id: cIntN,
  phone: cStrN,
  phone_2: cStrN,
  email: cStr,
  notes: cStrN,
  status_id: accountStatus,
  support_skype: cStrN,
  support_email: cStrN,
  image: orNull({ type: 'string', description: 'URL of the profile picture (`/media/<name>`)' }),
} satisfies Partial<Record<keyof PresentedUser, Col<boolean>>>;

/** A user as user management answers it (repositories/userManagement.ts `presentUser`): never the password hash. */
export const managedUserAnswer: JsonSchema = columnsOf<PresentedUser>()({
  ...userOwn,
  created_at: cTime,
  updated_at: cTime,
  company_legal_name: cStr,
  company_role_id: companyRoleId,
  company_carrier_id: cIntN,
  role_name: orNull(userRoleName),
  language_name: cStrN,
  language_code: cStrN,
  country_name: cStrN,
  country_code: orNull({ type: 'string', description: 'ISO alpha-2 of country_id' }),
});

/** The company part of the profile (repositories/users.ts `profile`). */
const profileCompany = columnsOf<Profile['company']>()({
  id: cInt,
  legal_name: cStr,
  company_role_id: companyRoleId,
  carrier_id: cIntN,
  address: cStrN,
  city: cStrN,
  postal_code: cStrN,
  province: cStrN,
  country_id: cIntN,
  country_code: orNull({ type: 'string', description: 'ISO alpha-2 of country_id (the calculator defaults an end user’s origin from it)' }),
  logo: cMediaN,
  site_header_logo: cMediaN,
});

/**
 * The signed-in user's profile (repositories/users.ts `profile`): the sign-in answers embed it as `user`,
 * getProfile and updateProfile answer it as `data` and `user`.
 */
export const profileAnswer: JsonSchema = columnsOf<Profile>()({
  ...userOwn,
  language_code: cStrN,
  role: userRoleName,
  company: col(profileCompany),
});
