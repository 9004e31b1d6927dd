import type { FastifyInstance } from 'fastify';
import { kindsFor } from '../../../model/permissions.js';
import { crudRoutes } from '../../lib/crud.js';
import { currencyFields } from '../../../model/resources/currencies.js';
import { countryFields } from '../../../model/resources/countries.js';
import { documentTypeFields } from '../../../model/resources/document-types.js';
import { shipmentTypeFields } from '../../../model/resources/shipment-types.js';
import { transportClassFields } from '../../../model/resources/transport-classes.js';

/** The document's `created` column is the stored `created_at`. */
const withCreated = (r: Record<string, unknown>) => ({ ...r, created: r.created_at });

/**
 * Admin reference data (accounts document §7): list with page (per_page, sort, order, q), show, store,
 * update for currencies, document types, shipment types, countries and transport classes.
 */
export default async function referenceDataRoutes(app: FastifyInstance) {
  const policies = (screen: string) => ({ read: kindsFor(screen, 'list'), write: kindsFor(screen, 'create') });
  crudRoutes(app, {
    path: '/admin/currencies', table: 'currencies', fields: currencyFields, ...policies('currencies'), tag: 'admin reference data',
    sortable: ['name', 'code_alpha', 'symbol', 'active', 'id', 'created_at'], search: ['name', 'code_alpha'], timestamps: true,
    messages: { created: 'reference.currencyCreated', updated: 'reference.currencyUpdated' },
  });
  crudRoutes(app, {
    path: '/admin/countries', table: 'countries', fields: countryFields, ...policies('countries'), tag: 'admin reference data',
    sortable: ['name', 'code_alpha', 'symbol', 'active', 'id', 'en', 'it', 'iso_alpha_2', 'iso_alpha_3', 'un_code', 'created_at'],
    search: ['name', 'code_alpha', 'it', 'en'], timestamps: true,
    messages: { created: 'reference.countryCreated', updated: 'reference.countryUpdated' },
  });
  crudRoutes(app, {
    path: '/admin/document_types', table: 'document_types', fields: documentTypeFields, ...policies('document-types'), tag: 'admin reference data',
    sortable: ['name', 'description', 'active', 'id', 'created_at'], search: ['name', 'description'], timestamps: true, present: withCreated,
    messages: { created: 'reference.documentTypeCreated', updated: 'reference.documentTypeUpdated' },
  });
  crudRoutes(app, {
    path: '/admin/shipment_types', table: 'shipment_types', fields: shipmentTypeFields, ...policies('shipment-types'), tag: 'admin reference data',
    sortable: ['name', 'id', 'created_at'], search: ['name'], timestamps: true, present: withCreated,
    messages: { created: 'reference.shipmentTypeCreated', updated: 'reference.shipmentTypeUpdated' },
  });
  crudRoutes(app, {
    path: '/admin/transport_class', table: 'transport_classes', fields: transportClassFields, ...policies('transport-classes'), tag: 'admin reference data',
    sortable: ['name', 'id', 'created_at'], search: ['name'], timestamps: true, present: withCreated,
    messages: { created: 'reference.transportClassCreated', updated: 'reference.transportClassUpdated' },
  });
}
