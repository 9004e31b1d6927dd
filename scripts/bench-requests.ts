/**
 * `npm run bench:requests` (issue 11): the transport-request lists at a million requests, measured
 * through the HTTP routes of a real server process on loopback, one call at a time.
 * Budget: p95 ≤ 50 ms for every kind of call.
 *
 * SQLite in a temporary folder by default; BENCH_DATABASE_URL=postgres://… runs it on a fresh
 * PostgreSQL schema, dropped afterwards (run it twice for both databases, as bench:quote).
 * BENCH_ROWS (default 1 000 000), BENCH_CALLS per kind (default 200).
 *
 * The data (bench-requests-data.ts) is written after the migrations, so the request-count triggers
 * run for every row as they would in production. Then PostgreSQL gets VACUUM ANALYZE (the steady
 * state autovacuum reaches on a real server; the newest rows' pages are read from the heap anyway);
 * SQLite gets nothing the server does not do itself.
 *
 * The kinds are what the list screen sends (calculator document §2, RequestList.tsx): every role's
 * first pages, a deep page, the last pages (the pager offers the last page), each filter (date,
 * status, the admin's company selector, the end-user selector) and their combinations, each sortable
 * column both ways (id, date, total, status), sorts with a filter and sorted last pages. The kinds run
 * round-robin, so a burst of load from elsewhere on the machine hits them all alike. The page in the
 * middle of the whole list (reachable only by typing the page into the address) is shown as
 * information: OFFSET paging reads every row before it, and the pager never offers it.
 * The dashboard statistics are timed too, as information.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.js';
import { openDb } from '../server/db/index.js';
import { migrateToLatest, portalMigrator } from '../server/db/migrate.js';
import { loadMigrations } from '../server/migrations/index.js';
import { seed } from '../server/seed/index.js';
import { fill, random, type Fixture } from './bench-requests-data.js';
import { serverArgs } from './serverCommand.mjs';
import { freePort, nearestRank, pgSchema } from './benchKit.js';

const ROWS = Number(process.env.BENCH_ROWS || 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS || 200);
const BUDGET_MS = 50;
const API_PASSWORD = 'bench-password';
/** The migration of issue 11: timed again (down, up) on the full table to show it is fast on a big one. */
const LIST_MIGRATION = '0009_request_list';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

type Role = 'admin' | 'carrier' | 'enduser';
type Params = Record<string, string | number>;
interface Kind {
  role: Role;
  name: string;
  url: () => string;
  info?: boolean;
  ms: number[];
}

