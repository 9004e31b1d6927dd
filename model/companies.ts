import { defineFields, type FieldDef } from './fields';
import { COMPANY_ROLE } from './roles';

/**
 * Companies' fields, declared once with the shared field helper (model/fields.ts) for the server's
 * body schemas and the browser's inputs (accounts document §3 Company, §5; server.md §9). Beyond the
 * helper's keys: `section` (the create step and detail section holding the field) and `exclusive`
 * (both bounds strict, as the percentage rules are). Which fields a company needs depends on its role:
 * `requiredCompanyFields`. Shared by the browser and the server: no imports from either side.
 */
export type CompanySectionName = 'settings' | 'details' | 'carrier' | 'enduser';
export type CompanyFieldDef = FieldDef & { section: CompanySectionName; exclusive?: boolean };

export const COMBO_CBM_RATIOS = [250, 300, 350, 400, 450, 500] as const;
export const COMBO_LM_RATIOS = [1500, 1750] as const;
export const COMPANY_TYPES = ['Customer', 'Supplier'] as const;
/** Logo upload limits (accounts document §5, §9): 5 MB when creating, 1 MB when editing. */
export const LOGO_LIMIT_CREATE = 5 * 1024 * 1024;
export const LOGO_LIMIT_UPDATE = 1 * 1024 * 1024;

/** Companies that own tariffs and customers (their users are of the carrier kind): Carrier and Reseller. */
export const CARRIER_LIKE_ROLES: number[] = [COMPANY_ROLE.CARRIER, COMPANY_ROLE.RESELLER];
export const isCarrierLike = (role: number | null | undefined) => CARRIER_LIKE_ROLES.includes(Number(role));
export const isEnduserCompany = (role: number | null | undefined) => Number(role) === COMPANY_ROLE.ENDUSER;

const ref = (lookup: string, optionText: string, resource = lookup) => ({ resource, optionText, lookup });

export const companyFields = defineFields({
  // 1 settings
  company_role_id: { type: 'select', options: Object.values(COMPANY_ROLE), section: 'settings' },
  carrier_id: { type: 'reference', reference: ref('carriers_list', 'legal_name', 'companies'), section: 'settings' },
  price_category_id: { type: 'reference', required: true, reference: ref('company_price_categories_list', 'name'), section: 'settings' },
  language_id: { type: 'reference', required: true, reference: ref('languages_list', 'en'), section: 'settings' },
  type: { type: 'select', options: COMPANY_TYPES, default: 'Customer', section: 'settings' },
  // 1 or 0, stored as a number (not the helper's '0'/'1' flag text).
  is_inbound: { type: 'integer', min: 0, max: 1, default: 1, section: 'settings' },
  site_header_logo: { type: 'image', maxSize: LOGO_LIMIT_CREATE, section: 'settings' },
  // 2 company information
  legal_name: { type: 'text', required: true, section: 'details' },
  address: { type: 'text', required: true, section: 'details' },
  address_2: { type: 'text', section: 'details' },
  city: { type: 'text', required: true, maxLength: 100, section: 'details' },
  province: { type: 'text', maxLength: 100, section: 'details' },
  postal_code: { type: 'text', required: true, maxLength: 20, section: 'details' },
  country_id: { type: 'reference', required: true, reference: ref('country_list', 'en'), section: 'details' },
  phone: { type: 'text', maxLength: 50, section: 'details' },
  phone_2: { type: 'text', maxLength: 50, section: 'details' },
  domestic_email: { type: 'email', section: 'details' },
  international_email: { type: 'email', section: 'details' },
  /** Labelled in the interface as the admin email (accounts document §3). */
  fax: { type: 'email', required: true, section: 'details' },
  // "www.example.com" is taken as https://www.example.com (the server adds the scheme before checking).
  website_url: { type: 'url', section: 'details' },
  // carrier companies (server.md §9, pricing.md §1, §4)
  adr_surcharge_percent: { type: 'decimal', min: 0, max: 100, section: 'carrier' },
  taillift_fee: { type: 'money', min: 0, max: 100000, section: 'carrier' },
  visitor_price_multiplier: { type: 'decimal', min: 0, max: 10, exclusive: true, section: 'carrier' },
  // fuel plan (pricing.md §7): empty base or step = no fuel surcharge; base and step > 0, percents 0–100
  fuel_base_price: { type: 'decimal', scale: 3, min: 0, max: 100, exclusive: true, section: 'carrier' },
  fuel_step: { type: 'decimal', scale: 3, min: 0, max: 100, exclusive: true, section: 'carrier' },
  fuel_step_percent: { type: 'decimal', scale: 2, min: 0, max: 100, section: 'carrier' },
  fuel_max_percent: { type: 'decimal', scale: 2, min: 0, max: 100, section: 'carrier' },
  // 3 end-user information (company role 3); fees and ratios also serve a carrier's visitors
  exp_category_id: { type: 'reference', reference: ref('category_list', 'code'), section: 'enduser' },
  std_category_id: { type: 'reference', reference: ref('category_list', 'code'), section: 'enduser' },
  increase_percent: { type: 'decimal', min: 0, max: 100, exclusive: true, section: 'enduser' },
  decrease_percent: { type: 'decimal', min: 0, max: 100, exclusive: true, section: 'enduser' },
  national_admin_fee: { type: 'money', min: 0, max: 100000, section: 'enduser' },
  international_admin_fee: { type: 'money', min: 0, max: 100000, section: 'enduser' },
  combo_cbm_ratio: { type: 'select', options: COMBO_CBM_RATIOS, section: 'enduser' },
  combo_lm_ratio: { type: 'select', options: COMBO_LM_RATIOS, section: 'enduser' },
} satisfies Record<string, CompanyFieldDef>);

