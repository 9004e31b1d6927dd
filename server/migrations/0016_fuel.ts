import type { Kysely } from 'kysely';

/**
 * Fuel surcharge (pricing.md §7): the carrier's fuel plan on its company, and on each transport request
 * the month, diesel price and percent it was priced with, so a later change of the diesel table never
 * changes an existing request. Decimals are exact text, as the other percentages.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const col of ['fuel_base_price', 'fuel_step', 'fuel_step_percent', 'fuel_max_percent']) {
    await db.schema.alterTable('companies').addColumn(col, 'text').execute();
  }
  for (const col of ['fuel_month', 'fuel_price', 'fuel_percent']) {
    await db.schema.alterTable('transport_requests').addColumn(col, 'text').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const col of ['fuel_month', 'fuel_price', 'fuel_percent']) {
    await db.schema.alterTable('transport_requests').dropColumn(col).execute();
  }
  for (const col of ['fuel_base_price', 'fuel_step', 'fuel_step_percent', 'fuel_max_percent']) {
    await db.schema.alterTable('companies').dropColumn(col).execute();
  }
}
