/**
 * Measures the transport-request list and statistics queries at a million rows (issue 9):
 * `tsx scripts/perf-requests.ts [postgres://…]` — a temporary SQLite file by default, or a fresh
 * schema on the given PostgreSQL server (dropped afterwards). Prints the median of 5 runs per query.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDb } from '../server/db/index.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { seed } from '../server/seed/index.js';
import { loadConfig } from '../server/config.js';
import { transportRequestsRepo } from '../server/repositories/transportRequests.js';
import { statisticsRepo } from '../server/repositories/statistics.js';
import { romeDate } from '../server/lib/romeTime.js';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const pgUrl = process.argv[2];

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perf-requests-'));
  let databaseUrl: string | undefined;
  let schema = '';
  if (pgUrl) {
    const pg = (await import('pg')).default;
    schema = `perf_${crypto.randomBytes(4).toString('hex')}`;
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect(); await c.query(`CREATE SCHEMA ${schema}`); await c.end();
    const u = new URL(pgUrl); u.searchParams.set('options', `-c search_path=${schema}`); databaseUrl = u.toString();
  }
  const handle = await openDb({ databaseUrl, dataDir });
  const db = handle.db;
  try {
    await migrateToLatest(db);
    await seed(db, loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, { dataDir }));
    const stamp = new Date().toISOString();
    const others = await db.insertInto('companies').values(Array.from({ length: 50 }, (_, i) => ({
      legal_name: `Carrier ${i}`, company_role_id: 2, status_id: 1, is_inbound: 1, type: 'Customer', created_at: stamp, updated_at: stamp,
    }))).returning('id').execute();
    const carriers = (await db.selectFrom('companies').select('id').where('company_role_id', '=', 2).orderBy('id').execute()).map((r) => r.id);
    const eu = (await db.selectFrom('companies').select('id').where('company_role_id', '=', 3).execute()).map((r) => r.id);
    const carrier = carriers[0];
    const enduser = eu[0];
    const t0 = Date.now();
    const span = 730 * 86_400_000;
    // 1 000 000 rows over two years: half the demo carrier's (1 in 50 of the demo end user), the rest spread over 50 other carriers.
    const now = Date.now();
    const chunk = 3000;
    for (let i = 0; i < ROWS; i += chunk) {
      const values = [];
      for (let j = i; j < Math.min(ROWS, i + chunk); j++) {
        const at = new Date(now - Math.floor(((ROWS - j) / ROWS) * span)).toISOString();
        const mine = j % 2 === 0;
        values.push({
          carrier_id: mine ? carrier : others[j % 50].id, enduser_company_id: mine && j % 100 === 0 ? enduser : null,
          transport_request_status_id: [1, 3, 4, 5, 6, 7][j % 6], cost: 5000 + (j % 997) * 13, admin_fees: 450,
          created_on: romeDate(at), created_at: at, updated_at: at,
        });
      }
      await db.insertInto('transport_requests').values(values as any).execute();
    }
    // Steady state: PostgreSQL's autovacuum has set the visibility map; SQLite has its statistics.
    if (pgUrl) await sql`VACUUM ANALYZE transport_requests`.execute(db); else await sql`ANALYZE`.execute(db);
    console.log(`${pgUrl ? 'postgres' : 'sqlite'}: inserted ${ROWS} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const repo = transportRequestsRepo(db);
    const stats = statisticsRepo(db);
    const time = async (label: string, fn: () => Promise<unknown>) => {
      const ms: number[] = [];
      for (let k = 0; k < 5; k++) { const s = performance.now(); await fn(); ms.push(performance.now() - s); }
      ms.sort((a, b) => a - b);
      console.log(`${label.padEnd(48)} median ${ms[2].toFixed(1)} ms  (min ${ms[0].toFixed(1)}, max ${ms[4].toFixed(1)})`);
    };
    const page = { page: 1, per_page: 15 };
    const today = romeDate();
    await time('admin list, page 1', () => repo.page({ all: true }, page));
    await time('admin list, page 2000', () => repo.page({ all: true }, { page: 2000, per_page: 15 }));
    await time('admin list, status OP', () => repo.page({ all: true }, { ...page, transport_request_status_id: 1 }));
    await time('admin list, one carrier (company_id)', () => repo.page({ all: true }, { ...page, carrier_id: carrier }));
    await time('carrier list, page 1', () => repo.page({ carrierId: carrier }, page));
    await time('carrier list, status OP + end user', () => repo.page({ carrierId: carrier }, { ...page, transport_request_status_id: 1, enduser_id: enduser }));
    await time('carrier list, date today', () => repo.page({ carrierId: carrier }, { ...page, date: today }));
    await time('end-user list, page 1', () => repo.page({ enduserCompanyId: enduser }, page));
    const ids = (await repo.page({ carrierId: carrier }, page)).ids;
    await time('load 15 rows for a page', () => repo.load(ids));
    if (process.env.DETAIL) {
      const yearStart = new Date(Date.UTC(new Date().getUTCFullYear(), 0, 1)).toISOString();
      const amount = sql`coalesce(tr.cost, 0) + coalesce(tr.admin_fees, 0)`;
      const base = () => db.selectFrom('transport_requests as tr');
      await time('  year by day (admin)', () => base().where('tr.created_at', '>=', yearStart).select(['tr.created_on', sql`count(*)`.as('n'), sql`sum(${amount})`.as('t')]).groupBy('tr.created_on').execute());
      await time('  open (admin)', () => base().where('tr.transport_request_status_id', '=', 1).select([sql`count(*)`.as('n'), sql`sum(${amount})`.as('t')]).execute());
      await time('  top10 (admin)', () => base().where('tr.created_at', '>=', yearStart).select('tr.id').orderBy(amount, 'desc').limit(10).execute());
      await time('  year by day (carrier)', () => base().where('tr.carrier_id', '=', carrier).where('tr.created_at', '>=', yearStart).select(['tr.created_on', sql`count(*)`.as('n'), sql`sum(${amount})`.as('t')]).groupBy('tr.created_on').execute());
      await time('  open (carrier)', () => base().where('tr.carrier_id', '=', carrier).where('tr.transport_request_status_id', '=', 1).select([sql`count(*)`.as('n'), sql`sum(${amount})`.as('t')]).execute());
    }
    await time('statistics admin (uncached)', () => stats.compute({ all: true }, new Date()));
    await time('statistics carrier (uncached)', () => stats.compute({ carrierId: carrier }, new Date()));
    await time('statistics end user (uncached)', () => stats.compute({ enduserCompanyId: enduser }, new Date()));
    await stats.get({ all: true });
    await time('statistics admin (cached)', () => stats.get({ all: true }));
  } finally {
    await handle.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (pgUrl) {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect(); await c.query(`DROP SCHEMA ${schema} CASCADE`); await c.end();
    }
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
