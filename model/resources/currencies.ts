import { defineFields } from '../fields';
import { defineResource } from '../resource';

/** Currency (accounts document §3, §7): name, code_alpha (unique), symbol, active (default '0'); admins only. */
export default defineResource({
  name: 'currencies',
  table: 'currencies',
  api: { admin: '/admin/currencies' },
  routes: 'generated',
  tenancy: 'global',
  permissions: { admin: ['list', 'show', 'create', 'edit'] },
  menu: { group: 'settings-group', after: 'countries' },
  timestamps: true,
  list: { sort: 'name', search: ['name', 'code_alpha'] },
  fields: defineFields({
    name: { type: 'text', required: true, maxLength: 100 },
    code_alpha: { type: 'text', required: true, pattern: '^[A-Z]{3}$', maxLength: 3, upperCase: true, unique: true },
    symbol: { type: 'text', maxLength: 8 },
    active: { type: 'flag', default: '0' },
  }),
  fieldLabels: {
    it: { name: 'Nome', code_alpha: 'Codice', symbol: 'Simbolo', active: 'Attiva' },
    en: { name: 'Name', code_alpha: 'Code', symbol: 'Symbol', active: 'Active' },
    fr: { name: 'Nom', code_alpha: 'Code', symbol: 'Symbole', active: 'Active' },
  },
  labels: {
    it: {
      one: 'Valuta',
      many: 'Valute',
      create: 'Nuova valuta',
      edit: 'Modifica valuta',
      empty: 'Nessuna valuta',
      created: 'Valuta creata con successo',
      updated: 'Valuta aggiornata con successo',
    },
    en: {
      one: 'Currency',
      many: 'Currencies',
      create: 'New currency',
      edit: 'Edit currency',
      empty: 'No currency',
      created: 'Currency created successfully',
      updated: 'Currency updated successfully',
    },
    fr: {
      one: 'Devise',
      many: 'Devises',
      create: 'Nouvelle devise',
      edit: 'Modifier la devise',
      empty: 'Aucune devise',
      created: 'Devise créée avec succès',
      updated: 'Devise mise à jour avec succès',
    },
  },
});
