import { namedReference } from './namedReference';

/** Transport class (accounts document §3): name (unique), created (a hidden column). */
export default namedReference({
  name: 'transport-classes',
  table: 'transport_classes',
  path: '/admin/transport_class',
  after: 'shipment-types',
  labels: {
    it: {
      one: 'Classe di trasporto',
      many: 'Classi di trasporto',
      create: 'Nuova classe di trasporto',
      edit: 'Modifica classe di trasporto',
      empty: 'Nessuna classe di trasporto',
      created: 'Classe di trasporto creata con successo',
      updated: 'Classe di trasporto aggiornata con successo',
    },
    en: {
      one: 'Transport class',
      many: 'Transport classes',
      create: 'New transport class',
      edit: 'Edit transport class',
      empty: 'No transport class',
      created: 'Transport class created successfully',
      updated: 'Transport class updated successfully',
    },
    fr: {
      one: 'Classe de transport',
      many: 'Classes de transport',
      create: 'Nouvelle classe de transport',
      edit: 'Modifier la classe de transport',
      empty: 'Aucune classe de transport',
      created: 'Classe de transport créée avec succès',
      updated: 'Classe de transport mise à jour avec succès',
    },
  },
});