export type CompanyField = keyof typeof companyFields;
export const COMPANY_FIELD_NAMES = Object.keys(companyFields) as CompanyField[];

/** Fields only an admin sets; a carrier's company is always an end-user company of its own. */
export const ADMIN_ONLY_COMPANY_FIELDS: CompanyField[] = ['company_role_id', 'carrier_id'];

/** End-user settings: kept only on end-user companies (role 3). */
export const ENDUSER_ONLY_FIELDS: CompanyField[] = ['carrier_id', 'exp_category_id', 'std_category_id', 'increase_percent', 'decrease_percent'];
/** Carrier settings: kept only on carrier and reseller companies. */
export const CARRIER_ONLY_FIELDS: CompanyField[] = [
  'adr_surcharge_percent',
  'taillift_fee',
  'visitor_price_multiplier',
  'fuel_base_price',
  'fuel_step',
  'fuel_step_percent',
  'fuel_max_percent',
];
/** The fuel plan (pricing.md §7), edited together with a live preview. */
export const FUEL_PLAN_FIELDS: CompanyField[] = ['fuel_base_price', 'fuel_step', 'fuel_step_percent', 'fuel_max_percent'];
/** Money fields: euros on the wire, integer cents in the database. */
export const COMPANY_MONEY_FIELDS: CompanyField[] = ['taillift_fee', 'national_admin_fee', 'international_admin_fee'];

/** Fields required beyond `required`, by company role (accounts document §5). */
export function requiredCompanyFields(role: number | null | undefined): CompanyField[] {
  const always = COMPANY_FIELD_NAMES.filter((k) => (companyFields[k] as CompanyFieldDef).required);
  const out: CompanyField[] = ['company_role_id', ...always];
  if (isEnduserCompany(role)) out.push('carrier_id', 'combo_cbm_ratio', 'combo_lm_ratio');
  return out;
}

/** Does a field apply to a company of this role (shown in forms, kept by the server)? */
export function companyFieldApplies(field: CompanyField, role: number | null | undefined): boolean {
  if (ENDUSER_ONLY_FIELDS.includes(field)) return isEnduserCompany(role);
  if (CARRIER_ONLY_FIELDS.includes(field)) return isCarrierLike(role);
  return true;
}
