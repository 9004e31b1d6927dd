import type { Db } from '../db/index.js';
import type { FileStore } from './files.js';

/**
 * The file areas whose files are written around a transaction with a pending mark (lib/files.ts), and
 * the one column naming their files. Other areas (media, templates) are not swept for unreferenced
 * files: their names are kept in several tables of other areas, and a reference the sweep missed would
 * cost a live file. Their half-written temporary files are removed all the same.
 */
export const SWEPT_AREAS = {
  'rate-sheets': { table: 'rate_sheets', column: 'file_path' },
  documents: { table: 'transport_request_documents', column: 'stored_name' },
  pods: { table: 'transport_request_pods', column: 'stored_name' },
} as const;
export type SweptArea = keyof typeof SWEPT_AREAS;

/** Whether a row names the file; null when the database cannot be read. */
export async function referenced(db: Db, area: SweptArea, name: string): Promise<boolean | null> {
  const { table, column } = SWEPT_AREAS[area];
  try {
    return !!(await (db as Db)
      .selectFrom(table as 'rate_sheets')
      .select('id')
      .where(column as 'file_path', '=', name)
      .executeTakeFirst());
  } catch {
    return null;
  }
}

/**
 * After a write or delete transaction failed: the rows decide. A file a row still names stays (the
 * commit happened, e.g. the connection died after it), the others go; when the database cannot be read
 * the file keeps its mark and the sweep decides later.
 */
export async function settleAfterError(db: Db, files: FileStore, area: SweptArea, names: Array<string | null | undefined>) {
  for (const name of names) {
    if (!name) continue;
    const named = await referenced(db, area, name);
    if (named !== null) await files.settle(area, name, named);
  }
}

/**
 * Cleans what a process that died left in the file store (issue 11), whichever store it is (issue 32):
 * in the swept areas, files with a pending mark older than `minAgeMs` lose the mark when a row names
 * them and are removed when none does; in every area, temporary files older than that (a write cut
 * short; only the local store has them) are removed; files removed while a backup held the store go
 * once no backup holds it. The age keeps the sweep away from the writes of other server processes
 * still under way (several processes share the store); ORPHAN_FILE_MINUTES sets it. Answers the files
 * removed (`area/name`).
 */
export async function sweepFiles(db: Db, files: FileStore, minAgeMs: number, now = Date.now()): Promise<string[]> {
  const removed = await files.removeLeftovers(minAgeMs, now);
  for (const { area, name } of await files.pendingMarks(minAgeMs, now)) {
    if (!(area in SWEPT_AREAS)) continue;
    const named = await referenced(db, area as SweptArea, name);
    if (named === null) continue;
    const existed = (await files.size(area, name)) !== null;
    await files.settle(area, name, named);
    if (!named && existed) removed.push(`${area}/${name}`);
  }
  removed.push(...(await files.finishRemovals()));
  return removed;
}
