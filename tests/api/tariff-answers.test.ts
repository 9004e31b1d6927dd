import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS, TARIFF_TABLES, storedNullable, type RowsSpec } from '../../model/tariffs.js';
import { sheetRowSchema, tableRowSchema } from '../../server/routes/tariffs/answers.js';
import { describeEachDb, type TestPortal } from './helpers.js';

/**
 * The tariff answers' row schemas (server/routes/tariffs/answers.ts, issue 33) against the migrated tables,
 * on SQLite and PostgreSQL: a list answers `selectAll`, so each row schema names exactly the table's columns;
 * a cell is nullable exactly where its column is (model/tariffs.ts `storedNullable`, the declaration the
 * schemas are derived from), and of the stored type (money and int in integer columns, decimals and text in
 * text ones). A column added by a migration and not declared (or the reverse) fails here.
 */

type Column = { name: string; type: string; nullable: boolean };

async function columnsOf(p: TestPortal, table: string): Promise<Column[]> {
  const schema = p.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(p.db.db)).rows[0].s : undefined;
  const t = (await p.db.db.introspection.getTables()).find((x) => x.name === table && (!schema || x.schema === schema));
  if (!t) throw new Error(`no table ${table}`);
  return t.columns.map((c) => ({ name: c.name, type: c.dataType.toLowerCase(), nullable: c.isNullable }));
}

const INTEGER = ['integer', 'int4', 'int8', 'bigint'];

function drift(spec: RowsSpec, rowSchema: Record<string, unknown>, columns: Column[]): string[] {
  const problems: string[] = [];
  const byName = new Map(columns.map((c) => [c.name, c]));
  const declared = Object.keys(rowSchema.properties as object).sort();
  const stored = columns.map((c) => c.name).sort();
  if (JSON.stringify(declared) !== JSON.stringify(stored)) problems.push(`${spec.table}: answers ${declared.join(',')}, columns ${stored.join(',')}`);
  for (const c of spec.columns) {
    const col = byName.get(c.name);
    if (!col) continue;
    if (col.nullable !== storedNullable(c))
      problems.push(`${spec.table}.${c.name}: declared ${storedNullable(c) ? 'nullable' : 'NOT NULL'}, column ${col.nullable ? 'nullable' : 'NOT NULL'}`);
    const integer = c.kind === 'money' || c.kind === 'int';
    if (integer !== INTEGER.includes(col.type)) problems.push(`${spec.table}.${c.name}: declared ${c.kind}, column ${col.type}`);
  }
  return problems;
}

describeEachDb('tariff answers match the migrated tables', (p) => {
  for (const spec of TARIFF_TABLES) {
    it(`${spec.key} (${spec.table})`, async () => {
      expect(drift(spec, tableRowSchema(spec), await columnsOf(p(), spec.table))).toEqual([]);
    });
  }
  for (const spec of [EXPRESS_RATE_ROWS, STANDARD_RATE_ROWS]) {
    it(spec.table, async () => {
      expect(drift(spec, sheetRowSchema(spec), await columnsOf(p(), spec.table))).toEqual([]);
    });
  }

  it('notices a drifted declaration', async () => {
    const hubCosts = TARIFF_TABLES.find((t) => t.key === 'express_hub_costs')!;
    const drifted: RowsSpec = {
      ...hubCosts,
      columns: [
        { ...hubCosts.columns[0], required: false },
        { ...hubCosts.columns[1], kind: 'text' },
        { name: 'bronze', kind: 'money' },
      ],
    };
    expect(drift(drifted, tableRowSchema(drifted), await columnsOf(p(), 'express_hub_costs'))).toEqual([
      'express_hub_costs: answers bronze,code,company_id,id,silver, columns code,company_id,gold,id,silver',
      'express_hub_costs.code: declared nullable, column NOT NULL',
      'express_hub_costs.silver: declared text, column ' + (p().dialect === 'postgres' ? 'int4' : 'integer'),
    ]);
  });
});
