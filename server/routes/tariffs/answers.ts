import {
  bool,
  discriminatorOf,
  importRowError,
  int,
  intN,
  list,
  nullable,
  num,
  numN,
  obj,
  sharedSchema,
  str,
  strN,
  type JsonSchema,
} from '../../lib/answers.js';
import {
  EXPRESS_RATE_ROWS,
  RATE_TYPES,
  RATE_TYPE_MEANS,
  SHEET_AREAS,
  SHEET_AREA_MEANS,
  SHEET_ZONES,
  SHEET_ZONE_MEANS,
  STANDARD_RATE_ROWS,
  storedNullable,
  type ColumnSpec,
  type RowsSpec,
} from '../../../model/tariffs.js';

/**
 * The answers of the tariff and rate-sheet routes as JSON schemas (issue 33), all derived from the one
 * declaration of each table's columns (model/tariffs.ts `TARIFF_TABLES`, `EXPRESS_RATE_ROWS`,
 * `STANDARD_RATE_ROWS`): a column added there is in every answer that carries its rows. Every object is
 * closed (`obj`), nullability is the stored column's (`storedNullable`, checked against the migrated
 * tables by tests/api/tariff-answers.test.ts), and a column with a fixed set of values (`oneOf`) is an
 * enum whose description says what each value means (`means`).
 */

/** A closed object schema (a page, `obj`) with these properties added, required too (a page's `company_id`, `sheet`). */
export const withProperties = (schema: JsonSchema, extra: Record<string, JsonSchema>): JsonSchema => ({
  ...schema,
  required: [...((schema.required as string[] | undefined) ?? []), ...Object.keys(extra)],
  properties: { ...(schema.properties as object), ...extra },
});

/** "`v`: meaning; …" of an enum's values; a value without a meaning is a declaration error (thrown at start). */
function meanings(where: string, values: readonly (string | number)[], means: Readonly<Record<string, string>> | undefined): string {
  return values
    .map((v) => {
      const m = means?.[String(v)];
      if (!m) throw new Error(`${where}: the value ${JSON.stringify(v)} has no meaning (model/tariffs.ts)`);
      return `\`${v}\`: ${m}`;
    })
    .join('; ');
}

/** An enum of these values (null added when nullable), its description saying what each means. */
export function enumSchema(
  where: string,
  values: readonly (string | number)[],
  means: Readonly<Record<string, string>> | undefined,
  opts: { nullable?: boolean; lead?: string; nullMeans?: string } = {},
): JsonSchema {
  const type = values.every((v) => typeof v === 'number') ? 'integer' : 'string';
  const description = [opts.lead, meanings(where, values, means)].filter(Boolean).join('. ');
  return opts.nullable
    ? { type: [type, 'null'], enum: [...values, null], description: `${description}; null: ${opts.nullMeans ?? 'empty'}` }
    : { type, enum: [...values], description };
}

export const rateTypeSchema = enumSchema('rate_type', RATE_TYPES, RATE_TYPE_MEANS, { lead: 'The rate type' });
export const sheetZoneSchema = enumSchema('zone', SHEET_ZONES, SHEET_ZONE_MEANS, { lead: 'The zone' });
/** The zone of the end user's standard category (null: it has none). */
export const categoryZoneSchema = enumSchema('zone', SHEET_ZONES, SHEET_ZONE_MEANS, { lead: 'The zone', nullable: true, nullMeans: 'no category' });
export const sheetAreaSchema = enumSchema('area', SHEET_AREAS, SHEET_AREA_MEANS, { lead: 'The side of the price' });

/**
 * How a row's cells are answered:
 * - `stored`: a stored row as the lists show it (routes/tariffs/tables.ts `rowOut`; the end user's rows
 *   after its adjustments): money in euros (a JSON number), decimals as their exact text, integers as
 *   numbers, text as stored; null exactly where the column may be NULL.
 * - `shown`: a row of a check (server/imports/check.ts `showRow`): the same types, and any cell may be
 *   null (an empty cell of the file, an empty stored text).
 */
type View = 'stored' | 'shown';

