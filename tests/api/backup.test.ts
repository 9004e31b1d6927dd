import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { backupPortal } from '../../server/backup/backup.js';
import { restorePortal } from '../../server/backup/restore.js';
import type { Manifest } from '../../server/backup/manifest.js';
import { openDb } from '../../server/db/index.js';
import { openFileStore } from '../../server/lib/files.js';
import { SWEPT_AREAS } from '../../server/lib/fileSweep.js';
import { DEMO, describeEachDb } from './helpers.js';
import { listStore, pendingNames, sha256, storeHashes } from './fileHelpers.js';
import { dumpPostgres, dumpSqlite, restoreTarget, type TableDump } from './backupHelpers.js';
import { png } from './accountsHelpers.js';
import { createCarrier, download, form } from './tariffs.helpers.js';
import { handShipment, multipart } from './requestsFixtures.js';

/**
 * Issue 32, backups: `npm run backup` of a portal that keeps working (requests with documents created,
 * pictures replaced, rate sheets uploaded and deleted) restores into an empty target as the database
 * snapshot had it, every table, with every file its rows name, byte for byte. On PostgreSQL the
 * snapshot the backup exported is read by the test itself (an independent reference); on SQLite the
 * reference is the online backup's copy, and the consistency of rows and files is checked on the
 * restored portal (every named file there with bytes that were uploaded, no unnamed sheet or document,
 * the request counters equal to the requests).
 */
