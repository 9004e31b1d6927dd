import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { RESOURCES } from '../../model/registry.js';
import { storedFields, type ResourceDecl } from '../../model/resource.js';
import type { FieldDef } from '../../model/fields.js';
import { describeEachDb, type TestPortal } from './helpers.js';
import { depots, fixturesMigration, vehicleTypes } from '../fixtures/vehicleTypes.js';

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

/**
 * The unique indexes of a table, each as its columns joined by commas in index order (SQLite and PostgreSQL),
 * reduced to what declarations say: a column of its own (`code`), or a column per company
 * (`company_id,name`, issue 34). Other composite indexes are hand-written tables' business.
 */
async function uniqueColumns(p: TestPortal, table: string): Promise<string[]> {
  let indexes: string[][] = [];
  if (p.dialect === 'sqlite') {
    const list = (await sql<{ name: string; unique: number }>`select name, "unique" from pragma_index_list(${table})`.execute(p.db.db)).rows;
    for (const ix of list.filter((i) => i.unique)) {
      const cols = (await sql<{ name: string }>`select name from pragma_index_info(${ix.name}) order by seqno`.execute(p.db.db)).rows;
      indexes.push(cols.map((c) => c.name));
    }
  } else {
    const rows = (
      await sql<{ cols: string }>`
      select string_agg(a.attname, ',' order by k.ord) as cols from pg_index i
      join pg_class t on t.oid = i.indrelid join pg_namespace n on n.oid = t.relnamespace
      cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
      where t.relname = ${table} and n.nspname = current_schema() and i.indisunique and not i.indisprimary
      group by i.indexrelid`.execute(p.db.db)
    ).rows;
    indexes = rows.map((r) => r.cols.split(','));
  }
  return indexes
    .filter((cols) => cols.every(Boolean) && (cols.length === 1 || (cols.length === 2 && cols[0] === 'company_id')))
    .map((cols) => cols.join(','))
    .sort();
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
  // company tenancy (issue 34): an integer company_id NOT NULL comes with the tenancy, not among the fields
  const byCompany = decl.tenancy === 'company';
  const company = byName.get('company_id');
  if (byCompany && !company) problems.push(`${decl.table}: tenancy company, no company_id column`);
  if (byCompany && company && (!INTEGER.includes(company.type) || company.nullable))
    problems.push(`${decl.table}.company_id: wanted integer NOT NULL, column ${company.type}${company.nullable ? ' nullable' : ''}`);
  const declared = new Set([...fields.map(([n]) => n), 'id', ...(decl.timestamps ? ['created_at'] : []), ...(byCompany ? ['company_id'] : [])]);
  for (const c of columns) if (!declared.has(c.name)) problems.push(`${decl.table}.${c.name}: a column no declaration names`);
  if (decl.timestamps && !byName.has('created_at')) problems.push(`${decl.table}: timestamps declared, no created_at column`);
  const unique = await uniqueColumns(p, decl.table);
  // unique per company with company tenancy: the index is on (company_id, field)
  const wanted = fields
    .filter(([, f]) => f.unique)
    .map(([n]) => (byCompany ? `company_id,${n}` : n))
    .sort();
  if (JSON.stringify(unique) !== JSON.stringify(wanted))
    problems.push(`${decl.table}: unique columns ${JSON.stringify(unique)}, declared ${JSON.stringify(wanted)}`);
  return problems;
}

describeEachDb(
  'declarations match the migrated tables',
  (p) => {
    for (const decl of [...RESOURCES, vehicleTypes, depots] as ResourceDecl[]) {
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

    it('notices a company-tenancy declaration whose table lacks the tenancy or the per-company index', async () => {
      // vehicle types declared as a company's: no company_id, and its unique index is global
      expect(await drift(p(), { ...vehicleTypes, tenancy: 'company' } as ResourceDecl)).toEqual([
        'vehicle_types: tenancy company, no company_id column',
        'vehicle_types: unique columns ["code"], declared ["company_id,code"]',
      ]);
      // depots declared global: company_id is a column no declaration names, the per-company index is not the global one
      expect(await drift(p(), { ...depots, tenancy: 'global' } as ResourceDecl)).toEqual([
        'depots.company_id: a column no declaration names',
        'depots: unique columns ["company_id,name"], declared ["name"]',
      ]);
    });
  },
  {},
  { extraResources: [vehicleTypes, depots], migrate: fixturesMigration },
);
