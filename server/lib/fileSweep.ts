import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/index.js';
import { STORED_NAME, filesDir, settleFile } from './files.js';

/**
 * The file areas whose files are written around a transaction with a pending marker (lib/files.ts), and
 * the one column naming their files. Other areas (media, templates) are not swept for unreferenced
 * files: their names are kept in several tables of other areas, and a reference the sweep missed would
 * cost a live file. Their half-written temporary files are removed all the same.
 */
export const SWEPT_AREAS = {
  'rate-sheets': { table: 'rate_sheets', column: 'file_path' },
  documents: { table: 'transport_request_documents', column: 'stored_name' },
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
 * the file keeps its marker and the sweep decides later.
 */
export async function settleAfterError(db: Db, dataDir: string, area: SweptArea, names: Array<string | null | undefined>) {
  for (const name of names) {
    if (!name) continue;
    const named = await referenced(db, area, name);
    if (named !== null) await settleFile(dataDir, area, name, named);
  }
}

/**
 * Cleans what a process that died left under DATA_DIR/files (issue 11): in the swept areas, files with
 * a pending marker older than `minAgeMs` lose the marker when a row names them and are removed when none
 * does; in every area, temporary files older than that (a write cut short) are removed. The age keeps
 * the sweep away from the writes of other server processes still under way (README: several processes
 * share the files volume); ORPHAN_FILE_MINUTES sets it. Answers the files removed.
 */
export async function sweepFiles(db: Db, dataDir: string, minAgeMs: number, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const root = path.join(dataDir, 'files');
  const areas = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of areas) {
    if (!entry.isDirectory()) continue;
    const area = entry.name;
    const dir = filesDir(dataDir, area);
    // Only the hidden names are read: markers and temporary files start with a dot.
    for (const f of (await fs.readdir(dir)).filter((n) => n.startsWith('.'))) {
      const stat = await fs.stat(path.join(dir, f)).catch(() => null);
      if (!stat || now - stat.mtimeMs < minAgeMs) continue;
      const tmp = /^\.(.+)\.tmp$/.exec(f);
      if (tmp && STORED_NAME.test(tmp[1])) {
        await fs.rm(path.join(dir, f), { force: true });
        removed.push(`${area}/${f}`);
        continue;
      }
      const pending = /^\.(.+)\.pending$/.exec(f);
      if (!pending || !STORED_NAME.test(pending[1]) || !(area in SWEPT_AREAS)) continue;
      const name = pending[1];
      const named = await referenced(db, area as SweptArea, name);
      if (named === null) continue;
      const existed = await fs.stat(path.join(dir, name)).then(
        () => true,
        () => false,
      );
      await settleFile(dataDir, area, name, named);
      if (!named && existed) removed.push(`${area}/${name}`);
    }
  }
  return removed;
}
