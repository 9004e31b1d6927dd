import { RESOURCES } from './registry';
import { LANGS, type Lang, type ResourceDecl } from './resource';
import { TARIFF_COLUMN_LABELS } from './resources/tariffs';
import type { AuditAction } from './resources/auditLog';

/**
 * The words of the audit log (issue 19, docs/audit-log-screens.md), shared by its screens
 * (src/components/audit/format.ts) and its export (server/routes/shared/auditLog.ts): the actions, the
 * resources without a declaration of their own, field labels of undeclared columns, yes/no and the status words.
 */

export interface AuditTexts {
  actions: Record<AuditAction, string>;
  /** Tables without a declaration of their own (requests, sign-in events, sessions…). */
  resources: Record<string, string>;
  /** Field labels of undeclared tables and columns no declaration lists (status, timestamps, request fields). */
  fields: Record<string, string>;
  empty: string;
  yes: string;
  no: string;
  /** `status_id` 1 and 0 (companies, users). */
  active: string;
  inactive: string;
}

export const AUDIT_TEXTS: Record<Lang, AuditTexts> = {
  it: {
    actions: {
      create: 'Creazione',
      update: 'Modifica',
      delete: 'Eliminazione',
      status: 'Cambio di stato',
      upload: 'Caricamento file',
      confirm: 'Conferma',
      refuse: 'Rifiuto',
      login: 'Accesso',
      login_failed: 'Accesso non riuscito',
      logout: 'Uscita',
      password_change: 'Cambio password',
      password_reset: 'Reimpostazione password',
      session_end: 'Sessione chiusa',
      mfa_enable: 'Verifica in due passaggi attivata',
      mfa_disable: 'Verifica in due passaggi disattivata',
      mfa_failed: 'Codice di verifica errato',
    },
    resources: {
      transport_requests: 'Richieste di trasporto',
      auth: 'Accesso',
      auth_tokens: 'Sessioni',
      settings: 'Impostazioni del portale',
      express_rate_rows: 'Righe dei listini express',
      standard_rate_rows: 'Righe dei listini standard',
      transport_request_documents: 'Documenti delle richieste',
      categories: 'Categorie',
      tickets: 'Ticket di assistenza',
      chat_messages: 'Messaggi',
      password_resets: 'Reimpostazioni password',
      webhook_endpoints: 'Webhook',
      webhook_deliveries: 'Consegne webhook',
      api_keys: 'Chiavi API',
      notification_settings: 'Impostazioni delle notifiche',
      calendar_feeds: 'Calendario di ritiri e consegne',
      label_settings: 'Impostazioni delle etichette',
    },
    fields: {
      gs1_company_prefix: 'Prefisso aziendale GS1',
      status_id: 'Stato',
      status: 'Stato',
      chat_id: 'Conversazione',
      transport_request_status_id: 'Stato',
      cost: 'Prezzo',
      admin_fees: 'Diritti amministrativi',
      notes: 'Note',
      reason: 'Motivo',
      contact: 'Contatto',
      lead_time: 'Resa (giorni)',
      email: 'Email',
      phone: 'Telefono',
      firstname: 'Nome',
      lastname: 'Cognome',
      created_at: 'Creato il',
      updated_at: 'Modificato il',
      file: 'File',
      rows: 'Righe',
      url: 'Indirizzo (URL)',
      events: 'Eventi',
      event_id: 'Evento',
      event_type: 'Tipo di evento',
      subject: 'Oggetto',
      ticket_category_id: 'Categoria',
      name: 'Nome',
      prefix: 'Prefisso',
      scopes: 'Permessi',
      sessions: 'Sessioni',
      other_sessions: 'Altre sessioni',
      challenge: 'Verifica',
      document_type_id: 'Tipo di documento',
      company_id: 'Azienda',
      carrier_id: 'Vettore',
      enduser_company_id: 'Azienda cliente',
      user_id: 'Utente',
      enabled: 'Attivo',
    },
    empty: 'vuoto',
    yes: 'Sì',
    no: 'No',
    active: 'Attivo',
    inactive: 'Inattivo',
  },
  en: {
    actions: {
      create: 'Creation',
      update: 'Change',
      delete: 'Deletion',
      status: 'Status change',
      upload: 'File upload',
      confirm: 'Confirmation',
      refuse: 'Refusal',
      login: 'Sign-in',
      login_failed: 'Failed sign-in',
      logout: 'Sign-out',
      password_change: 'Password change',
      password_reset: 'Password reset',
      session_end: 'Session ended',
      mfa_enable: 'Two-step verification enabled',
      mfa_disable: 'Two-step verification disabled',
      mfa_failed: 'Wrong verification code',
    },
    resources: {
      transport_requests: 'Transport requests',
      auth: 'Sign-in',
      auth_tokens: 'Sessions',
      settings: 'Portal settings',
      express_rate_rows: 'Express rate sheet rows',
      standard_rate_rows: 'Standard rate sheet rows',
      transport_request_documents: 'Request documents',
      categories: 'Categories',
      tickets: 'Support tickets',
      chat_messages: 'Messages',
      password_resets: 'Password resets',
      webhook_endpoints: 'Webhook',
      webhook_deliveries: 'Webhook deliveries',
      api_keys: 'API keys',
      notification_settings: 'Notification settings',
      calendar_feeds: 'Pickup and delivery calendar',
      label_settings: 'Label settings',
    },
    fields: {
      gs1_company_prefix: 'GS1 company prefix',
      status_id: 'Status',
      status: 'Status',
      chat_id: 'Conversation',
      transport_request_status_id: 'Status',
      cost: 'Price',
      admin_fees: 'Admin fees',
      notes: 'Notes',
      reason: 'Reason',
      contact: 'Contact',
      lead_time: 'Lead time (days)',
      email: 'Email',
      phone: 'Phone',
      firstname: 'First name',
      lastname: 'Last name',
      created_at: 'Created',
      updated_at: 'Changed',
      file: 'File',
      rows: 'Rows',
      url: 'Address (URL)',
      events: 'Events',
      event_id: 'Event',
      event_type: 'Event type',
      subject: 'Subject',
      ticket_category_id: 'Category',
      name: 'Name',
      prefix: 'Prefix',
      scopes: 'Permissions',
      sessions: 'Sessions',
      other_sessions: 'Other sessions',
      challenge: 'Verification',
      document_type_id: 'Document type',
      company_id: 'Company',
      carrier_id: 'Carrier',
      enduser_company_id: 'Customer company',
      user_id: 'User',
      enabled: 'Enabled',
    },
    empty: 'empty',
    yes: 'Yes',
    no: 'No',
    active: 'Active',
    inactive: 'Inactive',
  },
  fr: {
    actions: {
      create: 'Création',
      update: 'Modification',
      delete: 'Suppression',
      status: 'Changement de statut',
      upload: 'Chargement de fichier',
      confirm: 'Confirmation',
      refuse: 'Refus',
      login: 'Connexion',
      login_failed: 'Échec de connexion',
      logout: 'Déconnexion',
      password_change: 'Changement de mot de passe',
      password_reset: 'Réinitialisation du mot de passe',
      session_end: 'Session fermée',
      mfa_enable: 'Vérification en deux étapes activée',
      mfa_disable: 'Vérification en deux étapes désactivée',
      mfa_failed: 'Code de vérification erroné',
    },
    resources: {
      transport_requests: 'Demandes de transport',
      auth: 'Connexion',
      auth_tokens: 'Sessions',
      settings: 'Paramètres du portail',
      express_rate_rows: 'Lignes des grilles express',
      standard_rate_rows: 'Lignes des grilles standard',
      transport_request_documents: 'Documents des demandes',
      categories: 'Catégories',
      tickets: 'Tickets d’assistance',
      chat_messages: 'Messages',
      password_resets: 'Réinitialisations du mot de passe',
      webhook_endpoints: 'Webhook',
      webhook_deliveries: 'Livraisons de webhook',
      api_keys: 'Clés API',
      notification_settings: 'Paramètres des notifications',
      calendar_feeds: 'Calendrier des enlèvements et livraisons',
      label_settings: 'Paramètres des étiquettes',
    },
    fields: {
      gs1_company_prefix: 'Préfixe d’entreprise GS1',
      status_id: 'Statut',
      status: 'Statut',
      chat_id: 'Conversation',
      transport_request_status_id: 'Statut',
      cost: 'Prix',
      admin_fees: 'Frais administratifs',
      notes: 'Notes',
      reason: 'Motif',
      contact: 'Contact',
      lead_time: 'Délai (jours)',
      email: 'E-mail',
      phone: 'Téléphone',
      firstname: 'Prénom',
      lastname: 'Nom',
      created_at: 'Créé le',
      updated_at: 'Modifié le',
      file: 'Fichier',
      rows: 'Lignes',
      url: 'Adresse (URL)',
      events: 'Événements',
      event_id: 'Événement',
      event_type: 'Type d’événement',
      subject: 'Objet',
      ticket_category_id: 'Catégorie',
      name: 'Nom',
      prefix: 'Préfixe',
      scopes: 'Autorisations',
      sessions: 'Sessions',
      other_sessions: 'Autres sessions',
      challenge: 'Vérification',
      document_type_id: 'Type de document',
      company_id: 'Entreprise',
      carrier_id: 'Transporteur',
      enduser_company_id: 'Entreprise cliente',
      user_id: 'Utilisateur',
      enabled: 'Activé',
    },
    empty: 'vide',
    yes: 'Oui',
    no: 'Non',
    active: 'Actif',
    inactive: 'Inactif',
  },
};

