import type { ResourceDecl } from './resource';
import countries from './resources/countries';
import currencies from './resources/currencies';
import documentTypes from './resources/document-types';
import shipmentTypes from './resources/shipment-types';
import transportClasses from './resources/transport-classes';
import dieselPrices from './resources/diesel-prices';
import addressBook from './resources/address-book';
import companies from './resources/companies';
import users from './resources/users';
import accessRequests from './resources/access-requests';
import auditLog from './resources/auditLog';
import { enduserRateSheetsResource, rateSheetsResource, tariffResource } from './resources/tariffs';
import { TARIFF_TABLES } from './tariffs';

/**
 * Every declared resource, one line each (model/resource.ts says what a declaration drives). The
 * server builds the routes of the `generated` ones, the browser their screens; the permission table,
 * the menu and the security sweep read this list.
 */
export const RESOURCES = [
  countries,
  currencies,
  documentTypes,
  shipmentTypes,
  transportClasses,
  // The tariff screens (hand-written routes, rows of a carrier): the rate sheets come before the diesel
  // prices, which the sidebar places after them; the six tables are one declaration over their schema.
  rateSheetsResource,
  dieselPrices,
  ...TARIFF_TABLES.map(tariffResource),
  companies,
  users,
  accessRequests,
  enduserRateSheetsResource,
  auditLog,
  addressBook,
] as const satisfies readonly ResourceDecl<any, any, any, any>[];

export type DeclaredResource = (typeof RESOURCES)[number];

export const resourceByName = (name: string): ResourceDecl | undefined => RESOURCES.find((r) => r.name === name);
