import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { RESOURCES } from '../../model/registry.js';
import { storedFields, type ResourceDecl } from '../../model/resource.js';
import type { FieldDef } from '../../model/fields.js';
import { describeEachDb, type TestPortal } from './helpers.js';
import { vehicleTypes, vehicleTypesMigration } from '../fixtures/vehicleTypes.js';

/**
 * Every declaration against the table its migrations made, on SQLite and PostgreSQL (issue 17): a
 * column per stored field and no undeclared one, the declared type, NOT NULL exactly when the field is
 * required or has a default, a unique index exactly on the unique fields (hand-written resources:
 * presence and type of each declared column). A migration that drifts from its declaration (or the
 * reverse) fails here.
 */

type Column = { name: string; type: string; nullable: boolean };

async function columnsOf(p: TestPortal, table: string): Promise<Column[]> {
  const schema = p.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(p.db.db)).rows[0].s : undefined;
  const tables = await p.db.db.introspection.getTables();
  const t = tables.find((x) => x.name === table && (!schema || x.schema === schema));
  if (!t) throw new Error(`no table ${table}`);
  return t.columns.map((c) => ({ name: c.name, type: c.dataType.toLowerCase(), nullable: c.isNullable }));
}

/** The columns that carry a unique index of their own (one column, on SQLite and PostgreSQL). */
async function uniqueColumns(p: TestPortal, table: string): Promise<string[]> {
  if (p.dialect === 'sqlite') {
    const list = (await sql<{ name: string; unique: number }>`select name, "unique" from pragma_index_list(${table})`.execute(p.db.db)).rows;
    const out: string[] = [];
    for (const ix of list.filter((i) => i.unique)) {
      const cols = (await sql<{ name: string }>`select name from pragma_index_info(${ix.name})`.execute(p.db.db)).rows;
      if (cols.length === 1 && cols[0].name) out.push(cols[0].name);
    }
    return out.sort();
  }
  const rows = (
    await sql<{ col: string }>`
    select a.attname as col from pg_index i
    join pg_class t on t.oid = i.indrelid join pg_namespace n on n.oid = t.relnamespace
    join pg_attribute a on a.attrelid = t.oid and a.attnum = i.indkey[0]
    where t.relname = ${table} and n.nspname = current_schema() and i.indisunique and not i.indisprimary and i.indnatts = 1`.execute(p.db.db)
  ).rows;
  return rows.map((r) => r.col).sort();
}

const INTEGER = ['integer', 'int4', 'int8', 'int2', 'bigint', 'smallint'];
/** The column types a field's values may live in. */
function typesFor(f: FieldDef): string[] {
  if (f.type === 'integer' || f.type === 'reference' || f.type === 'money' || f.type === 'boolean') return INTEGER;
  if (f.type === 'select' && (f.options ?? []).every((o) => typeof (typeof o === 'object' ? o.id : o) === 'number')) return INTEGER;
  return ['text', 'varchar'];
}

async function drift(p: TestPortal, decl: ResourceDecl): Promise<string[]> {
  const problems: string[] = [];
  const columns = await columnsOf(p, decl.table);
  const byName = new Map(columns.map((c) => [c.name, c]));
  const fields = storedFields(decl).filter(([, f]) => !f.readOnly);
  for (const [name, f] of fields) {
    const c = byName.get(name);
    if (!c) {
      problems.push(`${decl.table}.${name}: declared, no column`);
      continue;
    }
    if (!typesFor(f).includes(c.type)) problems.push(`${decl.table}.${name}: declared ${f.type}, column ${c.type}`);
    // Hand-written resources (routes: 'custom') declare their form's rules, which may depend on the record
    // (a company's fields on its role): their columns are checked for presence and type only.
    if (decl.routes === 'custom') continue;
    const notNull = !!f.required || f.default !== undefined;
    if (c.nullable === notNull)
      problems.push(`${decl.table}.${name}: declared ${notNull ? 'NOT NULL' : 'nullable'}, column ${c.nullable ? 'nullable' : 'NOT NULL'}`);
  }
  if (decl.routes === 'custom') return problems;
  const declared = new Set([...fields.map(([n]) => n), 'id', ...(decl.timestamps ? ['created_at'] : [])]);
  for (const c of columns) if (!declared.has(c.name)) problems.push(`${decl.table}.${c.name}: a column no declaration names`);
  if (decl.timestamps && !byName.has('created_at')) problems.push(`${decl.table}: timestamps declared, no created_at column`);
  const unique = await uniqueColumns(p, decl.table);
  const wanted = fields
    .filter(([, f]) => f.unique)
    .map(([n]) => n)
    .sort();
  if (JSON.stringify(unique) !== JSON.stringify(wanted))
    problems.push(`${decl.table}: unique columns ${JSON.stringify(unique)}, declared ${JSON.stringify(wanted)}`);
  return problems;
}

describeEachDb(
  'declarations match the migrated tables',
  (p) => {
    for (const decl of [...RESOURCES, vehicleTypes] as ResourceDecl[]) {
      it(`${decl.name} (${decl.table})`, async () => {
        expect(await drift(p(), decl)).toEqual([]);
      });
    }

    it('notices a drifted declaration', async () => {
      const drifted: ResourceDecl = {
        ...vehicleTypes,
        fields: {
          ...vehicleTypes.fields,
          name: { type: 'text' },
          max_weight: { type: 'text', required: true },
          code: { type: 'text', required: true },
          colour: { type: 'text' },
        },
      };
      expect(await drift(p(), drifted)).toEqual([
        'vehicle_types.name: declared nullable, column NOT NULL',
        'vehicle_types.max_weight: declared text, column ' + (p().dialect === 'postgres' ? 'int4' : 'integer'),
        'vehicle_types.colour: declared, no column',
        'vehicle_types: unique columns ["code"], declared []',
      ]);
    });
  },
  {},
  { extraResources: [vehicleTypes], migrate: vehicleTypesMigration },
);
