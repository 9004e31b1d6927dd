import { defineFields } from '../fields';
import { defineResource } from '../resource';

/** Shipment type (accounts document §3): name (unique), created (a hidden column). */
export default defineResource({
  name: 'shipment-types',
  table: 'shipment_types',
  api: { admin: '/admin/shipment_types' },
  routes: 'generated',
  tenancy: 'global',
  permissions: { admin: ['list', 'show', 'create', 'edit'] },
  menu: { group: 'settings-group', after: 'document-types' },
  timestamps: true,
  createdAlias: true,
  list: { sort: 'name', search: ['name'], sortable: ['name', 'id', 'created_at'] },
  fields: defineFields({
    name: { type: 'text', required: true, maxLength: 100, unique: true },
    created: { type: 'date', readOnly: true, list: 'hidden' },
  }),
  fieldLabels: {
    it: { name: 'Nome', created: 'Creato il' },
    en: { name: 'Name', created: 'Created' },
    fr: { name: 'Nom', created: 'Créé le' },
  },
  labels: {
    it: { one: 'Tipo di spedizione', many: 'Tipi di spedizione', create: 'Nuovo tipo di spedizione', edit: 'Modifica tipo di spedizione', empty: 'Nessun tipo di spedizione', created: 'Tipo di spedizione creato con successo', updated: 'Tipo di spedizione aggiornato con successo' },
    en: { one: 'Shipment type', many: 'Shipment types', create: 'New shipment type', edit: 'Edit shipment type', empty: 'No shipment type', created: 'Shipment type created successfully', updated: 'Shipment type updated successfully' },
    fr: { one: 'Type d’expédition', many: 'Types d’expédition', create: 'Nouveau type d’expédition', edit: 'Modifier le type d’expédition', empty: 'Aucun type d’expédition', created: 'Type d’expédition créé avec succès', updated: 'Type d’expédition mis à jour avec succès' },
  },
});
