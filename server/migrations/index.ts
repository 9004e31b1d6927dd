import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Migration } from 'kysely';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Every migration of this folder, in file-name order: a file `NNNN_<area>.ts` exporting `up` (and
 * `down`) is a migration by being here; nothing else lists it. Its name is the file's without the extension.
 */
export async function loadMigrations(): Promise<Record<string, Migration>> {
  const files = fs
    .readdirSync(here)
    .filter((f) => /^\d{4}_[\w-]+\.(ts|js)$/.test(f))
    .sort();
  const out: Record<string, Migration> = {};
  for (const file of files) out[file.replace(/\.(ts|js)$/, '')] = (await import(/* @vite-ignore */ `./${file.replace(/\.ts$/, '.js')}`)) as Migration;
  return out;
}