export const langOf = (locale: string | undefined): Lang => (LANGS.includes(locale as Lang) ? (locale as Lang) : 'it');

/** The declaration of a table (the first one: the rate sheets' table is also the end user's rate sheets). */
export const declarationOfTable = (table: string): ResourceDecl | undefined => (RESOURCES as readonly ResourceDecl[]).find((r) => r.table === table);

/** A resource's label: its declaration's plural in that language, else the audit texts', else the table name. */
export function resourceLabel(table: string, lang: Lang): string {
  return declarationOfTable(table)?.labels[lang].many ?? AUDIT_TEXTS[lang].resources[table] ?? table;
}

/** An action's label; an action the screens do not know yet reads as its name. */
export const actionLabel = (action: string, lang: Lang): string => AUDIT_TEXTS[lang].actions[action as AuditAction] ?? action;

/**
 * A field's label: the declaration's, else the audit texts', else (tariff and rate-sheet rows) the tariff
 * columns', else the column name with spaces ("some_column" → "some column").
 */
export function fieldLabel(table: string, field: string, lang: Lang): string {
  const declared = (declarationOfTable(table)?.fieldLabels[lang] as Record<string, string> | undefined)?.[field];
  const tariff = /^(express_|standard_|rate_sheets)/.test(table) ? TARIFF_COLUMN_LABELS[lang][field] : undefined;
  return declared ?? AUDIT_TEXTS[lang].fields[field] ?? tariff ?? field.replace(/_/g, ' ');
}

/**
 * A text in the quotes of the language, as the portal's messages write them (src/components/declared/messages.ts):
 * «Rossi» in Italian, “Rossi” in English, « Rossi » in French (a no-break space inside, so a line never breaks there).
 */
export const QUOTES: Record<Lang, [string, string]> = { it: ['«', '»'], en: ['“', '”'], fr: ['«\u00a0', '\u00a0»'] };
export const quoted = (text: string, lang: Lang) => `${QUOTES[lang][0]}${text}${QUOTES[lang][1]}`;

/** A value as the change shows it: a text in the language's quotes, numbers and yes/no bare, nothing as "vuoto", lists and objects as JSON. */
export function formatValue(value: unknown, lang: Lang): string {
  const t = AUDIT_TEXTS[lang];
  if (value === null || value === undefined || value === '') return `(${t.empty})`;
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return quoted(value.length > 200 ? `${value.slice(0, 200)}…` : value, lang);
  return JSON.stringify(value);
}
