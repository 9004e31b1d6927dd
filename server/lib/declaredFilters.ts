import { sql } from 'kysely';
import { choiceOf, isRangeFilter, MONTH_PATTERN, type FieldDef } from '../../model/fields.js';
import type { ResourceDecl } from '../../model/resource.js';
import { invalid } from './errors.js';
import { columnValue } from './declaredValues.js';

/**
 * The query parameters of a generated list and its export beyond paging and `q` (issue 34):
 * - each field with `filter: true`: one value (`?kind=ramp`) for select, reference, flag and boolean; a range
 *   `?<field>_from=` / `?<field>_to=` (both inclusive) for date, month, integer, decimal and money (euros, a
 *   decimal comma or point);
 * - `?ids=1,2,3`: only those rows (the list's "export selected"), at most MAX_IDS;
 * - `?company_id=` for an admin on a company-tenancy resource.
 * Declared in the query schema, so /api/docs shows them and a malformed value is a 422 like any query error.
 */

export const MAX_IDS = 1000;
const NUMBER_TEXT = '^-?[0-9]+([.,][0-9]+)?$';

type Schema = Record<string, unknown>;

function oneValueSchema(f: FieldDef): Schema {
  switch (f.type) {
    case 'select': {
      const values = (f.options ?? []).map((o) => choiceOf(o).id);
      return { type: values.every((v) => typeof v === 'number') ? 'integer' : 'string', enum: values };
    }
    case 'reference':
      return { type: 'integer', minimum: 1 };
    case 'flag':
      return { type: 'string', enum: ['0', '1'] };
    case 'boolean':
      return { type: 'boolean' };
    default:
      throw new Error(`a ${f.type} field cannot be a filter`);
  }
}

function rangeSchema(f: FieldDef): Schema {
  switch (f.type) {
    case 'date':
      return { type: 'string', format: 'date' };
    case 'month':
      return { type: 'string', pattern: MONTH_PATTERN };
    case 'integer':
      return { type: 'integer' };
    case 'money':
      return { type: 'string', pattern: NUMBER_TEXT, maxLength: 20, description: 'Euros (a decimal comma or point)' };
    default:
      return { type: 'string', pattern: NUMBER_TEXT, maxLength: 32 };
  }
}

const filterFields = (decl: ResourceDecl) => Object.entries(decl.fields).filter(([, f]) => f.filter && !f.readOnly);

/** The query schema properties of a declaration's filters (and ids; company_id for an admin on a company resource). */
export function filterQueryProperties(decl: ResourceDecl, opts: { companyFilter: boolean }): Record<string, Schema> {
  const props: Record<string, Schema> = {};
  for (const [name, f] of filterFields(decl)) {
    if (isRangeFilter(f)) {
      props[`${name}_from`] = {
        ...rangeSchema(f),
        description: `${f.type === 'money' ? 'Euros (a decimal comma or point); ' : ''}rows with ${name} at least this (inclusive)`,
      };
      props[`${name}_to`] = {
        ...rangeSchema(f),
        description: `${f.type === 'money' ? 'Euros (a decimal comma or point); ' : ''}rows with ${name} at most this (inclusive)`,
      };
    } else props[name] = { ...oneValueSchema(f), description: `Only rows with this ${name}` };
  }
  props.ids = {
    type: 'string',
    pattern: '^[0-9]+(,[0-9]+)*$',
    maxLength: MAX_IDS * 11,
    description: `Only these rows: comma-separated ids, at most ${MAX_IDS}`,
  };
  if (opts.companyFilter) props.company_id = { type: 'integer', minimum: 1, description: "Only this company's rows" };
  return props;
}

/** The largest id a row can have (a 32-bit integer column). */
const MAX_ROW_ID = 2_147_483_647;

/** The ids of `?ids=`, refused (422 on `ids`) beyond MAX_IDS. */
export function idsOf(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const ids = [...new Set(text.split(',').map(Number))];
  if (ids.length > MAX_IDS) throw invalid({ ids: { key: 'validation.maxItems', params: { limit: MAX_IDS } } });
  // Ids are 32-bit integers on PostgreSQL, which answers "out of range" (a 500) past them: as the input guard
  // bounds integer parameters (server/plugins/inputGuards.ts), an id past the bound is refused here.
  if (ids.some((id) => id > MAX_ROW_ID)) throw invalid({ ids: { key: 'validation.maximum', params: { limit: MAX_ROW_ID } } });
  return ids;
}

/** The filters of a query applied to a select of the declaration's table (columns named with the table). */
export function applyFilters(qb: any, decl: ResourceDecl, query: Record<string, unknown>) {
  const col = (name: string) => `${decl.table}.${name}`;
  for (const [name, f] of filterFields(decl)) {
    if (!isRangeFilter(f)) {
      const v = query[name];
      if (v === undefined) continue;
      qb = qb.where(col(name), '=', f.type === 'boolean' ? (v ? 1 : 0) : v);
      continue;
    }
    for (const [suffix, op] of [
      ['_from', '>='],
      ['_to', '<='],
    ] as const) {
      const raw = query[`${name}${suffix}`];
      if (raw === undefined) continue;
      const v = columnValue(f, String(raw));
      // money finer than a cent: no stored value lies between, so the bound is refused rather than rounded
      if (v === undefined) throw invalid({ [`${name}${suffix}`]: 'validation.invalid' });
      // decimals are exact text in the table: compared as numbers
      const left = f.type === 'decimal' ? sql`cast(${sql.ref(col(name))} as numeric)` : col(name);
      qb = qb.where(left, op, v);
    }
  }
  const ids = idsOf(query.ids as string | undefined);
  if (ids) qb = qb.where(col('id'), 'in', ids.length ? ids : [-1]);
  if (query.company_id !== undefined) qb = qb.where(col('company_id'), '=', query.company_id);
  return qb;
}
