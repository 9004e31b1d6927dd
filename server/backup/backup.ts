import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import zlib from 'node:zlib';
import type { Config } from '../config.js';
import { openDb } from '../db/index.js';
import { filesWaitingToMove } from '../lib/fileMove.js';
import { openFileStore, type FileStore } from '../lib/files.js';
import { TarWriter } from './tar.js';
import {
  BackupError,
  FORMAT,
  FORMAT_VERSION,
  GUARANTEE,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  portalVersion,
  type BackupHeader,
  type Manifest,
  type ManifestFile,
} from './manifest.js';
import { ident, pgConnection, runPgTool } from './pgTools.js';

export interface BackupOptions {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'files'>;
  /** the archive to write (never overwritten) */
  out: string;
  log?: (line: string) => void;
  /**
   * Tests: called once the database snapshot is fixed, before any file is copied. PostgreSQL: with the
   * exported snapshot's id, still open (a test reads the same snapshot); SQLite: with the copy's path.
   */
  onSnapshot?: (s: { dialect: 'sqlite' | 'postgres'; snapshotId?: string; copy?: string }) => Promise<void>;
}

/**
 * `npm run backup -- FILE` (issue 32): one archive (server/backup/manifest.ts) of a running portal.
 *
 * How it stays consistent while the portal works on:
 * 1. The file store is held (lib/files.ts `hold`): from now on no process removes a file, it marks it
 *    removed instead (rows are deleted before their files are removed, so a file a row still names at
 *    the snapshot can only be removed after this point).
 * 2. The database snapshot: SQLite's online backup API (better-sqlite3 `backup`, all pages in one step:
 *    one read transaction, which WAL lets writers work beside), or pg_dump inside an exported snapshot
 *    of a REPEATABLE READ transaction (the same snapshot also lists the database store's files).
 * 3. The files, listed after the snapshot: every file a snapshot row names was written before its row
 *    committed, so it is listed, and still there thanks to the hold. A file that vanished between the
 *    listing and its copy was removed before the hold was seen, so no snapshot row names it (skipped).
 *    With the database store the files are in the snapshot itself.
 * 4. The hold is released, the deferred removals done.
 * The promise, written into the manifest (`guarantee`): every file the snapshot's rows name is in the
 * archive with its bytes; files uploaded after the snapshot may be there too and the restore's sweep
 * drops the ones of the swept areas (rate sheets, documents).
 *
 * Choices: the archive is written to `FILE.partial` and renamed when complete, so a backup cut short is
 * never taken for one; FILE is never overwritten; with an S3 store the files are copied into the
 * archive (a bucket's own versioning or replication cannot be made to agree with a database snapshot,
 * and one file restores the whole portal); a backup refuses to run while files still wait to be moved
 * into the configured store (lib/fileMove.ts), as it would copy only one of the two places.
 */
export async function backupPortal(opts: BackupOptions): Promise<Manifest> {
  const { config, out } = opts;
  const log = opts.log ?? (() => {});
  const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
  if (fs.existsSync(out)) throw new BackupError(`${out} exists already: a backup never overwrites a file; name another`);
  if (!fs.existsSync(path.dirname(path.resolve(out)))) throw new BackupError(`the folder of ${out} does not exist`);
  const sqliteFile = path.join(config.dataDir, 'portal.sqlite');
  if (dialect === 'sqlite' && !fs.existsSync(sqliteFile)) throw new BackupError(`no portal database at ${sqliteFile} (DATA_DIR)`);

  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  const store = await openFileStore(config, db.db);
  const work = fs.mkdtempSync(path.join(path.dirname(path.resolve(out)), '.portal-backup-'));
  const partial = `${out}.partial`;
  try {
    const waiting = await filesWaitingToMove(db.db, config.dataDir, store);
    if (waiting)
      throw new BackupError(`files still wait to be moved into ${store.where} (${waiting}): start the portal once (it moves them at start), then back up`);
    const hold = await store.hold();
    let manifest: Manifest;
    try {
      const createdAt = new Date().toISOString();
      const snap = dialect === 'sqlite' ? await snapshotSqlite(sqliteFile, work, store, opts) : await snapshotPostgres(config.databaseUrl!, work, store, opts);
      log(`database snapshot taken (${dialect}, migration ${snap.migration}, ${fs.statSync(snap.file).size} bytes)`);
      const header: BackupHeader = {
        format: FORMAT,
        format_version: FORMAT_VERSION,
        created_at: createdAt,
        portal_version: portalVersion(),
        migration: snap.migration,
        dialect,
        ...(snap.schema ? { schema: snap.schema } : {}),
        files_store: store.kind,
        files_in: store.kind === 'database' ? 'database' : 'archive',
        database_entry: `database/${dialect === 'sqlite' ? 'portal.sqlite' : 'portal.pgdump'}`,
      };
      manifest = await writeArchive(partial, header, snap, store, log);
    } finally {
      await hold.release();
      await store.finishRemovals().catch(() => []);
    }
    // On the disk before it takes its name: a crash right after never leaves a complete-looking half file.
    const fd = fs.openSync(partial, 'r+');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(partial, out);
    log(`backup written to ${out}: ${manifest.files.length} files, database ${manifest.database.size} bytes`);
    return manifest;
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(work, { recursive: true, force: true });
    await store.close();
    await db.destroy();
  }
}

