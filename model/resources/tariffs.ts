import type { FieldDef, FieldsDecl } from '../fields';
import type { Lang, ResourceDecl, ResourceLabels } from '../resource';
import { RATE_TYPES, SHEET_AREAS, SHEET_ZONES, type ColumnSpec, type TariffTableKey, type TariffTableSpec } from '../tariffs';

/**
 * The tariff resources (calculator document §2 "Tariff screens", "Rate sheets", "Enduser rate sheets"):
 * the seven tariff tables are ONE declaration function over their shared schema (model/tariffs.ts: the
 * columns, templates and import rules), plus the rate sheets and the end user's rate sheets. Their routes
 * stay hand-written (server/routes/tariffs/: imports, whole-set deletes, downloads), their rows belong
 * to a carrier (`tenancy: 'custom'`); the declarations drive the permissions, the sidebar, the labels,
 * the data provider's paths and the list columns.
 */

/** The label of every tariff and rate-sheet column, per language (list headers, field names). */
export const TARIFF_COLUMN_LABELS: Record<Lang, Record<string, string>> = {
  it: {
    code: 'Codice',
    silver: 'Silver',
    gold: 'Gold',
    island: 'Isola',
    special_zone: 'Zona speciale',
    quintal_cost: 'Costo al quintale',
    multiplier: 'Moltiplicatore',
    p150: 'p150',
    p300: 'p300',
    p550: 'p550',
    ps550: 'ps550',
    p1000: 'p1000',
    type_id: 'Classe',
    hub: 'Hub',
    province: 'Provincia',
    city: 'Città',
    postal_code: 'CAP',
    cost: 'Costo',
    flow: 'Flusso',
    company_iso_2: 'Paese azienda',
    rate_code: 'Codice tariffa',
    cost2: 'Costo al quintale (cost2)',
    col_11: 'Note (col_11)',
    carrier_zone: 'Zona vettore',
    country: 'Paese',
    department: 'Dipartimento',
    leadtime: 'Resa (giorni)',
    zone_code: 'Codice zona',
    weight_from: 'Peso da (kg)',
    weight_to: 'Peso a (kg)',
    price: 'Prezzo',
    unit: 'Unità',
    minimum: 'Minimo',
    kind: 'Tipo',
    fixed: 'Fisso',
    percent: 'Percentuale',
  },
  en: {
    code: 'Code',
    silver: 'Silver',
    gold: 'Gold',
    island: 'Island',
    special_zone: 'Special zone',
    quintal_cost: 'Cost per quintal',
    multiplier: 'Multiplier',
    p150: 'p150',
    p300: 'p300',
    p550: 'p550',
    ps550: 'ps550',
    p1000: 'p1000',
    type_id: 'Class',
    hub: 'Hub',
    province: 'Province',
    city: 'City',
    postal_code: 'Postal code',
    cost: 'Cost',
    flow: 'Flow',
    company_iso_2: 'Company country',
    rate_code: 'Rate code',
    cost2: 'Cost per quintal (cost2)',
    col_11: 'Notes (col_11)',
    carrier_zone: 'Carrier zone',
    country: 'Country',
    department: 'Department',
    leadtime: 'Lead time (days)',
    zone_code: 'Zone code',
    weight_from: 'Weight from (kg)',
    weight_to: 'Weight to (kg)',
    price: 'Price',
    unit: 'Unit',
    minimum: 'Minimum',
    kind: 'Kind',
    fixed: 'Fixed',
    percent: 'Percent',
  },
  fr: {
    code: 'Code',
    silver: 'Silver',
    gold: 'Gold',
    island: 'Île',
    special_zone: 'Zone spéciale',
    quintal_cost: 'Coût au quintal',
    multiplier: 'Multiplicateur',
    p150: 'p150',
    p300: 'p300',
    p550: 'p550',
    ps550: 'ps550',
    p1000: 'p1000',
    type_id: 'Classe',
    hub: 'Hub',
    province: 'Province',
    city: 'Ville',
    postal_code: 'Code postal',
    cost: 'Coût',
    flow: 'Flux',
    company_iso_2: 'Pays de l’entreprise',
    rate_code: 'Code tarif',
    cost2: 'Coût au quintal (cost2)',
    col_11: 'Notes (col_11)',
    carrier_zone: 'Zone transporteur',
    country: 'Pays',
    department: 'Département',
    leadtime: 'Délai (jours)',
    zone_code: 'Code zone',
    weight_from: 'Poids de (kg)',
    weight_to: 'Poids à (kg)',
    price: 'Prix',
    unit: 'Unité',
    minimum: 'Minimum',
    kind: 'Type',
    fixed: 'Fixe',
    percent: 'Pourcentage',
  },
};

