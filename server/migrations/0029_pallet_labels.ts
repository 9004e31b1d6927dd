import type { Kysely } from 'kysely';

/**
 * Pallet labels (issue 36 item 3, docs/pallet-labels.md):
 * - `label_settings`: a carrier's GS1 company prefix (7–10 digits, one company per prefix: GS1 assigns a prefix
 *   to one company) and the last serial it gave an SSCC (one counter per carrier, advanced in the transaction
 *   that stores the SSCCs; it keeps counting when the prefix changes, so no number is ever made twice). No row:
 *   no prefix, no labels.
 * - `shipment_details.sscc`: a pallet's SSCC (18 digits), set at the first print of its labels and kept; unique
 *   over the whole table (the last guard against two pallets sharing a number).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('label_settings')
    .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('gs1_company_prefix', 'text', (c) => c.notNull())
    .addColumn('last_serial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('label_settings_prefix').on('label_settings').column('gs1_company_prefix').unique().execute();

  await db.schema.alterTable('shipment_details').addColumn('sscc', 'text').execute();
  await db.schema.createIndex('shipment_details_sscc').on('shipment_details').column('sscc').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('shipment_details_sscc').ifExists().execute();
  await db.schema.alterTable('shipment_details').dropColumn('sscc').execute();
  await db.schema.dropTable('label_settings').ifExists().execute();
}
