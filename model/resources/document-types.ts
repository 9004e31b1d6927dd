import { defineFields } from '../fields';
import { defineResource } from '../resource';
import { NAME_FIELDS, NAME_LABELS } from './namedReference';

/**
 * Document type (accounts document §3): name (unique), description, active (default '0'), created (a hidden column);
 * its name in each language (issue 35: `it`, `en`, `fr`, NAME_FIELDS), which lists, pickers and lookups show.
 */
export default defineResource({
  name: 'document-types',
  table: 'document_types',
  api: { admin: '/admin/document_types' },
  routes: 'generated',
  tenancy: 'global',
  permissions: { admin: ['list', 'show', 'create', 'edit'] },
  menu: { group: 'settings-group', after: 'currencies' },
  timestamps: true,
  createdAlias: true,
  list: { sort: 'name', search: ['name', 'description', 'it', 'en', 'fr'], sortable: ['name', 'description', 'active', 'id', 'created_at'] },
  fields: defineFields({
    name: { type: 'text', required: true, maxLength: 100, unique: true },
    description: { type: 'text', maxLength: 255, multiline: true },
    active: { type: 'flag', default: '0' },
    created: { type: 'date', readOnly: true, list: 'hidden' },
    ...NAME_FIELDS,
  }),
  fieldLabels: {
    it: { name: 'Nome', description: 'Descrizione', active: 'Attivo', created: 'Creato il', ...NAME_LABELS.it },
    en: { name: 'Name', description: 'Description', active: 'Active', created: 'Created', ...NAME_LABELS.en },
    fr: { name: 'Nom', description: 'Description', active: 'Actif', created: 'Créé le', ...NAME_LABELS.fr },
  },
  labels: {
    it: {
      one: 'Tipo di documento',
      many: 'Tipi di documento',
      create: 'Nuovo tipo di documento',
      edit: 'Modifica tipo di documento',
      empty: 'Nessun tipo di documento',
      created: 'Tipo di documento creato con successo',
      updated: 'Tipo di documento aggiornato con successo',
    },
    en: {
      one: 'Document type',
      many: 'Document types',
      create: 'New document type',
      edit: 'Edit document type',
      empty: 'no documents',
      created: 'Document type created successfully',
      updated: 'Document type updated successfully',
    },
    fr: {
      one: 'Type de document',
      many: 'Types de document',
      create: 'Nouveau type de document',
      edit: 'Modifier le type de document',
      empty: 'Aucun type de document',
      created: 'Type de document créé avec succès',
      updated: 'Type de document mis à jour avec succès',
    },
  },
});
