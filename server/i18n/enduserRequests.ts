/** The end user's own open request (issue 35 item 4): cancelling it, its quote, its tickets. */
export const enduserRequests = {
  en: {
    'requests.cancelled': 'Request no. {id} cancelled',
    'requests.cancelNeedsReason': 'Write why you cancel the request: the carrier will read it.',
    'requests.notBooker': 'Only the person who booked this request may cancel it.',
    'requests.quoteNotPriced': 'This request has no price yet: the carrier must quote it first.',
    'requestQuote.forRequest': 'Price of transport request no. {id} of {date}',
    'chat.requestNotYours': 'Choose one of your company’s transport requests.',
  },
  it: {
    'requests.cancelled': 'Richiesta n. {id} annullata',
    'requests.cancelNeedsReason': 'Scrivi perché annulli la richiesta: il trasportatore lo leggerà.',
    'requests.notBooker': 'Solo chi ha prenotato questa richiesta può annullarla.',
    'requests.quoteNotPriced': 'Questa richiesta non ha ancora un prezzo: il trasportatore deve prima quotarla.',
    'requestQuote.forRequest': 'Prezzo della richiesta di trasporto n. {id} del {date}',
    'chat.requestNotYours': 'Scegli una delle richieste di trasporto della tua azienda.',
  },
  fr: {
    'requests.cancelled': 'Demande n° {id} annulée',
    'requests.cancelNeedsReason': 'Écrivez pourquoi vous annulez la demande : le transporteur le lira.',
    'requests.notBooker': 'Seule la personne qui a réservé cette demande peut l’annuler.',
    'requests.quoteNotPriced': 'Cette demande n’a pas encore de prix : le transporteur doit d’abord la chiffrer.',
    'requestQuote.forRequest': 'Prix de la demande de transport n° {id} du {date}',
    'chat.requestNotYours': 'Choisissez une des demandes de transport de votre société.',
  },
};
