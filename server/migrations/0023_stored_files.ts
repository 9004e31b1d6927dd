import { sql, type Kysely } from 'kysely';
import { bigintType, blobType, isPostgres } from './helpers.js';

/**
 * Uploaded files kept in the database (issue 32: several server processes without a shared volume;
 * lib/fileStoreDb.ts). One row per stored file, under the same area and random name a file had under
 * DATA_DIR/files. `pending_since` (epoch ms) is the pending marker of lib/files.ts: set while a
 * transaction is about to name the file or to drop it; the sweep settles old ones. `data` is last, so
 * reading the other columns never touches a file's pages (SQLite keeps a row's bytes in order), and on
 * PostgreSQL it is stored uncompressed out of line (STORAGE EXTERNAL): files are served in slices
 * (`substr`), which then read only the slice's pages, and the formats uploaded (xlsx, ods, pdf, png,
 * jpg, webp) are compressed already.
 *
 * The files themselves are moved in at the first start with the database store (lib/fileMove.ts), not
 * here: a migration knows no DATA_DIR, and moving gigabytes inside the migration's lock would hold
 * every other process's start.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stored_files')
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', bigintType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('pending_since', bigintType(db))
    .addColumn('data', blobType(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('stored_files_pk', ['area', 'name'])
    .execute();
  await db.schema.createIndex('stored_files_pending').on('stored_files').column('pending_since').execute();
  if (isPostgres(db)) await sql`alter table stored_files alter column data set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stored_files').ifExists().execute();
}