interface Snapshot {
  file: string;
  migration: string;
  schema?: string;
  /** the database store's files, as the snapshot has them (hashes included) */
  dbFiles?: ManifestFile[];
}

async function snapshotSqlite(file: string, work: string, store: FileStore, opts: BackupOptions): Promise<Snapshot> {
  const Database = (await import('better-sqlite3')).default;
  const copy = path.join(work, 'portal.sqlite');
  const src = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // Every page in one step: one read transaction, one instant. (In steps, a write by another connection
    // between two steps makes SQLite start over; with one step that cannot happen.)
    await src.backup(copy, { progress: () => 0x7fffffff });
  } finally {
    src.close();
  }
  const c = new Database(copy, { readonly: true });
  try {
    const migration = (c.prepare('select max(name) as m from kysely_migration').get() as { m: string | null }).m;
    if (!migration) throw new BackupError('the database has no migrations applied: not a portal database');
    let dbFiles: ManifestFile[] | undefined;
    if (store.kind === 'database') {
      dbFiles = [];
      for (const r of c.prepare('select area, name, size, pending_since, data from stored_files order by area, name').iterate() as Iterable<{
        area: string;
        name: string;
        size: number;
        pending_since: number | null;
        data: Buffer;
      }>)
        dbFiles.push({ area: r.area, name: r.name, size: Number(r.size), sha256: sha256(r.data), pending: r.pending_since !== null });
    }
    await opts.onSnapshot?.({ dialect: 'sqlite', copy });
    return { file: copy, migration, dbFiles };
  } finally {
    c.close();
  }
}

async function snapshotPostgres(databaseUrl: string, work: string, store: FileStore, opts: BackupOptions): Promise<Snapshot> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'freight-portal-backup' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshotId = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0].id;
    const schema = (await client.query<{ s: string | null }>('select current_schema() as s')).rows[0].s;
    if (!schema) throw new BackupError('DATABASE_URL names no existing schema (search_path)');
    const migration = await client
      .query<{ m: string | null }>('select max(name) as m from kysely_migration')
      .then((r) => r.rows[0].m)
      .catch(() => null);
    if (!migration) throw new BackupError(`the schema ${schema} has no portal migrations: not a portal database`);
    let dbFiles: ManifestFile[] | undefined;
    if (store.kind === 'database') {
      // Hashed inside the server, in the snapshot: the bytes never cross the connection twice.
      const rows = await client.query<{ area: string; name: string; size: string; pending: boolean; sha256: string }>(
        `select area, name, size::text as size, pending_since is not null as pending, encode(sha256(data), 'hex') as sha256
           from stored_files order by area, name`,
      );
      dbFiles = rows.rows.map((r) => ({ area: r.area, name: r.name, size: Number(r.size), sha256: r.sha256, pending: r.pending }));
    }
    await opts.onSnapshot?.({ dialect: 'postgres', snapshotId });
    const file = path.join(work, 'portal.pgdump');
    const { dbname, env } = pgConnection(databaseUrl);
    // -Z0: the archive's gzip compresses; --no-owner/--no-privileges: the restore's user owns what it makes.
    await runPgTool('pg_dump', ['--snapshot', snapshotId, '-Fc', '-Z0', '-n', ident(schema), '--no-owner', '--no-privileges', '-f', file, '-d', dbname], env);
    await client.query('COMMIT');
    return { file, migration, schema, dbFiles };
  } finally {
    await client.end().catch(() => {});
  }
}

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

async function writeArchive(partial: string, header: BackupHeader, snap: Snapshot, store: FileStore, log: (line: string) => void): Promise<Manifest> {
  const fileOut = fs.createWriteStream(partial, { flags: 'wx' });
  const gz = zlib.createGzip({ level: 6 });
  gz.pipe(fileOut);
  fileOut.on('error', (err) => gz.destroy(err));
  const tar = new TarWriter(gz);
  await tar.addBuffer(HEADER_ENTRY, Buffer.from(JSON.stringify(header, null, 2)));

  const dbHash = crypto.createHash('sha256');
  const dbSize = fs.statSync(snap.file).size;
  await tar.addStream(header.database_entry, dbSize, fs.createReadStream(snap.file), undefined, (c) => dbHash.update(c));

  let files: ManifestFile[];
  if (snap.dbFiles) files = snap.dbFiles;
  else {
    files = [];
    const listed: Array<{ area: string; name: string; pending: boolean }> = [];
    for await (const f of store.list()) listed.push(f);
    for (const f of listed) {
      const file = await store.open(f.area, f.name);
      if (!file) continue; // removed before the hold was seen: no snapshot row names it (above)
      const h = crypto.createHash('sha256');
      await tar.addStream(`files/${f.area}/${f.name}`, file.size, file.stream, undefined, (c) => h.update(c));
      files.push({ area: f.area, name: f.name, size: file.size, sha256: h.digest('hex'), pending: f.pending });
      if (files.length % 1000 === 0) log(`${files.length} of ${listed.length} files copied`);
    }
  }
  const manifest: Manifest = {
    ...header,
    database: { size: dbSize, sha256: dbHash.digest('hex') },
    files,
    finished_at: new Date().toISOString(),
    guarantee: GUARANTEE,
  };
  await tar.addBuffer(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2)));
  await tar.finish();
  gz.end();
  await once(fileOut, 'close');
  if (fileOut.errored) throw fileOut.errored;
  return manifest;
}
