import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { openDb } from '../db/index.js';
import { loadMigrations } from '../migrations/index.js';
import { moveFilesIntoStore } from '../lib/fileMove.js';
import { AREA_NAME, STORED_NAME, openFileStore, filesSetting, type FileStore } from '../lib/files.js';
import { SWEPT_AREAS, sweepFiles } from '../lib/fileSweep.js';
import { readTar } from './tar.js';
import { BackupError, FORMAT, FORMAT_VERSION, HEADER_ENTRY, MANIFEST_ENTRY, type BackupHeader, type Manifest, type ManifestFile } from './manifest.js';
import { ident, pgConnection, runPgTool } from './pgTools.js';

export interface RestoreOptions {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'files'>;
  /** the archive `npm run backup` wrote */
  file: string;
  log?: (line: string) => void;
}

export interface RestoreSummary {
  manifest: Manifest;
  /** files put into the store from the archive (0 when they came inside the database dump) */
  files: number;
  /** files of the swept areas no restored row names (uploaded while the backup ran), removed */
  removed: string[];
}

/**
 * `npm run restore -- FILE` (issue 32) into an EMPTY target: with SQLite an empty or missing DATA_DIR;
 * with PostgreSQL a schema (DATABASE_URL's search_path, else public) with no tables, functions or
 * sequences, and an empty file store (DATA_DIR/files, or the bucket's prefix). A target that is not empty
 * is refused, naming what is in it: restoring over a portal is never what an operator meant.
 *
 * Steps: the header is read first (format, dialect, migration known to this version), the target
 * checked empty; then the whole archive is unpacked into a staging folder beside DATA_DIR and checked
 * against the manifest (every entry's size and SHA-256, no file missing or extra); only then is the
 * target written: the database (SQLite: the file moved into DATA_DIR; PostgreSQL: pg_restore's script
 * run by psql in one transaction, the schema renamed when the target's name differs), then the files
 * into the configured store (whichever it is: a backup of the database store restores into a bucket,
 * and back), then the sweep with no age limit (nothing else runs on the target): files of rate sheets and
 * documents no restored row names (uploaded while the backup ran) are removed, pending marks settled.
 *
 * A failure before the database is written leaves the target as it was; a failure after it (a file
 * store refusing a write) leaves a partial target, said in the error: empty it and restore again.
 * Choices: a PostgreSQL backup restores only into PostgreSQL and a SQLite one only into SQLite (the
 * dump is the database's own format); a backup of a newer portal (a migration this version does not
 * know) is refused, an older one is restored as it was and migrated by the next start, as an upgrade.
 */
