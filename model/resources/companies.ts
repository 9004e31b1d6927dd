import { companyFields } from '../companies';
import { defineResource } from '../resource';

/**
 * Companies (accounts document §2–§7, server.md §2): the fields, their rules by company role and the
 * create steps are in model/companies.ts. Hand-written routes (server/routes/shared/companies.ts: tenancy,
 * role rules, logos, changeStatus) and screens (src/resources/companies: the three-step create, the
 * detail, the edit modal) — the declaration gives the paths, permissions, menu place and labels.
 */
export default defineResource({
  name: 'companies',
  table: 'companies',
  api: { admin: '/admin/companies', carrier: '/company/companies' },
  routes: 'custom',
  tenancy: 'custom',
  permissions: { admin: ['list', 'show', 'create', 'edit', 'delete'], carrier: ['list', 'show', 'create', 'edit', 'delete'] },
  menu: { group: 'root', after: 'settings-group' },
  timestamps: true,
  fields: companyFields,
  fieldLabels: {
    it: {
      company_role_id: 'Ruolo', carrier_id: 'Vettore', price_category_id: 'Categoria di prezzo', language_id: 'Lingua', type: 'Tipo', is_inbound: 'Inbound',
      site_header_logo: 'Logo', legal_name: 'Ragione sociale', address: 'Indirizzo', address_2: 'Indirizzo (riga 2)', city: 'Città', province: 'Provincia',
      postal_code: 'CAP', country_id: 'Paese', phone: 'Telefono', phone_2: 'Telefono 2', domestic_email: 'Email nazionale', international_email: 'Email internazionale',
      fax: 'Email amministrazione', website_url: 'Sito web', adr_surcharge_percent: 'Supplemento ADR (%)', taillift_fee: 'Costo sponda idraulica',
      visitor_price_multiplier: 'Moltiplicatore prezzi visitatori', exp_category_id: 'Categoria express', std_category_id: 'Categoria standard',
      increase_percent: 'Aumento (%)', decrease_percent: 'Sconto (%)', national_admin_fee: 'Diritti amministrativi nazionali',
      international_admin_fee: 'Diritti amministrativi internazionali', combo_cbm_ratio: 'Rapporto CBM', combo_lm_ratio: 'Rapporto LM',
    },
    en: {
      company_role_id: 'Role', carrier_id: 'Carrier', price_category_id: 'Price category', language_id: 'Language', type: 'Type', is_inbound: 'Inbound',
      site_header_logo: 'Logo', legal_name: 'Legal name', address: 'Address', address_2: 'Address (line 2)', city: 'City', province: 'Province',
      postal_code: 'Postal code', country_id: 'Country', phone: 'Phone', phone_2: 'Phone 2', domestic_email: 'Domestic email', international_email: 'International email',
      fax: 'Admin email', website_url: 'Website', adr_surcharge_percent: 'ADR surcharge (%)', taillift_fee: 'Tail-lift fee',
      visitor_price_multiplier: 'Visitor price multiplier', exp_category_id: 'Express category', std_category_id: 'Standard category',
      increase_percent: 'Increase (%)', decrease_percent: 'Decrease (%)', national_admin_fee: 'National admin fee',
      international_admin_fee: 'International admin fee', combo_cbm_ratio: 'CBM ratio', combo_lm_ratio: 'LM ratio',
    },
    fr: {
      company_role_id: 'Rôle', carrier_id: 'Transporteur', price_category_id: 'Catégorie de prix', language_id: 'Langue', type: 'Type', is_inbound: 'Entrant',
      site_header_logo: 'Logo', legal_name: 'Raison sociale', address: 'Adresse', address_2: 'Adresse (ligne 2)', city: 'Ville', province: 'Province',
      postal_code: 'Code postal', country_id: 'Pays', phone: 'Téléphone', phone_2: 'Téléphone 2', domestic_email: 'E-mail national', international_email: 'E-mail international',
      fax: 'E-mail administration', website_url: 'Site web', adr_surcharge_percent: 'Supplément ADR (%)', taillift_fee: 'Frais de hayon',
      visitor_price_multiplier: 'Multiplicateur des prix visiteurs', exp_category_id: 'Catégorie express', std_category_id: 'Catégorie standard',
      increase_percent: 'Augmentation (%)', decrease_percent: 'Réduction (%)', national_admin_fee: 'Frais administratifs nationaux',
      international_admin_fee: 'Frais administratifs internationaux', combo_cbm_ratio: 'Rapport CBM', combo_lm_ratio: 'Rapport LM',
    },
  },
  labels: {
    it: { one: 'Azienda', many: 'Aziende', create: 'Nuova azienda', edit: 'Modifica azienda', empty: 'Nessuna azienda' },
    en: { one: 'Company', many: 'Companies', create: 'New company', edit: 'Edit company', empty: 'No companies' },
    fr: { one: 'Entreprise', many: 'Entreprises', create: 'Nouvelle entreprise', edit: 'Modifier l’entreprise', empty: 'Aucune entreprise' },
  },
});
