/** Reference data and lookups: field names used in validation messages, request statuses (the declared resources' own answers come from their declarations). */
export const reference = {
  en: {
    'field.name': 'name', 'field.code_alpha': 'code', 'field.symbol': 'symbol', 'field.active': 'active', 'field.description': 'description',
    'field.de': 'German name', 'field.en': 'English name', 'field.es': 'Spanish name', 'field.fr': 'French name', 'field.it': 'Italian name',
    'field.iso_alpha_2': 'ISO alpha-2 code', 'field.iso_alpha_3': 'ISO alpha-3 code', 'field.un_code': 'UN code', 'field.company_id': 'company',
    'status.1': 'Open', 'status.3': 'Confirmed', 'status.4': 'Refused', 'status.5': 'In transit', 'status.6': 'Delivered', 'status.7': 'Cancelled',
  },
  it: {
    'field.name': 'nome', 'field.code_alpha': 'codice', 'field.symbol': 'simbolo', 'field.active': 'attivo', 'field.description': 'descrizione',
    'field.de': 'nome tedesco', 'field.en': 'nome inglese', 'field.es': 'nome spagnolo', 'field.fr': 'nome francese', 'field.it': 'nome italiano',
    'field.iso_alpha_2': 'codice ISO alpha-2', 'field.iso_alpha_3': 'codice ISO alpha-3', 'field.un_code': 'codice ONU', 'field.company_id': 'azienda',
    'status.1': 'Aperta', 'status.3': 'Confermata', 'status.4': 'Rifiutata', 'status.5': 'In transito', 'status.6': 'Consegnata', 'status.7': 'Annullata',
  },
  fr: {
    'field.name': 'nom', 'field.code_alpha': 'code', 'field.symbol': 'symbole', 'field.active': 'actif', 'field.description': 'description',
    'field.de': 'nom allemand', 'field.en': 'nom anglais', 'field.es': 'nom espagnol', 'field.fr': 'nom français', 'field.it': 'nom italien',
    'field.iso_alpha_2': 'code ISO alpha-2', 'field.iso_alpha_3': 'code ISO alpha-3', 'field.un_code': 'code ONU', 'field.company_id': 'entreprise',
    'status.1': 'Ouverte', 'status.3': 'Confirmée', 'status.4': 'Refusée', 'status.5': 'En transit', 'status.6': 'Livrée', 'status.7': 'Annulée',
  },
};
