/** Messages of the active sessions (server/routes/visitor/sessions.ts, server.md §3 "Sessions"). */
export const sessions = {
  en: {
    'sessions.ended': 'Session ended',
    'sessions.endedCurrent': 'Session ended: you are signed out',
    'sessions.othersEnded': '{count} other sessions ended',
    'sessions.userEnded': 'All sessions of the user ended ({count})',
  },
  it: {
    'sessions.ended': 'Sessione terminata',
    'sessions.endedCurrent': 'Sessione terminata: sei uscito dal portale',
    'sessions.othersEnded': 'Altre sessioni terminate: {count}',
    'sessions.userEnded': 'Tutte le sessioni dell’utente sono state terminate ({count})',
  },
  fr: {
    'sessions.ended': 'Session terminée',
    'sessions.endedCurrent': 'Session terminée : vous êtes déconnecté',
    'sessions.othersEnded': 'Autres sessions terminées : {count}',
    'sessions.userEnded': 'Toutes les sessions de l’utilisateur ont été terminées ({count})',
  },
};
