import { userFields } from '../users';
import { defineResource } from '../resource';

/**
 * Users (accounts document §2–§7, server.md §2–§3): the fields and their rules are in model/users.ts.
 * Hand-written routes (server/routes/shared/users.ts: tenancy, roles per company, passwords,
 * changeStatus) and screens (src/resources/user-management: the three-step create, the detail, the
 * edit modal) — the declaration gives the paths, permissions, menu place and labels.
 */
export default defineResource({
  name: 'user-management',
  table: 'users',
  api: { admin: '/admin/users', carrier: '/company/users' },
  routes: 'custom',
  tenancy: 'custom',
  permissions: { admin: ['list', 'show', 'create', 'edit', 'delete'], carrier: ['list', 'show', 'create', 'edit', 'delete'] },
  menu: { group: 'root', after: 'companies' },
  timestamps: true,
  fields: userFields,
  fieldLabels: {
    it: {
      role_id: 'Ruolo', company_id: 'Azienda', language_id: 'Lingua', support_role_id: 'Ruolo di assistenza', title: 'Titolo', first_name: 'Nome',
      last_name: 'Cognome', address: 'Indirizzo', city: 'Città', postal_code: 'CAP', country_id: 'Paese', phone: 'Telefono', phone_2: 'Telefono 2',
      email: 'Email', password: 'Password', password_confirmation: 'Conferma password', support_email: 'Email assistenza', support_skype: 'Skype assistenza', notes: 'Note',
    },
    en: {
      role_id: 'Role', company_id: 'Company', language_id: 'Language', support_role_id: 'Support role', title: 'Title', first_name: 'First name',
      last_name: 'Last name', address: 'Address', city: 'City', postal_code: 'Postal code', country_id: 'Country', phone: 'Phone', phone_2: 'Phone 2',
      email: 'Email', password: 'Password', password_confirmation: 'Confirm password', support_email: 'Support email', support_skype: 'Support Skype', notes: 'Notes',
    },
    fr: {
      role_id: 'Rôle', company_id: 'Entreprise', language_id: 'Langue', support_role_id: 'Rôle d’assistance', title: 'Civilité', first_name: 'Prénom',
      last_name: 'Nom', address: 'Adresse', city: 'Ville', postal_code: 'Code postal', country_id: 'Pays', phone: 'Téléphone', phone_2: 'Téléphone 2',
      email: 'E-mail', password: 'Mot de passe', password_confirmation: 'Confirmer le mot de passe', support_email: 'E-mail assistance', support_skype: 'Skype assistance', notes: 'Notes',
    },
  },
  labels: {
    it: { one: 'Utente', many: 'Utenti', menu: 'Gestione utenti', create: 'Nuovo utente', edit: 'Modifica utente', empty: 'Nessun utente' },
    en: { one: 'User', many: 'Users', menu: 'User management', create: 'New user', edit: 'Edit user', empty: 'No users' },
    fr: { one: 'Utilisateur', many: 'Utilisateurs', menu: 'Gestion des utilisateurs', create: 'Nouvel utilisateur', edit: 'Modifier l’utilisateur', empty: 'Aucun utilisateur' },
  },
});