function cellSchema(spec: RowsSpec, c: ColumnSpec, view: View): JsonSchema {
  const nullable = view === 'shown' || storedNullable(c);
  if (c.oneOf) return enumSchema(`${spec.table}.${c.name}`, c.oneOf, c.means, { nullable });
  if (c.kind === 'money') return { type: nullable ? ['number', 'null'] : 'number', description: 'euros (stored as cents), 2 decimals' };
  if (c.kind === 'decimal') return { type: nullable ? ['string', 'null'] : 'string', description: `exact decimal text, at most ${c.scale} decimals` };
  if (c.kind === 'int') return nullable ? intN : int;
  return nullable ? strN : str;
}

/** The columns of a spec as properties (all of them, `list: false` ones too: the answers carry them). */
function cells(spec: RowsSpec, view: View, only?: readonly string[]): Record<string, JsonSchema> {
  const columns = only ? spec.columns.filter((c) => only.includes(c.name)) : spec.columns;
  return Object.fromEntries(columns.map((c) => [c.name, cellSchema(spec, c, view)]));
}

/** A stored row of one of the seven tariff tables (`selectAll`: its id and company too). */
export const tableRowSchema = (spec: RowsSpec): JsonSchema => obj({ id: int, company_id: int, ...cells(spec, 'stored') });

/** A stored row of a rate sheet (rate_sheet/rows/:id). */
export const sheetRowSchema = (spec: RowsSpec): JsonSchema => obj({ id: int, rate_sheet_id: int, ...cells(spec, 'stored') });

/** A row of the end user's own sheet: its id and the columns, money after the end user's adjustments. */
export const enduserRowSchema = (spec: RowsSpec): JsonSchema => obj({ id: int, ...cells(spec, 'stored') });

/** A rate-sheet row of either kind: express (EXP) or standard (STD), by its sheet's rate_type. */
export const anySheetRowSchema: JsonSchema = {
  description: 'An express row (the sheet’s rate_type EXP) or a standard one (STD)',
  anyOf: [sheetRowSchema(EXPRESS_RATE_ROWS), sheetRowSchema(STANDARD_RATE_ROWS)],
};

/** One change a publish would make (server/imports/check.ts `CheckChange`): its key columns, the row before and after. */
function changeSchema(spec: RowsSpec): JsonSchema {
  const row = obj(cells(spec, 'shown'));
  return obj({
    key: { ...obj(cells(spec, 'shown', spec.rowKey)), description: `The columns that identify the row: ${spec.rowKey.join(', ')}` },
    before: { ...nullable(row), description: 'The stored row; null: the row is added' },
    after: { ...nullable(row), description: 'The row of the file; null: the row is removed' },
  });
}

/**
 * The repricing of the carrier's recent requests with the proposed set (server/imports/impactFigures.ts
 * `Impact`, docs/tariff-checks.md "Impact"); null when no request is in the sample.
 */
export const impactAnswer: JsonSchema = obj({
  considered: int,
  repriced: int,
  unchanged: int,
  not_priceable: int,
  newly_priceable: { ...int, description: 'not priceable today, priceable with the proposed set' },
  median_change_percent: numN,
  max_increase_percent: numN,
  max_decrease_percent: numN,
  requests: list(
    obj({
      id: int,
      code: str,
      created_on: str,
      before: { ...num, description: 'euros, 2 decimals' },
      after: { ...num, description: 'euros, 2 decimals' },
      change_percent: num,
    }),
  ),
});

/**
 * `{status: true, data: {dry_run: true, errors, summary, changes, impact}}`: the answer of a check of a
 * file for these row kinds (server/imports/check.ts `CheckResult`; a rate sheet's are express or standard).
 */
export function dryRunAnswer(specs: readonly RowsSpec[]): JsonSchema {
  const changes = specs.length === 1 ? changeSchema(specs[0]) : { anyOf: specs.map(changeSchema) };
  return obj({
    status: bool,
    data: obj({
      dry_run: { type: 'boolean', const: true, description: 'true: a check (dry_run=1); nothing was stored' },
      errors: { ...list(importRowError), description: 'The refused cells, in row order (empty: the file can be published)' },
      summary: obj({ added: int, changed: int, removed: int, unchanged: int }),
      changes: { ...list(changes), description: 'The first changed or added rows in file order, then removed ones (TARIFF_LIMITS.listedChanges at most)' },
      impact: nullable(impactAnswer),
    }),
  });
}

