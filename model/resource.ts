import type { FieldDef, FieldsDecl } from './fields';
import type { Kind } from './roles';

/**
 * One declaration per resource (issue 17). A resource's file under model/resources/ says everything the
 * portal needs to know about it, and both sides derive their parts from it:
 * - server: the table's row type (`RowOf`), the routes (list, show, store, update and, when declared,
 *   destroy and changeStatus) with request and answer schemas in /api/docs, the answers' messages, the
 *   field names in validation messages, the route policies;
 * - browser: the react-admin `<Resource>` (list, create and edit in modals, show), its labels in it/en/fr,
 *   the sidebar entry in its group, the data provider's paths per role;
 * - both: the permission table (`canAccess`, model/permissions.ts) and the security sweep's classification.
 * Adding a reference resource = its declaration, one line in model/registry.ts, its migration.
 * Plain TypeScript: no DOM, no Node, no React (model/tsconfig.json checks it).
 */

export type Lang = 'it' | 'en' | 'fr';
export const LANGS: readonly Lang[] = ['it', 'en', 'fr'];

export type Action = 'list' | 'show' | 'create' | 'edit' | 'delete';

/** What a resource is called, in one language. */
export interface ResourceLabels {
  /** Singular and plural ("Valuta", "Valute"): titles, the sidebar entry (plural), messages. */
  one: string;
  many: string;
  /** The sidebar entry's text when it is not `many` ("Gestione utenti"). */
  menu?: string;
  /** Modal titles and the empty list's text. */
  create: string;
  edit: string;
  empty: string;
  /** The success messages of the generated store and update (hand-written routes keep their own messages). */
  created?: string;
  updated?: string;
  deleted?: string;
  statusChanged?: string;
}

/**
 * Where the sidebar shows the resource: one of the menu's groups (src/layout/menuConfig.ts), after the entry
 * `after` names, else first in the group. `express` and `standard` are the tariff tables' sub-groups of the
 * price manager's accessories.
 */
export interface MenuPlace {
  group: 'settings-group' | 'price-manager' | 'express' | 'standard' | 'root';
  after?: string;
  /** Only for these kinds, beyond the permission check (where the documents' sidebar table differs). */
  kinds?: readonly Kind[];
}

/**
 * Who the rows belong to, for the tenancy checks and the security sweep:
 * - `global`: reference data, the same for every tenant (an admin writes it, others at most read it);
 * - `company` (issue 34): rows a company owns. The table has a `company_id` (integer, NOT NULL, not
 *   declared among the fields: it comes with the tenancy). A carrier-side or end-user caller reads and
 *   writes only its own company's rows (`req.user.company_id`; another company's id is 404, a
 *   `company_id` it sends is dropped); an admin reads all with a `company_id` filter and names the company
 *   on store. Answers carry `company_id` and `company_name`. `unique` fields are unique per company.
 * - `custom`: rows of a tenant, whose routes are written by hand with their scope (companies, users…);
 *   their sweep rows are written by hand too.
 */
export type Tenancy = 'global' | 'company' | 'custom';

export type RoutesKind = 'generated' | 'custom';

