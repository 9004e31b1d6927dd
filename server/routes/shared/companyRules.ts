import type { Db } from '../../db/index.js';
import type { FieldErrors } from '../../lib/errors.js';
import { DECIMAL_RE, normalDecimal } from '../../lib/declaredBodies.js';
import { compareDecimal, toCentsOrNull } from '../../pricing/money.js';
import { companiesRepo } from '../../repositories/companies.js';
import {
  COMPANY_FIELD_NAMES,
  COMPANY_MONEY_FIELDS,
  companyFieldApplies,
  companyFields,
  requiredCompanyFields,
  isCarrierLike,
  isEnduserCompany,
  type CompanyField,
  type CompanyFieldDef,
} from '../../../model/companies.js';

/** A company's fields as the wire carries them (money in euros, percentages as decimal text). */
export type CompanyInput = Partial<Record<CompanyField, unknown>>;

const add = (errors: FieldErrors, field: string, key: string, params: Record<string, unknown> = {}) => {
  (errors[field] ??= []).push({ key, params: { field, ...params } });
};

/** Messages of the two percentage rules are the document's own (accounts document §5). */
const RANGE_KEYS: Partial<Record<CompanyField, string>> = {
  increase_percent: 'companies.increaseRange',
  decrease_percent: 'companies.decreaseRange',
};

/**
 * Checks a whole company record (the stored one with the changes merged in) and answers the field
 * errors: required fields by role, references that must exist, the carrier, the categories of that
 * carrier, and the bounds of the decimal fields. Fields that do not apply to the role are set to null.
 */
export async function checkCompany(db: Db, rec: CompanyInput, update?: { selfId: number; sent: string[] }): Promise<FieldErrors> {
  const selfId = update?.selfId;
  const repo = companiesRepo(db);
  const errors: FieldErrors = {};
  const role = Number(rec.company_role_id);

  for (const f of COMPANY_FIELD_NAMES) if (!companyFieldApplies(f, role)) rec[f] = null;

  // On update a required field may not be blanked; one the stored record never had (a company made from an
  // access request has no price category) is asked for only when sent. An end-user company always needs its carrier.
  const required = requiredCompanyFields(role).filter((f) => !update || update.sent.includes(f) || f === 'carrier_id');
  for (const f of required) {
    if (rec[f] === null || rec[f] === undefined || rec[f] === '') add(errors, f, 'validation.required');
  }

  for (const [f, table] of [
    ['price_category_id', 'price_categories'],
    ['language_id', 'languages'],
    ['country_id', 'countries'],
  ] as const) {
    if (rec[f] != null && !(await repo.exists(table, Number(rec[f])))) add(errors, f, 'validation.exists');
  }

  if (isEnduserCompany(role) && rec.carrier_id != null) {
    const carrier = await repo.raw(Number(rec.carrier_id));
    if (!carrier || !isCarrierLike(carrier.company_role_id) || carrier.id === selfId) add(errors, 'carrier_id', 'companies.carrierInvalid');
    for (const [f, rateType] of [
      ['exp_category_id', 'EXP'],
      ['std_category_id', 'STD'],
    ] as const) {
      if (rec[f] == null) continue;
      const cat = await repo.category(Number(rec[f]));
      if (!cat || cat.company_id !== Number(rec.carrier_id) || cat.rate_type !== rateType) {
        add(errors, f, 'companies.categoryInvalid', { rateType });
      }
    }
  }

  for (const f of COMPANY_FIELD_NAMES) {
    const def = companyFields[f] as CompanyFieldDef;
    const v = rec[f];
    if (def.type !== 'decimal' || v === null || v === undefined) continue;
    if (typeof v !== 'string' || !DECIMAL_RE.test(v)) {
      add(errors, f, 'validation.pattern');
      continue;
    }
    const low = compareDecimal(v, def.min ?? 0);
    const high = compareDecimal(v, def.max ?? 0);
    const outside = def.exclusive ? low <= 0 || high >= 0 : low < 0 || high > 0;
    if (outside)
      add(errors, f, RANGE_KEYS[f] ?? (def.exclusive ? 'companies.decimalRangeExclusive' : 'companies.decimalRange'), { min: def.min, max: def.max });
    else rec[f] = normalDecimal(v);
  }

  return errors;
}

/** The database values of a checked record: money in cents, everything else as it is. */
export function companyColumns(rec: CompanyInput) {
  const out: Record<string, unknown> = {};
  for (const f of COMPANY_FIELD_NAMES) {
    if (f === 'site_header_logo' || !(f in rec)) continue;
    const v = rec[f];
    out[f] = COMPANY_MONEY_FIELDS.includes(f) ? toCentsOrNull(v as number | null) : (v ?? null);
  }
  return out;
}

/** A stored company back in wire units, to merge an update into. */
export function companyInputOf(row: Record<string, unknown>): CompanyInput {
  const out: CompanyInput = {};
  for (const f of COMPANY_FIELD_NAMES) {
    if (f === 'site_header_logo') continue;
    out[f] = row[f] ?? null;
  }
  return out;
}
