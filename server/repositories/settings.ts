import type { Db } from '../db/index.js';

/**
 * Portal settings (server.md §9): `visitor_company_id` (the carrier that prices visitor quotes) and the
 * downloadable template files, one per template link key of the calculator document §3. A template
 * setting's value is `{"file": "<stored name>", "name": "<original name>"}`.
 */
export const TEMPLATE_KEYS = [
  'cs_express_hub_costs',
  'cs_express_island_zones',
  'cs_express_hub_codes',
  'cs_express_special_zones',
  'standard_special_zones',
  'standard_no_passage',
  'express_rate_sheet',
  'standard_rate_sheet',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];
export const templateSetting = (key: TemplateKey) => `template_${key}`;
export const VISITOR_COMPANY = 'visitor_company_id';

export interface StoredTemplate {
  file: string;
  name: string;
}

export function parseTemplate(value: string | null | undefined): StoredTemplate | null {
  if (!value) return null;
  try {
    const v = JSON.parse(value);
    return typeof v?.file === 'string' && typeof v?.name === 'string' ? v : null;
  } catch {
    return null;
  }
}

export function settingsRepo(db: Db) {
  return {
    async get(key: string): Promise<string | null> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value ?? null;
    },
    async all(): Promise<Record<string, string | null>> {
      const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
      return Object.fromEntries(rows.map((r) => [r.key, r.value]));
    },
    async set(key: string, value: string | null, isPublic = true) {
      await db
        .insertInto('settings')
        .values({ key, value, public: isPublic ? 1 : 0 })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, public: isPublic ? 1 : 0 }))
        .execute();
    },
    /** The visitor carrier's id, or null when unset or not a number. */
    async visitorCompanyId(): Promise<number | null> {
      const v = Number(await this.get(VISITOR_COMPANY));
      return Number.isInteger(v) && v > 0 ? v : null;
    },
  };
}
