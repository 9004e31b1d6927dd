/**
 * What must hold after any kill or cut, whatever moment it hit (issue 11):
 * - each tariff table of the carrier is empty or exactly one upload's rows, all of them; the upload is one
 *   that was acknowledged or had no clear answer, and it is the acknowledged one when the last call was;
 * - each rate sheet has all its file's rows, its category, its original file in the store; acknowledged
 *   sheets are there unless an acknowledged delete removed them; refused ones never are;
 * - every transport request has shipments, each with its pickup and delivery address and its goods, and
 *   its documents with their files; a tagged request has exactly what was sent; acknowledged ones are
 *   there once; no dependent row is orphaned;
 * - SQLite: integrity_check ok, foreign_key_check empty.
 * Files no row references (written before a rollback or a kill) are counted apart: the server's sweep
 * removes them at its next start. Files are where the server keeps them: DATA_DIR/files on SQLite, the
 * database on PostgreSQL (lib/files.ts, issue 32).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../server/db/index.js';
import { DbFileStore } from '../../server/lib/fileStoreDb.js';
import { LocalFileStore, type FileStore } from '../../server/lib/files.js';
import type { FaultDatabase } from './server.js';
import { TABLES, type LaneState, type Op, type TableKey } from './workload.js';

export interface CheckResult {
  problems: string[];
  /** files under files/rate-sheets and files/documents no row names (temporary ones included) */
  orphanFiles: string[];
  tables: Record<string, number>;
  sheets: number;
  requests: number;
}

const unclear = (o: Op) => o.state === 'failed' || o.state === 'lost' || o.state === 'pending';

/**
 * Checks the database and the files against the calls made. `known` is each table's content at the
 * previous check (updated here to what is found), `ops` every call so far; `since` the first op of
 * this stretch.
 */
