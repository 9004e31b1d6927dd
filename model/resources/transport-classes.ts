import { defineFields } from '../fields';
import { defineResource } from '../resource';

/** Transport class (accounts document §3): name (unique), created (a hidden column). */
export default defineResource({
  name: 'transport-classes',
  table: 'transport_classes',
  api: { admin: '/admin/transport_class' },
  routes: 'generated',
  tenancy: 'global',
  permissions: { admin: ['list', 'show', 'create', 'edit'] },
  menu: { group: 'settings-group', after: 'shipment-types' },
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
    it: { one: 'Classe di trasporto', many: 'Classi di trasporto', create: 'Nuova classe di trasporto', edit: 'Modifica classe di trasporto', empty: 'Nessuna classe di trasporto', created: 'Classe di trasporto creata con successo', updated: 'Classe di trasporto aggiornata con successo' },
    en: { one: 'Transport class', many: 'Transport classes', create: 'New transport class', edit: 'Edit transport class', empty: 'No transport class', created: 'Transport class created successfully', updated: 'Transport class updated successfully' },
    fr: { one: 'Classe de transport', many: 'Classes de transport', create: 'Nouvelle classe de transport', edit: 'Modifier la classe de transport', empty: 'Aucune classe de transport', created: 'Classe de transport créée avec succès', updated: 'Classe de transport mise à jour avec succès' },
  },
});
