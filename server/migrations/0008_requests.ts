import type { Kysely } from 'kysely';
import { bigintType, withId } from './helpers.js';

/** server.md §5; the same list as model/transportStatuses.ts, fixed here as this migration wrote it. */
const STATUSES = [
  { id: 1, name: 'OP', description: 'Open' },
  { id: 3, name: 'CF', description: 'Confirmed' },
  { id: 4, name: 'RF', description: 'Refused' },
  { id: 5, name: 'IT', description: 'In transit' },
  { id: 6, name: 'DL', description: 'Delivered' },
  { id: 7, name: 'CN', description: 'Cancelled' },
];

/**
 * Transport requests (calculator document §3, server.md §5): the request with its carrier (stored),
 * its shipments, their pickup and delivery addresses, their goods (pallets or units) and the
 * request's documents; the status list; and the statistics cache (server.md §6, §10).
 *
 * Money is integer cents; `cost` null means "to be quoted" (a request entered by hand). Timestamps are
 * ISO-8601 UTC text; `created_on` is the Europe/Rome calendar day of `created_at` (YYYY-MM-DD), kept
 * beside it so statistics group by Rome days and months with plain SQL on both databases.
 * Decimal goods values (weights, sizes, volumes) are exact decimal text.
 *
 * Indexes serve the list filters and the statistics at a million rows: every scope (carrier, end-user
 * company, all) reads its newest rows through an index ending in created_at.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transport_request_statuses')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('transport_request_statuses').values(STATUSES).execute();

  await withId(db, db.schema.createTable('transport_requests'))
    .addColumn('carrier_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('enduser_company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('firstname', 'text')
    .addColumn('lastname', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('visitor_company', 'text')
    .addColumn('transport_request_status_id', 'integer', (c) => c.notNull().defaultTo(1).references('transport_request_statuses.id'))
    .addColumn('cost', 'integer')
    .addColumn('admin_fees', 'integer')
    .addColumn('notes', 'text')
    .addColumn('reason', 'text')
    .addColumn('contact', 'text')
    // The language the request was made in: a visitor's mails are written in it.
    .addColumn('lang', 'text')
    // The quote the request was made from (all null for a request entered by hand).
    .addColumn('zone', 'text')
    .addColumn('service', 'text')
    .addColumn('flow', 'text')
    .addColumn('island', 'text')
    .addColumn('service_class', 'text')
    .addColumn('calculation_ratio', 'text')
    .addColumn('lead_time', 'integer')
    .addColumn('origin_country', 'text')
    .addColumn('origin_postal_code', 'text')
    .addColumn('origin_locality', 'text')
    .addColumn('origin_province', 'text')
    .addColumn('destination_country', 'text')
    .addColumn('destination_postal_code', 'text')
    .addColumn('destination_locality', 'text')
    .addColumn('destination_province', 'text')
    .addColumn('priced_on', 'text')
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  const idx = (name: string, columns: string[]) => db.schema.createIndex(name).on('transport_requests').columns(columns).execute();
  await idx('transport_requests_created', ['created_at', 'id']);
  await idx('transport_requests_carrier_created', ['carrier_id', 'created_at', 'id']);
  await idx('transport_requests_carrier_status_created', ['carrier_id', 'transport_request_status_id', 'created_at', 'id']);
  await idx('transport_requests_enduser_created', ['enduser_company_id', 'created_at', 'id']);
  await idx('transport_requests_enduser_status_created', ['enduser_company_id', 'transport_request_status_id', 'created_at', 'id']);
  await idx('transport_requests_status_created', ['transport_request_status_id', 'created_at', 'id']);
  await idx('transport_requests_user', ['user_id']);

  await withId(db, db.schema.createTable('shipments'))
    .addColumn('transport_request_id', 'integer', (c) => c.notNull().references('transport_requests.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('transport_request_type_id', 'integer', (c) => c.notNull())
    .addColumn('transport_class', 'text')
    .addColumn('shipper_reference', 'text', (c) => c.notNull())
    .addColumn('consignee_reference', 'text')
    .addColumn('adr', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tail_lift', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pickup_date', 'text')
    .addColumn('pickup_time_from', 'text')
    .addColumn('pickup_time_to', 'text')
    .addColumn('pickup_notes', 'text')
    .addColumn('delivery_date', 'text')
    .addColumn('delivery_time_from', 'text')
    .addColumn('delivery_time_to', 'text')
    .addColumn('delivery_notes', 'text')
    .execute();
  await db.schema.createIndex('shipments_request').on('shipments').columns(['transport_request_id', 'position']).execute();

  await withId(db, db.schema.createTable('shipment_addresses'))
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull()) // pickup | delivery
    .addColumn('location_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('province', 'text')
    .addColumn('country_id', 'integer', (c) => c.notNull().references('countries.id'))
    .execute();
  await db.schema.createIndex('shipment_addresses_shipment').on('shipment_addresses').columns(['shipment_id', 'kind']).unique().execute();

  await withId(db, db.schema.createTable('shipment_details'))
    .addColumn('shipment_id', 'integer', (c) => c.notNull().references('shipments.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('shipment_type_id', 'integer', (c) => c.notNull()) // 1 pallet, 2 units
    .addColumn('pallet_weight', 'text')
    .addColumn('pallet_width', 'text')
    .addColumn('pallet_length', 'text')
    .addColumn('pallet_height', 'text')
    .addColumn('pallet_type', 'text')
    .addColumn('total_units', 'integer')
    .addColumn('gross_weight', 'text')
    .addColumn('volume', 'text')
    .addColumn('volume_type', 'text')
    .execute();
  await db.schema.createIndex('shipment_details_shipment').on('shipment_details').columns(['shipment_id', 'position']).execute();

  // document_type_id names a row of document_types (reference data); checked by the routes, no
  // foreign key so this migration does not depend on the order the reference tables were added in.
  await withId(db, db.schema.createTable('transport_request_documents'))
    .addColumn('transport_request_id', 'integer', (c) => c.notNull().references('transport_requests.id').onDelete('cascade'))
    .addColumn('document_type_id', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('stored_name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transport_request_documents_request').on('transport_request_documents').column('transport_request_id').execute();

  // Statistics per scope ('admin', 'carrier:<id>', 'enduser:<id>'), shared by every server process.
  await db.schema
    .createTable('statistics_cache')
    .addColumn('scope', 'text', (c) => c.primaryKey())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('computed_at', bigintType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'statistics_cache',
    'transport_request_documents',
    'shipment_details',
    'shipment_addresses',
    'shipments',
    'transport_requests',
    'transport_request_statuses',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
