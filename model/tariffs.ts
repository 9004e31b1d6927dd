/**
 * The tariff tables and rate-sheet rows, declared once (calculator document §2–3, pricing.md §1–3).
 * Plain TypeScript shared by the browser and the server: each declaration drives the xlsx template
 * (headers and example rows), the import (header matching, per-cell validation and normalisation,
 * uniqueness rules), the list (columns, money as euros, sortable columns) and the delete.
 */

/** How a cell is read. money: euros rounded half-up to the cent (stored as cents); decimal: exact text. */
export type CellKind = 'text' | 'money' | 'decimal' | 'int';

/**
 * Normalisation applied to a text cell on import:
 * - upper: trimmed, upper case;
 * - lower: trimmed, lower case;
 * - postal: upper case, spaces and hyphens removed; a numeric cell shorter than 5 digits gets its
 *   leading zeros back (Excel turns 00184 into 184; location rows are Italian, pricing.md §0);
 * - postalPrefix: like postal, and a trailing * makes it a prefix ("301*"); any other character refused;
 * - code: like postal but numeric cells are kept as written (a foreign postal prefix may be "1");
 * - province: an Italian province sigla, upper case, refused when unknown;
 * - country: ISO alpha-2, upper case;
 * - island: one of the island list's names, stored with its canonical spelling.
 */
export type Norm = 'upper' | 'lower' | 'postal' | 'postalPrefix' | 'code' | 'province' | 'country' | 'island';

export interface ColumnSpec {
  /** The header in the file (matched case-insensitively, any order) and the stored column. */
  name: string;
  kind: CellKind;
  required?: boolean;
  /** text: at most this many characters */
  maxLength?: number;
  /** decimal: digits kept after the point (rounded half-up) */
  scale?: number;
  /** int and decimal: smallest value allowed (money is never negative) */
  min?: number;
  /** the only values allowed (compared after normalisation) */
  oneOf?: readonly (string | number)[];
  norm?: Norm;
  /** false: imported and stored, not a column of the list screen */
  list?: boolean;
  /** text: the value an empty cell stands for, stored as such (postal_surcharges: an empty country is IT) */
  ifEmpty?: string;
  /**
   * The stored column allows NULL although the import requires a value (standard_no_passage.flow: its
   * column stays nullable, migration 0002). Otherwise a column is NOT NULL exactly when it is `required` or has an
   * `ifEmpty` value (`storedNullable`; tests/api/tariff-answers.test.ts checks it against the migrated tables).
   */
  nullable?: boolean;
  /** What each `oneOf` value means (the OpenAPI enum's description, the answers' documentation): one entry per value. */
  means?: Readonly<Record<string, string>>;
  /**
   * int with `oneOf`: the words a file may write instead of the numbers (matched case-insensitively), the
   * ones the screens show (type_id: SILVER, GOLD). The exports and templates write the word, the import
   * takes the word or the number, and refuses anything else naming both (issue 35).
   */
  words?: Readonly<Record<string, number>>;
}

/** The word an exported or template file writes for a column's stored value (the number itself without one). */
export function wordOf(col: ColumnSpec, value: unknown): string | undefined {
  if (!col.words || value === null || value === undefined || value === '') return undefined;
  const n = Number(value);
  return Object.keys(col.words).find((w) => col.words![w] === n);
}

/** Whether a stored column of a row may be NULL (see `ColumnSpec.nullable`). */
export const storedNullable = (c: ColumnSpec): boolean => c.nullable ?? !(c.required || c.ifEmpty !== undefined);

export type Example = Record<string, string | number | null>;

/** What the seven tables and the two kinds of rate-sheet rows have in common. */
export interface RowsSpec {
  /** Database table of the rows. */
  table: string;
  columns: readonly ColumnSpec[];
  /** At most one row per value of these columns in a set (case-insensitive). */
  unique?: readonly string[];
  /**
   * The columns that identify a row of the set: a check (dry run) pairs the file's rows with the stored
   * ones by them to tell added, changed, removed and unchanged rows apart (compared case-insensitively).
   */
  rowKey: readonly string[];
  /** At least one of these columns must be filled in each row (postal_surcharges: fixed or percent). */
  anyOf?: readonly string[];
  /** Location rows (pricing.md §0): a postal code, or a city with its province. */
  location?: boolean;
  /** Weight brackets: rows of one group may not overlap (pricing.md §3.2). */
  brackets?: { group: readonly string[]; from: string; to: string };
  /** Key of the template link (calculator document §3) and the downloaded file's name. */
  templateKey: string;
  templateFile: string;
  examples: readonly Example[];
}

