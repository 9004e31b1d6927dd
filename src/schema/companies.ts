import { COMPANY_ROLE } from './roles';

/**
 * Companies' fields, declared once for the server's body schemas and the browser's inputs
 * (accounts document §3 Company, §5; server.md §9). The declaration follows the shape of the shared
 * field helper (`type`, `required`, `min`/`max`, `options`), so it can move onto it unchanged.
 * Shared by the browser and the server: no imports from either side.
 */
export type CompanyFieldType = 'text' | 'email' | 'url' | 'reference' | 'select' | 'flag' | 'decimal' | 'money' | 'image';

export interface CompanyFieldDef {
  type: CompanyFieldType;
  /** Required for every company. Role-dependent requirements are in `requiredFor`. */
  required?: boolean;
  maxLength?: number;
  /** Numbers (decimal text and money in euros): bounds. `exclusive` makes both bounds strict. */
  min?: number;
  max?: number;
  exclusive?: boolean;
  options?: ReadonlyArray<string | number>;
  /** A lookup the input picks from. */
  lookup?: string;
  default?: string | number | null;
  /** Which step of the create form and which section of the detail view holds it. */
  section: 'settings' | 'details' | 'carrier' | 'enduser';
}

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

export const companyFields = {
  // 1 settings
  company_role_id: { type: 'select', options: [1, 2, 3, 4], section: 'settings' },
  carrier_id: { type: 'reference', lookup: 'carriers_list', section: 'settings' },
  price_category_id: { type: 'reference', required: true, lookup: 'company_price_categories_list', section: 'settings' },
  language_id: { type: 'reference', required: true, lookup: 'languages_list', section: 'settings' },
  type: { type: 'select', options: COMPANY_TYPES, default: 'Customer', section: 'settings' },
  is_inbound: { type: 'flag', default: 1, section: 'settings' },
  site_header_logo: { type: 'image', section: 'settings' },
  // 2 company information
  legal_name: { type: 'text', required: true, section: 'details' },
  address: { type: 'text', required: true, section: 'details' },
  address_2: { type: 'text', section: 'details' },
  city: { type: 'text', required: true, maxLength: 100, lookup: 'city_list', section: 'details' },
  province: { type: 'text', maxLength: 100, lookup: 'province_list', section: 'details' },
  postal_code: { type: 'text', required: true, maxLength: 20, section: 'details' },
  country_id: { type: 'reference', required: true, lookup: 'country_list', section: 'details' },
  phone: { type: 'text', maxLength: 50, section: 'details' },
  phone_2: { type: 'text', maxLength: 50, section: 'details' },
  domestic_email: { type: 'email', section: 'details' },
  international_email: { type: 'email', section: 'details' },
  /** Labelled in the interface as the admin email (accounts document §3). */
  fax: { type: 'email', required: true, section: 'details' },
  website_url: { type: 'url', section: 'details' },
  // carrier companies (server.md §9, pricing.md §1, §4)
  adr_surcharge_percent: { type: 'decimal', min: 0, max: 100, section: 'carrier' },
  taillift_fee: { type: 'money', min: 0, max: 100000, section: 'carrier' },
  visitor_price_multiplier: { type: 'decimal', min: 0, max: 10, exclusive: true, section: 'carrier' },
  // 3 end-user information (company role 3); fees and ratios also serve a carrier's visitors
  exp_category_id: { type: 'reference', lookup: 'category_list', section: 'enduser' },
  std_category_id: { type: 'reference', lookup: 'category_list', section: 'enduser' },
  increase_percent: { type: 'decimal', min: 0, max: 100, exclusive: true, section: 'enduser' },
  decrease_percent: { type: 'decimal', min: 0, max: 100, exclusive: true, section: 'enduser' },
  national_admin_fee: { type: 'money', min: 0, max: 100000, section: 'enduser' },
  international_admin_fee: { type: 'money', min: 0, max: 100000, section: 'enduser' },
  combo_cbm_ratio: { type: 'select', options: COMBO_CBM_RATIOS, section: 'enduser' },
  combo_lm_ratio: { type: 'select', options: COMBO_LM_RATIOS, section: 'enduser' },
} satisfies Record<string, CompanyFieldDef>;

export type CompanyField = keyof typeof companyFields;
export const COMPANY_FIELD_NAMES = Object.keys(companyFields) as CompanyField[];

/** Fields only an admin sets; a carrier's company is always an end-user company of its own. */
export const ADMIN_ONLY_COMPANY_FIELDS: CompanyField[] = ['company_role_id', 'carrier_id'];

/** End-user settings: kept only on end-user companies (role 3). */
export const ENDUSER_ONLY_FIELDS: CompanyField[] = ['carrier_id', 'exp_category_id', 'std_category_id', 'increase_percent', 'decrease_percent'];
/** Carrier settings: kept only on carrier and reseller companies. */
export const CARRIER_ONLY_FIELDS: CompanyField[] = ['adr_surcharge_percent', 'taillift_fee', 'visitor_price_multiplier'];
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
