/** Texts of the admin's "end all sessions" on a user's page (EndSessionsButton.tsx), in it, en, fr. */
export const userSessionMessages = {
  it: {
    resources: {
      'user-management': {
        sessions: {
          end_all: 'Termina tutte le sessioni',
          title: 'Terminare tutte le sessioni di %{name}?',
          text: 'L’utente uscirà dal portale su ogni dispositivo e dovrà accedere di nuovo.',
          cancel: 'Annulla',
        },
      },
    },
  },
  en: {
    resources: {
      'user-management': {
        sessions: {
          end_all: 'End all sessions',
          title: 'End all sessions of %{name}?',
          text: 'The user will be signed out on every device and will have to sign in again.',
          cancel: 'Cancel',
        },
      },
    },
  },
  fr: {
    resources: {
      'user-management': {
        sessions: {
          end_all: 'Terminer toutes les sessions',
          title: 'Terminer toutes les sessions de %{name} ?',
          text: 'L’utilisateur sera déconnecté sur tous ses appareils et devra se reconnecter.',
          cancel: 'Annuler',
        },
      },
    },
  },
};