export interface ResourceDecl<F extends FieldsDecl = FieldsDecl, T extends string = string, R extends RoutesKind = RoutesKind, Y extends Tenancy = Tenancy> {
  /** The react-admin resource and the screen's route (`/currencies`), kebab-case. */
  name: string;
  /** The database table. */
  table: T;
  fields: F;
  /** Field labels per language (every field), keyed by field name. */
  fieldLabels: Record<Lang, Record<keyof F & string, string>>;
  /**
   * The words of a select's options per language (issue 34), keyed by field and option id:
   * `{it: {kind: {pickup: 'Ritiro'}}}`. Each becomes the message `optionKey(name, field, id)` on both sides
   * (browserMessages, serverMessages), which the option names as its `name`, so the list, the inputs, the
   * filters and the export show the option in the caller's language.
   */
  optionLabels?: Record<Lang, Partial<Record<keyof F & string, Record<string, string>>>>;
  labels: Record<Lang, ResourceLabels>;
  /** Actions per kind of user; absent means none. */
  permissions: Partial<Record<Kind, readonly Action[]>>;
  /** The API path of the resource for each kind that calls it (`/admin/currencies`, `/company/...`). */
  api: Partial<Record<Kind, string>>;
  /** `generated`: the server builds its routes from this declaration; `custom`: hand-written routes (the declaration still drives the rest). */
  routes: R;
  tenancy: Y;
  /** The list: default sort, the columns `q` searches, and (default: every listed field, id, created_at) the sortable ones. */
  list?: { sort?: string; order?: 'ASC' | 'DESC'; search?: readonly string[]; sortable?: readonly string[] };
  /** The sidebar entry (none when false: a resource reached from another screen). */
  menu: MenuPlace | false;
  /** The table has `created_at`, set on insert; `created` in an answer repeats it (the documents' name). */
  timestamps?: boolean;
  /** Answers also carry `created` (= created_at), as the documents name the column of some lists. */
  createdAlias?: boolean;
  /**
   * Import from a spreadsheet (issue 34): `POST {api}/import` (multipart `file`: .xlsx/.xls/.ods/.csv read by
   * the tariffs' bounded reader; `dry_run=1` checks, else applies in one transaction), rows matched by the
   * `unique` field(s) (per company with `tenancy: 'company'`), and `GET {api}/import/template` — for the
   * kinds that may create. The list offers it with the tariff screens' check-then-publish dialog.
   */
  import?: boolean;
}

/** Identity with inference: `export default defineResource({...})`. */
export const defineResource = <F extends FieldsDecl, T extends string, R extends RoutesKind, Y extends Tenancy>(
  decl: ResourceDecl<F, T, R, Y>,
): ResourceDecl<F, T, R, Y> => decl;

/** The kinds that may perform an action on a resource. */
export const kindsOf = (decl: Pick<ResourceDecl, 'permissions'>, action: Action): Kind[] =>
  (Object.keys(decl.permissions) as Kind[]).filter((k) => decl.permissions[k]?.includes(action));

/** The stored fields: what the table holds besides id and created_at (not computed aliases, not passwords, which are stored hashed). */
export const storedFields = (decl: ResourceDecl) =>
  Object.entries(decl.fields).filter(([name, f]) => !(decl.createdAlias && name === 'created' && f.readOnly) && f.type !== 'password');

/** The sortable columns of the list: declared, or every listed stored field, id and (with timestamps) created_at. */
export function sortableOf(decl: ResourceDecl): string[] {
  if (decl.list?.sortable) return [...decl.list.sortable];
  const listed = storedFields(decl)
    .filter(([, f]) => f.list !== false && f.type !== 'image' && f.type !== 'file')
    .map(([n]) => n);
  return [...listed, 'id', ...(decl.timestamps ? ['created_at'] : [])];
}

// ---- Row types (the server's Kysely tables) ----------------------------------------------------------

type ValueOf<F extends FieldDef> = F['type'] extends 'integer' | 'reference' | 'money'
  ? number
  : F['type'] extends 'boolean'
    ? number
    : F['type'] extends 'select'
      ? string | number
      : string;
type IsNullable<F extends FieldDef> = F extends { required: true } ? false : F extends { default: string | number | boolean } ? false : true;
type ColumnOf<F extends FieldDef> = IsNullable<F> extends true ? ValueOf<F> | null : ValueOf<F>;

type InputValueOf<F extends FieldDef> = F['type'] extends 'image' | 'file' ? unknown : ValueOf<F>;
type RequiredKeys<F extends FieldsDecl> = { [K in keyof F]: F[K] extends { readOnly: true } ? never : F[K] extends { required: true } ? K : never }[keyof F];
type OptionalKeys<F extends FieldsDecl> = { [K in keyof F]: F[K] extends { readOnly: true } ? never : F[K] extends { required: true } ? never : K }[keyof F];
/** A body of a declaration's fields as its schema admits it: required fields present, the others optional or null. */
export type InputOf<F extends FieldsDecl> = { [K in RequiredKeys<F>]: InputValueOf<F[K]> } & { [K in OptionalKeys<F>]?: InputValueOf<F[K]> | null };