const COMPANY_LABEL: Record<Lang, string> = { it: 'Azienda', en: 'Company', fr: 'Entreprise' };

/** Each table's name (the sidebar entry and the screen's title), per language. */
export const TABLE_NAMES: Record<TariffTableKey, Record<Lang, { one: string; many: string }>> = {
  express_hub_costs: {
    it: { one: 'Costo hub', many: 'Costi hub' },
    en: { one: 'Hub cost', many: 'Hub costs' },
    fr: { one: 'Coût du hub', many: 'Coûts des hubs' },
  },
  express_island_zones: {
    it: { one: 'Zona isola', many: 'Zone isole' },
    en: { one: 'Island zone', many: 'Island zones' },
    fr: { one: 'Zone insulaire', many: 'Zones insulaires' },
  },
  express_hub_codes: { it: { one: 'Codice hub', many: 'Codici hub' }, en: { one: 'Hub code', many: 'Hub codes' }, fr: { one: 'Code hub', many: 'Codes hub' } },
  // Two different tables (express and standard): the sidebar and the titles name their service, as the
  // portal settings do ("Zone speciali express" / "Zone speciali standard").
  express_special_zones: {
    it: { one: 'Zona speciale express', many: 'Zone speciali express' },
    en: { one: 'Express special zone', many: 'Express special zones' },
    fr: { one: 'Zone spéciale express', many: 'Zones spéciales express' },
  },
  standard_special_zone: {
    it: { one: 'Zona speciale standard', many: 'Zone speciali standard' },
    en: { one: 'Standard special zone', many: 'Standard special zones' },
    fr: { one: 'Zone spéciale standard', many: 'Zones spéciales standard' },
  },
  standard_no_passage: {
    it: { one: 'Non transito', many: 'Non transito' },
    en: { one: 'No passage', many: 'No passage' },
    fr: { one: 'Non-passage', many: 'Non-passage' },
  },
  postal_surcharges: {
    it: { one: 'Supplemento CAP', many: 'Supplementi CAP' },
    en: { one: 'Postal-code surcharge', many: 'Postal-code surcharges' },
    fr: { one: 'Supplément code postal', many: 'Suppléments code postal' },
  },
};

/** Whole-set texts of a table: an import creates the set, the delete empties it (the server answers its own messages). */
function tableLabels(names: Record<Lang, { one: string; many: string }>): Record<Lang, ResourceLabels> {
  return {
    it: {
      ...names.it,
      create: `Carica "${names.it.many}"`,
      edit: names.it.one,
      empty: 'Nessun dato disponibile, aggiungi dati',
      created: 'File importato',
      updated: 'File importato',
      deleted: 'Dati eliminati',
    },
    en: {
      ...names.en,
      create: `Upload "${names.en.many}"`,
      edit: names.en.one,
      empty: 'No data available, add data',
      created: 'File imported',
      updated: 'File imported',
      deleted: 'Data deleted',
    },
    fr: {
      ...names.fr,
      create: `Envoyer « ${names.fr.many} »`,
      edit: names.fr.one,
      empty: 'Aucune donnée, ajoutez des données',
      created: 'Fichier importé',
      updated: 'Fichier importé',
      deleted: 'Données supprimées',
    },
  };
}

/**
 * A column of the shared schema as a declared field: money → `money` (cents), decimal → `decimal` with its
 * scale, int → `integer` (`select` of the classes for type_id), text → `text` with its length. `required`
 * follows the column's NOT NULL (migration 0002): a column the import requires but stored nullable
 * (`nullable`: standard_no_passage.flow) is not a required field.
 */
