import type { AreaMessages } from '../../i18n';
import { requestMessages } from '../transportRequests/messages';

/**
 * Texts of the public tracking page (/track, docs/tracking.md), loaded with the page's code (only the links'
 * texts, in src/i18n/shell*.ts, come with the login): TrackingPage reads them through `usePageTranslate`.
 */
export const trackingMessages: AreaMessages = {
  it: {
    tracking: {
      title: 'Traccia la spedizione',
      intro: 'Inserisci il numero della richiesta, che trovi sulla lettera di vettura, e il CAP di destinazione.',
      code: 'Numero della richiesta',
      code_help: 'Per esempio 1234',
      postal_code: 'CAP di destinazione',
      submit: 'Traccia',
      required: 'Campo obbligatorio',
      request: 'Richiesta n. %{code}',
      status: 'Stato attuale',
      history: 'Cronologia',
      history_aria: 'Cronologia della spedizione',
      empty: 'Nessun evento registrato.',
      events: {
        created: 'Richiesta creata',
        repriced: 'Richiesta aggiornata',
        edited: 'Richiesta aggiornata',
        status_changed: 'Stato: %{status}',
        document_added: 'Documento aggiunto',
      },
      statuses: requestMessages.it.requests.statuses,
      quote: 'Calcola un preventivo',
      signin: 'Accedi',
    },
  },
  en: {
    tracking: {
      title: 'Track your shipment',
      intro: 'Enter the request number, printed on the consignment note, and the destination postal code.',
      code: 'Request number',
      code_help: 'For example 1234',
      postal_code: 'Destination postal code',
      submit: 'Track',
      required: 'Required',
      request: 'Request no. %{code}',
      status: 'Current status',
      history: 'History',
      history_aria: 'History of the shipment',
      empty: 'No events recorded.',
      events: {
        created: 'Request created',
        repriced: 'Request updated',
        edited: 'Request updated',
        status_changed: 'Status: %{status}',
        document_added: 'Document added',
      },
      statuses: requestMessages.en.requests.statuses,
      quote: 'Get a quote',
      signin: 'Sign in',
    },
  },
  fr: {
    tracking: {
      title: 'Suivez votre envoi',
      intro: 'Saisissez le numéro de la demande, imprimé sur la lettre de voiture, et le code postal de destination.',
      code: 'Numéro de la demande',
      code_help: 'Par exemple 1234',
      postal_code: 'Code postal de destination',
      submit: 'Suivre',
      required: 'Champ obligatoire',
      request: 'Demande n° %{code}',
      status: 'Statut actuel',
      history: 'Historique',
      history_aria: 'Historique de l’envoi',
      empty: 'Aucun événement enregistré.',
      events: {
        created: 'Demande créée',
        repriced: 'Demande mise à jour',
        edited: 'Demande mise à jour',
        status_changed: 'Statut : %{status}',
        document_added: 'Document ajouté',
      },
      statuses: requestMessages.fr.requests.statuses,
      quote: 'Obtenir un devis',
      signin: 'Se connecter',
    },
  },
};
