import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { filesDir } from '../../server/lib/files.js';
import { settleAfterError, sweepFiles } from '../../server/lib/fileSweep.js';
import { DEMO, describeEachDb } from './helpers.js';
import { listStore, pendingNames } from './fileHelpers.js';
import { createCarrier, download, form } from './tariffs.helpers.js';
import { handShipment, multipart } from './requestsFixtures.js';

/**
 * Issue 11: files written around a transaction carry a pending mark until the transaction ends; the
 * start-up sweep settles marks a dead process left (the file goes unless a row names it) and removes
 * half-written temporary files, sparing anything younger than its age limit. Issue 32: the same through
 * the portal's file store, whichever it is (DATA_DIR/files on SQLite, the database on PostgreSQL;
 * tests/api/fileStores.test.ts runs the store itself on every backend, S3 included).
 */
describeEachDb('file sweep', (p) => {
  const files = () => p().app.files;

  it('uploads and requests leave no mark behind; the sweep removes what dead writes left, nothing else', async () => {
    const c = await createCarrier(p(), 'Sweep Cargo');
    const tpl = (await download(p(), '/company/tariff_templates/express_rate_sheet', c.token)).data;
    const up = await p().api('POST', '/company/rate_sheet/store', {
      token: c.token,
      payload: form(
        { zone: 'NAT', rate_type: 'EXP', area: 'Customer', validate_from: '2025-01-01', validate_to: '2030-12-31' },
        { field: 'rate_sheet', name: 'l.xlsx', data: tpl },
      ),
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const sheetFile = up.body.data.file_path as string;
    const docType = await p().db.db.selectFrom('document_types').select('id').where('active', '=', '1').orderBy('id').executeTakeFirstOrThrow();
    const mp = await multipart({
      ...handShipment(0),
      documents: [{ filename: 'bolla.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 x') }],
      doctypes: [String(docType.id)],
    });
    const req = await p().api('POST', '/enduser/transport_requests/newRequest', {
      token: await p().login(DEMO.enduser),
      payload: mp.payload,
      headers: mp.headers,
    });
    expect(req.status, JSON.stringify(req.body)).toBe(200);
    expect(await pendingNames(files())).toEqual([]);
    const docsBefore = (await listStore(files())).filter((f) => f.area === 'documents').map((f) => f.name);
    expect(docsBefore).toHaveLength(1);

    // What dead processes leave: a sheet file written before its transaction, a delete committed before
    // its file went (mark on an unnamed file), a delete that never committed (mark on a named file),
    // a document written before its request, a half-written temporary file (only DATA_DIR/files has
    // them); and a fresh pending upload, made after the others by more than the age limit.
    const deadUpload = await files().storePending('rate-sheets', Buffer.from('x'), '.xlsx');
    const deletedFile = await files().store('rate-sheets', Buffer.from('y'), '.xlsx');
    await files().markPending('rate-sheets', deletedFile);
    await files().markPending('rate-sheets', sheetFile);
    const deadDoc = await files().storePending('documents', Buffer.from('z'), '.pdf');
    const tmp = '.0123456789abcdef0123456789abcdef.png.tmp';
    if (files().kind === 'local') {
      fs.mkdirSync(filesDir(p().config.dataDir, 'media'), { recursive: true });
      fs.writeFileSync(path.join(filesDir(p().config.dataDir, 'media'), tmp), 'half');
    }
    const plainMedia = await files().store('media', Buffer.from('logo'), '.png');
    const cut = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    const young = await files().storePending('rate-sheets', Buffer.from('w'), '.xlsx');

    // The sweep as it runs 15 minutes after `cut`: everything before is older than its limit, `young` is not.
    const removed = await sweepFiles(p().db.db, files(), 15 * 60_000, cut + 15 * 60_000);
    expect(removed.sort()).toEqual(
      [`documents/${deadDoc}`, ...(files().kind === 'local' ? [`media/${tmp}`] : []), `rate-sheets/${deadUpload}`, `rate-sheets/${deletedFile}`].sort(),
    );
    const after = await listStore(files());
    const sheets = after.filter((f) => f.area === 'rate-sheets');
    expect(sheets.map((f) => f.name)).toEqual(expect.arrayContaining([sheetFile, young]));
    expect(sheets.map((f) => f.name)).not.toContain(deadUpload);
    expect(sheets.map((f) => f.name)).not.toContain(deletedFile);
    expect(await pendingNames(files())).toEqual([`rate-sheets/${young}`]);
    expect(after.filter((f) => f.area === 'documents').map((f) => f.name)).toEqual(docsBefore);
    expect(after.filter((f) => f.area === 'media').map((f) => f.name)).toContain(plainMedia);
    if (files().kind === 'local') expect(fs.readdirSync(filesDir(p().config.dataDir, 'media'))).not.toContain(tmp);
    // The sheet's original still downloads.
    expect((await download(p(), `/company/rate_sheet/download/${up.body.data.id}`, c.token)).status).toBe(200);

    // With no age limit (a single process at its start) the fresh one goes too.
    expect(await sweepFiles(p().db.db, files(), 0, Date.now() + 1000)).toEqual([`rate-sheets/${young}`]);
  });

  it('after a failed transaction the rows decide: a file a row names stays, another goes with its mark', async () => {
    const named = (await p().db.db.selectFrom('rate_sheets').select('file_path').where('file_path', 'is not', null).executeTakeFirstOrThrow()).file_path!;
    await files().markPending('rate-sheets', named);
    const lost = await files().storePending('rate-sheets', Buffer.from('x'), '.xlsx');
    await settleAfterError(p().db.db, files(), 'rate-sheets', [named, lost]);
    const names = (await listStore(files())).filter((f) => f.area === 'rate-sheets').map((f) => f.name);
    expect(names).toContain(named);
    expect(names).not.toContain(lost);
    expect(await pendingNames(files())).toEqual([]);
  });
});