export function columnField(c: ColumnSpec): FieldDef {
  const required = c.required && !c.nullable ? { required: true } : {};
  const list = c.list === false ? { list: false as const } : {};
  if (c.kind === 'money') return { type: 'money', min: 0, ...required, ...list };
  if (c.kind === 'decimal') return { type: 'decimal', scale: c.scale, min: c.min, ...required, ...list };
  if (c.kind === 'int') return c.oneOf ? { type: 'select', options: c.oneOf, ...required, ...list } : { type: 'integer', min: c.min, ...required, ...list };
  return { type: 'text', maxLength: c.maxLength, upperCase: c.norm === 'upper' || undefined, options: c.oneOf, ...required, ...list };
}

/** The carrier owning a row: every tariff row and rate sheet has one (the admin's company filter). */
const COMPANY_FIELD: FieldDef = { type: 'reference', required: true, list: false, reference: { resource: 'companies', optionText: 'legal_name' } };

const WRITE: ResourceDecl['permissions'] = { admin: ['list', 'show', 'create', 'delete'], carrier: ['list', 'show', 'create', 'delete'] };

/** The sidebar: each table in its group (express, standard), in the order of model/tariffs.ts. */
const GROUP_OF: Record<TariffTableKey, 'express' | 'standard'> = {
  express_hub_costs: 'express',
  express_island_zones: 'express',
  express_hub_codes: 'express',
  express_special_zones: 'express',
  standard_special_zone: 'standard',
  standard_no_passage: 'standard',
  // beside no-passage, the other postal-code surcharge with an IN/OUT flow (pricing.md §8)
  postal_surcharges: 'standard',
};
const AFTER: Partial<Record<TariffTableKey, string>> = {
  express_island_zones: 'express-hub-costs',
  express_hub_codes: 'express-island-zones',
  express_special_zones: 'express-hub-codes',
  standard_no_passage: 'standard-special-zones',
  postal_surcharges: 'standard_no_passage',
};

/** One of the seven tariff tables as a resource, from its spec (model/tariffs.ts `TARIFF_TABLES`). */
export function tariffResource(spec: TariffTableSpec): ResourceDecl {
  const fields: FieldsDecl = { company_id: COMPANY_FIELD, ...Object.fromEntries(spec.columns.map((c) => [c.name, columnField(c)])) };
  const labelsIn = (l: Lang): Record<string, string> => ({
    company_id: COMPANY_LABEL[l],
    ...Object.fromEntries(spec.columns.map((c) => [c.name, TARIFF_COLUMN_LABELS[l][c.name]])),
  });
  const fieldLabels = { it: labelsIn('it'), en: labelsIn('en'), fr: labelsIn('fr') };
  return {
    name: spec.route,
    table: spec.table,
    api: { admin: `/admin/${spec.key}`, carrier: `/company/${spec.key}` },
    routes: 'custom',
    tenancy: 'custom',
    permissions: WRITE,
    menu: { group: GROUP_OF[spec.key], ...(AFTER[spec.key] ? { after: AFTER[spec.key] } : {}) },
    list: { sort: 'id', order: 'ASC', sortable: ['id', ...spec.columns.filter((c) => c.list !== false).map((c) => c.name)] },
    fields,
    fieldLabels,
    labels: tableLabels(TABLE_NAMES[spec.key]),
  };
}

// ---- Rate sheets -----------------------------------------------------------------------------------------

/** A rate sheet (table rate_sheets): one dated version of a carrier's category, with its uploaded file. */
const RATE_SHEET_FIELDS: FieldsDecl = {
  company_id: COMPANY_FIELD,
  category_id: {
    type: 'reference',
    required: true,
    list: false,
    reference: { resource: 'categories', optionText: 'code', lookup: '/visitor/category_list_filter' },
  },
  code: { type: 'text', required: true, maxLength: 50 },
  description: { type: 'text', maxLength: 255 },
  zone: { type: 'select', required: true, options: SHEET_ZONES },
  rate_type: { type: 'select', required: true, options: RATE_TYPES },
  area: { type: 'select', required: true, options: SHEET_AREAS },
  is_standard: { type: 'boolean', default: 1 },
  validate_from: { type: 'date', required: true },
  validate_to: { type: 'date', required: true },
  file_path: { type: 'text', list: false },
  file_name: { type: 'file', list: false, accept: '.xls,.xlsx' },
  updated_at: { type: 'date', required: true, list: false },
};

