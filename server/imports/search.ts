import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { RowsSpec } from '../../model/tariffs.js';

/**
 * The search of the tariff lists (issue 35): `q`, at most 100 characters, in the query schema (a longer
 * one is a 422 like any query error). Blank searches nothing.
 */
export const searchQuery = {
  q: {
    type: 'string',
    maxLength: 100,
    description:
      'Search: rows whose text columns (codes, places, zones, islands, postal codes) contain it, case-insensitively; a class word (SILVER, GOLD) matches its class',
  },
} as const;

/** A LIKE pattern containing the text, lower case, its own wildcards (% _) and the escape character escaped. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/**
 * The condition of `q` on a table's rows: any text column contains it, or an int column with words (type_id)
 * holds the class it names exactly ("gold"); null when `q` is blank. The caller keeps its tenant condition
 * (company_id, rate_sheet_id): this only narrows it. `prefix`: the table's alias, if any.
 */
export function searchCondition(spec: RowsSpec, q: string | undefined, prefix = '') {
  const text = q?.trim();
  if (!text) return null;
  const pattern = containsPattern(text);
  return (eb: ExpressionBuilder<any, any>) => {
    const any: Expression<SqlBool>[] = spec.columns
      .filter((c) => c.kind === 'text')
      .map((c) => sql<SqlBool>`lower(${sql.ref(prefix + c.name)}) like ${pattern} escape '\\'`);
    for (const c of spec.columns) {
      const n = c.words?.[text.toUpperCase()];
      if (n !== undefined) any.push(eb(prefix + c.name, '=', n));
    }
    return eb.or(any);
  };
}
