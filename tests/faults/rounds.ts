/**
 * The fault rounds, shared by `npm run bench:faults` and tests/api/faults.test.ts:
 * - killRound: the workload runs, the server gets SIGKILL after a random delay, starts again on the
 *   same data, and everything is checked (tests/faults/checks.ts);
 * - cutRound (PostgreSQL): the workload runs while another connection terminates the server's backends
 *   at random moments; every call must get an answer, the process must live, the next calls succeed;
 * - startupKillRound: a first start on an empty database is killed while it migrates and seeds, and
 *   the next start must succeed.
 */
import { sql } from 'kysely';
import { checkAll, orphanFilesOf } from './checks.js';
import { freePort, freshDatabase, spawnServer, transactionProbe, startServer, type FaultDatabase, type ServerProcess } from './server.js';
import { TABLES, call, rng, setupWorld, startWorkload, type LaneState, type Op, type TableKey, type World } from './workload.js';

/** The server sweeps unreferenced files older than this at start; 0 here, as a single process runs. */
export const SERVER_ENV = { ORPHAN_FILE_MINUTES: '0' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface FaultRun {
  fdb: FaultDatabase;
  port: number;
  server: ServerProcess;
  world: World;
  lanes: LaneState;
  known: Record<TableKey, string>;
  ops: Op[];
  seq: { next: number };
  random: ReturnType<typeof rng>;
}

export async function openRun(kind: 'sqlite' | 'postgres', seed: number, pgUrl?: string): Promise<FaultRun> {
  const fdb = await freshDatabase(kind, pgUrl);
  let server: ServerProcess | undefined;
  try {
    const port = await freePort();
    server = await startServer(fdb, port, SERVER_ENV);
    const db = await fdb.open();
    const world = await setupWorld(server.base, db.db).finally(() => db.destroy());
    const empty = Object.fromEntries(Object.keys(TABLES).map((k) => [k, 'empty'])) as Record<TableKey, string>;
    return { fdb, port, server, world, lanes: { tables: { ...empty }, sheets: [] }, known: { ...empty }, ops: [], seq: { next: 1 }, random: rng(seed) };
  } catch (err) {
    await server?.kill9();
    await fdb.drop();
    throw err;
  }
}

export async function closeRun(run: FaultRun) {
  await run.server.kill9();
  await run.fdb.drop();
}

/**
 * random: the kill comes after a uniform delay below maxDelayMs (before the first commit, between
 * calls, during parsing, during a transaction, just after one: wherever it lands). inTransaction: after a
 * random part of that delay, the kill waits for a write transaction to be open and comes 0–10 ms later
 * (inside the transaction, during its commit, or just after it, before the answer).
 */
export type KillAim = 'random' | 'inTransaction';

export interface KillOutcome {
  round: number;
  aim: KillAim;
  delayMs: number;
  /** calls acknowledged before the kill */
  acked: number;
  /** write transactions open an instant before the kill (openTransactions) */
  openAtKill: number;
  /** writes under way when the process died, and how many of them turned out committed */
  inFlight: Op[];
  committedInFlight: number;
  orphansBefore: string[];
  orphansAfter: string[];
  problems: string[];
  restartMs: number;
}

/** One kill: workload, SIGKILL (aimed as `aim` says), restart, checks. */
export async function killRound(run: FaultRun, round: number, maxDelayMs: number, aim: KillAim = 'random', minDelayMs = 0): Promise<KillOutcome> {
  const since = run.ops.length;
  const probe = await transactionProbe(run.fdb);
  const t0 = Date.now();
  const wl = startWorkload(run.world, run.lanes, run.seq, round, run.random, 'kill', run.ops);
  let openAtKill = 0;
  try {
    if (aim === 'random') {
      await sleep(minDelayMs + run.random.next() * (maxDelayMs - minDelayMs));
    } else {
      await sleep(run.random.next() * maxDelayMs * 0.5);
      const give = Date.now() + 10_000;
      while ((await probe.open()) === 0 && Date.now() < give) await sleep(1);
      await sleep(run.random.int(0, 10));
    }
    openAtKill = await probe.open();
  } finally {
    await probe.close();
  }
  const delayMs = Date.now() - t0;
  await run.server.kill9();
  wl.stop();
  await wl.done;
  const mine = run.ops.slice(since);
  // Under way at the kill: the calls left without an answer (one answered while the process died counts as answered).
  const inFlight = mine.filter((o) => o.state === 'lost');
  const problems: string[] = [];

  let db = await run.fdb.open();
  const orphansBefore = await orphanFilesOf(run.fdb, db.db).finally(() => db.destroy());
  const t1 = Date.now();
  run.server = await startServer(run.fdb, run.port, SERVER_ENV);
  const restartMs = Date.now() - t1;
  db = await run.fdb.open();
  const r = await checkAll(run.fdb, db.db, run.world, run.lanes, run.known, run.ops, since).finally(() => db.destroy());
  problems.push(...r.problems);
  const list = await call(run.server.base, 'GET', '/enduser/transport_requests?per_page=5', { token: run.world.enduser });
  if (list.status !== 200) problems.push(`after the restart the request list answers ${list.status}`);
  return {
    round,
    aim,
    delayMs,
    acked: mine.filter((o) => o.state === 'acked').length,
    openAtKill,
    inFlight,
    committedInFlight: inFlight.filter((o) => o.committed).length,
    orphansBefore,
    orphansAfter: r.orphanFiles,
    problems,
    restartMs,
  };
}

export interface CutOutcome {
  round: number;
  terminations: number;
  /** backend states at the moment they were terminated */
  byState: Record<string, number>;
  ops: Op[];
  crashed: boolean;
  problems: string[];
}

/**
 * One stretch of connection cuts (PostgreSQL): for `ms` (and until at least `minTerminations`, within
 * four times that) the workload runs while the server's backends (found by the application_name of its
 * DATABASE_URL) are terminated every 20–250 ms, all of them or one.
 */
export async function cutRound(run: FaultRun, round: number, ms: number, minTerminations = 1): Promise<CutOutcome> {
  if (run.fdb.kind !== 'postgres') throw new Error('connection cuts need PostgreSQL');
  const since = run.ops.length;
  const wl = startWorkload(run.world, run.lanes, run.seq, round, run.random, 'cut', run.ops);
  const killer = await run.fdb.open();
  const byState: Record<string, number> = {};
  let terminations = 0;
  const end = Date.now() + ms;
  const cap = Date.now() + 4 * ms;
  try {
    while ((Date.now() < end || (terminations < minTerminations && Date.now() < cap)) && run.server.alive()) {
      await sleep(run.random.int(20, 250));
      const all = run.random.next() < 0.3;
      const rows = (
        await sql<{ state: string; done: boolean }>`
        select state, pg_terminate_backend(pid) as done from pg_stat_activity
        where application_name = ${run.fdb.appName!} and pid <> pg_backend_pid()
          and pid in (select pid from pg_stat_activity where application_name = ${run.fdb.appName!} order by random() limit ${all ? 100 : 1})`.execute(
          killer.db,
        )
      ).rows;
      for (const r of rows)
        if (r.done) {
          terminations++;
          byState[r.state ?? 'unknown'] = (byState[r.state ?? 'unknown'] ?? 0) + 1;
        }
    }
  } finally {
    wl.stop();
    await wl.done;
    await killer.destroy();
  }
  const ops = run.ops.slice(since);
  const problems: string[] = [];
  const crashed = !run.server.alive();
  if (crashed) problems.push(`the server process died: ${run.server.output().slice(-1500)}`);
  for (const o of ops) {
    if (o.state === 'lost') problems.push(`call ${o.kind} ${o.tag} got no answer (connection dropped)`);
    if (o.state === 'failed' && !(typeof o.message === 'string' && o.message.length > 0))
      problems.push(`call ${o.kind} ${o.tag} answered ${o.status} without a message`);
  }
  if (!crashed) {
    // Right after the cuts the server answers normally: the pool replaced its dead connections.
    for (let i = 0; i < 12; i++) {
      const a =
        i % 2
          ? await call(run.server.base, 'GET', '/enduser/transport_requests?per_page=5', { token: run.world.enduser })
          : await call(run.server.base, 'GET', `/admin/rate_sheet?company_id=${run.world.companyId}`, { token: run.world.admin });
      if (a.status !== 200) problems.push(`call ${i + 1} after the cuts answered ${a.status}: ${JSON.stringify(a.body).slice(0, 200)}`);
    }
  }
  const db = await run.fdb.open();
  const r = await checkAll(run.fdb, db.db, run.world, run.lanes, run.known, run.ops, since).finally(() => db.destroy());
  problems.push(...r.problems);
  return { round, terminations, byState, ops, crashed, problems };
}

export interface StartupOutcome {
  delayMs: number;
  /** how far the first start got: tables created when killed */
  tablesAtKill: number;
  problems: string[];
}

/**
 * A first start on an empty database, killed `delayMs` after its migration began (the SQLite file
 * appears / the schema gets its first table), then started again: it must come up and sign in.
 */
export async function startupKillRound(kind: 'sqlite' | 'postgres', delayMs: number, pgUrl?: string): Promise<StartupOutcome> {
  const fdb = await freshDatabase(kind, pgUrl);
  const port = await freePort();
  const problems: string[] = [];
  let tablesAtKill = 0;
  try {
    const probe = kind === 'postgres' ? await fdb.open() : null;
    const tables = async () => {
      if (!probe) {
        const fs = await import('node:fs');
        return fs.existsSync(`${fdb.dataDir}/portal.sqlite`) ? 1 : 0;
      }
      const [r] = (await sql<{ n: number }>`select count(*) as n from information_schema.tables where table_schema = ${fdb.schema!}`.execute(probe.db)).rows;
      return Number(r.n);
    };
    const first = spawnServer(fdb, port, SERVER_ENV);
    const deadline = Date.now() + 60_000;
    while ((await tables()) === 0 && first.alive() && Date.now() < deadline) await sleep(2);
    await sleep(delayMs);
    await first.kill9();
    tablesAtKill = await tables();
    await probe?.destroy();
    let second: ServerProcess | null = null;
    try {
      second = await startServer(fdb, port, SERVER_ENV);
      const login = await call(second.base, 'POST', '/visitor/login', { json: { email: 'admin@portal.demo', password: 'demo1234' } });
      if (login.status !== 200) problems.push(`after the restart the demo admin cannot sign in: ${login.status}`);
    } catch (err) {
      problems.push(
        `the restart failed: ${String((err as Error).message)
          .split('\n')
          .filter(Boolean)
          .slice(0, 3)
          .join(' | ')}`,
      );
    } finally {
      await second?.kill9();
    }
    if (!problems.length) {
      const db = await fdb.open();
      const empty = Object.fromEntries(Object.keys(TABLES).map((k) => [k, 'empty'])) as Record<TableKey, string>;
      const lanes: LaneState = { tables: { ...empty }, sheets: [] };
      const r = await checkAll(fdb, db.db, { companyId: -1 }, lanes, empty, [], 0).finally(() => db.destroy());
      problems.push(...r.problems, ...r.orphanFiles.map((f) => `orphan file ${f} after the restart`));
    }
  } finally {
    await fdb.drop();
  }
  return { delayMs, tablesAtKill, problems };
}
