import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the rows one quote reads (pricing.md §2–3; server/repositories/pricingData.ts): hub
 * codes by code, hub costs by hub, island zones by island, and the location tables (express special
 * zones, standard special zones, no-passage) by postal code and by province. Every index starts with
 * company_id: tariff data is always read for one carrier. Names and provinces are compared without
 * case, so those indexes are on upper(...), written identically in the queries (both databases use an
 * expression index only when the query spells the same expression).
 */
const INDEXES: Array<[name: string, table: string, columns: string]> = [
  ['express_hub_codes_code', 'express_hub_codes', 'company_id, code'],
  ['express_hub_costs_code', 'express_hub_costs', 'company_id, upper(code)'],
  ['express_island_zones_island', 'express_island_zones', 'company_id, upper(island)'],
  ['express_special_zones_postal', 'express_special_zones', 'company_id, postal_code'],
  ['express_special_zones_province', 'express_special_zones', 'company_id, upper(province)'],
  ['standard_special_zones_postal', 'standard_special_zones', 'company_id, postal_code'],
  ['standard_special_zones_province', 'standard_special_zones', 'company_id, upper(province)'],
  ['standard_no_passage_postal', 'standard_no_passage', 'company_id, postal_code'],
  ['standard_no_passage_province', 'standard_no_passage', 'company_id, upper(province)'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await sql`create index if not exists ${sql.id(name)} on ${sql.id(table)} (${sql.raw(columns)})`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
