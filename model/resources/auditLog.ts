import { defineFields } from '../fields';
import { defineResource } from '../resource';

/** The actions an entry records (docs/audit-log.md; the shared contract of issue 19). */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'status',
  'upload',
  'login',
  'login_failed',
  'logout',
  'password_change',
  'password_reset',
  'session_end',
  'mfa_enable',
  'mfa_disable',
  'mfa_failed',
  'confirm',
  'refuse',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The audit log (server.md §3 "Audit log", issue 19): one entry per write through the API and per
 * security event, read-only (no route changes or deletes an entry; the server removes entries older than
 * AUDIT_DAYS). Hand-written routes (server/routes/shared/auditLog.ts: list only, with filters) and screens.
 * Admins see every entry on /admin/audit_log; the carrier kind (Carrier, Reseller and Carrier Users) sees
 * its own tenant's on /company/audit_log. Carrier Users included: the portal gives them the same powers
 * over the tenant's rows as the Carrier user (they create companies, users, tariffs and edit requests), so
 * they may read the history of what they are allowed to change; a role split inside a kind would be a second
 * permission layer the portal does not have (docs/audit-log.md).
 * The stored columns besides these: `actor_company_id` is `company_id`; `tenant_id` (the carrier company whose
 * scope the entry falls in) and `target_company_id` (the company the write was about) are not answered.
 */
export default defineResource({
  name: 'audit-log',
  table: 'audit_log',
  api: { admin: '/admin/audit_log', carrier: '/company/audit_log' },
  routes: 'custom',
  tenancy: 'custom',
  permissions: { admin: ['list'], carrier: ['list'] },
  menu: { group: 'settings-group', after: 'portal-settings' },
  list: { sort: 'at', order: 'DESC', sortable: ['at'] },
  fields: defineFields({
    at: { type: 'text' },
    action: { type: 'select', options: AUDIT_ACTIONS },
    resource: { type: 'text' },
    resource_id: { type: 'integer' },
    user_id: { type: 'reference', reference: { resource: 'user-management', optionText: 'email' } },
    user_name: { type: 'text' },
    user_role_id: { type: 'select', options: [1, 2, 3, 4, 5, 6, 7] },
    company_id: { type: 'reference', reference: { resource: 'companies', optionText: 'legal_name' } },
    company_name: { type: 'text' },
    changes: { type: 'text', list: false },
    ip: { type: 'text', list: 'hidden' },
  }),
  fieldLabels: {
    it: {
      at: 'Quando',
      action: 'Azione',
      resource: 'Risorsa',
      resource_id: 'ID risorsa',
      user_id: 'Utente',
      user_name: 'Utente',
      user_role_id: 'Ruolo',
      company_id: 'Azienda',
      company_name: 'Azienda',
      changes: 'Modifiche',
      ip: 'Indirizzo IP',
    },
    en: {
      at: 'When',
      action: 'Action',
      resource: 'Resource',
      resource_id: 'Resource ID',
      user_id: 'User',
      user_name: 'User',
      user_role_id: 'Role',
      company_id: 'Company',
      company_name: 'Company',
      changes: 'Changes',
      ip: 'IP address',
    },
    fr: {
      at: 'Quand',
      action: 'Action',
      resource: 'Ressource',
      resource_id: 'ID de la ressource',
      user_id: 'Utilisateur',
      user_name: 'Utilisateur',
      user_role_id: 'Rôle',
      company_id: 'Entreprise',
      company_name: 'Entreprise',
      changes: 'Modifications',
      ip: 'Adresse IP',
    },
  },
  labels: {
    it: {
      one: 'Voce del registro attività',
      many: 'Registro attività',
      create: 'Nuova voce',
      edit: 'Voce del registro attività',
      empty: 'Nessuna attività registrata',
    },
    en: { one: 'Audit log entry', many: 'Audit log', create: 'New entry', edit: 'Audit log entry', empty: 'No recorded activity' },
    fr: {
      one: 'Entrée du journal d’audit',
      many: 'Journal d’audit',
      create: 'Nouvelle entrée',
      edit: 'Entrée du journal d’audit',
      empty: 'Aucune activité enregistrée',
    },
  },
});
