import { defineFields } from '../fields';
import { defineResource, optionKey } from '../resource';

/** The kinds of place: where goods are picked up, delivered, or both (a warehouse that ships and receives). */
export const ADDRESS_KINDS = ['pickup', 'delivery', 'both'] as const;
export type AddressKind = (typeof ADDRESS_KINDS)[number];

/**
 * The address book (issue 34, the product's example of `tenancy: 'company'`): a company's frequent pickup
 * and delivery places. End users and carriers keep their own (each sees and writes only its company's rows;
 * another company's id is 404); admins see every company's, filtered by company, and name the company when
 * they add one. The booking form picks from it and offers to save a new place
 * (src/custom/transportRequests/AddressBookPicker.tsx). A place's name is unique per company (the import
 * matches rows by it). The country is a reference to the countries: answers carry `country_name` beside
 * `country_id`, and a carrier or end user picks it from the public country list (`lookup`), as they may not
 * list the admin's countries. `kind` and `country_id` are list filters (`?kind=pickup`, `?country_id=110`).
 * docs/adding-a-resource.md walks through this file as its second example.
 */
export default defineResource({
  name: 'address-book',
  table: 'address_book',
  api: { admin: '/admin/address_book', carrier: '/company/address_book', enduser: '/enduser/address_book' },
  routes: 'generated',
  tenancy: 'company',
  import: true,
  permissions: {
    admin: ['list', 'show', 'create', 'edit', 'delete'],
    carrier: ['list', 'show', 'create', 'edit', 'delete'],
    enduser: ['list', 'show', 'create', 'edit', 'delete'],
  },
  // At the top level, after the requests: every kind that books or plans a transport reaches it in one click
  // (an end user has no settings group).
  menu: { group: 'root', after: 'transport-requests-visuals' },
  timestamps: true,
  list: { sort: 'name', search: ['name', 'address', 'city', 'postal_code', 'contact'] },
  fields: defineFields({
    // 150 characters: the booking's location name holds at most that much (server/routes/requests/payload.ts).
    name: { type: 'text', required: true, unique: true, maxLength: 150 },
    kind: {
      type: 'select',
      // The options' names are message keys, written below in `optionLabels` for each language.
      options: ADDRESS_KINDS.map((id) => ({ id, name: optionKey('address-book', 'kind', id) })),
      default: 'both',
      filter: true,
    },
    address: { type: 'text', required: true, maxLength: 200 },
    postal_code: { type: 'text', required: true, maxLength: 16 },
    city: { type: 'text', required: true, maxLength: 100 },
    // Two characters, upper case: an Italian province (BO) or a French département (75); no pattern, so abroad fits.
    province: { type: 'text', maxLength: 2, upperCase: true },
    country_id: {
      type: 'reference',
      reference: { resource: 'countries', optionText: 'name', lookup: 'country_list' },
      required: true,
      filter: true,
    },
    contact: { type: 'text', maxLength: 100 },
    phone: { type: 'text', maxLength: 40 },
    email: { type: 'email' },
    opening_hours: { type: 'text', maxLength: 255, list: 'hidden' },
    notes: { type: 'text', maxLength: 1000, multiline: true, list: 'hidden' },
  }),
  fieldLabels: {
    it: {
      name: 'Nome luogo',
      kind: 'Tipo',
      address: 'Indirizzo',
      postal_code: 'CAP',
      city: 'Città',
      province: 'Provincia',
      country_id: 'Paese',
      contact: 'Referente',
      phone: 'Telefono',
      email: 'E-mail',
      opening_hours: 'Orari di apertura',
      notes: 'Note',
    },
    en: {
      name: 'Place name',
      kind: 'Kind',
      address: 'Address',
      postal_code: 'Postal code',
      city: 'City',
      province: 'Province',
      country_id: 'Country',
      contact: 'Contact person',
      phone: 'Phone',
      email: 'E-mail',
      opening_hours: 'Opening hours',
      notes: 'Notes',
    },
    fr: {
      name: 'Nom du lieu',
      kind: 'Type',
      address: 'Adresse',
      postal_code: 'Code postal',
      city: 'Ville',
      province: 'Province',
      country_id: 'Pays',
      contact: 'Contact',
      phone: 'Téléphone',
      email: 'E-mail',
      opening_hours: 'Horaires d’ouverture',
      notes: 'Notes',
    },
  },
  optionLabels: {
    it: { kind: { pickup: 'Ritiro', delivery: 'Consegna', both: 'Ritiro e consegna' } },
    en: { kind: { pickup: 'Pickup', delivery: 'Delivery', both: 'Pickup and delivery' } },
    fr: { kind: { pickup: 'Enlèvement', delivery: 'Livraison', both: 'Enlèvement et livraison' } },
  },
  labels: {
    it: {
      one: 'Luogo della rubrica',
      many: 'Luoghi della rubrica',
      menu: 'Rubrica indirizzi',
      create: 'Nuovo luogo',
      edit: 'Modifica luogo',
      empty: 'Nessun luogo nella rubrica',
      created: 'Luogo salvato nella rubrica',
      updated: 'Luogo aggiornato',
      deleted: 'Luogo eliminato dalla rubrica',
    },
    en: {
      one: 'Address book place',
      many: 'Address book places',
      menu: 'Address book',
      create: 'New place',
      edit: 'Edit place',
      empty: 'No place in the address book',
      created: 'Place saved in the address book',
      updated: 'Place updated',
      deleted: 'Place removed from the address book',
    },
    fr: {
      one: 'Lieu du carnet d’adresses',
      many: 'Lieux du carnet d’adresses',
      menu: 'Carnet d’adresses',
      create: 'Nouveau lieu',
      edit: 'Modifier le lieu',
      empty: 'Aucun lieu dans le carnet d’adresses',
      created: 'Lieu enregistré dans le carnet d’adresses',
      updated: 'Lieu mis à jour',
      deleted: 'Lieu supprimé du carnet d’adresses',
    },
  },
});