export async function checkAll(
  fdb: FaultDatabase,
  db: Db,
  w: { companyId: number },
  lanes: LaneState,
  known: Record<TableKey, string>,
  ops: Op[],
  since: number,
): Promise<CheckResult> {
  const problems: string[] = [];
  const fresh = ops.slice(since);
  const n = (v: unknown) => Number(v);

  // Tariff tables: the possible contents are folded over this stretch's calls of the lane.
  const tables: Record<string, number> = {};
  for (const key of Object.keys(TABLES) as TableKey[]) {
    const t = TABLES[key];
    const found = (await db
      .selectFrom(t.table as 'express_hub_codes')
      .select([sql.ref(t.tagColumn).as('tag'), sql<number>`count(*)`.as('n')])
      .where('company_id', '=', w.companyId)
      .groupBy(t.tagColumn)
      .execute()) as Array<{ tag: string; n: number }>;
    let possible = new Set<string>([known[key]]);
    for (const o of fresh.filter((x) => x.lane === key)) {
      const after = o.kind === 'tableDelete' ? 'empty' : o.tag;
      if (o.state === 'acked') possible = new Set([after]);
      else if (unclear(o)) possible.add(after);
    }
    const actual =
      found.length === 0
        ? 'empty'
        : found.length > 1
          ? 'mixed'
          : (ops.find((o) => o.kind === 'tableUpload' && t.tagOf(o.tag) === found[0].tag)?.tag ?? `?${found[0].tag}`);
    tables[key] = found.reduce((s, f) => s + n(f.n), 0);
    if (actual === 'mixed') problems.push(`${key}: rows of ${found.length} uploads in one set (${found.map((f) => `${f.tag}×${f.n}`).join(', ')})`);
    else if (!possible.has(actual)) problems.push(`${key}: holds ${actual}, expected one of ${[...possible].join(', ')}`);
    if (actual !== 'empty' && actual !== 'mixed') {
      const up = ops.find((o) => o.kind === 'tableUpload' && o.tag === actual);
      if (up) {
        if (n(found[0].n) !== up.rows) problems.push(`${key}: ${found[0].n} rows of upload ${actual}, its file had ${up.rows}`);
        if (up.state !== 'acked') up.committed = true;
      }
    }
    known[key] = actual;
    lanes.tables[key] = actual === 'mixed' || actual.startsWith('?') ? 'unknown' : actual;
  }

  // Rate sheets of the carrier.
  const sheets = await db
    .selectFrom('rate_sheets as s')
    .leftJoin('categories as c', 'c.id', 's.category_id')
    .select(['s.id', 's.description', 's.file_path', 's.category_id', 'c.id as cat'])
    .where('s.company_id', '=', w.companyId)
    .execute();
  const counts = new Map(
    (
      await db
        .selectFrom('standard_rate_rows as r')
        .innerJoin('rate_sheets as s', 's.id', 'r.rate_sheet_id')
        .select(['r.rate_sheet_id as id', sql<number>`count(*)`.as('n')])
        .where('s.company_id', '=', w.companyId)
        .groupBy('r.rate_sheet_id')
        .execute()
    ).map((r) => [r.id, n(r.n)]),
  );
  const files = storeOf(fdb, db);
  const byTag = new Map(sheets.map((s) => [s.description ?? '', s]));
  for (const s of sheets) {
    const up = ops.find((o) => o.kind === 'sheetUpload' && o.tag === s.description);
    if (!up) {
      problems.push(`rate sheet ${s.id}: from no known upload (${s.description})`);
      continue;
    }
    if (up.state === 'refused') problems.push(`rate sheet ${s.id}: its upload was refused (${up.status}) yet it is stored`);
    if (unclear(up)) up.committed = true;
    if ((counts.get(s.id) ?? 0) !== up.rows) problems.push(`rate sheet ${s.id} (${up.tag}): ${counts.get(s.id) ?? 0} rows, its file had ${up.rows}`);
    if (s.cat === null) problems.push(`rate sheet ${s.id}: category ${s.category_id} missing`);
    if (!s.file_path || (await files.size('rate-sheets', s.file_path)) === null) problems.push(`rate sheet ${s.id}: original file ${s.file_path} missing`);
  }
  const deleted = new Map(ops.filter((o) => o.kind === 'sheetDelete').map((o) => [o.sheetId, o]));
  for (const up of ops.filter((o) => o.kind === 'sheetUpload' && o.state === 'acked')) {
    const del = deleted.get(up.sheetId);
    const there = byTag.has(up.tag);
    if (!there && !del) problems.push(`rate sheet ${up.sheetId} (${up.tag}): acknowledged, not deleted, yet missing`);
    if (there && del?.state === 'acked') problems.push(`rate sheet ${up.sheetId} (${up.tag}): deleted (acknowledged) yet still there`);
    if (!there && del && unclear(del)) del.committed = true;
  }
  // A category without sheets is one whose sheets were deleted (it stays, pricing.md §1), never a rolled-back upload's.
  const ackedCats = new Set(ops.filter((o) => o.categoryId).map((o) => o.categoryId));
  const emptyCats = await db
    .selectFrom('categories as c')
    .leftJoin('rate_sheets as s', 's.category_id', 'c.id')
    .select('c.id')
    .where('c.company_id', '=', w.companyId)
    .where('s.id', 'is', null)
    .execute();
  for (const c of emptyCats)
    if (!ackedCats.has(c.id)) problems.push(`category ${c.id}: no sheet and from no acknowledged upload (left by a rolled-back upload)`);

  // Transport requests: every one complete, tagged ones exactly as sent.
  const shape = await db
    .selectFrom('transport_requests as tr')
    .leftJoin('shipments as s', 's.transport_request_id', 'tr.id')
    .select([
      'tr.id',
      'tr.notes',
      's.id as shipment',
      sql<number>`(select count(*) from shipment_addresses a where a.shipment_id = s.id and a.kind = 'pickup')`.as('pickup'),
      sql<number>`(select count(*) from shipment_addresses a where a.shipment_id = s.id and a.kind = 'delivery')`.as('delivery'),
      sql<number>`(select count(*) from shipment_addresses a where a.shipment_id = s.id)`.as('addresses'),
      sql<number>`(select count(*) from shipment_details d where d.shipment_id = s.id)`.as('details'),
      sql<number>`(select count(*) from transport_request_documents d where d.transport_request_id = tr.id)`.as('documents'),
    ])
    .orderBy('tr.id')
    .orderBy('s.position')
    .execute();
  const requests = new Map<number, { notes: string | null; shipments: Array<{ details: number }>; documents: number }>();
  for (const r of shape) {
    const req = requests.get(r.id) ?? { notes: r.notes, shipments: [], documents: n(r.documents) };
    requests.set(r.id, req);
    if (r.shipment === null) continue;
    if (n(r.pickup) !== 1 || n(r.delivery) !== 1 || n(r.addresses) !== 2)
      problems.push(`request ${r.id} shipment ${r.shipment}: ${r.pickup} pickup and ${r.delivery} delivery addresses of ${r.addresses}`);
    if (n(r.details) < 1) problems.push(`request ${r.id} shipment ${r.shipment}: no goods`);
    req.shipments.push({ details: n(r.details) });
  }
  const seen = new Map<string, number>();
  for (const [id, r] of requests) {
    if (!r.shipments.length) problems.push(`request ${id}: no shipment`);
    if (!r.notes?.startsWith('F')) continue;
    seen.set(r.notes, (seen.get(r.notes) ?? 0) + 1);
    const op = ops.find((o) => o.kind === 'request' && o.tag === r.notes);
    if (!op) {
      problems.push(`request ${id}: from no known call (${r.notes})`);
      continue;
    }
    if (op.state === 'refused') problems.push(`request ${id} (${op.tag}): refused (${op.status}) yet stored`);
    if (unclear(op)) op.committed = true;
    const got = r.shipments.map((s) => s.details).join(',');
    if (got !== op.details!.join(',')) problems.push(`request ${id} (${op.tag}): goods per shipment ${got}, sent ${op.details!.join(',')}`);
    if (r.documents !== op.documents) problems.push(`request ${id} (${op.tag}): ${r.documents} documents, sent ${op.documents}`);
  }
  for (const [tag, k] of seen) if (k > 1) problems.push(`request ${tag}: stored ${k} times`);
  for (const op of ops) if (op.kind === 'request' && op.state === 'acked' && !seen.has(op.tag)) problems.push(`request ${op.tag}: acknowledged, missing`);

  // Orphans, by query (SQLite's foreign keys hold them too; PostgreSQL's by construction).
  const orphans: Array<[string, string]> = [
    ['shipments', 'select count(*) as n from shipments s left join transport_requests t on t.id = s.transport_request_id where t.id is null'],
    ['shipment_addresses', 'select count(*) as n from shipment_addresses a left join shipments s on s.id = a.shipment_id where s.id is null'],
    ['shipment_details', 'select count(*) as n from shipment_details d left join shipments s on s.id = d.shipment_id where s.id is null'],
    [
      'transport_request_documents',
      'select count(*) as n from transport_request_documents d left join transport_requests t on t.id = d.transport_request_id where t.id is null',
    ],
    ['standard_rate_rows', 'select count(*) as n from standard_rate_rows r left join rate_sheets s on s.id = r.rate_sheet_id where s.id is null'],
    ['express_rate_rows', 'select count(*) as n from express_rate_rows r left join rate_sheets s on s.id = r.rate_sheet_id where s.id is null'],
    ['rate_sheets', 'select count(*) as n from rate_sheets s left join categories c on c.id = s.category_id where c.id is null'],
  ];
  for (const [table, q] of orphans) {
    const [row] = (await sql.raw<{ n: number }>(q).execute(db)).rows;
    if (n(row.n) > 0) problems.push(`${table}: ${row.n} orphaned rows`);
  }
  if (fdb.kind === 'sqlite') {
    const integrity = (await sql.raw<{ integrity_check: string }>('pragma integrity_check').execute(db)).rows.map((r) => r.integrity_check);
    if (integrity.join() !== 'ok') problems.push(`integrity_check: ${integrity.slice(0, 5).join('; ')}`);
    const fk = (await sql.raw<Record<string, unknown>>('pragma foreign_key_check').execute(db)).rows;
    if (fk.length) problems.push(`foreign_key_check: ${fk.length} rows, e.g. ${JSON.stringify(fk[0])}`);
  }

  // Files: every referenced one exists (checked above for sheets); the others are orphans.
  const docs = await db.selectFrom('transport_request_documents').select('stored_name').execute();
  for (const d of docs) if ((await files.size('documents', d.stored_name)) === null) problems.push(`document file ${d.stored_name} missing`);
  const orphanFiles = await orphanFilesOf(fdb, db);
  return { problems, orphanFiles, tables, sheets: sheets.length, requests: requests.size };
}

