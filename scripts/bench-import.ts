/**
 * npm run bench:import — how much an import costs beyond reading the spreadsheet.
 *
 * Generates a 100 000-row standard rate sheet (.xlsx, shared strings like Excel writes), then, each in
 * a fresh child process so memory peaks do not mix:
 *   - a bare parse: SheetJS reading the same file with the importer's options (first sheet, values only);
 *   - the full import on SQLite: checks, parse, validation of every row, file kept, one transaction of
 *     batched inserts (the code an upload runs).
 * Prints the median of 3 runs of each, the ratio import / bare parse (budget ≤ 2) and the peak RSS.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as XLSX from '@e965/xlsx';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const self = fileURLToPath(import.meta.url);

function generate(file: string) {
  const header = ['rate_code', 'country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime'];
  const brackets = [
    [0, 100],
    [100, 300],
    [300, 1000],
    [1000, 3000],
    [3000, 10000],
  ];
  const aoa: Array<Array<string | number>> = [header];
  for (let i = 0; i < ROWS; i++) {
    const [from, to] = brackets[i % 5];
    // Italian rows first (one zone per 5 rows: postal-code zones), a national sheet as a carrier would keep it.
    aoa.push([
      'STD25',
      'IT',
      String(10000 + Math.floor(i / 5)),
      from,
      to,
      Math.round(1800 + (i % 997) * 3.7) / 100,
      i % 5 === 0 ? 'S' : 'Q',
      i % 5 === 0 ? 0 : 25 + (i % 7),
      2 + (i % 3),
    ]);
  }
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'listino');
  fs.writeFileSync(file, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true, bookSST: true }) as Buffer);
}

async function child(mode: string, file: string) {
  const data = fs.readFileSync(file);
  const { READ_OPTIONS } = await import('../server/imports/spreadsheet.js');
  let ms: number;
  let cpu0 = process.cpuUsage();
  if (mode === 'parse') {
    const t0 = performance.now();
    const wb = XLSX.read(data, READ_OPTIONS);
    ms = performance.now() - t0;
    if (!wb.SheetNames.length) throw new Error('nothing parsed');
  } else {
    const { openDb } = await import('../server/db/index.js');
    const { migrateToLatest } = await import('../server/db/migrate.js');
    const { seedReference } = await import('../server/seed/reference.js');
    const { importRateSheet } = await import('../server/imports/rateSheets.js');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
    const db = await openDb({ dataDir });
    await migrateToLatest(db.db);
    await seedReference(db.db);
    const now = new Date().toISOString();
    const company = await db.db
      .insertInto('companies')
      .values({
        legal_name: 'Bench Trasporti',
        company_role_id: 2,
        status_id: 1,
        is_inbound: 1,
        type: 'Customer',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { rows } = await importRateSheet(db.db, dataDir, {
      companyId: company.id,
      legalName: 'Bench Trasporti',
      rateType: 'STD',
      zone: 'NAT',
      area: 'Customer',
      isStandard: 1,
      validateFrom: '2025-01-01',
      validateTo: '2030-12-31',
      description: null,
      categoryId: null,
      file: { filename: 'bench.xlsx', data },
    });
    ms = performance.now() - t0;
    if (rows !== ROWS) throw new Error(`imported ${rows} rows, expected ${ROWS}`);
    const cpuEnd = process.cpuUsage(cpu0);
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    return report(ms, cpuEnd);
  }
  return report(ms, process.cpuUsage(cpu0));
}

function report(ms: number, used: NodeJS.CpuUsage) {
  const cpuMs = (used.user + used.system) / 1000;
  // ru_maxrss: the process's peak resident set, in kilobytes.
  process.stdout.write(JSON.stringify({ ms, cpuMs, peakMb: process.resourceUsage().maxRSS / 1024 }));
}

function run(mode: string, file: string): { ms: number; cpuMs: number; peakMb: number } {
  const r = spawnSync(process.execPath, [...process.execArgv, self, mode, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${mode} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const [mode, file] = process.argv.slice(2);
  if (mode) return child(mode, file);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sheet-'));
  const sheet = path.join(dir, 'standard-100k.xlsx');
  generate(sheet);
  console.log(`standard rate sheet: ${ROWS} rows, ${(fs.statSync(sheet).size / 1048576).toFixed(1)} MB`);
  const parse: Array<ReturnType<typeof run>> = [];
  const imp: Array<ReturnType<typeof run>> = [];
  for (let i = 0; i < RUNS; i++) {
    parse.push(run('parse', sheet));
    imp.push(run('import', sheet));
  }
  const p = median(parse.map((x) => x.ms));
  const m = median(imp.map((x) => x.ms));
  const pc = median(parse.map((x) => x.cpuMs));
  const mc = median(imp.map((x) => x.cpuMs));
  // CPU time is the budget's measure: this machine is shared, and wall time there measures the neighbours.
  const ratio = mc / pc;
  console.log(
    `bare parse (SheetJS, same options): ${p.toFixed(0)} ms wall, ${pc.toFixed(0)} ms CPU, peak RSS ${Math.max(...parse.map((x) => x.peakMb)).toFixed(0)} MB`,
  );
  console.log(
    `full import (SQLite, one transaction): ${m.toFixed(0)} ms wall, ${mc.toFixed(0)} ms CPU, peak RSS ${Math.max(...imp.map((x) => x.peakMb)).toFixed(0)} MB`,
  );
  console.log(`ratio import / bare parse: ${ratio.toFixed(2)} CPU, ${(m / p).toFixed(2)} wall (budget ≤ 2.00) ${ratio <= 2 ? 'OK' : 'OVER BUDGET'}`);
  fs.rmSync(dir, { recursive: true, force: true });
  if (ratio > 2) process.exitCode = 1;
}

await main();
