import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { parseFilesUrl } from '../../server/config.js';
import { openDb } from '../../server/db/index.js';
import { moveFilesIntoStore } from '../../server/lib/fileMove.js';
import { DbFileStore } from '../../server/lib/fileStoreDb.js';
import { S3FileStore } from '../../server/lib/fileStoreS3.js';
import { LocalFileStore, collect, filesDir, pendingMarker, type FileStore } from '../../server/lib/files.js';
import { sweepFiles } from '../../server/lib/fileSweep.js';
import { backupPortal } from '../../server/backup/backup.js';
import { restorePortal } from '../../server/backup/restore.js';
import { API_PASSWORD, DEMO, createTestPortal, describeEachDb, testDatabases, type TestPortal } from './helpers.js';
import { listStore, listStore as listOf, pendingNames, pendingNames as pendingOf, sha256, storeHashes } from './fileHelpers.js';
import { png } from './accountsHelpers.js';
import { createCarrier, download, form } from './tariffs.helpers.js';
import { handShipment, multipart } from './requestsFixtures.js';
import { startS3 } from './s3Server.js';

/**
 * Issue 32: the file store on each backend, the same contract — DATA_DIR/files, the database
 * (`stored_files`, on SQLite and PostgreSQL), an S3-compatible bucket (s3rver, a real S3 HTTP server on
 * 127.0.0.1) — with pending marks, the sweep and backup holds; portals serving their files from each;
 * two server processes with separate DATA_DIRs sharing files through PostgreSQL; the start-time move of
 * files left in another store (twice, and by two processes at once).
 */
let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3();
  if (!s3) console.warn('[file stores] s3rver could not start: the S3 store is NOT tested in this run');
});
afterAll(async () => {
  await s3?.close();
});

const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'file-store-'));
const bytes = (n = 64) => crypto.randomBytes(n);

