import fs from 'node:fs';
import type { FilesSetting } from '../config.js';

/**
 * A backup is one file, `*.tar.gz`: a gzip-compressed POSIX tar (server/backup/tar.ts) that any tar
 * lists and unpacks. Its entries, in this order:
 *
 *   portal-backup.json        HEADER: what it is, written first so a restore refuses a wrong archive
 *                             (another dialect, a newer portal) before reading the rest
 *   database/portal.sqlite    SQLite: the database, as SQLite's online backup API copied it
 *   database/portal.pgdump    PostgreSQL: pg_dump's custom format (uncompressed: the gzip around it
 *                             compresses), the portal's schema only
 *   files/<area>/<name>       each uploaded file, unless they live in the database (then they are in
 *                             the dump: `files_in: "database"`)
 *   manifest.json             MANIFEST: the header's fields again, the database entry's size and
 *                             SHA-256, every file with its size, SHA-256 and pending mark; written
 *                             last, when the hashes are known
 *
 * The restore checks everything against the manifest before it writes anything to the target.
 */
export const FORMAT = 'freight-portal-backup';
export const FORMAT_VERSION = 1;
export const HEADER_ENTRY = 'portal-backup.json';
export const MANIFEST_ENTRY = 'manifest.json';

export interface BackupHeader {
  format: typeof FORMAT;
  format_version: number;
  /** when the database snapshot was taken */
  created_at: string;
  /** package.json's version of the portal that made it */
  portal_version: string;
  /** the newest migration applied to the database (server/migrations/) */
  migration: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema the portal's tables were in */
  schema?: string;
  /** the file store the portal used (FILES_URL) */
  files_store: FilesSetting['kind'];
  /** where the archive keeps the files: its own entries, or the database dump (stored_files) */
  files_in: 'archive' | 'database';
  database_entry: string;
}

export interface ManifestFile {
  area: string;
  name: string;
  size: number;
  sha256: string;
  /** marked pending when copied (a transaction was naming or dropping it); the restore's sweep decides */
  pending: boolean;
}

export interface Manifest extends BackupHeader {
  database: { size: number; sha256: string };
  files: ManifestFile[];
  finished_at: string;
  /** what the archive promises, in words (server/backup/backup.ts) */
  guarantee: string;
}

export const GUARANTEE =
  'The database is one snapshot, taken at created_at. Every file a row of that snapshot names is in this archive ' +
  '(or in the dump, files_in=database) with the bytes it had: files are never rewritten, and no file was removed ' +
  'between the snapshot and its copy (the store was held). Files uploaded after the snapshot may be here too; the ' +
  'restore removes those of rate sheets and request documents no row names, and keeps such logos, pictures and ' +
  'templates (named by no row, harmless).';

export function portalVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export class BackupError extends Error {}
