import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { DbFileStore } from './fileStoreDb.js';
import { LocalFileStore, type FileStore } from './files.js';

export interface MoveLog {
  info(obj: object, msg: string): void;
}

/**
 * Moves the files a previous configuration kept elsewhere into the configured store (issue 32): from
 * DATA_DIR/files when the store is the database or a bucket (an installation that had a shared volume,
 * or SQLite's folder after moving to PostgreSQL), and from the `stored_files` table when the store is a
 * bucket or the local folder (a restored PostgreSQL backup started with FILES_URL=s3://…, or a switch
 * from one store to another). Every server start runs it before serving; with nothing to move it is one
 * directory read and one query. A bucket is never a source: moving out of one is copying its objects
 * into DATA_DIR/files by hand, then starting (README).
 *
 * File by file: the pending mark first (when the source had one: the sweep still decides about it), the
 * bytes next (put is idempotent: a file already there with its size is kept), the source's copy last.
 * So it is
 * - idempotent and resumable: a start killed anywhere leaves each file in its source, or in both (the
 *   next run finds it in the store and only removes the source's copy);
 * - safe with two processes starting at once: both may put the same file (the second finds it there)
 *   and both remove the source's copy (a removal of a missing file is nothing);
 * - never losing a file: the source's copy goes only after the store answered the put.
 * Half-written files of the folder (`.x.tmp`) older than `minAgeMs` are removed, as the sweep would
 * have; younger ones may be another process's write in progress (ORPHAN_FILE_MINUTES).
 * Answers how many files were moved.
 */
export async function moveFilesIntoStore(db: Db, dataDir: string, store: FileStore, log: MoveLog, minAgeMs = 15 * 60_000): Promise<number> {
  const sources: FileStore[] = [];
  if (store.kind !== 'local') sources.push(new LocalFileStore(dataDir));
  if (store.kind !== 'database' && (await hasStoredFiles(db))) sources.push(new DbFileStore(db));
  let moved = 0;
  for (const source of sources) {
    if (source.kind === 'local') await source.removeLeftovers(minAgeMs);
    let bytes = 0;
    let count = 0;
    for await (const f of source.list()) {
      const data = await source.read(f.area, f.name);
      if (!data) continue; // moved by another process meanwhile
      await store.put(f.area, f.name, data, { pending: f.pending });
      // The copy and its mark go; a file of the source is never under a backup's hold (a backup refuses
      // to run while files wait to be moved: server/backup/backup.ts).
      await source.settle(f.area, f.name, false);
      count++;
      bytes += data.length;
      if (count % 500 === 0) log.info({ moved: count, bytes }, `moving files from ${source.where} into ${store.where}`);
    }
    if (count) log.info({ moved: count, bytes }, `moved ${count} files from ${source.where} into ${store.where}`);
    moved += count;
  }
  return moved;
}

/** Whether files wait in a place the configured store does not read (the backup refuses to start then). */
export async function filesWaitingToMove(db: Db, dataDir: string, store: FileStore): Promise<string | null> {
  if (store.kind !== 'local') {
    for await (const f of new LocalFileStore(dataDir).list()) return `${f.area}/${f.name} under ${dataDir}/files`;
  }
  if (store.kind !== 'database' && (await hasStoredFiles(db))) return 'files in the database table stored_files';
  return null;
}

async function hasStoredFiles(db: Db): Promise<boolean> {
  try {
    return !!(await db
      .selectFrom('stored_files')
      .select(sql<number>`1`.as('x'))
      .limit(1)
      .executeTakeFirst());
  } catch {
    return false; // before migration 0023
  }
}
