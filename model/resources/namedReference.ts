import { defineFields } from '../fields';
import { defineResource, type Lang, type ResourceLabels } from '../resource';

/**
 * The shape of the reference lists that hold only a unique name and their creation date (shipment
 * types, transport classes; accounts document §3: "id, name, created", the created column hidden):
 * admins keep them in the settings group.
 */
export function namedReference<T extends string>(o: { name: string; table: T; path: string; after: string; labels: Record<Lang, ResourceLabels> }) {
  return defineResource({
    name: o.name,
    table: o.table,
    api: { admin: o.path },
    routes: 'generated',
    tenancy: 'global',
    permissions: { admin: ['list', 'show', 'create', 'edit'] },
    menu: { group: 'settings-group', after: o.after },
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
    labels: o.labels,
  });
}
