import { declaredResource } from '../../components/declared/declaredResource';
import { shipmentTypeFields } from '../../../model/resources/shipment-types';

/** /shipment-types (accounts document §2, admin only): name; the created column hidden. */
export default declaredResource({
  name: 'shipment-types',
  fields: shipmentTypeFields,
  api: { paths: { admin: '/admin/shipment_types' } },
  messages: {
    it: { resources: { 'shipment-types': { name: 'Tipo di spedizione |||| Tipi di spedizione', fields: { name: 'Nome', created: 'Creato il' }, create_title: 'Nuovo tipo di spedizione', edit_title: 'Modifica tipo di spedizione', empty: 'Nessun tipo di spedizione' } } },
    en: { resources: { 'shipment-types': { name: 'Shipment type |||| Shipment types', fields: { name: 'Name', created: 'Created' }, create_title: 'New shipment type', edit_title: 'Edit shipment type', empty: 'No shipment type' } } },
    fr: { resources: { 'shipment-types': { name: 'Type d’expédition |||| Types d’expédition', fields: { name: 'Nom', created: 'Créé le' }, create_title: 'Nouveau type d’expédition', edit_title: 'Modifier le type d’expédition', empty: 'Aucun type d’expédition' } } },
  },
});
