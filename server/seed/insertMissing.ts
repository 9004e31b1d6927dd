import type { Db } from '../db/index.js';

/**
 * Inserts rows whose key is not there yet, so seeding is safe to run at every start. A helper of the seed
 * steps (reference, catalogue, places): it imports no step, so the steps never import each other through it.
 */
export async function insertMissing<T extends Record<string, unknown>>(db: Db, table: string, key: keyof T & string, rows: T[], batch = 200) {
  if (!rows.length) return;
  const existing = new Set((await (db as any).selectFrom(table).select(key).execute()).map((r: any) => String(r[key])));
  const missing = rows.filter((r) => !existing.has(String(r[key])));
  for (let i = 0; i < missing.length; i += batch) {
    // Another process seeding at the same moment is not an error.
    await (db as any)
      .insertInto(table)
      .values(missing.slice(i, i + batch))
      .onConflict((oc: any) => oc.column(key).doNothing())
      .execute();
  }
}
