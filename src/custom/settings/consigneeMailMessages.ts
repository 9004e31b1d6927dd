import type { AreaMessages } from '../../i18n';

/** Texts of the settings' consignee mail card (issue 22 item 4, docs/notifications.md). */
export const consigneeMailMessages: AreaMessages = {
  it: {
    consignee_mail: {
      title: 'E-mail ai destinatari',
      intro:
        'Quando una richiesta indica l’e-mail del destinatario, gli scriviamo a ogni cambio di stato con il link alla pagina di tracciamento. Scegli per quali stati. Il cliente che ha prenotato riceve sempre la sua e-mail.',
      status: { 1: 'Riaperta', 3: 'Confermata', 4: 'Rifiutata', 5: 'In transito', 6: 'Consegnata', 7: 'Annullata' },
    },
  },
  en: {
    consignee_mail: {
      title: 'E-mails to consignees',
      intro:
        'When a request gives the consignee’s e-mail, we write to it at each status change with a link to the tracking page. Choose for which statuses. The customer who booked always gets its own e-mail.',
      status: { 1: 'Reopened', 3: 'Confirmed', 4: 'Refused', 5: 'In transit', 6: 'Delivered', 7: 'Cancelled' },
    },
  },
  fr: {
    consignee_mail: {
      title: 'E-mails aux destinataires',
      intro:
        'Quand une demande indique l’e-mail du destinataire, nous lui écrivons à chaque changement de statut avec le lien vers la page de suivi. Choisissez pour quels statuts. Le client qui a réservé reçoit toujours son propre e-mail.',
      status: { 1: 'Rouverte', 3: 'Confirmée', 4: 'Refusée', 5: 'En transit', 6: 'Livrée', 7: 'Annulée' },
    },
  },
};
