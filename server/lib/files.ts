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

export async function storeFile(dataDir: string, area: string, data: Buffer, ext: string): Promise<string> {
  const dir = filesDir(dataDir, area);
  await fs.mkdir(dir, { recursive: true });
  const name = `${crypto.randomBytes(16).toString('hex')}${ext}`;
  const tmp = path.join(dir, `.${name}.tmp`);
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, path.join(dir, name));
  return name;
}

export async function removeFile(dataDir: string, area: string, name: string | null | undefined) {
  if (!name || !/^[a-f0-9]{32}\.[a-z0-9]+$/.test(name)) return;
  await fs.rm(path.join(filesDir(dataDir, area), name), { force: true });
}

/** Image kinds accepted for profile pictures and logos, recognised by their first bytes (no SVG). */
export function imageKind(data: Buffer): { ext: string; mime: string } | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: '.png', mime: 'image/png' };
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { ext: '.jpg', mime: 'image/jpeg' };
  if (data.length >= 12 && data.toString('ascii', 0, 4) === 'RIFF' && data.toString('ascii', 8, 12) === 'WEBP') return { ext: '.webp', mime: 'image/webp' };
  return null;
}
