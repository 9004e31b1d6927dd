import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Uploaded files live under DATA_DIR/files/<area>/ with server-made random names (server.md §5, §8),
 * written to a temporary name and renamed, so a crash never leaves half a file under a real name.
 */
export function filesDir(dataDir: string, area: string) {
  return path.join(dataDir, 'files', area);
}

/** Writes `data` under a new random name in the area, whole or not at all (a temporary file renamed); `before` runs first with the name. */
async function writeNew(dataDir: string, area: string, data: Buffer, ext: string, before?: (dir: string, name: string) => Promise<void>): Promise<string> {
  const dir = filesDir(dataDir, area);
  await fs.mkdir(dir, { recursive: true });
  const name = `${crypto.randomBytes(16).toString('hex')}${ext}`;
  await before?.(dir, name);
  const tmp = path.join(dir, `.${name}.tmp`);
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, path.join(dir, name));
  return name;
}

export function storeFile(dataDir: string, area: string, data: Buffer, ext: string): Promise<string> {
  return writeNew(dataDir, area, data, ext);
}

export async function removeFile(dataDir: string, area: string, name: string | null | undefined) {
  if (!name || !STORED_NAME.test(name)) return;
  await fs.rm(path.join(filesDir(dataDir, area), name), { force: true });
}

/** The names storeFile makes. */
export const STORED_NAME = /^[a-f0-9]{32}\.[a-z0-9]+$/;
/** `.<name>.pending` beside a file: a transaction is about to reference it or to drop its reference. */
export const pendingMarker = (name: string) => `.${name}.pending`;

/**
 * A file and the database row naming it cannot be written atomically together: the file is written
 * first (a row never names a missing file), the transaction next. If the process dies in between, or
 * after a delete's commit but before the file is removed, the file stays with no row naming it. So
 * such a file carries a marker while its row is being written or deleted; the sweep at the next start
 * (lib/fileSweep.ts) finds stale markers and removes the file when no row names it (issue 11).
 *
 * storePendingFile: the file with its marker. Then settleFile(kept): after the commit, true (the marker
 * goes); after a rollback, false (file and marker go).
 */
export function storePendingFile(dataDir: string, area: string, data: Buffer, ext: string): Promise<string> {
  // the marker is written before the file, so a crash between the two leaves nothing unmarked
  return writeNew(dataDir, area, data, ext, (dir, name) => fs.writeFile(path.join(dir, pendingMarker(name)), ''));
}

/** Marks a stored file whose row is about to be deleted (settleFile(false) after the commit removes both). */
export async function markPending(dataDir: string, area: string, name: string | null | undefined) {
  if (!name || !STORED_NAME.test(name)) return;
  const dir = filesDir(dataDir, area);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, pendingMarker(name)), '');
}

export async function settleFile(dataDir: string, area: string, name: string | null | undefined, kept: boolean) {
  if (!name || !STORED_NAME.test(name)) return;
  if (!kept) await removeFile(dataDir, area, name);
  await fs.rm(path.join(filesDir(dataDir, area), pendingMarker(name)), { force: true });
}

/** Image kinds accepted for profile pictures and logos, recognised by their first bytes (no SVG). */
export function imageKind(data: Buffer): { ext: string; mime: string } | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: '.png', mime: 'image/png' };
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { ext: '.jpg', mime: 'image/jpeg' };
  if (data.length >= 12 && data.toString('ascii', 0, 4) === 'RIFF' && data.toString('ascii', 8, 12) === 'WEBP') return { ext: '.webp', mime: 'image/webp' };
  return null;
}
