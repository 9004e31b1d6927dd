import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { filesDir, markPending, pendingMarker, storeFile, storePendingFile } from '../../server/lib/files.js';
import { settleAfterError, sweepFiles } from '../../server/lib/fileSweep.js';
import { DEMO, describeEachDb } from './helpers.js';
import { createCarrier, download, form } from './tariffs.helpers.js';
import { handShipment, multipart } from './requestsFixtures.js';

/**
 * Issue 11: files written around a transaction carry a pending marker until the transaction ends; the
 * start-up sweep settles markers a dead process left (the file goes unless a row names it) and removes
 * half-written temporary files, sparing anything younger than its age limit.
 */
describeEachDb('file sweep', (p) => {
  const dir = (area: string) => filesDir(p().config.dataDir, area);
  const hidden = (area: string) => fs.readdirSync(dir(area)).filter((f) => f.startsWith('.'));
  const age = (area: string, name: string, minutes: number) => {
    const t = new Date(Date.now() - minutes * 60_000);
    fs.utimesSync(path.join(dir(area), name), t, t);
  };

  it('uploads and requests leave no marker behind; the sweep removes what dead writes left, nothing else', async () => {
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
    expect(hidden('rate-sheets')).toEqual([]);
    expect(hidden('documents')).toEqual([]);
    const doc = fs.readdirSync(dir('documents'))[0];

    // What dead processes leave: a sheet file written before its transaction, a delete committed before
    // its file went (marker on an unnamed file), a delete that never committed (marker on a named file),
    // a document written before its request, a half-written temporary file; and a fresh pending upload.
    const deadUpload = await storePendingFile(p().config.dataDir, 'rate-sheets', Buffer.from('x'), '.xlsx');
    const deletedFile = await storeFile(p().config.dataDir, 'rate-sheets', Buffer.from('y'), '.xlsx');
    await markPending(p().config.dataDir, 'rate-sheets', deletedFile);
    await markPending(p().config.dataDir, 'rate-sheets', sheetFile);
    const deadDoc = await storePendingFile(p().config.dataDir, 'documents', Buffer.from('z'), '.pdf');
    fs.mkdirSync(dir('media'), { recursive: true });
    fs.writeFileSync(path.join(dir('media'), '.0123456789abcdef0123456789abcdef.png.tmp'), 'half');
    const plainMedia = await storeFile(p().config.dataDir, 'media', Buffer.from('logo'), '.png');
    for (const f of hidden('rate-sheets')) age('rate-sheets', f, 30);
    for (const f of hidden('documents')) age('documents', f, 30);
    age('media', '.0123456789abcdef0123456789abcdef.png.tmp', 30);
    const young = await storePendingFile(p().config.dataDir, 'rate-sheets', Buffer.from('w'), '.xlsx');

    const removed = await sweepFiles(p().db.db, p().config.dataDir, 15 * 60_000);
    expect(removed.sort()).toEqual(
      [`documents/${deadDoc}`, 'media/.0123456789abcdef0123456789abcdef.png.tmp', `rate-sheets/${deadUpload}`, `rate-sheets/${deletedFile}`].sort(),
    );
    const sheets = fs.readdirSync(dir('rate-sheets'));
    expect(sheets).toEqual(expect.arrayContaining([pendingMarker(young), sheetFile, young]));
    expect(sheets.filter((f) => f.startsWith('.'))).toEqual([pendingMarker(young)]);
    expect(sheets).not.toContain(deadUpload);
    expect(sheets).not.toContain(deletedFile);
    expect(fs.readdirSync(dir('documents'))).toEqual([doc]);
    expect(fs.readdirSync(dir('media'))).toEqual([plainMedia]);
    // The sheet's original still downloads.
    expect((await download(p(), `/company/rate_sheet/download/${up.body.data.id}`, c.token)).status).toBe(200);

    // With no age limit (a single process at its start) the fresh one goes too.
    expect(await sweepFiles(p().db.db, p().config.dataDir, 0)).toEqual([`rate-sheets/${young}`]);
  });

  it('after a failed transaction the rows decide: a file a row names stays, another goes with its marker', async () => {
    const named = (await p().db.db.selectFrom('rate_sheets').select('file_path').where('file_path', 'is not', null).executeTakeFirstOrThrow()).file_path!;
    await markPending(p().config.dataDir, 'rate-sheets', named);
    const lost = await storePendingFile(p().config.dataDir, 'rate-sheets', Buffer.from('x'), '.xlsx');
    await settleAfterError(p().db.db, p().config.dataDir, 'rate-sheets', [named, lost]);
    const files = fs.readdirSync(dir('rate-sheets'));
    expect(files).toContain(named);
    expect(files).not.toContain(lost);
    expect(files.filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
