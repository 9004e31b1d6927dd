/** Public tracking's answers (GET /visitor/track, docs/tracking.md); registered by routes/visitor/track.ts. */
export const tracking = {
  en: {
    'tracking.notFound': 'No shipment matches this request number and destination postal code. Check both and try again.',
    'tracking.tooManyOne': 'Too many tracking attempts: try again in 1 minute.',
    'tracking.tooManyMany': 'Too many tracking attempts: try again in {minutes} minutes.',
  },
  it: {
    'tracking.notFound': 'Nessuna spedizione corrisponde a questo numero di richiesta e CAP di destinazione. Controlla entrambi e riprova.',
    'tracking.tooManyOne': 'Troppi tentativi di tracciamento: riprova tra 1 minuto.',
    'tracking.tooManyMany': 'Troppi tentativi di tracciamento: riprova tra {minutes} minuti.',
  },
  fr: {
    'tracking.notFound': 'Aucun envoi ne correspond à ce numéro de demande et à ce code postal de destination. Vérifiez les deux et réessayez.',
    'tracking.tooManyOne': 'Trop de tentatives de suivi : réessayez dans 1 minute.',
    'tracking.tooManyMany': 'Trop de tentatives de suivi : réessayez dans {minutes} minutes.',
  },
};
