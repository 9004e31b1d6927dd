import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config, FilesSetting } from '../config.js';
import type { Db } from '../db/index.js';

/**
 * Uploaded files (server.md §5, §8): tariff originals (`rate-sheets`), request documents (`documents`),
 * logos and profile pictures (`media`), the admin's spreadsheet templates (`templates`). Each is kept
 * under a server-made random name in its area, never rewritten: a changed picture is a new file.
 *
 * Where they are kept is a file store, chosen from the configuration (issue 32, FILES_URL, README):
 * - `local`: DATA_DIR/files/<area>/<name> (SQLite's default: one process, one disk);
 * - `database`: the `stored_files` table (PostgreSQL's default: every server process sees every file
 *   with no shared volume; lib/fileStoreDb.ts);
 * - `s3`: any S3-compatible object store (lib/fileStoreS3.ts).
 * Every caller goes through the same methods (`app.files`), whatever the store.
 *
 * A file and the database row naming it cannot be written atomically together (not even with the
 * database store, whose writes would otherwise have to join every caller's transaction): the file is
 * written first (a row never names a missing file), the transaction next. If the process dies in
 * between, or after a delete's commit but before the file is removed, the file stays with no row naming
 * it. So such a file carries a pending mark while its row is being written or deleted; the sweep
 * (lib/fileSweep.ts) finds stale marks and removes the file when no row names it (issue 11).
 * storePending: the file with its mark. Then settle(kept): after the commit, true (the mark goes);
 * after a rollback, false (file and mark go).
 *
 * Backups (server/backup/) hold removals: while a backup runs (`hold()`), a removed file is kept with a
 * `removed` mark and goes when no backup holds the store any more (`finishRemovals`, also run by the
 * hourly sweep). That is what lets a backup promise every file its database snapshot names, although
 * the snapshot and the file copies are taken one after the other (docs in server/backup/backup.ts).
 */
export interface FileStore {
  readonly kind: FilesSetting['kind'];
  /** Where, for logs and messages (never a credential). */
  readonly where: string;
  /** Writes `data` under a new random name in the area, whole or not at all; answers the name. */
  store(area: string, data: Buffer, ext: string): Promise<string>;
  /** store() with a pending mark, set before the file can be seen. */
  storePending(area: string, data: Buffer, ext: string): Promise<string>;
  /**
   * Writes a file under a name it already has (restore, moving between stores). Idempotent: a file of
   * that name and size is left as it is (names are random and files never rewritten); another size is an
   * error. With `pending`, the file has (or keeps) a pending mark.
   */
  put(area: string, name: string, data: Buffer, opts?: { pending?: boolean }): Promise<void>;
  /** The file as a stream with its size, or null when there is none. */
  open(area: string, name: string): Promise<{ size: number; stream: Readable } | null>;
  /** The whole file, or null. */
  read(area: string, name: string): Promise<Buffer | null>;
  /** The file's size, or null when there is none. */
  size(area: string, name: string): Promise<number | null>;
  /** Removes a file (deferred while a backup holds the store); a name storeFile cannot have made is ignored. */
  remove(area: string, name: string | null | undefined): Promise<void>;
  /** Marks a stored file whose row is about to be deleted (settle(false) after the commit removes both). */
  markPending(area: string, name: string | null | undefined): Promise<void>;
  settle(area: string, name: string | null | undefined, kept: boolean): Promise<void>;
  /** Every file (not the marks nor half-written ones), with whether it is marked pending. */
  list(): AsyncIterable<StoredFile>;
  /** Files (or marks without their file) marked pending for at least `minAgeMs`. */
  pendingMarks(minAgeMs: number, now?: number): Promise<Array<{ area: string; name: string }>>;
  /** Removes half-written files older than `minAgeMs` (a write cut short); answers them as `area/.name.tmp`. */
  removeLeftovers(minAgeMs: number, now?: number): Promise<string[]>;
  /** Holds every removal until released (backups); a hold whose process died expires after HOLD_STALE_MS. */
  hold(): Promise<FileHold>;
  /** Removes the files removed under a hold, once no live hold is left; answers them as `area/name`. */
  finishRemovals(): Promise<string[]>;
  close(): Promise<void>;
}

export interface StoredFile {
  area: string;
  name: string;
  size: number;
  pending: boolean;
}

export interface FileHold {
  release(): Promise<void>;
}

/**
 * A hold not refreshed for this long belongs to a dead backup and is ignored (it is refreshed every
 * minute). Choice: 30 minutes, so a backup process whose event loop is busy for long (SQLite's one-step
 * copy of a large database blocks it) keeps its hold, and a killed backup delays removals by no more.
 */
export const HOLD_STALE_MS = 30 * 60_000;
export const HOLD_REFRESH_MS = 60_000;

