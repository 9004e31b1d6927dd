import { choiceOf, type FieldDef } from '../../../model/fields.js';
import type { ResourceDecl } from '../../../model/resource.js';
import { nowIso } from '../../../server/lib/tokens.js';
import type { TestPortal } from '../helpers.js';

/**
 * Tenant A's rows of the generated company-tenancy resources (issue 34), planted straight in their tables
 * from the declarations (so a new such resource needs no line here): one for A's carrier and one for A's
 * end-user company, every text carrying "Axq" so an answer showing one to tenant B fails the marker scan.
 * Answers, per resource name, the id of each company's row (`carrier`, `enduser`): the ids tenant B's
 * calls name (declaredSweepRows).
 */
export type DeclaredIds = Record<string, { carrier: number; enduser: number }>;

function sample(f: FieldDef, field: string): unknown {
  switch (f.type) {
    case 'text':
      return `Axq ${field}`.slice(0, f.maxLength ?? 255);
    case 'email':
      return `axq.${field.replace(/[^a-z0-9]/gi, '')}@example.test`;
    case 'url':
      return 'https://axq.example.test';
    case 'integer':
      return f.min ?? 1;
    case 'money':
      return Math.max(0, Math.round((f.min ?? 1) * 100)) + (f.exclusive ? 1 : 0);
    case 'decimal':
      return String((f.min ?? 0) + 1);
    case 'boolean':
      return 1;
    case 'flag':
      return '1';
    case 'date':
      return '2026-01-15';
    case 'month':
      return '2026-01';
    case 'select':
      return choiceOf((f.options ?? [])[0]).id;
    default:
      return null; // image, file, password: nothing stored; references are set by the caller
  }
}

export async function plantDeclaredRows(p: TestPortal, decls: readonly ResourceDecl[], companies: { carrier: number; enduser: number }): Promise<DeclaredIds> {
  const db = p.db.db as any;
  const out: DeclaredIds = {};
  const company = decls.filter((d) => d.routes === 'generated' && d.tenancy === 'company');
  for (const d of company) {
    const ids = {} as { carrier: number; enduser: number };
    for (const side of ['carrier', 'enduser'] as const) {
      const row: Record<string, unknown> = { company_id: companies[side] };
      for (const [name, f] of Object.entries(d.fields)) {
        if (f.readOnly || f.type === 'password') continue;
        if (f.type === 'reference') {
          const target = decls.find((r) => r.name === f.reference?.resource);
          let id: number | null = null;
          if (target?.tenancy === 'company') id = out[target.name]?.[side] ?? null;
          else if (target) id = (await db.selectFrom(target.table).select('id').orderBy('id').executeTakeFirst())?.id ?? null;
          if (id === null && f.required) throw new Error(`${d.name}.${name}: no row to refer to for tenant A (declare the target first)`);
          row[name] = id;
          continue;
        }
        const v = sample(f, name);
        if (v !== null) row[name] = v;
      }
      if (d.timestamps) row.created_at = nowIso();
      ids[side] = Number((await db.insertInto(d.table).values(row).returning('id').executeTakeFirstOrThrow()).id);
    }
    out[d.name] = ids;
  }
  return out;
}