const NS: Record<Role, string> = { admin: 'admin', carrier: 'company', enduser: 'enduser' };
const SORTS: Array<[string, string]> = [
  ['id', 'asc'],
  ['id', 'desc'],
  ['created_at', 'asc'],
  ['cost', 'asc'],
  ['cost', 'desc'],
  ['transport_request_status_id', 'asc'],
  ['transport_request_status_id', 'desc'],
];
const STATUSES = [1, 3, 4, 5, 6, 7];

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-requests-'));
  const pg = process.env.BENCH_DATABASE_URL ? await pgSchema(process.env.BENCH_DATABASE_URL) : null;
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    API_PASSWORD,
    LOG_LEVEL: 'warn',
    STATIC_DIR: path.join(dataDir, 'no-static'),
  };
  const config = loadConfig({ NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv);
  const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  const db = handle.db;
  let server: ReturnType<typeof spawn> | undefined;
  try {
    await migrateToLatest(db);
    await seed(db, config);
    let t = performance.now();
    const fx: Fixture = await fill(db, handle.dialect, ROWS);
    const fillSeconds = (performance.now() - t) / 1000;
    t = performance.now();
    if (pg) await sql`vacuum analyze`.execute(db);
    const vacuumSeconds = (performance.now() - t) / 1000;
    const total = await db
      .selectFrom('transport_requests')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `${pg ? 'PostgreSQL' : 'SQLite'}: ${Number(total.n)} requests (with shipments, addresses, goods) written in ${fillSeconds.toFixed(1)} s${pg ? `, vacuum analyze ${vacuumSeconds.toFixed(1)} s` : ''}`,
    );
    const mb = (bytes: unknown) => `${(Number(bytes) / 1048576).toFixed(0)} MB`;
    if (pg) {
      const r = (await sql<{ t: string; i: string }>`select pg_table_size('transport_requests') as t, pg_indexes_size('transport_requests') as i`.execute(db))
        .rows[0];
      console.log(`transport_requests: table ${mb(r.t)}, its indexes ${mb(r.i)}`);
    } else {
      const r = (
        await sql<{
          name: string;
          bytes: number;
        }>`select name, sum(pgsize) as bytes from dbstat where name = 'transport_requests' or name in (select name from sqlite_master where tbl_name = 'transport_requests' and type = 'index') group by name`.execute(
          db,
        )
      ).rows;
      const table = r.filter((x) => x.name === 'transport_requests').reduce((a, x) => a + Number(x.bytes), 0);
      console.log(
        `transport_requests: table ${mb(table)}, its indexes ${mb(r.reduce((a, x) => a + Number(x.bytes), 0) - table)} (database file ${mb(fs.statSync(path.join(dataDir, 'portal.sqlite')).size)})`,
      );
    }

    const migrations = await loadMigrations();
    if (migrations[LIST_MIGRATION]) {
      // The list migration once more on the full table: what an upgrade of a big installation costs.
      const migrator = await portalMigrator(db);
      const before = Object.keys(migrations)
        .filter((n) => n < LIST_MIGRATION)
        .at(-1)!;
      const later = Object.keys(migrations).filter((n) => n > LIST_MIGRATION);
      const down = await migrator.migrateTo(before);
      if (down.error) throw down.error;
      t = performance.now();
      const up = await migrator.migrateToLatest();
      if (up.error) throw up.error;
      console.log(
        `migration ${LIST_MIGRATION}${later.length ? ` (and ${later.join(', ')})` : ''} on the full table: ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
      if (pg) await sql`analyze transport_requests`.execute(db);
    }

    server = spawn(process.execPath, serverArgs(), {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}/api/v1`;
    const headers = { 'x-api-password': API_PASSWORD, 'content-type': 'application/json', 'accept-language': 'it' };
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/visitor/ping`, { headers })).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 300) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const tokens = {} as Record<Role, string>;
    for (const [role, email] of [
      ['admin', 'admin@portal.demo'],
      ['carrier', 'carrier@portal.demo'],
      ['enduser', 'enduser@portal.demo'],
    ] as const) {
      const r = await (await fetch(`${base}/visitor/login`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'demo1234' }) })).json();
      if (!r.token) throw new Error(`login ${email}: ${JSON.stringify(r)}`);
      tokens[role] = r.token;
    }
    const get = async (role: Role, url: string) => {
      const res = await fetch(`${base}${url}`, { headers: { ...headers, authorization: `Bearer ${tokens[role]}` } });
      const body = await res.json();
      if (!res.ok || body.status !== true) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return body;
    };
    const listUrl = (role: Role, p: Params) => `/${NS[role]}/transport_requests?${new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)]))}`;
    const lastPage = async (role: Role) => Number((await get(role, listUrl(role, {}))).transportRequests.last_page);

    const rnd = random(7);
    const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
    const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const status = () => pick(STATUSES);
    const day = () => pick(fx.days);
    const others = fx.carriers.slice(1);
    const carrierEndusers = [fx.enduser, ...fx.endusers.get(fx.carrier)!];
    const allEndusers = [...fx.endusers.values()].flat().concat(fx.enduser);

    const kinds: Kind[] = [];
    const add = (role: Role, name: string, params: () => Params, info = false) => kinds.push({ role, name, url: () => listUrl(role, params()), info, ms: [] });
    // The machine's own floor: a trivial route, timed among the others (information).
    kinds.push({ role: 'admin', name: 'trivial GET /visitor/ping (info)', url: () => '/visitor/ping', info: true, ms: [] });
    for (const role of ['admin', 'carrier', 'enduser'] as Role[]) {
      const last = await lastPage(role);
      add(role, 'first page', () => ({}));
      add(role, 'pages 2–10', () => ({ page: between(2, 10) }));
      add(role, 'deep page (100–2000)', () => ({ page: between(100, Math.min(2000, last)) }));
      add(role, 'last 3 pages', () => ({ page: last - between(0, 2) }));
      add(role, 'status', () => ({ transport_request_status_id: status() }));
      add(role, 'date', () => ({ date: day() }));
      add(role, 'status + date', () => ({ transport_request_status_id: status(), date: day() }));
      for (const [sort, order] of SORTS) add(role, `sort ${sort === 'transport_request_status_id' ? 'status' : sort} ${order}`, () => ({ sort, order }));
      add(role, 'status, sort cost desc', () => ({ transport_request_status_id: status(), sort: 'cost', order: 'desc' }));
      add(role, 'any sort, last 3 pages', () => {
        const [sort, order] = pick(SORTS);
        return { sort, order, page: last - between(0, 2) };
      });
      add(role, 'any sort, pages 2–10', () => {
        const [sort, order] = pick(SORTS);
        return { sort, order, page: between(2, 10) };
      });
      if (role === 'admin') {
        add(role, 'company: demo carrier (½ of all)', () => ({ company_id: fx.carrier }));
        add(role, 'carrier_id: another carrier', () => ({ carrier_id: pick(others) }));
        add(role, 'end user', () => ({ enduser_id: pick(allEndusers) }));
        add(role, 'company + end user', () => ({ company_id: fx.carrier, enduser_id: pick(carrierEndusers) }));
        add(role, 'company + status', () => ({ company_id: pick(fx.carriers), transport_request_status_id: status() }));
        add(role, 'company + status + date', () => ({ company_id: pick(fx.carriers), transport_request_status_id: status(), date: day() }));
        add(role, 'end user + status', () => ({ enduser_id: pick(allEndusers), transport_request_status_id: status() }));
        add(role, 'company, sort cost desc', () => ({ company_id: fx.carrier, sort: 'cost', order: 'desc' }));
      }
      if (role === 'carrier') {
        add(role, 'end user', () => ({ enduser_id: pick(carrierEndusers) }));
        add(role, 'end user: demo (1 in 50)', () => ({ enduser_id: fx.enduser }));
        add(role, 'end user + status', () => ({ enduser_id: pick(carrierEndusers), transport_request_status_id: status() }));
        add(role, 'end user + date', () => ({ enduser_id: pick(carrierEndusers), date: day() }));
        add(role, 'end user, sort cost desc', () => ({ enduser_id: pick(carrierEndusers), sort: 'cost', order: 'desc' }));
      }
      add(role, 'middle page (info)', () => ({ page: Math.round(last / 2) + between(-5, 5) }), true);
      // The list's search (issue 35, `q`): a number, a city every row has (the first page of many matches), a
      // reference, and a text no row has (the whole scope read: the worst a user can send). Information: a
      // LIKE '%…%' cannot use an index, so its cost grows with the caller's rows.
      add(role, 'search: a number (info)', () => ({ q: String(between(1, ROWS)) }), true);
      add(role, 'search: "bologna" (info)', () => ({ q: 'bologna' }), true);
      add(role, 'search: a reference (info)', () => ({ q: `ORD-${between(1, ROWS)}` }), true);
      add(role, 'search: no match (info)', () => ({ q: 'zzz-nessuna' }), true);
    }

    for (const k of kinds) for (let i = 0; i < 3; i++) await get(k.role, k.url()); // warm-up
    const load0 = os.loadavg();
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) {
      for (const k of kinds) {
        if (k.info && k.name.startsWith('middle') && i >= Math.min(CALLS, 50)) continue;
        // A kind far over budget has shown it after 20 calls: it stops once it has taken 30 s in all.
        if (k.ms.length >= 20 && k.ms.reduce((a, b) => a + b, 0) > 30_000) continue;
        const url = k.url();
        const s = performance.now();
        await get(k.role, url);
        k.ms.push(performance.now() - s);
      }
      if ((i + 1) % 20 === 0) process.stderr.write(`${i + 1}/${CALLS} rounds, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
    const seconds = (performance.now() - started) / 1000;
    const load1 = os.loadavg();

    // Statistics (information): the cached answer, and the computation (the cache row dropped first).
    const stats: Array<{ name: string; ms: number[] }> = [];
    for (const role of ['admin', 'carrier', 'enduser'] as Role[]) {
      const url = `/${NS[role]}/statistics`;
      const cached = { name: `${role} statistics, cached`, ms: [] as number[] };
      const fresh = { name: `${role} statistics, computed`, ms: [] as number[] };
      await get(role, url);
      for (let i = 0; i < 50; i++) {
        const s = performance.now();
        await get(role, url);
        cached.ms.push(performance.now() - s);
      }
      for (let i = 0; i < 10; i++) {
        await db.deleteFrom('statistics_cache').execute();
        const s = performance.now();
        await get(role, url);
        fresh.ms.push(performance.now() - s);
      }
      stats.push(cached, fresh);
    }

    const line = (role: string, name: string, ms: number[], info: boolean, capped = false) => {
      const s = [...ms].sort((a, b) => a - b);
      const p95 = nearestRank(s, 0.95);
      const verdict = info ? 'info' : capped ? 'MISSED (stopped after 30 s)' : p95 <= BUDGET_MS ? 'ok' : 'MISSED';
      console.log(
        `${role.padEnd(8)} ${name.padEnd(34)} ${String(s.length).padStart(5)} ${nearestRank(s, 0.5).toFixed(1).padStart(7)} ${p95.toFixed(1).padStart(7)} ${s[s.length - 1].toFixed(1).padStart(7)} ${(p95 / BUDGET_MS).toFixed(2).padStart(6)}  ${verdict}`,
      );
      return p95;
    };
    console.log(
      `\nTransport-request lists — ${pg ? 'PostgreSQL' : 'SQLite'}, ${Number(total.n)} requests, ${CALLS} calls per kind, one at a time, ${os.cpus().length} CPUs`,
    );
    console.log(
      `load average ${load0.map((l) => l.toFixed(2)).join(' ')} at the start, ${load1.map((l) => l.toFixed(2)).join(' ')} at the end (${seconds.toFixed(0)} s)`,
    );
    console.log(
      `${'role'.padEnd(8)} ${'kind'.padEnd(34)} ${'calls'.padStart(5)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'p95/50'.padStart(6)}  budget`,
    );
    const missed: string[] = [];
    for (const k of kinds) {
      const capped = !k.info && k.ms.length < CALLS;
      const p95 = line(k.role, k.name, k.ms, !!k.info, capped);
      if (!k.info && (p95 > BUDGET_MS || capped)) missed.push(`${k.role} ${k.name}`);
    }
    const overall = kinds.filter((k) => !k.info).flatMap((k) => k.ms);
    const p95 = line('all', 'every budgeted call', overall, false);
    if (p95 > BUDGET_MS) missed.push('overall');
    for (const s of stats) line('info', s.name, s.ms, true);
    console.log(missed.length ? `\nBudget MISSED (p95 > ${BUDGET_MS} ms): ${missed.join('; ')}` : `\nEvery kind within budget (p95 ≤ ${BUDGET_MS} ms).`);
    process.exitCode = missed.length ? 1 : 0;
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    await handle.destroy();
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
