/**
 * The names of the files the API answers as downloads (issue 36 item 5, docs/request-documents.md "File
 * names"), in the caller's language. Each is the name without extension (the two rate-sheet titles are words,
 * made a file name by `slug`); `lib/downloadNames.ts` adds the
 * extension and writes the Content-Disposition header. Lower case, words joined by hyphens, no accents
 * (a name is typed, mailed and listed by systems that do not all like them).
 */
export const downloads = {
  it: {
    'download.pod': 'prova-di-consegna-{id}',
    'download.waybill': 'lettera-di-vettura-{id}',
    'download.quote': 'preventivo-{number}',
    'download.requestQuote': 'preventivo-richiesta-{id}',
    'download.labels': 'etichette-{id}',
    'download.template': 'modello-{what}',
    'download.rateSheet': 'listino-{code}',
    'download.expressRateSheet': 'Listino express',
    'download.standardRateSheet': 'Listino standard',
  },
  en: {
    'download.pod': 'proof-of-delivery-{id}',
    'download.waybill': 'waybill-{id}',
    'download.quote': 'quote-{number}',
    'download.requestQuote': 'quote-request-{id}',
    'download.labels': 'labels-{id}',
    'download.template': '{what}-template',
    'download.rateSheet': 'rate-sheet-{code}',
    'download.expressRateSheet': 'Express rate sheet',
    'download.standardRateSheet': 'Standard rate sheet',
  },
  fr: {
    'download.pod': 'preuve-de-livraison-{id}',
    'download.waybill': 'lettre-de-voiture-{id}',
    'download.quote': 'devis-{number}',
    'download.requestQuote': 'devis-demande-{id}',
    'download.labels': 'etiquettes-{id}',
    'download.template': 'modele-{what}',
    'download.rateSheet': 'tarif-{code}',
    'download.expressRateSheet': 'Tarif express',
    'download.standardRateSheet': 'Tarif standard',
  },
};