export async function restorePortal(opts: RestoreOptions): Promise<RestoreSummary> {
  const { config, file } = opts;
  const log = opts.log ?? (() => {});
  if (!fs.existsSync(file)) throw new BackupError(`no backup at ${file}`);
  const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
  const parent = path.dirname(path.resolve(config.dataDir));
  fs.mkdirSync(parent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(parent, '.portal-restore-'));
  try {
    let header: BackupHeader | null = null;
    let manifest: Manifest | null = null;
    let dbStaged: { size: number; sha256: string } | null = null;
    const staged = new Map<string, { size: number; sha256: string }>();
    let target: PgTarget | null = null;
    let first = true;
    for await (const entry of readTar(fs.createReadStream(file).pipe(zlib.createGunzip()))) {
      if (first) {
        first = false;
        if (entry.name !== HEADER_ENTRY) throw new BackupError(`${file} is not a portal backup (it starts with ${entry.name})`);
        header = JSON.parse((await readAll(entry.body)).toString('utf8')) as BackupHeader;
        await checkHeader(header, dialect);
        target = await checkTargetEmpty(config, dialect);
        log(
          `backup of ${header.created_at} (${header.dialect}, migration ${header.migration}, files ${header.files_in === 'database' ? 'in the dump' : 'in the archive'})`,
        );
        continue;
      }
      if (manifest) throw new BackupError(`${file}: an entry after the manifest (${entry.name})`);
      if (entry.name === MANIFEST_ENTRY) {
        manifest = JSON.parse((await readAll(entry.body)).toString('utf8')) as Manifest;
        continue;
      }
      if (entry.name === header!.database_entry) {
        dbStaged = await stage(entry.body, path.join(staging, 'database'));
        continue;
      }
      const m = /^files\/([^/]+)\/([^/]+)$/.exec(entry.name);
      if (!m || !AREA_NAME.test(m[1]) || !STORED_NAME.test(m[2])) throw new BackupError(`${file}: an unexpected entry ${JSON.stringify(entry.name)}`);
      fs.mkdirSync(path.join(staging, 'files', m[1]), { recursive: true });
      staged.set(`${m[1]}/${m[2]}`, await stage(entry.body, path.join(staging, 'files', m[1], m[2])));
    }
    if (!header) throw new BackupError(`${file} is empty`);
    if (!manifest) throw new BackupError(`${file} has no manifest: the backup was cut short`);
    verify(header, manifest, dbStaged, staged);
    log(`archive checked: database ${manifest.database.size} bytes, ${manifest.files.length} files, every SHA-256 matches`);

    // The target is written from here on.
    if (dialect === 'sqlite') restoreSqlite(config, staging);
    else await restorePostgres(config.databaseUrl!, staging, manifest, target!);
    log('database restored');
    const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
    let store: FileStore | null = null;
    try {
      const migration = (await sql<{ m: string | null }>`select max(name) as m from kysely_migration`.execute(db.db)).rows[0]?.m;
      if (migration !== manifest.migration)
        throw new BackupError(`the restored database is at migration ${migration}, the manifest says ${manifest.migration}`);
      store = await openFileStore(config, db.db);
      let put = 0;
      if (manifest.files_in === 'database') await checkDatabaseFiles(db.db, dialect, manifest.files);
      else {
        for (const f of manifest.files) {
          // Every file of the swept areas is put marked: the sweep below keeps the ones a row names.
          const pending = f.pending || f.area in SWEPT_AREAS;
          await store.put(f.area, f.name, fs.readFileSync(path.join(staging, 'files', f.area, f.name)), { pending });
          put++;
        }
        log(`${put} files written to ${store.where}`);
      }
      // Files the dump brought in stored_files while the target keeps them elsewhere move there now.
      if (manifest.files_in === 'database' && filesSetting(config).kind !== 'database')
        await moveFilesIntoStore(db.db, config.dataDir, store, { info: (_o, msg) => log(msg) }, 0);
      const removed = await sweepFiles(db.db, store, 0, Date.now() + 1000);
      if (removed.length) log(`${removed.length} files uploaded while the backup ran, named by no restored row, removed`);
      return { manifest, files: put, removed };
    } catch (err) {
      throw new BackupError(
        `the restore stopped after writing to the target, which is now partial: empty it before restoring again. ${(err as Error).message}`,
      );
    } finally {
      await store?.close();
      await db.destroy();
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c);
  return Buffer.concat(chunks);
}

async function stage(body: AsyncIterable<Buffer>, to: string) {
  const h = crypto.createHash('sha256');
  let size = 0;
  await pipeline(
    (async function* () {
      for await (const c of body) {
        h.update(c);
        size += c.length;
        yield c;
      }
    })(),
    fs.createWriteStream(to, { flags: 'wx' }),
  );
  return { size, sha256: h.digest('hex') };
}

async function checkHeader(h: BackupHeader, dialect: 'sqlite' | 'postgres') {
  if (h.format !== FORMAT) throw new BackupError('not a portal backup');
  if (h.format_version > FORMAT_VERSION) throw new BackupError(`a backup of format ${h.format_version}, newer than this portal reads (${FORMAT_VERSION})`);
  if (h.dialect !== dialect)
    throw new BackupError(
      `a ${h.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} backup restores into ${h.dialect === 'postgres' ? 'PostgreSQL (set DATABASE_URL)' : 'SQLite (unset DATABASE_URL)'}, not ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}`,
    );
  const known = Object.keys(await loadMigrations());
  if (!known.includes(h.migration))
    throw new BackupError(
      `the backup was made by a newer portal (${h.portal_version}, migration ${h.migration} is unknown here): restore it with that version or a newer one`,
    );
}

interface PgTarget {
  schema: string;
  exists: boolean;
}

async function checkTargetEmpty(config: RestoreOptions['config'], dialect: 'sqlite' | 'postgres'): Promise<PgTarget | null> {
  const entries = fs.existsSync(config.dataDir) ? fs.readdirSync(config.dataDir) : [];
  let target: PgTarget | null = null;
  if (dialect === 'sqlite') {
    if (entries.length) throw new BackupError(`DATA_DIR ${config.dataDir} is not empty (${entries.slice(0, 5).join(', ')}…): restore into an empty folder`);
  } else {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      target = await pgTargetSchema(client);
      if (target.exists) {
        const found = (
          await client.query<{ what: string }>(
            `select c.relname as what from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1
             union all select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1 limit 5`,
            [target.schema],
          )
        ).rows.map((r) => r.what);
        if (found.length)
          throw new BackupError(
            `the schema ${target.schema} of the target database is not empty (${found.join(', ')}…): restore into an empty database or schema`,
          );
      }
    } finally {
      await client.end();
    }
  }
  const setting = filesSetting(config);
  if (setting.kind === 'local' && dialect === 'postgres') {
    const dir = path.join(config.dataDir, 'files');
    if (fs.existsSync(dir) && fs.readdirSync(dir).length) throw new BackupError(`${dir} is not empty: restore into an empty file store`);
  }
  if (setting.kind === 's3') {
    const store = new (await import('../lib/fileStoreS3.js')).S3FileStore(setting);
    try {
      for await (const f of store.list()) throw new BackupError(`${store.where} is not empty (${f.area}/${f.name}…): restore into an empty bucket prefix`);
    } finally {
      await store.close();
    }
  }
  return target;
}