describeEachDb('file stores', (p) => {
  const backends: Array<[string, () => FileStore | null]> = [
    ['local', () => new LocalFileStore(tmpDir())],
    ['database', () => new DbFileStore(p().db.db)],
    ['s3', () => (s3 ? new S3FileStore(s3.setting()) : null)],
  ];

  for (const [kind, make] of backends) {
    it(`${kind}: stores, streams with the size, lists, marks, settles, removes; names it did not make are ignored`, async () => {
      const store = make();
      if (!store) return;
      try {
        const big = bytes(2 * 1024 * 1024 + 17); // more than one slice of the database store
        const name = await store.store('documents', big, '.pdf');
        expect(name).toMatch(/^[a-f0-9]{32}\.pdf$/);
        const opened = (await store.open('documents', name))!;
        expect(opened.size).toBe(big.length);
        expect((await collect(opened.stream)).equals(big)).toBe(true);
        expect((await store.read('documents', name))!.equals(big)).toBe(true);
        expect(await store.open('documents', 'ffffffffffffffffffffffffffffffff.pdf')).toBeNull();
        expect(await store.open('documents', '../../etc/passwd')).toBeNull();

        const pending = await store.storePending('rate-sheets', bytes(), '.xlsx');
        const marked = await store.store('media', bytes(), '.png');
        await store.markPending('media', marked);
        // (the database store shares its table with the portal's seeded files: only this test's are looked at)
        const mine = new Set([`documents/${name}`, `rate-sheets/${pending}`, `media/${marked}`, 'templates/0123456789abcdef0123456789abcdef.xlsx']);
        const pendingNames = async (s: FileStore) => (await pendingOf(s)).filter((n) => mine.has(n));
        const listStore = async (s: FileStore) => (await listOf(s)).filter((f) => mine.has(`${f.area}/${f.name}`));
        expect(await pendingNames(store)).toEqual([`media/${marked}`, `rate-sheets/${pending}`].sort());
        expect((await listStore(store)).map((f) => [`${f.area}/${f.name}`, f.pending])).toEqual(
          [
            [`documents/${name}`, false],
            [`media/${marked}`, true],
            [`rate-sheets/${pending}`, true],
          ].sort(),
        );
        await store.settle('rate-sheets', pending, true);
        await store.settle('media', marked, false);
        expect(await pendingNames(store)).toEqual([]);
        expect(await store.size('media', marked)).toBeNull();
        expect(await store.size('rate-sheets', pending)).toBe(64);

        // put: under a given name, idempotent, a different size refused
        const data = bytes(100);
        await store.put('templates', '0123456789abcdef0123456789abcdef.xlsx', data);
        await store.put('templates', '0123456789abcdef0123456789abcdef.xlsx', data, { pending: true });
        expect(await pendingNames(store)).toEqual(['templates/0123456789abcdef0123456789abcdef.xlsx']);
        await expect(store.put('templates', '0123456789abcdef0123456789abcdef.xlsx', bytes(5))).rejects.toThrow(/another size/);
        await expect(store.put('templates', '../x', data)).rejects.toThrow(/not a stored file/);

        await store.remove('documents', name);
        await store.remove('documents', '../../portal.sqlite');
        await store.remove('documents', null);
        expect(await store.size('documents', name)).toBeNull();
      } finally {
        await store.close();
      }
    });

    it(`${kind}: the sweep settles old marks by the rows and spares young ones; a backup's hold defers removals`, async () => {
      const store = make();
      if (!store) return;
      try {
        const named = (await p().db.db.selectFrom('rate_sheets').select('file_path').where('file_path', 'is not', null).executeTakeFirstOrThrow()).file_path!;
        // a delete that never committed (the database store has the seeded sheet's file already)
        if ((await store.size('rate-sheets', named)) === null) await store.put('rate-sheets', named, bytes(10), { pending: true });
        else await store.markPending('rate-sheets', named);
        const namedSize = await store.size('rate-sheets', named);
        const dead = await store.storePending('rate-sheets', bytes(), '.xlsx'); // an upload whose process died
        const deadDoc = await store.storePending('documents', bytes(), '.pdf');
        const media = await store.storePending('media', bytes(), '.png'); // not a swept area: left alone
        const cut = Date.now();
        // S3 keeps LastModified to the second: the young one is written a second after the cut.
        await new Promise((r) => setTimeout(r, kind === 's3' ? 1100 : 20));
        const young = await store.storePending('rate-sheets', bytes(), '.xlsx');
        const removed = await sweepFiles(p().db.db, store, 15 * 60_000, cut + 15 * 60_000);
        expect(removed.sort()).toEqual([`documents/${deadDoc}`, `rate-sheets/${dead}`].sort());
        expect(await store.size('rate-sheets', named)).toBe(namedSize);
        const mine = [`media/${media}`, `rate-sheets/${young}`, `rate-sheets/${named}`, `rate-sheets/${dead}`, `documents/${deadDoc}`];
        expect((await pendingOf(store)).filter((n) => mine.includes(n))).toEqual([`media/${media}`, `rate-sheets/${young}`].sort());

        // A hold (a backup running): removals wait, the file stays readable, and go once it is released.
        const hold = await store.hold();
        const a = await store.store('media', bytes(), '.png');
        await store.remove('media', a);
        await store.settle('rate-sheets', young, false);
        if (store.kind === 'database') {
          // The database store needs no hold: a backup's snapshot holds its files with the rows.
          expect(await store.size('media', a)).toBeNull();
        } else {
          expect(await store.size('media', a)).toBe(64);
          expect(await store.size('rate-sheets', young)).toBe(64);
          expect(await store.finishRemovals()).toEqual([]);
        }
        await hold.release();
        const finished = await store.finishRemovals();
        if (store.kind !== 'database') expect(finished.sort()).toEqual([`media/${a}`, `rate-sheets/${young}`].sort());
        expect(await store.size('media', a)).toBeNull();
        expect(await store.size('rate-sheets', young)).toBeNull();
        expect(await store.size('rate-sheets', named)).toBe(namedSize);
      } finally {
        await store.close();
      }
    });
  }

  it('FILES_URL: local, database, s3:// with an endpoint, path style and credentials; mistakes stop the start', () => {
    expect(parseFilesUrl('database')).toEqual({ kind: 'database' });
    expect(parseFilesUrl('s3://KEY:S%2Fcret@portal-files/prod/eu?endpoint=http://minio:9000&region=eu-south-1', {})).toEqual({
      kind: 's3',
      bucket: 'portal-files',
      prefix: 'prod/eu/',
      endpoint: 'http://minio:9000',
      region: 'eu-south-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'KEY', secretAccessKey: 'S/cret' },
    });
    expect(parseFilesUrl('s3://portal-files', { AWS_REGION: 'eu-west-1' })).toMatchObject({
      prefix: '',
      region: 'eu-west-1',
      forcePathStyle: false,
      credentials: undefined,
    });
    for (const bad of ['ftp://x/y', 's3://A/b', 's3://bucket?endpoint=minio:9000', 's3://bucket?pathstyle=1', 's3://KEY@bucket', 'disk'])
      expect(() => parseFilesUrl(bad, {})).toThrow(/FILES_URL/);
  });
});