describeEachDb('backup and restore', (p) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  let carrier: Awaited<ReturnType<typeof createCarrier>>;
  let enduser: string;
  let docType: number;
  let archive: string;
  let manifest: Manifest;
  let reference: TableDump;
  /** the SHA-256 of every file the portal had before and every file uploaded since */
  const uploaded = new Set<string>();
  /** the rate sheet deleted, and the picture replaced, while the backup held the files */
  let deletedSheet: { id: number; file: string; sha: string };
  let replacedPicture: string;
  const ackedBefore: number[] = [];
  let duringBackup = 0;

  const newRequest = async () => {
    const data = Buffer.from(`%PDF-1.4 ${crypto.randomBytes(24).toString('hex')}`);
    uploaded.add(sha256(data));
    const mp = await multipart({ ...handShipment(0), documents: [{ filename: 'bolla.pdf', type: 'application/pdf', data }], doctypes: [String(docType)] });
    const r = await p().api('POST', '/enduser/transport_requests/newRequest', { token: enduser, payload: mp.payload, headers: mp.headers });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };
  const newPicture = async () => {
    const data = Buffer.concat([png(), crypto.randomBytes(16)]);
    uploaded.add(sha256(data));
    const mp = await multipart({ first_name: 'Eva', last_name: 'Rossi', image: { filename: 'me.png', type: 'image/png', data } });
    const r = await p().api('POST', '/visitor/updateProfile', { token: enduser, ...mp });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return path.basename(r.body.data.image as string);
  };
  let template: Buffer;
  const newSheet = async () => {
    const r = await p().api('POST', '/company/rate_sheet/store', {
      token: carrier.token,
      payload: form(
        { zone: 'NAT', rate_type: 'EXP', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31' },
        { field: 'rate_sheet', name: 'l.xlsx', data: template },
      ),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { id: r.body.data.id as number, file: r.body.data.file_path as string };
  };

  beforeAll(async () => {
    carrier = await createCarrier(p(), 'Backup Cargo');
    enduser = await p().login(DEMO.enduser);
    docType = Number((await p().db.db.selectFrom('document_types').select('id').where('active', '=', '1').orderBy('id').executeTakeFirstOrThrow()).id);
    template = (await download(p(), '/company/tariff_templates/express_rate_sheet', carrier.token)).data;
    uploaded.add(sha256(template));
    for (const sha of Object.values(await storeHashes(p().app.files))) uploaded.add(sha);
  });

  it('takes a backup while requests, pictures and rate sheets are written and deleted', async () => {
    for (let i = 0; i < 3; i++) ackedBefore.push(await newRequest());
    const sheet = await newSheet();
    deletedSheet = { ...sheet, sha: sha256(await p().app.files.read('rate-sheets', sheet.file)) };
    replacedPicture = await newPicture();

    let stop = false;
    let done = 0;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        await [newRequest, newPicture, newRequest, newSheet][i % 4]();
        done++;
      }
    })();
    const waitFor = async (n: number) => {
      const target = done + n;
      while (done < target) await new Promise((r) => setTimeout(r, 5));
    };
    await waitFor(2);
    const started = done;
    archive = path.join(work, `portal-${p().dialect}.tar.gz`);
    manifest = await backupPortal({
      config: p().config,
      out: archive,
      onSnapshot: async (s) => {
        reference = s.dialect === 'postgres' ? await dumpPostgres(p().config.databaseUrl!, s.snapshotId) : await dumpSqlite(s.copy!);
        // After the snapshot, before the files are copied: a sheet of the snapshot is deleted (its
        // file's removal waits for the hold), its picture replaced, and the writer goes on.
        const del = await p().api('GET', `/company/rate_sheet/destroy/${deletedSheet.id}`, { token: carrier.token });
        expect(del.status, JSON.stringify(del.body)).toBe(200);
        await newPicture();
        await waitFor(3);
      },
    });
    duringBackup = done - started;
    stop = true;
    await writer;
    expect(duringBackup).toBeGreaterThanOrEqual(3);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    // The removals the hold deferred are done once the backup ends.
    expect(await p().app.files.size('rate-sheets', deletedSheet.file)).toBeNull();
    expect(await p().app.files.size('media', replacedPicture)).toBeNull();
    expect(manifest).toMatchObject({ dialect: p().dialect, files_store: p().app.files.kind, migration: expect.stringMatching(/^\d{4}_/) });

    // Any tar reads it: the header first, the manifest last.
    const entries = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n');
    expect(entries[0]).toBe('portal-backup.json');
    expect(entries.at(-1)).toBe('manifest.json');
    expect(entries).toContain(manifest.database_entry);
    expect(entries.filter((e) => e.startsWith('files/')).length).toBe(manifest.files_in === 'archive' ? manifest.files.length : 0);
  });

  it('restores it into an empty target: every table as the snapshot, every named file byte for byte, nothing unnamed', async () => {
    const target = await restoreTarget(p().dialect);
    try {
      const r = await restorePortal({ config: target.config, file: archive });
      expect(r.manifest.created_at).toBe(manifest.created_at);

      const restored =
        p().dialect === 'postgres' ? await dumpPostgres(target.config.databaseUrl!) : await dumpSqlite(path.join(target.config.dataDir, 'portal.sqlite'));
      expect(Object.keys(restored).sort()).toEqual(Object.keys(reference).sort());
      // stored_files: the restore's sweep dropped the pending uploads the snapshot caught mid-request.
      for (const table of Object.keys(reference)) if (table !== 'stored_files') expect(restored[table], table).toEqual(reference[table]);

      const db = await openDb({ databaseUrl: target.config.databaseUrl, dataDir: target.config.dataDir, poolSize: 2 });
      const files = await openFileStore(target.config, db.db);
      try {
        const hashes = await storeHashes(files);
        const d = db.db;
        const named = new Map<string, string[]>([
          ['rate-sheets', (await d.selectFrom('rate_sheets').select('file_path').execute()).map((x) => x.file_path!).filter(Boolean)],
          ['documents', (await d.selectFrom('transport_request_documents').select('stored_name').execute()).map((x) => x.stored_name)],
          ['pods', (await d.selectFrom('transport_request_pods').select('stored_name').execute()).map((x) => x.stored_name)],
          [
            'media',
            [
              ...(await d.selectFrom('users').select('image').execute()).map((x) => x.image),
              ...(await d.selectFrom('companies').select(['logo', 'site_header_logo']).execute()).flatMap((x) => [x.logo, x.site_header_logo]),
            ].filter((x): x is string => !!x && !x.startsWith('http')),
          ],
        ]);
        for (const [area, names] of named)
          for (const name of names) {
            expect(hashes[`${area}/${name}`], `${area}/${name} named by a restored row`).toBeDefined();
            expect(uploaded.has(hashes[`${area}/${name}`]), `${area}/${name}: bytes that were uploaded`).toBe(true);
          }
        for (const area of Object.keys(SWEPT_AREAS)) {
          const stored = Object.keys(hashes).filter((k) => k.startsWith(`${area}/`));
          expect(stored.sort(), `${area}: only named files`).toEqual(
            named
              .get(area)!
              .map((n) => `${area}/${n}`)
              .sort(),
          );
        }
        expect(await pendingNames(files)).toEqual([]);
        // The sheet deleted after the snapshot is in the restored portal, with its file.
        expect(await d.selectFrom('rate_sheets').select('id').where('id', '=', deletedSheet.id).executeTakeFirst()).toBeDefined();
        expect(hashes[`rate-sheets/${deletedSheet.file}`]).toBe(deletedSheet.sha);
        // Acknowledged before the backup began: there.
        const ids = (await d.selectFrom('transport_requests').select('id').execute()).map((x) => Number(x.id));
        for (const id of ackedBefore) expect(ids).toContain(id);
        // The counters the triggers keep agree with the requests restored.
        const counted = await d
          .selectFrom('transport_requests')
          .select(['carrier_id', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('carrier_id')
          .execute();
        const kept = await d
          .selectFrom('transport_request_counts')
          .select(['carrier_id', (eb) => eb.fn.sum<number>('n').as('n')])
          .groupBy('carrier_id')
          .execute();
        const byCarrier = (rows: Array<{ carrier_id: number; n: number | string | bigint }>) =>
          Object.fromEntries(rows.filter((x) => Number(x.n) > 0).map((x) => [x.carrier_id, Number(x.n)]));
        expect(byCarrier(kept)).toEqual(byCarrier(counted));

        // The restored portal serves the deleted sheet's original, streamed with its length.
        const app = await buildApp({ config: { ...p().config, ...target.config }, db, files });
        try {
          const token = (
            await app.inject({
              method: 'POST',
              url: '/api/v1/visitor/login',
              headers: { 'x-api-password': p().config.apiPassword },
              payload: { email: DEMO.admin, password: DEMO.password },
            })
          ).json().token;
          const res = await app.inject({
            method: 'GET',
            url: `/api/v1/admin/rate_sheet/download/${deletedSheet.id}?company_id=${carrier.id}`,
            headers: { 'x-api-password': p().config.apiPassword, authorization: `Bearer ${token}` },
          });
          expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
          expect(sha256(res.rawPayload)).toBe(deletedSheet.sha);
          expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        } finally {
          await app.close();
        }
      } finally {
        await files.close();
        await db.destroy();
      }

      // Into the same target again: refused, it is not empty.
      await expect(restorePortal({ config: target.config, file: archive })).rejects.toThrow(/not empty/);
    } finally {
      await target.drop();
    }
  });

  it('refuses a damaged archive before writing anything, and a backup over an existing file', async () => {
    // One byte of the database changed inside the archive (sizes kept, so only the hashes can tell).
    const raw = zlib.gunzipSync(fs.readFileSync(archive));
    const at = raw.indexOf(Buffer.from(manifest.database_entry)) + 512 + 4096;
    raw[at] ^= 0xff;
    const damaged = path.join(work, `damaged-${p().dialect}.tar.gz`);
    fs.writeFileSync(damaged, zlib.gzipSync(raw));
    const target = await restoreTarget(p().dialect);
    try {
      await expect(restorePortal({ config: target.config, file: damaged })).rejects.toThrow(/does not match its manifest/);
      expect(fs.existsSync(target.config.dataDir) ? fs.readdirSync(target.config.dataDir) : []).toEqual([]);
      if (target.config.databaseUrl) await expect(dumpPostgres(target.config.databaseUrl)).resolves.toEqual({});
      // An archive cut short: no manifest.
      const cut = path.join(work, `cut-${p().dialect}.tar.gz`);
      fs.writeFileSync(cut, zlib.gzipSync(raw.subarray(0, raw.lastIndexOf(Buffer.from('manifest.json\0')))));
      await expect(restorePortal({ config: target.config, file: cut })).rejects.toThrow(/cut short|no manifest/);
    } finally {
      await target.drop();
    }
    await expect(backupPortal({ config: p().config, out: archive })).rejects.toThrow(/exists already/);
    // Another dialect: refused by the header.
    const other = await restoreTarget(p().dialect === 'sqlite' ? 'postgres' : 'sqlite').catch(() => null);
    if (other) {
      try {
        await expect(restorePortal({ config: other.config, file: archive })).rejects.toThrow(/backup restores into/);
      } finally {
        await other.drop();
      }
    }
  });

  it('restores a PostgreSQL backup into a schema of its own name too', async () => {
    if (p().dialect !== 'postgres') return;
    const source = manifest.schema!;
    const target = await restoreTarget('postgres', source);
    try {
      await restorePortal({ config: target.config, file: archive });
      const restored = await dumpPostgres(target.config.databaseUrl!);
      for (const table of Object.keys(reference)) if (table !== 'stored_files') expect(restored[table], table).toEqual(reference[table]);
      const db = await openDb({ databaseUrl: target.config.databaseUrl, dataDir: target.config.dataDir, poolSize: 1 });
      try {
        expect((await listStore(await openFileStore(target.config, db.db))).length).toBeGreaterThan(0);
      } finally {
        await db.destroy();
      }
    } finally {
      await target.drop();
    }
  });
});
