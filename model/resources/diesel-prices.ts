import { defineFields } from '../fields';
import { defineResource } from '../resource';

/**
 * Diesel reference prices (pricing.md §7): one price a month, € per litre with up to 3 decimals, > 0,
 * and a note naming the source (e.g. the ministry's monthly value). Admins write; carriers read (their
 * fuel surcharge follows it). The month is unique.
 */
export default defineResource({
  name: 'diesel-prices',
  table: 'diesel_prices',
  api: { admin: '/admin/diesel_prices', carrier: '/company/diesel_prices' },
  routes: 'generated',
  tenancy: 'global',
  permissions: { admin: ['list', 'show', 'create', 'edit'], carrier: ['list', 'show'] },
  menu: { group: 'price-manager', after: 'rate-sheets' },
  timestamps: true,
  list: { sort: 'month', order: 'DESC', search: ['month', 'note'] },
  fields: defineFields({
    month: { type: 'month', required: true, unique: true },
    price: { type: 'decimal', required: true, scale: 3, min: 0, max: 100, exclusive: true },
    note: { type: 'text', maxLength: 255, multiline: true },
  }),
  fieldLabels: {
    it: { month: 'Mese', price: 'Prezzo gasolio (€/l)', note: 'Fonte / nota' },
    en: { month: 'Month', price: 'Diesel price (€/l)', note: 'Source / note' },
    fr: { month: 'Mois', price: 'Prix du gazole (€/l)', note: 'Source / note' },
  },
  labels: {
    it: {
      one: 'Prezzo del gasolio',
      many: 'Prezzi del gasolio',
      create: 'Nuovo prezzo del gasolio',
      edit: 'Modifica prezzo del gasolio',
      empty: 'Nessun prezzo del gasolio',
      created: 'Prezzo del gasolio salvato',
      updated: 'Prezzo del gasolio aggiornato',
    },
    en: {
      one: 'Diesel price',
      many: 'Diesel prices',
      create: 'New diesel price',
      edit: 'Edit diesel price',
      empty: 'No diesel price',
      created: 'Diesel price saved',
      updated: 'Diesel price updated',
    },
    fr: {
      one: 'Prix du gazole',
      many: 'Prix du gazole',
      create: 'Nouveau prix du gazole',
      edit: 'Modifier le prix du gazole',
      empty: 'Aucun prix du gazole',
      created: 'Prix du gazole enregistré',
      updated: 'Prix du gazole mis à jour',
    },
  },
});
