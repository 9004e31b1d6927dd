/** Messages of the input guards (malformed bodies and addresses; the security sweep of issue 11). */
export const security = {
  en: {
    'errors.malformedBody': 'The request body could not be read: it is not well-formed {format}.',
    'errors.badUrl': 'The address of the request is not well formed.',
  },
  it: {
    'errors.malformedBody': 'Il corpo della richiesta non è leggibile: non è {format} ben formato.',
    'errors.badUrl': 'L’indirizzo della richiesta non è ben formato.',
  },
  fr: {
    'errors.malformedBody': 'Le corps de la requête est illisible : ce n’est pas du {format} bien formé.',
    'errors.badUrl': 'L’adresse de la requête est mal formée.',
  },
};
