import { registerMessages } from '../../i18n/index.js';

/** The webhook routes' and worker's texts (issue 23, docs/webhooks.md). */
registerMessages({
  en: {
    'webhooks.created': 'Webhook added: copy its signing secret now, it will not be shown again.',
    'webhooks.deleted': 'Webhook deleted: nothing more will be sent to it.',
    'webhooks.resent': 'The delivery will be sent again shortly.',
    'webhooks.stillPending': 'This delivery is still waiting to be sent: it cannot be resent yet.',
    'webhooks.urlInvalid': 'The address must be a full http(s) URL, without a user name or password.',
    'webhooks.httpsOnly': 'The address must start with https://.',
    'webhooks.unresolvable': 'The address’s host name cannot be found.',
    'webhooks.privateAddress': 'The address points to a private, local or reserved network: use a public address.',
    'webhooks.tooMany': 'Your company already has {max} webhooks, the most allowed: delete one before adding another.',
    'field.webhooks.url': 'URL',
    'field.webhooks.events': 'events',
    'mail.webhookFailing.subject': 'Webhook failing: deliveries to {url} stopped',
    'mail.webhookFailing.text':
      'Hello,\n\nthe freight portal could not deliver an event to your webhook {url} for {window} and has stopped retrying it. The endpoint is now marked as failing.\n\nCheck that the receiver is reachable and answers 2xx, then resend the failed deliveries from Settings → Webhooks.\n',
  },
  it: {
    'webhooks.created': 'Webhook aggiunto: copia ora il segreto di firma, non verrà più mostrato.',
    'webhooks.deleted': 'Webhook eliminato: non gli verrà più inviato nulla.',
    'webhooks.resent': 'La consegna verrà inviata di nuovo a breve.',
    'webhooks.stillPending': 'Questa consegna è ancora in attesa di invio: non può essere reinviata ora.',
    'webhooks.urlInvalid': 'L’indirizzo deve essere un URL http(s) completo, senza nome utente né password.',
    'webhooks.httpsOnly': 'L’indirizzo deve iniziare con https://.',
    'webhooks.unresolvable': 'Il nome host dell’indirizzo non esiste.',
    'webhooks.privateAddress': 'L’indirizzo porta a una rete privata, locale o riservata: usa un indirizzo pubblico.',
    'webhooks.tooMany': 'La tua azienda ha già {max} webhook, il massimo consentito: eliminane uno prima di aggiungerne un altro.',
    'field.webhooks.url': 'URL',
    'field.webhooks.events': 'eventi',
    'mail.webhookFailing.subject': 'Webhook in errore: le consegne a {url} sono sospese',
    'mail.webhookFailing.text':
      'Buongiorno,\n\nil portale trasporti non è riuscito a consegnare un evento al vostro webhook {url} per {window} e ha smesso di riprovare. L’endpoint è ora segnato in errore.\n\nVerificate che il ricevitore sia raggiungibile e risponda 2xx, poi reinviate le consegne fallite da Impostazioni → Webhook.\n',
  },
  fr: {
    'webhooks.created': 'Webhook ajouté : copiez maintenant son secret de signature, il ne sera plus affiché.',
    'webhooks.deleted': 'Webhook supprimé : plus rien ne lui sera envoyé.',
    'webhooks.resent': 'La livraison sera renvoyée sous peu.',
    'webhooks.stillPending': 'Cette livraison attend encore d’être envoyée : elle ne peut pas être renvoyée pour l’instant.',
    'webhooks.urlInvalid': 'L’adresse doit être une URL http(s) complète, sans nom d’utilisateur ni mot de passe.',
    'webhooks.httpsOnly': 'L’adresse doit commencer par https://.',
    'webhooks.unresolvable': 'Le nom d’hôte de l’adresse est introuvable.',
    'webhooks.privateAddress': 'L’adresse mène à un réseau privé, local ou réservé : utilisez une adresse publique.',
    'webhooks.tooMany': 'Votre entreprise a déjà {max} webhooks, le maximum autorisé : supprimez-en un avant d’en ajouter un autre.',
    'field.webhooks.url': 'URL',
    'field.webhooks.events': 'événements',
    'mail.webhookFailing.subject': 'Webhook en échec : les livraisons vers {url} sont arrêtées',
    'mail.webhookFailing.text':
      'Bonjour,\n\nle portail de transport n’a pas pu livrer un événement à votre webhook {url} pendant {window} et a cessé de réessayer. Le point de terminaison est désormais marqué en échec.\n\nVérifiez que le récepteur est joignable et répond 2xx, puis renvoyez les livraisons échouées depuis Paramètres → Webhooks.\n',
  },
});
