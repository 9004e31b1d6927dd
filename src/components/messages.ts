/** Texts of the shared components (toasts, banner, error blocks, table, pager, forms), in it, en, fr. */
export const componentMessages = {
  it: {
    portal: {
      error_loading_data: 'Errore nel caricamento dei dati',
      retry: 'Riprova',
      empty: 'Nessun dato disponibile, aggiungi dati',
      actions: 'Azioni',
      row_actions: 'Azioni della riga',
      max_size: 'Dimensione massima %{size}',
      pager: { label: 'Paginazione', first: 'Prima pagina', last: 'Ultima pagina', page: 'Pagina %{page}' },
      status: { label: 'Stato', all: 'Tutti', open: 'Aperto', close: 'Chiuso', active: 'Attivo', inactive: 'Inattivo' },
      validation: {
        pattern: 'Formato non valido',
        integer: 'Deve essere un numero intero',
        password: 'Almeno 8 caratteri con lettere e numeri',
      },
    },
  },
  en: {
    portal: {
      error_loading_data: 'error loading data',
      retry: 'Retry',
      empty: 'No Data Available , Please Add Data',
      actions: 'Actions',
      row_actions: 'Row actions',
      max_size: 'Maximum size %{size}',
      pager: { label: 'Pagination', first: 'First page', last: 'Last page', page: 'Page %{page}' },
      status: { label: 'Status', all: 'All', open: 'Open', close: 'Close', active: 'Active', inactive: 'Inactive' },
      validation: {
        pattern: 'Invalid format',
        integer: 'Must be a whole number',
        password: 'At least 8 characters with letters and digits',
      },
    },
  },
  fr: {
    portal: {
      error_loading_data: 'Erreur lors du chargement des données',
      retry: 'Réessayer',
      empty: 'Aucune donnée disponible, veuillez ajouter des données',
      actions: 'Actions',
      row_actions: 'Actions de la ligne',
      max_size: 'Taille maximale %{size}',
      pager: { label: 'Pagination', first: 'Première page', last: 'Dernière page', page: 'Page %{page}' },
      status: { label: 'Statut', all: 'Tous', open: 'Ouvert', close: 'Fermé', active: 'Actif', inactive: 'Inactif' },
      validation: {
        pattern: 'Format non valide',
        integer: 'Doit être un nombre entier',
        password: 'Au moins 8 caractères avec des lettres et des chiffres',
      },
    },
  },
};