/** The schema the portal would work in: the first of search_path that exists, or the first named. */
async function pgTargetSchema(client: import('pg').Client): Promise<PgTarget> {
  const { sp, u } = (await client.query<{ sp: string; u: string }>(`select current_setting('search_path') as sp, current_user as u`)).rows[0];
  const names = sp
    .split(',')
    .map((s) => s.trim().replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
  const exists = async (s: string) => (await client.query('select 1 from pg_namespace where nspname = $1', [s])).rowCount! > 0;
  for (const n of names) {
    if (n === '$user') {
      if (await exists(u)) return { schema: u, exists: true };
      continue;
    }
    return { schema: n, exists: await exists(n) };
  }
  return { schema: 'public', exists: await exists('public') };
}

function verify(header: BackupHeader, m: Manifest, db: { size: number; sha256: string } | null, staged: Map<string, { size: number; sha256: string }>) {
  for (const key of ['format', 'format_version', 'created_at', 'migration', 'dialect', 'files_in', 'database_entry'] as const)
    if (m[key] !== header[key]) throw new BackupError(`the manifest and the header disagree on ${key}`);
  if (!db) throw new BackupError('the archive has no database');
  if (db.size !== m.database.size || db.sha256 !== m.database.sha256)
    throw new BackupError('the database in the archive does not match its manifest (damaged)');
  if (m.files_in === 'database') {
    if (staged.size) throw new BackupError('files in the archive while the manifest puts them in the database');
    return;
  }
  const listed = new Set<string>();
  for (const f of m.files) {
    const key = `${f.area}/${f.name}`;
    listed.add(key);
    const s = staged.get(key);
    if (!s) throw new BackupError(`${key} is in the manifest, not in the archive`);
    if (s.size !== f.size || s.sha256 !== f.sha256) throw new BackupError(`${key} does not match its manifest (damaged)`);
  }
  for (const key of staged.keys()) if (!listed.has(key)) throw new BackupError(`${key} is in the archive, not in its manifest`);
}

function restoreSqlite(config: RestoreOptions['config'], staging: string) {
  fs.mkdirSync(config.dataDir, { recursive: true });
  // Beside DATA_DIR, so a rename: the database appears whole or not at all.
  fs.renameSync(path.join(staging, 'database'), path.join(config.dataDir, 'portal.sqlite'));
}

async function restorePostgres(databaseUrl: string, staging: string, m: Manifest, target: PgTarget) {
  const source = m.schema ?? 'public';
  const { dbname, env } = pgConnection(databaseUrl);
  const dump = path.join(staging, 'database');
  // The dump's own CREATE SCHEMA (and a comment on it) are left out: the schema is made here, or exists empty.
  const toc = (await runPgTool('pg_restore', ['-l', dump], env, { stdout: true }))
    .split('\n')
    .filter((line) => !/^\d+; \d+ \d+ (SCHEMA - |COMMENT - SCHEMA )/.test(line))
    .join('\n');
  fs.writeFileSync(path.join(staging, 'toc'), toc);
  const script = path.join(staging, 'restore.sql');
  await runPgTool('pg_restore', ['-L', path.join(staging, 'toc'), '--no-owner', '--no-privileges', '-f', script, dump], env);
  const commands: string[] = [];
  if (source === target.schema) commands.push('-c', `create schema if not exists ${ident(source)}`, '-f', script);
  else {
    // Restored under its own name, then renamed: pg_dump names every object with its schema. That name
    // must be free in the target database (checked by the create, which fails on an existing one).
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const taken = await c.query('select 1 from pg_namespace where nspname = $1', [source]).finally(() => c.end());
    if (taken.rowCount)
      throw new BackupError(
        `the backup's schema ${source} exists in the target database: restore into a database without it, or into that schema (search_path=${source})`,
      );
    commands.push('-c', `create schema ${ident(source)}`, '-f', script);
    if (target.exists) commands.push('-c', `drop schema ${ident(target.schema)}`);
    commands.push('-c', `alter schema ${ident(source)} rename to ${ident(target.schema)}`);
  }
  await runPgTool('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', ...commands, '-d', dbname], env);
}

/** The files the dump brought: every one the manifest lists, with its bytes. */
async function checkDatabaseFiles(db: import('../db/index.js').Db, dialect: 'sqlite' | 'postgres', files: ManifestFile[]) {
  const found = new Map<string, string>();
  if (dialect === 'postgres') {
    const rows = await sql<{ area: string; name: string; sha256: string }>`select area, name, encode(sha256(data), 'hex') as sha256 from stored_files`.execute(
      db,
    );
    for (const r of rows.rows) found.set(`${r.area}/${r.name}`, r.sha256);
  } else {
    const rows = await db.selectFrom('stored_files').select(['area', 'name', 'data']).execute();
    for (const r of rows) found.set(`${r.area}/${r.name}`, crypto.createHash('sha256').update(r.data).digest('hex'));
  }
  if (found.size !== files.length) throw new BackupError(`the restored database holds ${found.size} files, the manifest lists ${files.length}`);
  for (const f of files) if (found.get(`${f.area}/${f.name}`) !== f.sha256) throw new BackupError(`${f.area}/${f.name} does not match its manifest`);
}