/** The names storeFile makes. */
export const STORED_NAME = /^[a-f0-9]{32}\.[a-z0-9]+$/;
/** An area's name: a folder under DATA_DIR/files, a key segment in a bucket. */
export const AREA_NAME = /^[a-z][a-z0-9-]*$/;
/** `.<name>.pending` beside a file: a transaction is about to reference it or to drop its reference. */
export const pendingMarker = (name: string) => `.${name}.pending`;
/** `.<name>.removed` beside a file removed while a backup held the store. */
export const removedMarker = (name: string) => `.${name}.removed`;
export const newName = (ext: string) => `${crypto.randomBytes(16).toString('hex')}${ext}`;
const valid = (area: string, name: string | null | undefined): name is string => !!name && STORED_NAME.test(name) && AREA_NAME.test(area);

/** The folder of an area in the local store (tests and the move from a local folder). */
export function filesDir(dataDir: string, area: string) {
  return path.join(dataDir, 'files', area);
}

/** The store the configuration asks for (FILES_URL; unset: the database with PostgreSQL, else DATA_DIR/files). */
export async function openFileStore(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'files'>, db: Db): Promise<FileStore> {
  const setting = filesSetting(config);
  if (setting.kind === 'database') return new (await import('./fileStoreDb.js')).DbFileStore(db);
  if (setting.kind === 's3') return new (await import('./fileStoreS3.js')).S3FileStore(setting);
  return new LocalFileStore(config.dataDir);
}

export function filesSetting(config: Pick<Config, 'databaseUrl' | 'files'>): FilesSetting {
  return config.files ?? (config.databaseUrl ? { kind: 'database' } : { kind: 'local' });
}

