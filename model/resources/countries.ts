import { defineFields } from '../fields';
import { defineResource } from '../resource';

/**
 * Country (accounts document §3): the admin list's name, code_alpha, symbol, active (default '0'), and
 * the company-area modal's names in five languages and ISO codes, edited in the same modal (hidden
 * columns the user can show). code_alpha is the country's own code (the seed uses ISO alpha-2), unique.
 */
export default defineResource({
  name: 'countries',
  table: 'countries',
  api: { admin: '/admin/countries' },
  routes: 'generated',
  tenancy: 'global',
  permissions: { admin: ['list', 'show', 'create', 'edit'] },
  menu: { group: 'settings-group' },
  timestamps: true,
  list: {
    sort: 'name',
    search: ['name', 'code_alpha', 'it', 'en'],
    sortable: ['name', 'code_alpha', 'symbol', 'active', 'id', 'en', 'it', 'iso_alpha_2', 'iso_alpha_3', 'un_code', 'created_at'],
  },
  fields: defineFields({
    name: { type: 'text', required: true, maxLength: 100 },
    code_alpha: { type: 'text', required: true, pattern: '^[A-Z]{2,3}$', maxLength: 3, upperCase: true, unique: true },
    symbol: { type: 'text', maxLength: 8 },
    active: { type: 'flag', default: '0' },
    de: { type: 'text', maxLength: 100, list: 'hidden' },
    en: { type: 'text', maxLength: 100, list: 'hidden' },
    es: { type: 'text', maxLength: 100, list: 'hidden' },
    fr: { type: 'text', maxLength: 100, list: 'hidden' },
    it: { type: 'text', maxLength: 100, list: 'hidden' },
    iso_alpha_2: { type: 'text', pattern: '^[A-Z]{2}$', maxLength: 2, upperCase: true, list: 'hidden' },
    iso_alpha_3: { type: 'text', pattern: '^[A-Z]{3}$', maxLength: 3, upperCase: true, list: 'hidden' },
    un_code: { type: 'text', pattern: '^[0-9]{3}$', maxLength: 3, list: 'hidden' },
  }),
  fieldLabels: {
    it: {
      name: 'Nome', code_alpha: 'Codice', symbol: 'Simbolo', active: 'Attivo', de: 'Nome tedesco (de)', en: 'Nome inglese (en)',
      es: 'Nome spagnolo (es)', fr: 'Nome francese (fr)', it: 'Nome italiano (it)', iso_alpha_2: 'ISO alfa-2', iso_alpha_3: 'ISO alfa-3', un_code: 'Codice ONU',
    },
    en: {
      name: 'Name', code_alpha: 'Code', symbol: 'Symbol', active: 'Active', de: 'German name (de)', en: 'English name (en)',
      es: 'Spanish name (es)', fr: 'French name (fr)', it: 'Italian name (it)', iso_alpha_2: 'ISO alpha-2', iso_alpha_3: 'ISO alpha-3', un_code: 'UN code',
    },
    fr: {
      name: 'Nom', code_alpha: 'Code', symbol: 'Symbole', active: 'Actif', de: 'Nom allemand (de)', en: 'Nom anglais (en)',
      es: 'Nom espagnol (es)', fr: 'Nom français (fr)', it: 'Nom italien (it)', iso_alpha_2: 'ISO alpha-2', iso_alpha_3: 'ISO alpha-3', un_code: 'Code ONU',
    },
  },
  labels: {
    it: { one: 'Paese', many: 'Paesi', create: 'Nuovo paese', edit: 'Modifica paese', empty: 'Nessun paese', created: 'Paese creato con successo', updated: 'Paese aggiornato con successo' },
    en: { one: 'Country', many: 'Countries', create: 'New country', edit: 'Edit country', empty: 'no country', created: 'Country created successfully', updated: 'Country updated successfully' },
    fr: { one: 'Pays', many: 'Pays', create: 'Nouveau pays', edit: 'Modifier le pays', empty: 'Aucun pays', created: 'Pays créé avec succès', updated: 'Pays mis à jour avec succès' },
  },
});
