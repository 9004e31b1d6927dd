import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { nowIso } from './tokens.js';
import { AREA_NAME, STORED_NAME, newName, type FileHold, type FileStore, type StoredFile } from './files.js';

/** Bytes read per query when a file is served: one round trip for a picture, twenty for a 20 MB sheet. */
export const SLICE = 1024 * 1024;

const valid = (area: string, name: string | null | undefined): name is string => !!name && STORED_NAME.test(name) && AREA_NAME.test(area);

/**
 * Files in the `stored_files` table (migration 0023): every server process on the database sees every
 * file, with no shared volume (issue 32). The pending mark is the row's `pending_since`; a file is one
 * INSERT, so it is there whole or not at all and no half-written leftovers exist. Served in slices of
 * SLICE bytes (`substr`), so a download never holds a whole file in memory; a file removed while it is
 * being served ends the answer short, as a local file removed mid-read would not (choice: such a removal
 * is a delete racing a download of the same file, and the truncated answer is refused by the browser).
 *
 * Holds (backups) are not needed: the database snapshot of a backup holds the files with the rows.
 * Times are the process's clock (pending_since), as the local store's file times are the machine's.
 */
export class DbFileStore implements FileStore {
  readonly kind = 'database' as const;
  readonly where = 'the database (stored_files)';
  constructor(private readonly db: Db) {}

  private async insert(area: string, name: string, data: Buffer, pending: boolean) {
    await this.db
      .insertInto('stored_files')
      .values({ area, name, size: data.length, created_at: nowIso(), pending_since: pending ? Date.now() : null, data })
      .onConflict((oc) => oc.columns(['area', 'name']).doNothing())
      .execute();
  }

  async store(area: string, data: Buffer, ext: string) {
    const name = newName(ext);
    await this.insert(area, name, data, false);
    return name;
  }

  async storePending(area: string, data: Buffer, ext: string) {
    const name = newName(ext);
    await this.insert(area, name, data, true);
    return name;
  }

  async put(area: string, name: string, data: Buffer, opts: { pending?: boolean } = {}) {
    if (!valid(area, name)) throw new Error(`not a stored file's name: ${area}/${name}`);
    await this.insert(area, name, data, !!opts.pending);
    const size = await this.size(area, name);
    if (size !== data.length) throw new Error(`${area}/${name} is stored already with another size (${size}, not ${data.length})`);
    if (opts.pending) await this.markPending(area, name);
  }

  async size(area: string, name: string) {
    if (!valid(area, name)) return null;
    const row = await this.db.selectFrom('stored_files').select('size').where('area', '=', area).where('name', '=', name).executeTakeFirst();
    return row ? Number(row.size) : null;
  }

  async open(area: string, name: string) {
    if (!valid(area, name)) return null;
    // The size and the first slice in one query: a picture is served in one round trip.
    const first = await this.db
      .selectFrom('stored_files')
      .select(['size', sql<Buffer>`substr(data, 1, ${SLICE})`.as('head')])
      .where('area', '=', area)
      .where('name', '=', name)
      .executeTakeFirst();
    if (!first) return null;
    const size = Number(first.size);
    const db = this.db;
    async function* slices() {
      yield Buffer.from(first!.head);
      for (let at = SLICE; at < size; at += SLICE) {
        const row = await db
          .selectFrom('stored_files')
          .select(sql<Buffer>`substr(data, ${at + 1}, ${SLICE})`.as('part'))
          .where('area', '=', area)
          .where('name', '=', name)
          .executeTakeFirst();
        if (!row) throw new Error(`${area}/${name} was removed while it was read`);
        yield Buffer.from(row.part);
      }
    }
    return { size, stream: Readable.from(slices(), { objectMode: false }) };
  }

  async read(area: string, name: string) {
    if (!valid(area, name)) return null;
    const row = await this.db.selectFrom('stored_files').select('data').where('area', '=', area).where('name', '=', name).executeTakeFirst();
    return row ? Buffer.from(row.data) : null;
  }

  async remove(area: string, name: string | null | undefined) {
    if (!valid(area, name)) return;
    await this.db.deleteFrom('stored_files').where('area', '=', area).where('name', '=', name).execute();
  }

  async markPending(area: string, name: string | null | undefined) {
    if (!valid(area, name)) return;
    await this.db.updateTable('stored_files').set({ pending_since: Date.now() }).where('area', '=', area).where('name', '=', name).execute();
  }

  async settle(area: string, name: string | null | undefined, kept: boolean) {
    if (!valid(area, name)) return;
    if (!kept) return this.remove(area, name);
    await this.db.updateTable('stored_files').set({ pending_since: null }).where('area', '=', area).where('name', '=', name).execute();
  }

  async *list(): AsyncIterable<StoredFile> {
    // In pages by key, so a large table is never read into memory at once (the bytes are not read at all).
    let after: { area: string; name: string } | null = null;
    for (;;) {
      let q = this.db.selectFrom('stored_files').select(['area', 'name', 'size', 'pending_since']).orderBy('area').orderBy('name').limit(1000);
      if (after) {
        const a = after;
        q = q.where((eb) => eb.or([eb('area', '>', a.area), eb.and([eb('area', '=', a.area), eb('name', '>', a.name)])]));
      }
      const rows = await q.execute();
      for (const r of rows) yield { area: r.area, name: r.name, size: Number(r.size), pending: r.pending_since !== null };
      if (rows.length < 1000) return;
      after = rows[rows.length - 1];
    }
  }

  async pendingMarks(minAgeMs: number, now = Date.now()) {
    return this.db
      .selectFrom('stored_files')
      .select(['area', 'name'])
      .where('pending_since', 'is not', null)
      .where('pending_since', '<=', now - minAgeMs)
      .orderBy('area')
      .orderBy('name')
      .execute();
  }

  async removeLeftovers() {
    return [];
  }

  async hold(): Promise<FileHold> {
    return { release: async () => {} };
  }

  async finishRemovals() {
    return [];
  }

  async close() {}
}