export type TariffTableKey =
  | 'express_hub_costs'
  | 'express_island_zones'
  | 'express_hub_codes'
  | 'express_special_zones'
  | 'standard_special_zone'
  | 'standard_no_passage'
  | 'postal_surcharges';

export interface TariffTableSpec extends RowsSpec {
  /** Path segment under /admin and /company (calculator document §7). */
  key: TariffTableKey;
  /** The screen's route (calculator document §2). */
  route: string;
  /** Key of the list answer (server.md §1: hub codes, standard special zones and no-passage reuse express_hub_costs). */
  listKey: 'express_hub_costs' | 'island_zones' | 'special_zones' | 'postal_surcharges';
  /** Name of the multipart file field of the store call. */
  fileField: string;
}

const money = (name: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({ name, kind: 'money', ...extra });
const text = (name: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({ name, kind: 'text', maxLength: 100, ...extra });
const BANDS = ['p150', 'p300', 'p550', 'ps550', 'p1000'].map((b) => money(b));
const TYPE_ID: ColumnSpec = {
  name: 'type_id',
  kind: 'int',
  required: true,
  oneOf: [1, 2],
  means: { 1: 'the SILVER service class', 2: 'the GOLD service class' },
  // What the screens show in every language (src/resources/tariffs/messages.ts class_1, class_2).
  words: { SILVER: 1, GOLD: 2 },
};
/** IN matches the origin, OUT the destination (pricing.md §3.3, §8). */
const FLOW_MEANS = { IN: 'applies at the origin (pickup end)', OUT: 'applies at the destination (delivery end)' } as const;

export const TARIFF_TABLES: readonly TariffTableSpec[] = [
  {
    key: 'express_hub_costs',
    route: 'express-hub-costs',
    table: 'express_hub_costs',
    listKey: 'express_hub_costs',
    fileField: 'hub_costs',
    templateKey: 'cs_express_hub_costs',
    templateFile: 'express_hub_costs.xlsx',
    rowKey: ['code'],
    // One cost row per hub: pricing.md §2.2 reads "the" row of a hub.
    unique: ['code'],
    columns: [text('code', { required: true, maxLength: 50, norm: 'upper' }), money('silver'), money('gold')],
    examples: [
      { code: 'HUBMI', silver: 5, gold: 9 },
      { code: 'HUBRM', silver: 6.5, gold: 11 },
      { code: 'HUBNA', silver: 7.2, gold: 12.5 },
    ],
  },
  {
    key: 'express_island_zones',
    route: 'express-island-zones',
    table: 'express_island_zones',
    listKey: 'island_zones',
    fileField: 'island_zones',
    templateKey: 'cs_express_island_zones',
    templateFile: 'express_island_zones.xlsx',
    rowKey: ['island', 'type_id'],
    unique: ['island', 'type_id'],
    columns: [
      text('island', { required: true, norm: 'island' }),
      text('special_zone'),
      money('quintal_cost'),
      { name: 'multiplier', kind: 'decimal', scale: 4, min: 0 },
      ...BANDS,
      TYPE_ID,
    ],
    examples: [
      { island: 'Sicilia', special_zone: 'SIC', quintal_cost: 1.5, multiplier: 1.1, p150: 12, p300: 18, p550: 26, ps550: 30, p1000: 42, type_id: 1 },
      { island: 'Sicilia', special_zone: 'SIC', quintal_cost: 2, multiplier: 1.15, p150: 16, p300: 24, p550: 34, ps550: 39, p1000: 55, type_id: 2 },
      { island: 'Capri', special_zone: 'MIN', quintal_cost: 4, multiplier: 1.3, p150: 35, p300: 50, p550: 70, ps550: 80, p1000: 110, type_id: 1 },
    ],
  },
  {
    key: 'express_hub_codes',
    route: 'express-hub-codes',
    table: 'express_hub_codes',
    listKey: 'express_hub_costs',
    fileField: 'hub_codes',
    templateKey: 'cs_express_hub_codes',
    templateFile: 'express_hub_codes.xlsx',
    rowKey: ['code'],
    // A postal code or province names one hub (pricing.md §2.2): a second row for it is refused.
    unique: ['code'],
    columns: [text('code', { required: true, maxLength: 20, norm: 'postal' }), text('hub', { required: true, maxLength: 50, norm: 'upper' })],
    examples: [
      { code: 'MI', hub: 'HUBMI' },
      { code: 'RM', hub: 'HUBRM' },
      { code: '20090', hub: 'HUBMI' },
    ],
  },
  {
    key: 'express_special_zones',
    route: 'express-special-zones',
    table: 'express_special_zones',
    listKey: 'special_zones',
    fileField: 'special_zones',
    templateKey: 'cs_express_special_zones',
    templateFile: 'express_special_zones.xlsx',
    rowKey: ['province', 'city', 'postal_code'],
    location: true,
    columns: [text('province', { norm: 'province' }), text('city'), text('postal_code', { maxLength: 20, norm: 'postal' })],
    examples: [
      { province: 'VE', city: 'Venezia', postal_code: '30121' },
      { province: 'SO', city: 'Livigno', postal_code: '' },
      { province: 'AO', city: 'Courmayeur', postal_code: '11013' },
    ],
  },
  {
    key: 'standard_special_zone',
    route: 'standard-special-zones',
    table: 'standard_special_zones',
    listKey: 'express_hub_costs',
    fileField: 'standard_special_zone',
    templateKey: 'standard_special_zones',
    templateFile: 'standard_special_zones.xlsx',
    rowKey: ['code', 'province', 'city', 'postal_code'],
    location: true,
    columns: [
      text('province', { norm: 'province' }),
      text('code', { required: true, maxLength: 20, norm: 'code' }),
      text('city'),
      text('postal_code', { maxLength: 20, norm: 'postal' }),
    ],
    examples: [
      { province: 'VE', code: 'VEL', city: 'Venezia', postal_code: '30126' },
      { province: 'MI', code: 'MIC', city: 'Milano', postal_code: '20121' },
      { province: 'SO', code: 'SOM', city: 'Livigno', postal_code: '' },
    ],
  },
  {
    key: 'standard_no_passage',
    route: 'standard_no_passage',
    table: 'standard_no_passage',
    listKey: 'express_hub_costs',
    fileField: 'standard_no_passage',
    templateKey: 'standard_no_passage',
    templateFile: 'standard_no_passage.xlsx',
    rowKey: ['postal_code', 'city', 'province', 'flow'],
    location: true,
    columns: [
      text('postal_code', { maxLength: 20, norm: 'postal' }),
      text('city'),
      money('cost'),
      text('province', { norm: 'province' }),
      // IN matches the origin, OUT the destination (pricing.md §3.3); any other value would never apply.
      // Required by the import, its column nullable (migration 0002): `nullable`.
      text('flow', { required: true, nullable: true, norm: 'upper', oneOf: ['IN', 'OUT'], means: FLOW_MEANS }),
      text('special_zone'),
      text('company_iso_2', { maxLength: 2, norm: 'country', list: false }),
      text('code', { maxLength: 50 }),
      text('rate_code', { maxLength: 50, norm: 'upper' }),
      money('cost2'),
      text('col_11', { maxLength: 255 }),
    ],
    examples: [
      {
        postal_code: '30121',
        city: 'Venezia',
        cost: 25,
        province: 'VE',
        flow: 'OUT',
        special_zone: 'LAG',
        company_iso_2: 'IT',
        code: 'VE1',
        rate_code: '',
        cost2: 1.5,
        col_11: 'consegna in barca',
      },
      {
        postal_code: '',
        city: 'Livigno',
        cost: 18,
        province: 'SO',
        flow: 'OUT',
        special_zone: 'MONT',
        company_iso_2: 'IT',
        code: 'SO1',
        rate_code: '',
        cost2: 0.8,
        col_11: '',
      },
      {
        postal_code: '23030',
        city: 'Livigno',
        cost: 18,
        province: 'SO',
        flow: 'IN',
        special_zone: 'MONT',
        company_iso_2: 'IT',
        code: 'SO2',
        rate_code: '',
        cost2: 0.8,
        col_11: '',
      },
    ],
  },
  {
    // pricing.md §8: a surcharge per postal code (exact, or a prefix ending in *) and end of the shipment.
    key: 'postal_surcharges',
    route: 'postal-surcharges',
    table: 'postal_surcharges',
    listKey: 'postal_surcharges',
    fileField: 'postal_surcharges',
    templateKey: 'postal_surcharges',
    templateFile: 'postal_surcharges.xlsx',
    rowKey: ['country', 'postal_code', 'kind', 'flow'],
    unique: ['country', 'postal_code', 'kind', 'flow'],
    anyOf: ['fixed', 'percent'],
    columns: [
      text('country', { maxLength: 2, norm: 'country', ifEmpty: 'IT' }),
      text('postal_code', { required: true, maxLength: 20, norm: 'postalPrefix' }),
      text('kind', {
        required: true,
        norm: 'lower',
        oneOf: ['ztl', 'remote', 'other'],
        means: { ztl: 'a limited-traffic zone (ZTL)', remote: 'a remote or hard-to-reach area', other: 'any other surcharge' },
      }),
      // IN = the origin, OUT = the destination, empty = either end (pricing.md §8).
      text('flow', { norm: 'upper', oneOf: ['IN', 'OUT'], means: FLOW_MEANS }),
      money('fixed'),
      { name: 'percent', kind: 'decimal', scale: 4, min: 0 },
    ],
    examples: [
      { country: 'IT', postal_code: '20121', kind: 'ztl', flow: 'OUT', fixed: 15, percent: '' },
      { country: 'IT', postal_code: '301*', kind: 'ztl', flow: '', fixed: 20, percent: 2.5 },
      { country: 'IT', postal_code: '23030', kind: 'remote', flow: '', fixed: '', percent: 10 },
    ],
  },
];

export const tariffTable = (key: string) => TARIFF_TABLES.find((t) => t.key === key);
export const tariffTableByRoute = (route: string) => TARIFF_TABLES.find((t) => t.route === route);

/** Express rate rows (pricing.md §1 "Tariff files", §2.2): one row per province and type in a sheet. */
export const EXPRESS_RATE_ROWS: RowsSpec = {
  table: 'express_rate_rows',
  templateKey: 'express_rate_sheet',
  templateFile: 'express_rate_sheet.xlsx',
  rowKey: ['province', 'type_id'],
  unique: ['province', 'type_id'],
  columns: [
    text('rate_code', { maxLength: 50 }),
    text('carrier_zone', { maxLength: 50 }),
    // No pricing effect (pricing.md §1): kept as written, only upper-cased.
    text('country', { maxLength: 50, norm: 'upper' }),
    text('department'),
    text('hub', { maxLength: 50, norm: 'upper' }),
    text('province', { required: true, norm: 'province' }),
    ...BANDS,
    { name: 'leadtime', kind: 'int', min: 0 },
    TYPE_ID,
  ],
  examples: [
    {
      rate_code: 'EXP25',
      carrier_zone: 'Z1',
      country: 'IT',
      department: 'Lombardia',
      hub: 'HUBMI',
      province: 'MI',
      p150: 38,
      p300: 52,
      p550: 68,
      ps550: 75,
      p1000: 96,
      leadtime: 1,
      type_id: 1,
    },
    {
      rate_code: 'EXP25',
      carrier_zone: 'Z1',
      country: 'IT',
      department: 'Lombardia',
      hub: 'HUBMI',
      province: 'MI',
      p150: 49,
      p300: 66,
      p550: 86,
      ps550: 95,
      p1000: 121,
      leadtime: 1,
      type_id: 2,
    },
    {
      rate_code: 'EXP25',
      carrier_zone: 'Z3',
      country: 'IT',
      department: 'Lazio',
      hub: 'HUBRM',
      province: 'RM',
      p150: 56,
      p300: 80,
      p550: 104,
      ps550: 114,
      p1000: 146,
      leadtime: 2,
      type_id: 1,
    },
    {
      rate_code: 'EXP25',
      carrier_zone: 'Z3',
      country: 'IT',
      department: 'Lazio',
      hub: 'HUBRM',
      province: 'RM',
      p150: 77,
      p300: 110,
      p550: 143,
      ps550: 157,
      p1000: 200,
      leadtime: 1,
      type_id: 2,
    },
  ],
};

/** Standard rate rows (pricing.md §3.2): brackets weight_from < w <= weight_to that may not overlap within a zone. */
export const STANDARD_RATE_ROWS: RowsSpec = {
  table: 'standard_rate_rows',
  templateKey: 'standard_rate_sheet',
  templateFile: 'standard_rate_sheet.xlsx',
  rowKey: ['country', 'zone_code', 'weight_from', 'weight_to'],
  brackets: { group: ['country', 'zone_code'], from: 'weight_from', to: 'weight_to' },
  columns: [
    text('rate_code', { maxLength: 50, norm: 'upper' }),
    text('country', { required: true, maxLength: 2, norm: 'country' }),
    text('zone_code', { required: true, maxLength: 20, norm: 'code' }),
    { name: 'weight_from', kind: 'decimal', required: true, scale: 3, min: 0 },
    { name: 'weight_to', kind: 'decimal', required: true, scale: 3, min: 0 },
    money('price', { required: true }),
    text('unit', { required: true, norm: 'upper', oneOf: ['Q', 'S'], means: { Q: 'price per quintal (100 kg)', S: 'price per shipment' } }),
    money('minimum'),
    { name: 'leadtime', kind: 'int', min: 0 },
  ],
  examples: [
    { rate_code: 'STD25', country: 'IT', zone_code: 'MI', weight_from: 0, weight_to: 100, price: 28, unit: 'S', minimum: 28, leadtime: 2 },
    { rate_code: 'STD25', country: 'IT', zone_code: 'MI', weight_from: 100, weight_to: 300, price: 24.5, unit: 'Q', minimum: 30, leadtime: 2 },
    { rate_code: 'STD25', country: 'IT', zone_code: 'MI', weight_from: 300, weight_to: 1000, price: 19.8, unit: 'Q', minimum: 75, leadtime: 3 },
    { rate_code: 'STD25', country: 'FR', zone_code: '75', weight_from: 0, weight_to: 100, price: 95, unit: 'S', minimum: 95, leadtime: 4 },
    { rate_code: 'STD25', country: 'FR', zone_code: '*', weight_from: 0, weight_to: 100, price: 110, unit: 'S', minimum: 110, leadtime: 5 },
  ],
};

export const rateRowsSpec = (rateType: string): RowsSpec => (rateType === 'EXP' ? EXPRESS_RATE_ROWS : STANDARD_RATE_ROWS);

/** Every template by its link key (calculator document §3 "Template link keys"). */
export const TEMPLATES: Record<string, RowsSpec> = Object.fromEntries([...TARIFF_TABLES, EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS].map((s) => [s.templateKey, s]));

/** The columns a list screen shows. */
export const listColumns = (spec: RowsSpec) => spec.columns.filter((c) => c.list !== false);

/** Rate sheet constants (calculator document §9). */
export const RATE_TYPES = ['STD', 'EXP'] as const;
export const SHEET_ZONES = ['NAT', 'INT'] as const;
export const SHEET_AREAS = ['Customer', 'Supplier'] as const;
/** What each rate type, zone and area means (the OpenAPI enums' descriptions). */
export const RATE_TYPE_MEANS: Record<(typeof RATE_TYPES)[number], string> = {
  STD: 'standard: weight brackets per country and zone code (pricing.md §3)',
  EXP: 'express: weight bands p150…p1000 per province and service class (pricing.md §2)',
};
export const SHEET_ZONE_MEANS: Record<(typeof SHEET_ZONES)[number], string> = {
  NAT: 'national (within Italy)',
  INT: 'international (abroad; standard only)',
};
export const SHEET_AREA_MEANS: Record<(typeof SHEET_AREAS)[number], string> = {
  Customer: 'a sell sheet: what the carrier’s customers pay',
  Supplier: 'a buy sheet: what the carrier pays; only national express quotes use one',
};

/** Upload limits of tariff files (server.md §8); the server enforces them, the screens quote them. */
export const TARIFF_LIMITS = {
  /** bytes of the uploaded file */
  fileBytes: 20 * 1024 * 1024,
  /** data rows (the header row excluded) */
  rows: 200_000,
  /** changed, added or removed rows a check (dry run) lists; the summary counts them all */
  listedChanges: 200,
  /** total unzipped size of an .xlsx or .ods, read from the zip's central directory before parsing */
  unzippedBytes: 160 * 1024 * 1024,
  /** columns a row may use (cells repeated by the file counted) */
  columns: 1000,
  /** characters of one cell: Excel's own limit */
  cellChars: 32_767,
} as const;

/** The file picker's `accept` of tariff and rate-sheet uploads: the four formats the server reads. */
export const SPREADSHEET_ACCEPT = [
  '.xlsx',
  '.xls',
  '.ods',
  '.csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/vnd.oasis.opendocument.spreadsheet',
  'text/csv',
].join(',');
