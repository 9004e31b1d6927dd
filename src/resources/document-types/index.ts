import { declaredResource } from '../../components/declared/declaredResource';
import { documentTypeFields } from '../../../model/resources/document-types';

/** /document-types (accounts document §2, admin only): name, description, active; the created column hidden. */
export default declaredResource({
  name: 'document-types',
  fields: documentTypeFields,
  api: { paths: { admin: '/admin/document_types' } },
  messages: {
    it: { resources: { 'document-types': { name: 'Tipo di documento |||| Tipi di documento', fields: { name: 'Nome', description: 'Descrizione', active: 'Attivo', created: 'Creato il' }, create_title: 'Nuovo tipo di documento', edit_title: 'Modifica tipo di documento', empty: 'Nessun tipo di documento' } } },
    en: { resources: { 'document-types': { name: 'Document type |||| Document types', fields: { name: 'Name', description: 'Description', active: 'Active', created: 'Created' }, create_title: 'New document type', edit_title: 'Edit document type', empty: 'no documents' } } },
    fr: { resources: { 'document-types': { name: 'Type de document |||| Types de document', fields: { name: 'Nom', description: 'Description', active: 'Actif', created: 'Créé le' }, create_title: 'Nouveau type de document', edit_title: 'Modifier le type de document', empty: 'Aucun type de document' } } },
  },
});
