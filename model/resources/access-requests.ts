import { defineFields } from '../fields';
import { defineResource } from '../resource';

/**
 * Access requests (accounts document §3 "Carrier access request"; calculator document "Access
 * requests"; server.md §4): the public form's fields, reviewed on /request-access. Hand-written routes
 * (server/routes/visitor/accessRequest.ts, server/routes/company/requestAccess.ts: the invitation link's
 * carrier, confirm and refuse) and screen (src/resources/request-access). Both kinds call the company
 * paths (calculator document §6); the sidebar shows the entry to carriers, as the documents' table does.
 */
export default defineResource({
  name: 'request-access',
  table: 'access_requests',
  api: { admin: '/company/request_access', carrier: '/company/request_access' },
  routes: 'custom',
  tenancy: 'custom',
  permissions: { admin: ['list', 'edit'], carrier: ['list', 'edit'] },
  menu: { group: 'root', after: 'user-management', kinds: ['carrier'] },
  timestamps: true,
  fields: defineFields({
    carrier_name: { type: 'text', required: true, maxLength: 200 },
    carrier_email: { type: 'email', required: true },
    carrier_phone: { type: 'text', required: true, maxLength: 40 },
    carrier_city: { type: 'text', required: true, maxLength: 100 },
    carrier_country_id: { type: 'reference', required: true, reference: { resource: 'country_list', optionText: 'en', lookup: 'country_list' } },
    carrier_language_id: { type: 'reference', required: true, reference: { resource: 'languages_list', optionText: 'en', lookup: 'languages_list' } },
    carrier_postal_code: { type: 'text', required: true, maxLength: 20 },
    carrier_province: { type: 'text', required: true, maxLength: 100 },
    carrier_website_url: { type: 'text', required: true, maxLength: 255 },
    carrier_address: { type: 'text', required: true, maxLength: 255 },
    carrier_logo: { type: 'image', maxSize: 5 * 1024 * 1024, list: false },
    user_first_name: { type: 'text', required: true, maxLength: 100 },
    user_last_name: { type: 'text', required: true, maxLength: 100 },
    user_email: { type: 'email', required: true },
    user_phone: { type: 'text', required: true, maxLength: 40 },
    user_password: { type: 'password', required: true },
    user_password_confirmation: { type: 'password', required: true },
    carrier_id: { type: 'reference', reference: { resource: 'carriers_list', optionText: 'legal_name', lookup: 'carriers_list' }, list: false },
    status: { type: 'select', options: ['OP', 'CF', 'RF'], default: 'OP', readOnly: true },
  }),
  fieldLabels: {
    it: {
      carrier_name: 'Azienda', carrier_email: 'Email azienda', carrier_phone: 'Telefono azienda', carrier_city: 'Città', carrier_country_id: 'Paese',
      carrier_language_id: 'Lingua', carrier_postal_code: 'CAP', carrier_province: 'Provincia', carrier_website_url: 'Sito web', carrier_address: 'Indirizzo',
      carrier_logo: 'Logo', user_first_name: 'Nome', user_last_name: 'Cognome', user_email: 'Email utente', user_phone: 'Telefono utente',
      user_password: 'Password', user_password_confirmation: 'Conferma password', carrier_id: 'Vettore', status: 'Stato',
    },
    en: {
      carrier_name: 'Company', carrier_email: 'Company email', carrier_phone: 'Company phone', carrier_city: 'City', carrier_country_id: 'Country',
      carrier_language_id: 'Language', carrier_postal_code: 'Postal code', carrier_province: 'Province', carrier_website_url: 'Website', carrier_address: 'Address',
      carrier_logo: 'Logo', user_first_name: 'First name', user_last_name: 'Last name', user_email: 'User email', user_phone: 'User phone',
      user_password: 'Password', user_password_confirmation: 'Confirm password', carrier_id: 'Carrier', status: 'Status',
    },
    fr: {
      carrier_name: 'Entreprise', carrier_email: 'E-mail de l’entreprise', carrier_phone: 'Téléphone de l’entreprise', carrier_city: 'Ville', carrier_country_id: 'Pays',
      carrier_language_id: 'Langue', carrier_postal_code: 'Code postal', carrier_province: 'Province', carrier_website_url: 'Site web', carrier_address: 'Adresse',
      carrier_logo: 'Logo', user_first_name: 'Prénom', user_last_name: 'Nom', user_email: 'E-mail de l’utilisateur', user_phone: 'Téléphone de l’utilisateur',
      user_password: 'Mot de passe', user_password_confirmation: 'Confirmer le mot de passe', carrier_id: 'Transporteur', status: 'Statut',
    },
  },
  labels: {
    it: { one: 'Richiesta di accesso', many: 'Richieste di accesso', create: 'Nuova richiesta di accesso', edit: 'Esamina la richiesta', empty: 'Nessuna richiesta di accesso' },
    en: { one: 'Access request', many: 'Access requests', create: 'New access request', edit: 'Review the request', empty: 'No access requests' },
    fr: { one: 'Demande d’accès', many: 'Demandes d’accès', create: 'Nouvelle demande d’accès', edit: 'Examiner la demande', empty: 'Aucune demande d’accès' },
  },
});
