/**
 * Texts of the end user's open request (issue 35 item 4: cancel with a reason, the quote, tickets about the
 * request) and of the request list's search (item 3), in it, en, fr.
 */
const it = {
  open_request: {
    cancel: 'Annulla richiesta',
    cancel_title: 'Annullare la richiesta n. %{id}?',
    cancel_text: 'Il trasportatore riceve la notifica con il motivo. Una richiesta annullata non si può riaprire.',
    cancel_reason: 'Motivo dell’annullamento',
    cancel_reason_help: 'Obbligatorio: il trasportatore lo legge nella cronologia della richiesta.',
    cancel_reason_missing: 'Scrivi il motivo dell’annullamento.',
    cancel_back: 'Indietro',
    quote: 'Scarica preventivo',
    quote_file: 'preventivo-richiesta-%{id}.pdf',
    ticket: 'Apri ticket',
    ticket_subject: 'Richiesta n. %{id}',
    ticket_about: 'Il ticket riguarda la richiesta di trasporto n. %{id}.',
    ticket_request: 'Richiesta n. %{id}',
    tickets_title: 'Ticket di assistenza',
    no_tickets: 'Nessun ticket su questa richiesta.',
    ticket_opened: 'Aperto il %{date}',
    search: 'Cerca',
    search_hint: 'Numero, città, CAP, azienda, riferimento',
    search_window: 'Tra le ultime 5.000 richieste: per le più vecchie aggiungi la data o lo stato.',
  },
};

const en: typeof it = {
  open_request: {
    cancel: 'Cancel request',
    cancel_title: 'Cancel request no. %{id}?',
    cancel_text: 'The carrier is notified with your reason. A cancelled request cannot be reopened.',
    cancel_reason: 'Reason for cancelling',
    cancel_reason_help: 'Required: the carrier reads it in the request’s history.',
    cancel_reason_missing: 'Write why you cancel the request.',
    cancel_back: 'Back',
    quote: 'Download quote',
    quote_file: 'quote-request-%{id}.pdf',
    ticket: 'Open a ticket',
    ticket_subject: 'Request no. %{id}',
    ticket_about: 'The ticket is about transport request no. %{id}.',
    ticket_request: 'Request no. %{id}',
    tickets_title: 'Support tickets',
    no_tickets: 'No ticket about this request.',
    ticket_opened: 'Opened on %{date}',
    search: 'Search',
    search_hint: 'Number, city, postcode, company, reference',
    search_window: 'Among the latest 5,000 requests: for older ones add the date or the status.',
  },
};

const fr: typeof it = {
  open_request: {
    cancel: 'Annuler la demande',
    cancel_title: 'Annuler la demande n° %{id} ?',
    cancel_text: 'Le transporteur est averti avec votre motif. Une demande annulée ne peut pas être rouverte.',
    cancel_reason: 'Motif de l’annulation',
    cancel_reason_help: 'Obligatoire : le transporteur le lit dans l’historique de la demande.',
    cancel_reason_missing: 'Écrivez pourquoi vous annulez la demande.',
    cancel_back: 'Retour',
    quote: 'Télécharger le devis',
    quote_file: 'devis-demande-%{id}.pdf',
    ticket: 'Ouvrir un ticket',
    ticket_subject: 'Demande n° %{id}',
    ticket_about: 'Le ticket concerne la demande de transport n° %{id}.',
    ticket_request: 'Demande n° %{id}',
    tickets_title: 'Tickets d’assistance',
    no_tickets: 'Aucun ticket sur cette demande.',
    ticket_opened: 'Ouvert le %{date}',
    search: 'Rechercher',
    search_hint: 'Numéro, ville, code postal, société, référence',
    search_window: 'Parmi les 5 000 dernières demandes : pour les plus anciennes, ajoutez la date ou le statut.',
  },
};

export const openRequestMessages = { it, en, fr };
