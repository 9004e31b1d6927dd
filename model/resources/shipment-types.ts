import { namedReference } from './namedReference';

/** Shipment type (accounts document §3): name (unique), created (a hidden column). */
export default namedReference({
  name: 'shipment-types',
  table: 'shipment_types',
  path: '/admin/shipment_types',
  after: 'document-types',
  perLanguage: true,
  labels: {
    it: {
      one: 'Tipo di spedizione',
      many: 'Tipi di spedizione',
      create: 'Nuovo tipo di spedizione',
      edit: 'Modifica tipo di spedizione',
      empty: 'Nessun tipo di spedizione',
      created: 'Tipo di spedizione creato con successo',
      updated: 'Tipo di spedizione aggiornato con successo',
    },
    en: {
      one: 'Shipment type',
      many: 'Shipment types',
      create: 'New shipment type',
      edit: 'Edit shipment type',
      empty: 'No shipment type',
      created: 'Shipment type created successfully',
      updated: 'Shipment type updated successfully',
    },
    fr: {
      one: 'Type d’expédition',
      many: 'Types d’expédition',
      create: 'Nouveau type d’expédition',
      edit: 'Modifier le type d’expédition',
      empty: 'Aucun type d’expédition',
      created: 'Type d’expédition créé avec succès',
      updated: 'Type d’expédition mis à jour avec succès',
    },
  },
});
