import { declaredResource } from '../../components/declared/declaredResource';
import { transportClassFields } from '../../../model/resources/transport-classes';

/** /transport-classes (accounts document §2, admin only): name; the created column hidden. */
export default declaredResource({
  name: 'transport-classes',
  fields: transportClassFields,
  api: { paths: { admin: '/admin/transport_class' } },
  messages: {
    it: { resources: { 'transport-classes': { name: 'Classe di trasporto |||| Classi di trasporto', fields: { name: 'Nome', created: 'Creata il' }, create_title: 'Nuova classe di trasporto', edit_title: 'Modifica classe di trasporto', empty: 'Nessuna classe di trasporto' } } },
    en: { resources: { 'transport-classes': { name: 'Transport class |||| Transport classes', fields: { name: 'Name', created: 'Created' }, create_title: 'New transport class', edit_title: 'Edit transport class', empty: 'No transport class' } } },
    fr: { resources: { 'transport-classes': { name: 'Classe de transport |||| Classes de transport', fields: { name: 'Nom', created: 'Créée le' }, create_title: 'Nouvelle classe de transport', edit_title: 'Modifier la classe de transport', empty: 'Aucune classe de transport' } } },
  },
});