/** Marks a column the database fills (Kysely's `Generated`), written here so model/ stays free of server packages. */
export type GeneratedColumn<T> = { readonly __select__: T; readonly __insert__: T | undefined; readonly __update__: T };

/**
 * The row of a declared table: `id`, each stored field (nullable unless required or defaulted; money in
 * integer cents, decimals as exact text) and `created_at` with timestamps.
 */
export type RowOf<D extends ResourceDecl<any, any, any, any>> = { id: GeneratedColumn<number> } & {
  [K in keyof D['fields'] as D['fields'][K] extends { readOnly: true } ? never : K]: ColumnOf<D['fields'][K]>;
} & (true extends D['timestamps'] ? { created_at: string } : unknown) &
  (D['tenancy'] extends 'company' ? { company_id: number } : unknown);

// ---- Messages ------------------------------------------------------------------------------------------

/** The message key of a select option's words (`optionLabels`): `resources.<name>.options.<field>.<id>`. */
export const optionKey = (resource: string, field: string, id: string | number) => `resources.${resource}.options.${field}.${id}`;

/** react-admin's messages of a resource (`resources.<name>.name|fields.*|create_title…`) and its sidebar label (`text-<name>`). */
export function browserMessages(decl: ResourceDecl): Record<Lang, Record<string, unknown>> {
  const out = {} as Record<Lang, Record<string, unknown>>;
  for (const l of LANGS) {
    const t = decl.labels[l];
    out[l] = {
      [`text-${decl.name}`]: t.menu ?? t.many,
      resources: {
        [decl.name]: {
          name: `${t.one} |||| ${t.many}`,
          fields: {
            ...decl.fieldLabels[l],
            id: 'ID',
            created_at: decl.fieldLabels[l].created ?? (l === 'en' ? 'Created' : l === 'fr' ? 'Créé le' : 'Creato il'),
          },
          ...(decl.optionLabels ? { options: decl.optionLabels[l] } : {}),
          create_title: t.create,
          edit_title: t.edit,
          empty: t.empty,
        },
      },
    };
  }
  return out;
}

/** Lower-cases the first letter of a label for use inside a sentence ("Nome" → "nome"), keeping acronyms ("ISO alfa-2"). */
export const inSentence = (label: string) => (/^[A-Z][a-z]/.test(label) || /^[A-ZÀ-Ý][a-zà-ÿ]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label);

/**
 * The server's messages of a resource: the answers (`resource.<name>.created|updated|deleted|statusChanged`)
 * the field names used in validation messages (`field.<name>.<field>`) and the words of select options
 * (`optionKey`, what an export shows for the option).
 */
export function serverMessages(decl: ResourceDecl): Record<Lang, Record<string, string>> {
  const out = {} as Record<Lang, Record<string, string>>;
  for (const l of LANGS) {
    const t = decl.labels[l];
    const m: Record<string, string> = {};
    if (t.created) m[`resource.${decl.name}.created`] = t.created;
    if (t.updated) m[`resource.${decl.name}.updated`] = t.updated;
    if (t.deleted) m[`resource.${decl.name}.deleted`] = t.deleted;
    if (t.statusChanged) m[`resource.${decl.name}.statusChanged`] = t.statusChanged;
    for (const [field, label] of Object.entries(decl.fieldLabels[l])) m[`field.${decl.name}.${field}`] = inSentence(label);
    for (const [field, words] of Object.entries(decl.optionLabels?.[l] ?? {}))
      for (const [id, word] of Object.entries(words ?? {})) m[optionKey(decl.name, field, id)] = word;
    out[l] = m;
  }
  return out;
}
