import { defineFields } from '../fields';
import { defineResource, type Lang, type ResourceLabels } from '../resource';

/**
 * A reference list's name in each portal language (issue 35, item 6): text fields named after the languages, so
 * every answer that names a row of the list (a reference's `<field>_name`, the lookups) gives the caller's
 * language, the stored `name` where that one is empty (server/lib/declaredScope.ts `languageColumns`); the
 * list's own name column reads the same way (src/components/declared/DeclaredColumns.tsx). Hidden columns the
 * user may show; edited in the same form as the name.
 */
export const NAME_FIELDS = defineFields({
  it: { type: 'text', maxLength: 100, list: 'hidden' },
  en: { type: 'text', maxLength: 100, list: 'hidden' },
  fr: { type: 'text', maxLength: 100, list: 'hidden' },
});
export const NAME_LABELS: Record<Lang, Record<keyof typeof NAME_FIELDS, string>> = {
  it: { it: 'Nome italiano (it)', en: 'Nome inglese (en)', fr: 'Nome francese (fr)' },
  en: { it: 'Italian name (it)', en: 'English name (en)', fr: 'French name (fr)' },
  fr: { it: 'Nom italien (it)', en: 'Nom anglais (en)', fr: 'Nom français (fr)' },
};

/**
 * The shape of the reference lists that hold only a unique name and their creation date (shipment
 * types, transport classes; accounts document §3: "id, name, created", the created column hidden):
 * admins keep them in the settings group.
 */
export function namedReference<T extends string>(o: {
  name: string;
  table: T;
  path: string;
  after: string;
  labels: Record<Lang, ResourceLabels>;
  /** Names per language (NAME_FIELDS): the shipment types do, the transport classes (SILVER, GOLD) are codes. */
  perLanguage?: boolean;
}) {
  const own = defineFields({
    name: { type: 'text', required: true, maxLength: 100, unique: true },
    created: { type: 'date', readOnly: true, list: 'hidden' },
  });
  const labels = {
    it: { name: 'Nome', created: 'Creato il' },
    en: { name: 'Name', created: 'Created' },
    fr: { name: 'Nom', created: 'Créé le' },
  };
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
    list: { sort: 'name', search: o.perLanguage ? ['name', 'it', 'en', 'fr'] : ['name'], sortable: ['name', 'id', 'created_at'] },
    fields: o.perLanguage ? { ...own, ...NAME_FIELDS } : own,
    fieldLabels: o.perLanguage
      ? { it: { ...labels.it, ...NAME_LABELS.it }, en: { ...labels.en, ...NAME_LABELS.en }, fr: { ...labels.fr, ...NAME_LABELS.fr } }
      : labels,
    labels: o.labels,
  });
}
