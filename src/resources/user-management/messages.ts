/** Texts of the user screens (list, create steps, edit modal, detail), in it, en, fr. */
const fields = {
  it: {
    company_legal_name: 'Azienda', role_name: 'Ruolo', language_name: 'Lingua', full_name: 'Nome completo',
    country_name: 'Paese', status_id: 'Stato',
  },
  en: {
    company_legal_name: 'Company', role_name: 'Role', language_name: 'Language', full_name: 'Full name',
    country_name: 'Country', status_id: 'Status',
  },
  fr: {
    company_legal_name: 'Entreprise', role_name: 'Rôle', language_name: 'Langue', full_name: 'Nom complet',
    country_name: 'Pays', status_id: 'Statut',
  },
};

export const userMessages = {
  it: {
    resources: {
      'user-management': {
        fields: fields.it,
        title: 'Gestione utenti',
        add: 'Aggiungi nuovo utente',
        actions_column: 'Azioni',
        steps: { settings: 'Impostazioni', information: 'Informazioni utente', notes: 'Note' },
        sections: { settings: 'Impostazioni utente', information: 'Informazioni utente' },
        roles: { 1: 'Amministratore', 2: 'Utente amministrazione', 3: 'Vettore', 4: 'Rivenditore', 5: 'Utente vettore', 6: 'Cliente finale', 7: 'Assistenza' },
        support_roles: { 1: 'Primo livello', 2: 'Secondo livello', 3: 'Supervisore' },
        status: { active: 'Attivo', inactive: 'Inattivo' },
        actions: { view: 'Visualizza', edit: 'Modifica', delete: 'Elimina', activate: 'Attiva', deactivate: 'Disattiva', back: 'Indietro', next: 'Avanti', save: 'Salva', cancel: 'Annulla' },
        delete_title: 'Eliminare l’utente?',
        delete_text: 'L’utente %{name} sarà eliminato definitivamente. Un utente con richieste o messaggi non si può eliminare: disattivalo.',
        password_rule: 'Almeno 8 caratteri, con lettere e numeri',
        password_optional: 'Lascia vuoto per non cambiarla',
        password_mismatch: 'La conferma non corrisponde alla password',
        pick_company_first: 'Scegli prima l’azienda',
        none: 'N/A',
      },
    },
  },
  en: {
    resources: {
      'user-management': {
        fields: fields.en,
        title: 'User management',
        add: 'Add new user',
        actions_column: 'Actions',
        steps: { settings: 'Settings', information: 'User information', notes: 'Notes' },
        sections: { settings: 'User settings', information: 'User information' },
        roles: { 1: 'Admin', 2: 'Admin user', 3: 'Carrier', 4: 'Reseller', 5: 'Carrier user', 6: 'End user', 7: 'Support' },
        support_roles: { 1: 'First line', 2: 'Second line', 3: 'Supervisor' },
        status: { active: 'Active', inactive: 'Inactive' },
        actions: { view: 'View', edit: 'Edit', delete: 'Delete', activate: 'Activate', deactivate: 'Deactivate', back: 'Back', next: 'Next', save: 'Save', cancel: 'Cancel' },
        delete_title: 'delete user',
        delete_text: '%{name} will be deleted for good. A user with requests or messages cannot be deleted: deactivate them.',
        password_rule: 'At least 8 characters, with letters and digits',
        password_optional: 'Leave empty to keep it',
        password_mismatch: 'The confirmation does not match the password',
        pick_company_first: 'Choose the company first',
        none: 'N/A',
      },
    },
  },
  fr: {
    resources: {
      'user-management': {
        fields: fields.fr,
        title: 'Gestion des utilisateurs',
        add: 'Ajouter un utilisateur',
        actions_column: 'Actions',
        steps: { settings: 'Paramètres', information: 'Informations utilisateur', notes: 'Notes' },
        sections: { settings: 'Paramètres utilisateur', information: 'Informations utilisateur' },
        roles: { 1: 'Administrateur', 2: 'Utilisateur admin', 3: 'Transporteur', 4: 'Revendeur', 5: 'Utilisateur transporteur', 6: 'Client final', 7: 'Assistance' },
        support_roles: { 1: 'Premier niveau', 2: 'Second niveau', 3: 'Superviseur' },
        status: { active: 'Actif', inactive: 'Inactif' },
        actions: { view: 'Voir', edit: 'Modifier', delete: 'Supprimer', activate: 'Activer', deactivate: 'Désactiver', back: 'Retour', next: 'Suivant', save: 'Enregistrer', cancel: 'Annuler' },
        delete_title: 'Supprimer l’utilisateur ?',
        delete_text: '%{name} sera supprimé définitivement. Un utilisateur avec des demandes ou des messages ne peut pas être supprimé : désactivez-le.',
        password_rule: 'Au moins 8 caractères, avec des lettres et des chiffres',
        password_optional: 'Laisser vide pour le garder',
        password_mismatch: 'La confirmation ne correspond pas au mot de passe',
        pick_company_first: 'Choisissez d’abord l’entreprise',
        none: 'N/A',
      },
    },
  },
};
