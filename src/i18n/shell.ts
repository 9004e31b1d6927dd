/**
 * Messages of the shell, sign-in and pages shared by every role, in Italian (the default language, in the
 * first load); English's and French's (shell-en.ts, shell-fr.ts) load with react-admin's when chosen
 * (src/i18n/index.ts). Sidebar labels use `text-{name}` keys.
 */
export const shellItalian = {
  'text-dashboard': 'Dashboard',
  'text-transport-requests-visuals': 'Richieste di trasporto',
  'text-calculate-cost': 'Calcola costo',
  'text-price-manager': 'Gestione prezzi',
  'text-accessories-exp-express-hub-costs': 'Accessori',
  'text-express': 'Express',
  'text-standard': 'Standard',
  'text-settings-group': 'Impostazioni',
  'text-portal-settings': 'Impostazioni portale',
  'text-companies': 'Aziende',
  'text-user-management': 'Gestione utenti',
  'text-request-access': 'Richieste di accesso',
  'text-support': 'Assistenza',
  'text-settings': 'Impostazioni account',
  portal: {
    // a wizard's step label: how many of its fields need fixing (src/components/forms/WizardSteps.tsx)
    step_errors: '1 campo da correggere |||| %{smart_count} campi da correggere',
    name: 'Portale Trasporti',
    language: 'Lingua',
    account_settings: 'Impostazioni account',
    logout: 'Esci',
    toggle_menu: 'Apri o chiudi il menu',
    user_menu: 'Menu utente',
    not_found: 'Pagina non trovata',
    not_found_text: 'La pagina che cerchi non esiste o è stata spostata.',
    back_home: 'Torna alla home',
    greeting: 'Buongiorno, %{name}',
    greeting_subtitle: 'Ecco la situazione delle tue spedizioni.',
    greeting_subtitle_admin: 'Ecco la situazione del portale: tutti i vettori e i loro clienti.',
    diesel_missing: 'Manca il prezzo di riferimento del gasolio di %{month}.',
    diesel_add: 'Inserisci il prezzo',
    calculate_cost: 'Calcola costo',
    new_request: 'Nuova richiesta',
  },
  // the links to the public tracking page (login, quote page: docs/tracking.md)
  tracking: { link: 'Traccia una spedizione', link_short: 'Traccia' },
  login: {
    quote_link: 'Calcola un preventivo senza accedere',
    title: 'Accedi al portale',
    subtitle: 'Preventivi e prenotazioni di trasporto pallet e groupage',
    email: 'Email',
    password: 'Password',
    remember: 'Ricordami',
    submit: 'Accedi',
    forgot: 'Password dimenticata?',
    access_request: 'Richiedi un accesso',
    quote: 'Calcola un preventivo senza accedere',
    email_required: 'Inserisci l’email',
    password_required: 'Inserisci la password',
    locked: 'Troppi tentativi. Riprova tra 1 minuto. |||| Troppi tentativi. Riprova tra %{smart_count} minuti.',
  },
  quote: {
    title: 'Preventivo online',
    subtitle: 'Il costo di una spedizione di pallet o di groupage in pochi secondi, senza registrarti.',
    signin: 'Accedi',
  },
};