/** The store the fault server writes to: DATA_DIR/files on SQLite, the database on PostgreSQL (FILES_URL unset). */
const storeOf = (fdb: FaultDatabase, db: Db): FileStore => (fdb.kind === 'postgres' ? new DbFileStore(db) : new LocalFileStore(fdb.dataDir));

/** Files of documents and rate sheets that no row names (temporary ones and marks included on SQLite, pending rows on PostgreSQL). */
export async function orphanFilesOf(fdb: FaultDatabase, db: Db): Promise<string[]> {
  const referenced = new Set([
    ...(await db.selectFrom('transport_request_documents').select('stored_name').execute()).map((d) => `documents/${d.stored_name}`),
    ...(await db.selectFrom('rate_sheets').select('file_path').execute()).map((s) => `rate-sheets/${s.file_path}`),
  ]);
  const orphans: string[] = [];
  if (fdb.kind === 'postgres') {
    for await (const f of new DbFileStore(db).list())
      if (['documents', 'rate-sheets'].includes(f.area) && !referenced.has(`${f.area}/${f.name}`)) orphans.push(`${f.area}/${f.name}`);
    return orphans;
  }
  for (const area of ['documents', 'rate-sheets']) {
    const dir = path.join(fdb.dataDir, 'files', area);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) if (!referenced.has(`${area}/${f}`)) orphans.push(`${area}/${f}`);
  }
  return orphans;
}