/** A portal on the database store's or a bucket's files serves them as DATA_DIR/files did. */
async function uploadsAndDownloads(p: TestPortal) {
  const carrier = await createCarrier(p, 'Store Cargo');
  const tpl = (await download(p, '/company/tariff_templates/express_rate_sheet', carrier.token)).data;
  const up = await p.api('POST', '/company/rate_sheet/store', {
    token: carrier.token,
    payload: form(
      { zone: 'NAT', rate_type: 'EXP', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31' },
      { field: 'rate_sheet', name: 'l.xlsx', data: tpl },
    ),
  });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const enduser = await p.login(DEMO.enduser);
  const picture = Buffer.concat([png(), bytes(8)]);
  const prof = await p.api('POST', '/visitor/updateProfile', {
    token: enduser,
    ...(await multipart({ first_name: 'A', last_name: 'B', image: { filename: 'a.png', type: 'image/png', data: picture } })),
  });
  expect(prof.status).toBe(200);
  const doc = Buffer.from(`%PDF-1.4 ${bytes(8).toString('hex')}`);
  const docType = await p.db.db.selectFrom('document_types').select('id').where('active', '=', '1').orderBy('id').executeTakeFirstOrThrow();
  const mp = await multipart({
    ...handShipment(0),
    documents: [{ filename: 'bolla.pdf', type: 'application/pdf', data: doc }],
    doctypes: [String(docType.id)],
  });
  const req = await p.api('POST', '/enduser/transport_requests/newRequest', { token: enduser, payload: mp.payload, headers: mp.headers });
  expect(req.status, JSON.stringify(req.body)).toBe(200);
  return {
    carrier,
    enduser,
    sheetId: up.body.data.id as number,
    tpl,
    picture,
    pictureUrl: prof.body.data.image as string,
    doc,
    docId: req.body.data.documents[0].id as number,
  };
}

async function servedBy(app: TestPortal['app'], url: string, token?: string) {
  const res = await app.inject({ method: 'GET', url, headers: { 'x-api-password': API_PASSWORD, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
}

for (const dialect of testDatabases()) {
  describe(`a portal on an S3 bucket [${dialect}]`, () => {
    it('moves the seeded files into the bucket at start, then stores, serves, sweeps, backs up and restores through it', async () => {
      if (!s3) return;
      const setting = s3.setting();
      const p = await createTestPortal(dialect, { files: setting }, { templateAnyDay: true });
      try {
        expect(p.app.files.kind).toBe('s3');
        // The template's seeded sheets are in DATA_DIR/files (SQLite) or the database (PostgreSQL): moved at start.
        const moved = await moveFilesIntoStore(p.db.db, p.config.dataDir, p.app.files, { info() {} }, 0);
        expect(moved).toBeGreaterThan(0);
        const u = await uploadsAndDownloads(p);
        const sheet = await servedBy(p.app, `/api/v1/company/rate_sheet/download/${u.sheetId}`, u.carrier.token);
        expect(sheet.status).toBe(200);
        expect(sheet.body.equals(u.tpl)).toBe(true);
        expect(Number(sheet.headers['content-length'])).toBe(u.tpl.length);
        const pic = await servedBy(p.app, u.pictureUrl);
        expect([pic.status, pic.headers['content-type'], pic.headers['x-content-type-options'], Number(pic.headers['content-length'])]).toEqual([
          200,
          'image/png',
          'nosniff',
          u.picture.length,
        ]);
        expect(pic.body.equals(u.picture)).toBe(true);
        const doc = await servedBy(p.app, `/api/v1/enduser/transport_requests/documents/${u.docId}`, u.enduser);
        expect(doc.body.equals(u.doc)).toBe(true);
        expect(await pendingNames(p.app.files)).toEqual([]);
        // Nothing went to DATA_DIR/files.
        expect(fs.existsSync(path.join(p.config.dataDir, 'files')) ? (await listStore(new LocalFileStore(p.config.dataDir))).length : 0).toBe(0);

        // Backed up with its files copied into the archive, restored into another prefix of the bucket.
        const work = tmpDir();
        try {
          const out = path.join(work, 'b.tar.gz');
          const manifest = await backupPortal({ config: p.config, out });
          expect(manifest).toMatchObject({ files_store: 's3', files_in: 'archive' });
          const target = { dataDir: path.join(work, 'data'), databaseUrl: undefined as string | undefined, files: s3.setting() };
          if (dialect === 'postgres') {
            const { freshPgDatabase } = await import('./backupHelpers.js');
            const fresh = await freshPgDatabase('restored');
            target.databaseUrl = fresh.url;
            try {
              await restoreAndCompare(target);
            } finally {
              await fresh.drop();
            }
          } else await restoreAndCompare(target);
          async function restoreAndCompare(t: typeof target) {
            await restorePortal({ config: t, file: out });
            await expectSameFiles(p.app.files, t);
            // A target holding files (the bucket prefix; on PostgreSQL its schema too) is refused.
            await expect(restorePortal({ config: { ...t, dataDir: path.join(work, 'other'), files: setting }, file: out })).rejects.toThrow(/not empty/);
          }
        } finally {
          fs.rmSync(work, { recursive: true, force: true });
        }
      } finally {
        await p.close();
      }
    });
  });
}

/** The restored bucket prefix holds the source's named files, with the same bytes. */
async function expectSameFiles(source: FileStore, target: { files: ReturnType<NonNullable<typeof s3>['setting']> }) {
  const restored = new S3FileStore(target.files);
  try {
    const want = await storeHashes(source);
    const got = await storeHashes(restored);
    for (const [k, v] of Object.entries(got)) expect(want[k], k).toBe(v);
    expect(Object.keys(got).filter((k) => k.startsWith('rate-sheets/')).length).toBeGreaterThan(0);
  } finally {
    await restored.close();
  }
}

describe.runIf(!!process.env.TEST_DATABASE_URL)('two server processes on one PostgreSQL, separate DATA_DIRs', () => {
  let a: TestPortal;
  let b: TestPortal['app'];
  let bDb: Awaited<ReturnType<typeof openDb>>;
  let bDir: string;
  beforeAll(async () => {
    a = await createTestPortal('postgres');
    bDir = tmpDir();
    bDb = await openDb({ databaseUrl: a.config.databaseUrl, dataDir: bDir, poolSize: 2 });
    b = await buildApp({ config: { ...a.config, dataDir: bDir }, db: bDb });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await bDb?.destroy();
    await a?.close();
    fs.rmSync(bDir, { recursive: true, force: true });
  });

  it('serves through one what was uploaded through the other, and a removal through one is gone from both', async () => {
    expect(a.app.files.kind).toBe('database');
    const u = await uploadsAndDownloads(a);
    const sheet = await servedBy(b, `/api/v1/company/rate_sheet/download/${u.sheetId}`, u.carrier.token);
    expect(sheet.status).toBe(200);
    expect(sha256(sheet.body)).toBe(sha256(u.tpl));
    expect(Number(sheet.headers['content-length'])).toBe(u.tpl.length);
    expect(sheet.headers['x-content-type-options']).toBe('nosniff');
    const pic = await servedBy(b, u.pictureUrl);
    expect([pic.status, pic.headers['content-type'], Number(pic.headers['content-length'])]).toEqual([200, 'image/png', u.picture.length]);
    expect(pic.body.equals(u.picture)).toBe(true);
    const doc = await servedBy(b, `/api/v1/enduser/transport_requests/documents/${u.docId}`, u.enduser);
    expect([doc.status, doc.headers['content-type'], Number(doc.headers['content-length'])]).toEqual([200, 'application/octet-stream', u.doc.length]);
    expect(doc.body.equals(u.doc)).toBe(true);
    // Neither DATA_DIR holds a file.
    for (const dir of [a.config.dataDir, bDir]) expect(fs.existsSync(path.join(dir, 'files')) ? (await listStore(new LocalFileStore(dir))).length : 0).toBe(0);

    // Deleted through b, gone for a.
    const del = await servedBy(b, `/api/v1/company/rate_sheet/destroy/${u.sheetId}`, u.carrier.token);
    expect(del.status).toBe(200);
    expect((await servedBy(a.app, `/api/v1/company/rate_sheet/download/${u.sheetId}`, u.carrier.token)).status).toBe(404);
  });
});

describeEachDb(
  'moving files into the configured store at start',
  (p) => {
    it('moves DATA_DIR/files into the database: every file with its bytes and marks; again, nothing; two at once, each file once', async () => {
      const store = new DbFileStore(p().db.db);
      const legacy = new LocalFileStore(p().config.dataDir);
      // What an installation with a shared volume had: files, a pending upload, and a half-written one.
      const names: Record<string, Buffer> = {};
      for (const area of ['media', 'documents', 'templates']) {
        const data = bytes(300);
        names[`${area}/${await legacy.store(area, data, '.bin')}`] = data;
      }
      const pendingData = bytes(30);
      const pending = await legacy.storePending('documents', pendingData, '.pdf');
      names[`documents/${pending}`] = pendingData;
      fs.writeFileSync(path.join(filesDir(p().config.dataDir, 'media'), '.0123456789abcdef0123456789abcdef.png.tmp'), 'half');
      // A start killed after copying one file but before removing it: in both places.
      const [area, name] = Object.keys(names)[0].split('/');
      await store.put(area, name, names[`${area}/${name}`]);
      const before = new Set((await listStore(store)).map((f) => `${f.area}/${f.name}`));

      // On SQLite the folder also holds the seeded sheets' originals (the template portal kept them there).
      const inFolder = (await listStore(legacy)).length;
      expect(inFolder).toBeGreaterThanOrEqual(Object.keys(names).length);
      const log: string[] = [];
      const moved = await moveFilesIntoStore(p().db.db, p().config.dataDir, store, { info: (_o, msg) => log.push(msg) }, 0);
      expect(moved).toBe(inFolder);
      expect(log.join('\n')).toMatch(/moved \d+ files from .*files into the database/);
      const hashes = await storeHashes(store);
      for (const [k, data] of Object.entries(names)) expect(hashes[k], k).toBe(sha256(data));
      expect((await pendingNames(store)).filter((n) => !before.has(n))).toEqual([`documents/${pending}`]);
      expect(await listStore(legacy)).toEqual([]);
      expect(fs.readdirSync(filesDir(p().config.dataDir, 'documents'))).not.toContain(pendingMarker(pending));
      expect(fs.readdirSync(filesDir(p().config.dataDir, 'media'))).toEqual([]);
      // Again: nothing to move, nothing changed.
      expect(await moveFilesIntoStore(p().db.db, p().config.dataDir, store, { info() {} }, 0)).toBe(0);
      expect(await storeHashes(store)).toEqual(hashes);

      // Two processes starting at once over the same folder: each file ends in the store once, whole.
      const more: Record<string, Buffer> = {};
      for (let i = 0; i < 6; i++) {
        const data = bytes(1000 + i);
        more[`documents/${await legacy.store('documents', data, '.pdf')}`] = data;
      }
      const db2 = await openDb({ databaseUrl: p().config.databaseUrl, dataDir: p().config.dataDir, poolSize: 2 });
      try {
        const counts = await Promise.all([
          moveFilesIntoStore(p().db.db, p().config.dataDir, store, { info() {} }, 0),
          moveFilesIntoStore(db2.db, p().config.dataDir, new DbFileStore(db2.db), { info() {} }, 0),
        ]);
        expect(counts[0] + counts[1]).toBeGreaterThanOrEqual(6);
      } finally {
        await db2.destroy();
      }
      const after = await storeHashes(store);
      for (const [k, data] of Object.entries(more)) expect(after[k], k).toBe(sha256(data));
      expect(await listStore(legacy)).toEqual([]);
      // The moved files serve: the seeded sheet's original downloads.
      const admin = await p().login(DEMO.admin);
      const sheet = await p().db.db.selectFrom('rate_sheets').select(['id', 'company_id']).where('file_path', 'is not', null).executeTakeFirstOrThrow();
      expect((await p().api('GET', `/admin/rate_sheet/download/${sheet.id}?company_id=${sheet.company_id}`, { token: admin })).status).toBe(200);
    });
  },
  { files: { kind: 'database' } },
);