/** Reads a whole stream. */
export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * DATA_DIR/files/<area>/<name>, written to a temporary name and renamed, so a crash never leaves half a
 * file under a real name. Marks are empty files beside it (`.<name>.pending`, `.<name>.removed`); holds
 * are files under `files/.holds/`, their age their modification time.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  readonly where: string;
  constructor(readonly dataDir: string) {
    this.where = path.join(dataDir, 'files');
  }

  private dir(area: string) {
    return filesDir(this.dataDir, area);
  }

  private async write(area: string, name: string, data: Buffer, pending: boolean) {
    const dir = this.dir(area);
    await fsp.mkdir(dir, { recursive: true });
    // the mark is written before the file, so a crash between the two leaves nothing unmarked
    if (pending) await fsp.writeFile(path.join(dir, pendingMarker(name)), '');
    const tmp = path.join(dir, `.${name}.tmp`);
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, path.join(dir, name));
  }

  async store(area: string, data: Buffer, ext: string) {
    const name = newName(ext);
    await this.write(area, name, data, false);
    return name;
  }

  async storePending(area: string, data: Buffer, ext: string) {
    const name = newName(ext);
    await this.write(area, name, data, true);
    return name;
  }

  async put(area: string, name: string, data: Buffer, opts: { pending?: boolean } = {}) {
    if (!valid(area, name)) throw new Error(`not a stored file's name: ${area}/${name}`);
    const size = await this.size(area, name);
    if (size === null) return this.write(area, name, data, !!opts.pending);
    if (size !== data.length) throw new Error(`${area}/${name} is stored already with another size (${size}, not ${data.length})`);
    if (opts.pending) await this.markPending(area, name);
  }

  async open(area: string, name: string) {
    if (!valid(area, name)) return null;
    const file = path.join(this.dir(area), name);
    // Opened first, then measured: a file removed in between is still read whole from the open handle.
    const handle = await fsp.open(file, 'r').catch(() => null);
    if (!handle) return null;
    const { size } = await handle.stat();
    return { size, stream: handle.createReadStream() };
  }

  async read(area: string, name: string) {
    if (!valid(area, name)) return null;
    return fsp.readFile(path.join(this.dir(area), name)).catch(() => null);
  }

  async size(area: string, name: string) {
    if (!valid(area, name)) return null;
    const stat = await fsp.stat(path.join(this.dir(area), name)).catch(() => null);
    return stat ? stat.size : null;
  }

  async remove(area: string, name: string | null | undefined) {
    if (!valid(area, name)) return;
    if (await this.held()) {
      await fsp.mkdir(this.dir(area), { recursive: true });
      await fsp.writeFile(path.join(this.dir(area), removedMarker(name)), '');
      return;
    }
    await fsp.rm(path.join(this.dir(area), name), { force: true });
  }

  async markPending(area: string, name: string | null | undefined) {
    if (!valid(area, name)) return;
    await fsp.mkdir(this.dir(area), { recursive: true });
    await fsp.writeFile(path.join(this.dir(area), pendingMarker(name)), '');
  }

  async settle(area: string, name: string | null | undefined, kept: boolean) {
    if (!valid(area, name)) return;
    if (!kept) await this.remove(area, name);
    await fsp.rm(path.join(this.dir(area), pendingMarker(name)), { force: true });
  }

  private async areas(): Promise<string[]> {
    const entries = await fsp.readdir(path.join(this.dataDir, 'files'), { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isDirectory() && AREA_NAME.test(e.name)).map((e) => e.name);
  }

  async *list(): AsyncIterable<StoredFile> {
    for (const area of await this.areas()) {
      const names = await fsp.readdir(this.dir(area)).catch(() => [] as string[]);
      const marked = new Set(names.filter((n) => n.endsWith('.pending')));
      for (const name of names.filter((n) => STORED_NAME.test(n)).sort()) {
        const size = await this.size(area, name);
        if (size !== null) yield { area, name, size, pending: marked.has(pendingMarker(name)) };
      }
    }
  }

  /** The hidden names of each area older than minAgeMs (marks and temporary files start with a dot). */
  private async *hidden(minAgeMs: number, now: number) {
    for (const area of await this.areas()) {
      const dir = this.dir(area);
      for (const f of (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith('.'))) {
        const stat = await fsp.stat(path.join(dir, f)).catch(() => null);
        // mtimeMs has sub-millisecond digits, `now` (Date.now()) none: a mark written in the current millisecond
        // is ahead of `now` by a fraction, and was left for the next run (finishRemovals(0) missed one, the tests
        // saw it about once in four runs). Whole milliseconds on both sides.
        if (stat && now - Math.floor(stat.mtimeMs) >= minAgeMs) yield { area, dir, f };
      }
    }
  }

  async pendingMarks(minAgeMs: number, now = Date.now()) {
    const out: Array<{ area: string; name: string }> = [];
    for await (const { area, f } of this.hidden(minAgeMs, now)) {
      const m = /^\.(.+)\.pending$/.exec(f);
      if (m && STORED_NAME.test(m[1])) out.push({ area, name: m[1] });
    }
    return out;
  }

  async removeLeftovers(minAgeMs: number, now = Date.now()) {
    const removed: string[] = [];
    for await (const { area, dir, f } of this.hidden(minAgeMs, now)) {
      const m = /^\.(.+)\.tmp$/.exec(f);
      if (!m || !STORED_NAME.test(m[1])) continue;
      await fsp.rm(path.join(dir, f), { force: true });
      removed.push(`${area}/${f}`);
    }
    return removed;
  }

  private holdsDir() {
    return path.join(this.dataDir, 'files', '.holds');
  }

  private async held(now = Date.now()): Promise<boolean> {
    const dir = this.holdsDir();
    for (const f of await fsp.readdir(dir).catch(() => [] as string[])) {
      const stat = await fsp.stat(path.join(dir, f)).catch(() => null);
      if (stat && now - stat.mtimeMs < HOLD_STALE_MS) return true;
    }
    return false;
  }

  async hold(): Promise<FileHold> {
    const file = path.join(this.holdsDir(), `${crypto.randomBytes(8).toString('hex')}`);
    await fsp.mkdir(this.holdsDir(), { recursive: true });
    await fsp.writeFile(file, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
    const timer = setInterval(() => {
      const t = new Date();
      fs.utimes(file, t, t, () => {});
    }, HOLD_REFRESH_MS);
    timer.unref();
    return {
      release: async () => {
        clearInterval(timer);
        await fsp.rm(file, { force: true });
      },
    };
  }

  async finishRemovals() {
    const removed: string[] = [];
    const dir = this.holdsDir();
    // Holds of dead backups go first; a live one keeps every removal waiting.
    for (const f of await fsp.readdir(dir).catch(() => [] as string[])) {
      const stat = await fsp.stat(path.join(dir, f)).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs >= HOLD_STALE_MS) await fsp.rm(path.join(dir, f), { force: true });
    }
    if (await this.held()) return removed;
    for await (const { area, dir: areaDir, f } of this.hidden(0, Date.now())) {
      const m = /^\.(.+)\.removed$/.exec(f);
      if (!m || !STORED_NAME.test(m[1])) continue;
      await fsp.rm(path.join(areaDir, m[1]), { force: true });
      await fsp.rm(path.join(areaDir, f), { force: true });
      removed.push(`${area}/${m[1]}`);
    }
    return removed;
  }

  async close() {}
}

/** Image kinds accepted for profile pictures and logos, recognised by their first bytes (no SVG). */
export function imageKind(data: Buffer): { ext: string; mime: string } | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: '.png', mime: 'image/png' };
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { ext: '.jpg', mime: 'image/jpeg' };
  if (data.length >= 12 && data.toString('ascii', 0, 4) === 'RIFF' && data.toString('ascii', 8, 12) === 'WEBP') return { ext: '.webp', mime: 'image/webp' };
  return null;
}
