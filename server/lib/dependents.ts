import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/**
 * What still refers to a company or a user, counted before a delete so the refusal can name it
 * (README "Deleting companies and users"). Tables of other areas (requests, tickets, access requests)
 * are looked up by name and column through the database's own catalogue, so this keeps working as
 * those areas land; a reference that is missed here is still refused by the foreign keys (`isForeignKeyViolation`).
 */
export interface Dependent {
  table: string;
  columns: string[];
  what: string;
}

export const COMPANY_DEPENDENTS: Dependent[] = [
  { table: 'users', columns: ['company_id'], what: 'users' },
  { table: 'companies', columns: ['carrier_id'], what: 'customers' },
  { table: 'transport_requests', columns: ['carrier_id', 'enduser_company_id', 'enduser_id', 'company_id', 'visitor_company_id'], what: 'requests' },
  { table: 'access_requests', columns: ['carrier_id', 'company_id', 'created_company_id'], what: 'accessRequests' },
  { table: 'tickets', columns: ['enduser_company_id', 'carrier_company_id', 'company_id', 'carrier_id'], what: 'tickets' },
  { table: 'categories', columns: ['company_id'], what: 'tariffs' },
  { table: 'rate_sheets', columns: ['company_id'], what: 'tariffs' },
  { table: 'express_hub_costs', columns: ['company_id'], what: 'tariffs' },
  { table: 'express_island_zones', columns: ['company_id'], what: 'tariffs' },
  { table: 'express_hub_codes', columns: ['company_id'], what: 'tariffs' },
  { table: 'express_special_zones', columns: ['company_id'], what: 'tariffs' },
  { table: 'standard_special_zones', columns: ['company_id'], what: 'tariffs' },
  { table: 'standard_no_passage', columns: ['company_id'], what: 'tariffs' },
  { table: 'postal_surcharges', columns: ['company_id'], what: 'tariffs' },
];

export const USER_DEPENDENTS: Dependent[] = [
  { table: 'transport_requests', columns: ['user_id', 'enduser_user_id', 'created_by'], what: 'requests' },
  { table: 'tickets', columns: ['user_id', 'enduser_user_id', 'closed_by'], what: 'tickets' },
  { table: 'chat_messages', columns: ['sender_user_id'], what: 'messages' },
  { table: 'access_requests', columns: ['created_user_id', 'reviewed_by'], what: 'accessRequests' },
];

const catalogues = new WeakMap<Db, Promise<Map<string, Set<string>>>>();

/** Tables and their columns, read once per database handle. */
function catalogue(db: Db) {
  let c = catalogues.get(db);
  if (!c) {
    c = (async () => {
      // PostgreSQL lists the tables of every schema: only the one this connection works in counts.
      const current = await sql<{ s: string | null }>`select current_schema() as s`
        .execute(db)
        .then((r) => r.rows[0]?.s ?? null)
        .catch(() => null);
      const tables = (await db.introspection.getTables()).filter((t) => !current || !t.schema || t.schema === current);
      return new Map(tables.map((t) => [t.name, new Set(t.columns.map((col) => col.name))]));
    })();
    c.catch(() => catalogues.delete(db));
    catalogues.set(db, c);
  }
  return c;
}

/** Forgets the catalogue (tests that add tables after the first look). */
export const forgetCatalogue = (db: Db) => catalogues.delete(db);

/** Counts per kind (`{users: 2, tariffs: 14}`) of the rows that refer to `id`; kinds with none are left out. */
export async function countDependents(db: Db, deps: Dependent[], id: number): Promise<Record<string, number>> {
  const tables = await catalogue(db);
  const out: Record<string, number> = {};
  for (const dep of deps) {
    const cols = dep.columns.filter((c) => tables.get(dep.table)?.has(c));
    if (!cols.length) continue;
    const row = await (db as any)
      .selectFrom(dep.table)
      .select(sql<number>`count(*)`.as('n'))
      .where((eb: any) => eb.or(cols.map((c) => eb(c, '=', id))))
      .executeTakeFirst();
    const n = Number(row?.n ?? 0);
    if (n > 0) out[dep.what] = (out[dep.what] ?? 0) + n;
  }
  return out;
}

/** A delete refused by a foreign key (SQLite and PostgreSQL). */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/i.test(String(e?.message ?? ''));
}

/** A unique index refused an insert or update (SQLite and PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(String(e?.message ?? ''));
}