const SHEET_LABELS: Record<Lang, Record<string, string>> = {
  it: {
    company_id: 'Azienda',
    category_id: 'Categoria',
    code: 'Codice',
    description: 'Descrizione',
    zone: 'Zona',
    rate_type: 'Tipo tariffa',
    area: 'Area',
    is_standard: 'Standard',
    validate_from: 'Valido dal',
    validate_to: 'Valido al',
    file_path: 'File',
    file_name: 'File',
    updated_at: 'Aggiornato il',
  },
  en: {
    company_id: 'Company',
    category_id: 'Category',
    code: 'Code',
    description: 'Description',
    zone: 'Zone',
    rate_type: 'Rate type',
    area: 'Area',
    is_standard: 'Standard',
    validate_from: 'Valid from',
    validate_to: 'Valid to',
    file_path: 'File',
    file_name: 'File',
    updated_at: 'Updated',
  },
  fr: {
    company_id: 'Entreprise',
    category_id: 'Catégorie',
    code: 'Code',
    description: 'Description',
    zone: 'Zone',
    rate_type: 'Type de tarif',
    area: 'Côté',
    is_standard: 'Standard',
    validate_from: 'Valable du',
    validate_to: 'Valable au',
    file_path: 'Fichier',
    file_name: 'Fichier',
    updated_at: 'Mis à jour le',
  },
};

export const rateSheetsResource: ResourceDecl = {
  name: 'rate-sheets',
  table: 'rate_sheets',
  api: { admin: '/admin/rate_sheet', carrier: '/company/rate_sheet' },
  routes: 'custom',
  tenancy: 'custom',
  permissions: { admin: ['list', 'show', 'create', 'edit', 'delete'], carrier: ['list', 'show', 'create', 'edit', 'delete'] },
  menu: { group: 'price-manager' },
  timestamps: true,
  list: { sort: 'validate_from', order: 'DESC' },
  fields: RATE_SHEET_FIELDS,
  fieldLabels: SHEET_LABELS,
  labels: {
    it: {
      one: 'Listino',
      many: 'Listini',
      create: 'Nuovo listino',
      edit: 'Listino',
      empty: 'Nessun listino disponibile',
      created: 'Listino salvato',
      updated: 'Listino aggiornato',
      deleted: 'Listino eliminato',
    },
    en: {
      one: 'Rate sheet',
      many: 'Rate sheets',
      create: 'New rate sheet',
      edit: 'Rate sheet',
      empty: 'No Rate Sheet Available',
      created: 'Rate sheet saved',
      updated: 'Rate sheet updated',
      deleted: 'Rate sheet deleted',
    },
    fr: {
      one: 'Grille tarifaire',
      many: 'Grilles tarifaires',
      create: 'Nouvelle grille tarifaire',
      edit: 'Grille tarifaire',
      empty: 'Aucune grille tarifaire disponible',
      created: 'Grille enregistrée',
      updated: 'Grille mise à jour',
      deleted: 'Grille supprimée',
    },
  },
};

/** The end user's applicable sheets (standard by default, or express) with its own prices: the same rows, read only. */
export const enduserRateSheetsResource: ResourceDecl = {
  name: 'enduser-rate-sheets',
  table: 'rate_sheets',
  api: { enduser: '/enduser/getMyRateSheet' },
  routes: 'custom',
  tenancy: 'custom',
  permissions: { enduser: ['list', 'show'] },
  menu: { group: 'root', after: 'request-access' },
  timestamps: true,
  fields: RATE_SHEET_FIELDS,
  fieldLabels: SHEET_LABELS,
  labels: {
    it: { one: 'Il mio listino', many: 'I miei listini', create: '', edit: '', empty: 'Nessun listino standard disponibile', created: '', updated: '' },
    en: { one: 'My rate sheet', many: 'My rate sheets', create: '', edit: '', empty: 'No Standard Rate Sheet Available', created: '', updated: '' },
    fr: {
      one: 'Ma grille tarifaire',
      many: 'Mes grilles tarifaires',
      create: '',
      edit: '',
      empty: 'Aucune grille standard disponible',
      created: '',
      updated: '',
    },
  },
};
