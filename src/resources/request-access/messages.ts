import type { AreaMessages } from '../../i18n';

/** The access-request review (calculator document "Access requests"): labels, statuses, dialogs. */
export const requestAccessMessages: AreaMessages = {
  it: {
    resources: {
      'request-access': {
        fields: { created_at: 'Data', date: 'Data', place: 'Sede', contact: 'Referente', carrier_language: 'Lingua' },
      },
    },
    request_access: {
      title: 'Richieste di accesso',
      admin_scope: 'Richieste di nuovi vettori. Le richieste dei clienti di un vettore le esamina il vettore stesso.',
      status: { OP: 'Aperta', CF: 'Confermata', RF: 'Rifiutata' },
      clear: 'Azzera filtri',
      confirm: 'Conferma',
      refuse: 'Rifiuta',
      confirm_title: 'Confermare la richiesta di %{name}?',
      confirm_text: 'Verranno creati l’azienda e il suo utente, che potrà accedere con la password scelta nel modulo. Il richiedente riceverà un’email.',
      refuse_title: 'Rifiutare la richiesta di %{name}?',
      refuse_text: 'Il richiedente riceverà un’email. Una richiesta rifiutata non si può più confermare.',
      invite_title: 'Il tuo link di invito',
      invite_text: 'Dai questo link ai tuoi clienti: le loro richieste di accesso arriveranno qui.',
      copy: 'Copia link',
      copied: 'Link copiato',
      dashboard_title: 'Richieste di accesso',
      dashboard_open: 'Richieste in attesa di revisione: %{count}',
      dashboard_button: 'Esamina le richieste',
    },
  },
  en: {
    resources: {
      'request-access': {
        fields: { created_at: 'Date', date: 'Date', place: 'Location', contact: 'Contact', carrier_language: 'Language' },
      },
    },
    request_access: {
      title: 'Access requests',
      admin_scope: 'Requests from new carriers. Requests from a carrier’s customers are reviewed by that carrier.',
      status: { OP: 'Open', CF: 'Confirmed', RF: 'Refused' },
      clear: 'Clear',
      confirm: 'Confirm',
      refuse: 'Refuse',
      confirm_title: 'Confirm the request of %{name}?',
      confirm_text: 'The company and its user will be created; the user signs in with the password chosen in the form. The requester receives an email.',
      refuse_title: 'Refuse the request of %{name}?',
      refuse_text: 'The requester receives an email. A refused request cannot be confirmed later.',
      invite_title: 'Your invitation link',
      invite_text: 'Give this link to your customers: their access requests arrive here.',
      copy: 'Copy link',
      copied: 'Link copied',
      dashboard_title: 'Access requests',
      dashboard_open: 'Requests waiting for review: %{count}',
      dashboard_button: 'Review the requests',
    },
  },
  fr: {
    resources: {
      'request-access': {
        fields: { created_at: 'Date', date: 'Date', place: 'Adresse', contact: 'Contact', carrier_language: 'Langue' },
      },
    },
    request_access: {
      title: 'Demandes d’accès',
      admin_scope: 'Demandes de nouveaux transporteurs. Les demandes des clients d’un transporteur sont examinées par ce transporteur.',
      status: { OP: 'Ouverte', CF: 'Confirmée', RF: 'Refusée' },
      clear: 'Effacer',
      confirm: 'Confirmer',
      refuse: 'Refuser',
      confirm_title: 'Confirmer la demande de %{name} ?',
      confirm_text:
        'L’entreprise et son utilisateur seront créés ; l’utilisateur se connecte avec le mot de passe choisi dans le formulaire. Le demandeur reçoit un e-mail.',
      refuse_title: 'Refuser la demande de %{name} ?',
      refuse_text: 'Le demandeur reçoit un e-mail. Une demande refusée ne peut plus être confirmée.',
      invite_title: 'Votre lien d’invitation',
      invite_text: 'Donnez ce lien à vos clients : leurs demandes d’accès arrivent ici.',
      copy: 'Copier le lien',
      copied: 'Lien copié',
      dashboard_title: 'Demandes d’accès',
      dashboard_open: 'Demandes en attente d’examen : %{count}',
      dashboard_button: 'Examiner les demandes',
    },
  },
};