/** The top-level property telling a store route's two answers apart (issue 33): a check, or what was published. */
export const OUTCOME = { checked: 'checked', published: 'published' } as const;

const withOutcome = (answer: JsonSchema, outcome: string, description: string): JsonSchema => ({
  ...answer,
  required: ['outcome', ...((answer.required as string[] | undefined) ?? [])],
  properties: { outcome: { type: 'string', enum: [outcome], description }, ...(answer.properties as Record<string, JsonSchema>) },
});

/**
 * A route's 200 that is a check or a publish, told apart by `outcome` (issue 33): a oneOf with a discriminator
 * over two named schemas (`<name>Check`, `<name>Published`), so a generated client narrows on it. `check` and
 * `publish` are the two answers without `outcome`, which is added first to each. Named schemas are registered
 * when this is called, which must be while the route modules load, before the app is built (lib/answers.ts
 * sharedSchema): the callers keep the answers in module constants. Used by the tariff stores (`storeOrCheck`)
 * and the declared resources' import (server/lib/declaredImport.ts, issue 34).
 */
export function checkedOrPublished(name: string, check: JsonSchema, publish: JsonSchema): JsonSchema {
  const checked = `${name}Check`;
  const published = `${name}Published`;
  return {
    oneOf: [
      sharedSchema({
        $id: checked,
        title: checked,
        ...withOutcome(check, OUTCOME.checked, 'A check (dry_run=1): nothing was stored; `data` says what a publish would do.'),
      }),
      sharedSchema({ $id: published, title: published, ...withOutcome(publish, OUTCOME.published, 'Stored and published.') }),
    ],
    discriminator: discriminatorOf('outcome', { [OUTCOME.checked]: checked, [OUTCOME.published]: published }),
  };
}

/** A tariff store route's 200: a check of the file for these row kinds (`dryRunAnswer`, `data.dry_run` says it too) or the publish's. */
export const storeOrCheck = (name: string, specs: readonly RowsSpec[], publish: JsonSchema): JsonSchema =>
  checkedOrPublished(name, dryRunAnswer(specs), publish);

// ---- Rate sheets -----------------------------------------------------------------------------------------

/** The columns of a stored rate sheet (table rate_sheets). */
const SHEET_COLUMNS: Record<string, JsonSchema> = {
  id: int,
  company_id: int,
  category_id: int,
  code: str,
  description: strN,
  zone: sheetZoneSchema,
  rate_type: rateTypeSchema,
  area: sheetAreaSchema,
  // pricing/sheets.ts `selectSheets`: an end user's category sheet applies whatever is_standard; the standard one stands in for the rest.
  is_standard: enumSchema('is_standard', [0, 1], {
    0: 'applies only to the end users given its category',
    1: 'also the carrier’s standard sheet: applies to end users without a category of its kind',
  }),
  validate_from: { ...str, description: 'first day it applies, YYYY-MM-DD' },
  validate_to: { ...str, description: 'last day it applies, YYYY-MM-DD' },
  file_path: { ...strN, description: 'the stored file’s name in the file store' },
  file_name: { ...strN, description: 'the uploaded file’s original name' },
  created_at: str,
  updated_at: str,
};

/** A rate sheet as stored (the publish's answer adds its `rows` count). */
export const storedSheetSchema = obj(SHEET_COLUMNS);

/** A rate sheet with its category's code (repositories/rateSheets.ts `withCategory`). */
export const sheetSchema = obj({ ...SHEET_COLUMNS, category_code: str });

/** A rate sheet in a list: with its number of rows. */
export const listedSheetSchema = obj({ ...SHEET_COLUMNS, category_code: str, rows: int });

/** The end user's view of a sheet (routes/tariffs/enduser.ts `publicSheet`): no file, no company, no area. */
export const publicSheetSchema = obj({
  id: int,
  code: str,
  description: strN,
  zone: sheetZoneSchema,
  rate_type: rateTypeSchema,
  validate_from: str,
  validate_to: str,
  category_code: str,
});
