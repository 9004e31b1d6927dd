import type { FastifyRequest } from 'fastify';
import { inSentence, type ResourceDecl } from '../../model/resource.js';
import { countDependents, isForeignKeyViolation, type Dependent } from './dependents.js';

type Db = any;

/**
 * What still refers to a row of a declared resource, for the refusal of its delete (issue 34): every
 * declared resource (registry and the app's extra ones) with a reference field naming it, counted across
 * every company (a global vehicle type used by any company's depot is in use). A foreign key this does not
 * know (a hand-written table) still refuses the delete: `deleteRow` answers that as a conflict too.
 */
export function declaredDependents(decl: ResourceDecl, all: readonly ResourceDecl[]): Dependent[] {
  const out: Dependent[] = [];
  for (const other of all) {
    const columns = Object.entries(other.fields)
      .filter(([, f]) => f.type === 'reference' && !f.readOnly && f.reference?.resource === decl.name)
      .map(([n]) => n);
    if (columns.length) out.push({ table: other.table, columns, what: other.name });
  }
  return out;
}

/** "Depositi (2), indirizzi (1)": the referring resources by their plural label in the caller's language, with counts. */
export function declaredDependentsText(req: FastifyRequest, counts: Record<string, number>, all: readonly ResourceDecl[]) {
  return Object.entries(counts)
    .map(([name, n]) => `${inSentence(all.find((r) => r.name === name)?.labels[req.lang].many ?? name)} (${n})`)
    .join(', ');
}

export type DeleteOutcome = { result: 'deleted' } | { result: 'conflict'; key: string; params?: Record<string, unknown> };

/**
 * Deletes one row unless something refers to it: counted first (so the refusal names what and how many),
 * and a foreign key refusing the delete is the same refusal, worded generally.
 */
export async function deleteRow(req: FastifyRequest, db: Db, decl: ResourceDecl, all: readonly ResourceDecl[], id: number): Promise<DeleteOutcome> {
  const counts = await countDependents(db, declaredDependents(decl, all), id);
  if (Object.keys(counts).length) return { result: 'conflict', key: 'resource.deleteBlocked', params: { what: declaredDependentsText(req, counts, all) } };
  try {
    await db.deleteFrom(decl.table).where('id', '=', id).execute();
  } catch (err) {
    if (isForeignKeyViolation(err)) return { result: 'conflict', key: 'resource.referenced' };
    throw err;
  }
  return { result: 'deleted' };
}
