import { PASSWORD_RULE, defineFields, type FieldDef } from './fields';
import { COMPANY_ROLE, SUPPORT_ROLES, USER_ROLE, USER_ROLES_FOR_COMPANY_ROLE } from './roles';

/**
 * Users' fields, declared once with the shared field helper (model/fields.ts) for the server's
 * body schemas and the browser's inputs (accounts document §3 User, §5; server.md §3). `section` is
 * the create step holding the field. Company and role are required of an admin, the passwords on
 * create: `requiredUserFields`. Shared by the browser and the server: no imports from either side.
 */
export type UserSectionName = 'settings' | 'information' | 'notes';
export type UserFieldDef = FieldDef & { section: UserSectionName };

/** server.md §3: at least 8 characters with letters and digits, at most 128. */
export const USER_PASSWORD_RULE = PASSWORD_RULE;
export const passwordFits = (p: string) =>
  p.length >= USER_PASSWORD_RULE.minLength && p.length <= USER_PASSWORD_RULE.maxLength && /[A-Za-z]/.test(p) && /[0-9]/.test(p);

export const userFields = defineFields({
  // 1 settings
  role_id: { type: 'select', options: Object.values(USER_ROLE), section: 'settings' },
  company_id: { type: 'reference', reference: { resource: 'companies', optionText: 'legal_name' }, section: 'settings' },
  language_id: {
    type: 'reference',
    required: true,
    reference: { resource: 'languages_list', optionText: 'en', lookup: 'languages_list' },
    section: 'settings',
  },
  support_role_id: { type: 'select', options: Object.keys(SUPPORT_ROLES).map(Number), section: 'settings' },
  // 2 user information
  title: { type: 'text', required: true, maxLength: 50, section: 'information' },
  first_name: { type: 'text', required: true, maxLength: 100, section: 'information' },
  last_name: { type: 'text', required: true, maxLength: 100, section: 'information' },
  address: { type: 'text', required: true, section: 'information' },
  city: { type: 'text', required: true, maxLength: 100, section: 'information' },
  postal_code: { type: 'text', required: true, maxLength: 20, section: 'information' },
  country_id: { type: 'reference', required: true, reference: { resource: 'country_list', optionText: 'en', lookup: 'country_list' }, section: 'information' },
  phone: { type: 'text', maxLength: 50, section: 'information' },
  phone_2: { type: 'text', maxLength: 50, section: 'information' },
  email: { type: 'email', required: true, unique: true, section: 'information' },
  password: { type: 'password', section: 'information' },
  password_confirmation: { type: 'password', section: 'information' },
  support_email: { type: 'email', section: 'information' },
  support_skype: { type: 'text', maxLength: 100, section: 'information' },
  // 3 notes
  notes: { type: 'text', maxLength: 5000, multiline: true, section: 'notes' },
} satisfies Record<string, UserFieldDef>);

export type UserField = keyof typeof userFields;
export const USER_FIELD_NAMES = Object.keys(userFields) as UserField[];

/**
 * Fields required when creating a user; an admin also names the company and the role. The password is not
 * (issue 35 item 9): without one the new user gets a link by mail to choose it; with one, its confirmation
 * must match.
 */
export function requiredUserFields(forAdmin: boolean): UserField[] {
  const base = USER_FIELD_NAMES.filter((k) => (userFields[k] as UserFieldDef).required);
  return [...(forAdmin ? (['company_id', 'role_id'] as UserField[]) : []), ...base];
}

/**
 * The roles a carrier-kind user may give (server.md §2): Carrier Users and Support in its own company,
 * Enduser in its end-user companies.
 */
export function rolesACarrierAssigns(companyIsOwn: boolean): number[] {
  return companyIsOwn ? [USER_ROLE.CARRIER_USERS, USER_ROLE.SUPPORT] : [USER_ROLE.ENDUSER];
}

/** The roles that fit a company of the given role. */
export const rolesForCompanyRole = (companyRole: number | null | undefined): number[] => USER_ROLES_FOR_COMPANY_ROLE[Number(companyRole)] ?? [];

/** Phone numbers are kept without spaces (accounts document §5: spaces are stripped when editing). */
export const stripPhone = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v);

export { COMPANY_ROLE, USER_ROLE };
