import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FileStore, StoredFile } from '../../server/lib/files.js';

/** Every file of a store, sorted by area and name. */
export async function listStore(files: FileStore): Promise<StoredFile[]> {
  const out: StoredFile[] = [];
  for await (const f of files.list()) out.push(f);
  return out.sort((a, b) => (a.area === b.area ? a.name.localeCompare(b.name) : a.area.localeCompare(b.area)));
}

/** The pending marks of a store, of any age, as `area/name`. */
export async function pendingNames(files: FileStore): Promise<string[]> {
  return (await files.pendingMarks(0, Date.now() + 60_000)).map((m) => `${m.area}/${m.name}`).sort();
}

/** `area/name` → sha256 of every file of a store. */
export async function storeHashes(files: FileStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listStore(files)) out[`${f.area}/${f.name}`] = sha256(await files.read(f.area, f.name));
  return out;
}

export const sha256 = (data: Buffer | null) => (data ? crypto.createHash('sha256').update(data).digest('hex') : 'missing');

/**
 * Everything a portal's file store holds: with DATA_DIR/files every path under it (marks and temporary
 * files included), otherwise every file and every pending mark. A check that must leave nothing behind
 * compares it before and after.
 */
export async function filesState(p: { app: { files: FileStore }; config: { dataDir: string } }): Promise<string[]> {
  const files = p.app.files;
  if (files.kind === 'local') {
    const dir = path.join(p.config.dataDir, 'files');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .map((d) => path.join(d.parentPath, d.name))
      .sort();
  }
  return [...(await listStore(files)).map((f) => `${f.area}/${f.name}`), ...(await pendingNames(files)).map((n) => `pending ${n}`)];
}
