/**
 * `npm run bench:events` (issue 24, docs/live-events.md): the live events stream under 500 open tabs.
 *
 * A real server process (scripts/bench-events-server.ts: the portal's app, plus a count of its database
 * statements) on a fresh database with the demo data; BENCH_STREAMS (default 500) signed-in customers of the
 * demo end-user company, each with its own session, open `GET /enduser/events` with a ticket. Then:
 * 1. idle: BENCH_IDLE_S (default 30) seconds with every stream open (a heartbeat falls inside): the number
 *    of database statements the server ran — target 0;
 * 2. latency: the demo carrier posts BENCH_MESSAGES (default 40) chat messages in the customers' ticket,
 *    one after another; for each, the time from the POST until each of the 500 streams has the event
 *    (every stream of the company sees every message: 500 deliveries a message). p50/p95 — target p95 ≤ 200 ms.
 *
 * SQLite in a temporary folder by default; BENCH_DATABASE_URL=postgres://… runs it on a fresh PostgreSQL
 * schema (LISTEN/NOTIFY), dropped afterwards. The streams are held by BENCH_CLIENTS (default 4) client
 * processes (scripts/bench-events-client.ts), as the tabs of many browsers would be.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config.js';
import { openDb } from '../server/db/index.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { hashPassword } from '../server/lib/passwords.js';
import { nowIso } from '../server/lib/tokens.js';
import { tokensRepo } from '../server/repositories/tokens.js';
import { seed } from '../server/seed/index.js';
import { freePort, nearestRank, pgSchema } from './benchKit.js';
import { SERVER_NODE_ARGS } from './serverCommand.mjs';

const STREAMS = Number(process.env.BENCH_STREAMS || 500);
const IDLE_S = Number(process.env.BENCH_IDLE_S || 30);
const MESSAGES = Number(process.env.BENCH_MESSAGES || 40);
const CLIENTS = Number(process.env.BENCH_CLIENTS || 4);
const API_PASSWORD = 'bench-password';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-events-'));
  const pg = process.env.BENCH_DATABASE_URL ? await pgSchema(process.env.BENCH_DATABASE_URL, 'bench_events') : null;
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', API_PASSWORD, LOG_LEVEL: 'warn', DATABASE_URL: pg?.url ?? '' };
  const config = loadConfig({ NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv);
  const handle = await openDb({ databaseUrl: pg?.url, dataDir, poolSize: 4 });
  let server: ReturnType<typeof fork> | undefined;
  const children: Array<ReturnType<typeof fork>> = [];
  try {
    // The customers: STREAMS users of the demo end-user company, one session each; the carrier's session.
    const db = handle.db;
    await migrateToLatest(db);
    await seed(db, config);
    const demo = await db.selectFrom('users').select(['company_id']).where('email', '=', 'enduser@portal.demo').executeTakeFirstOrThrow();
    const hash = await hashPassword('bench-unused-1');
    const now = nowIso();
    const users = Array.from({ length: STREAMS }, (_, i) => ({
      role_id: 6,
      company_id: demo.company_id,
      first_name: 'Cliente',
      last_name: `${i}`,
      email: `cliente${i}@bench.test`,
      password_hash: hash,
      status_id: 1,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < users.length; i += 100)
      await db
        .insertInto('users')
        .values(users.slice(i, i + 100))
        .execute();
    const ids = await db.selectFrom('users').select('id').where('email', 'like', '%@bench.test').orderBy('id').execute();
    const tokens = tokensRepo(db);
    const customers = await Promise.all(ids.map((u) => tokens.issue(u.id, false)));
    const carrierId = (await db.selectFrom('users').select('id').where('email', '=', 'carrier@portal.demo').executeTakeFirstOrThrow()).id;
    const carrier = await tokens.issue(carrierId, false);
    await handle.destroy();

    server = fork(path.join(root, 'scripts', 'bench-events-server.ts'), [], {
      cwd: root,
      execArgv: [...SERVER_NODE_ARGS, '--import', 'tsx'],
      env: { ...process.env, NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const fromServer = <T>(pick: (m: any) => T | undefined) =>
      new Promise<T>((resolve) => {
        const on = (m: unknown) => {
          const v = pick(m);
          if (v === undefined) return;
          server!.off('message', on);
          resolve(v);
        };
        server!.on('message', on);
      });
    await fromServer((m) => (m?.ready ? true : undefined));
    const queryCount = () => {
      const answer = fromServer<number>((m) => m?.queries);
      server!.send({ count: true });
      return answer;
    };

    const base = `http://127.0.0.1:${port}/api/v1`;
    const call = async (token: string, pathname: string, body?: unknown) => {
      const r = await fetch(`${base}${pathname}`, {
        method: 'POST',
        headers: { 'x-api-password': API_PASSWORD, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      const json = (await r.json()) as any;
      if (!r.ok) throw new Error(`${pathname}: ${r.status} ${JSON.stringify(json)}`);
      return json;
    };
    const category = ((await (await fetch(`${base}/visitor/ticket_categories`, { headers: { 'x-api-password': API_PASSWORD } })).json()) as any).data[0].id;
    const chatId = (await call(customers[0], '/enduser/chats/newTicket', { ticket_category_id: category, subject: 'Bench', message: 'Ciao' })).data
      .id as number;

    // The streams, in BENCH_CLIENTS processes (500 tabs are 500 browsers, not one event loop): each reports,
    // per message, the wall-clock times at which its streams had it.
    const arrivals = new Map<number, number[]>();
    const clients = Array.from({ length: CLIENTS }, () =>
      fork(path.join(root, 'scripts', 'bench-events-client.ts'), [], {
        cwd: root,
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      }),
    );
    children.push(...clients);
    console.log(`Opening ${STREAMS} streams from ${CLIENTS} client processes (${pg ? 'PostgreSQL' : 'SQLite'})…`);
    let opened = 0;
    await Promise.all(
      clients.map(
        (c, k) =>
          new Promise<void>((resolve, reject) => {
            c.on('message', (m: { opened?: number; id?: number; times?: number[] }) => {
              if (m.opened !== undefined) {
                opened += m.opened;
                resolve();
              } else if (m.id !== undefined && m.times) arrivals.set(m.id, [...(arrivals.get(m.id) ?? []), ...m.times]);
            });
            c.once('exit', (code) => (code ? reject(new Error(`client ${k} exited with ${code}`)) : undefined));
            c.send({ base, password: API_PASSWORD, tokens: customers.filter((_, i) => i % CLIENTS === k) });
          }),
      ),
    );
    console.log(`${opened} streams open.`);

    // 1. Idle.
    await new Promise((r) => setTimeout(r, 2000));
    const before = await queryCount();
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const idleQueries = (await queryCount()) - before;

    // 2. Latency.
    const busyBefore = await queryCount();
    const latencies: number[] = [];
    const lastOfMessage: number[] = [];
    const answered: number[] = [];
    for (let m = 0; m < MESSAGES; m++) {
      const sent = performance.timeOrigin + performance.now();
      const id = Number((await call(carrier, '/company/chats/sendChatMessage', { chat_id: chatId, message: `Messaggio ${m}` })).data.id);
      answered.push(performance.timeOrigin + performance.now() - sent);
      const deadline = sent + 5000;
      while ((arrivals.get(id)?.length ?? 0) < STREAMS && performance.timeOrigin + performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      const got = arrivals.get(id) ?? [];
      for (const at of got) latencies.push(at - sent);
      for (let k = got.length; k < STREAMS; k++) latencies.push(Number.POSITIVE_INFINITY); // lost: counts as slowest
      lastOfMessage.push(Math.max(...got) - sent);
      await new Promise((r) => setTimeout(r, 50));
    }
    const perMessage = ((await queryCount()) - busyBefore) / MESSAGES;
    latencies.sort((a, b) => a - b);
    lastOfMessage.sort((a, b) => a - b);
    answered.sort((a, b) => a - b);
    const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'lost');
    const p95 = nearestRank(latencies, 0.95);
    console.log(`\nLive events, ${pg ? 'PostgreSQL' : 'SQLite'}: ${STREAMS} open streams, ${MESSAGES} carrier messages (${latencies.length} deliveries)`);
    console.log(`  message → customer's stream: p50 ${ms(nearestRank(latencies, 0.5))}, p95 ${ms(p95)}, max ${ms(latencies.at(-1)!)}   (target p95 ≤ 200 ms)`);
    console.log(`  the carrier's POST answered (for comparison): p50 ${ms(nearestRank(answered, 0.5))}, p95 ${ms(nearestRank(answered, 0.95))}`);
    console.log(`  message → the last of the ${STREAMS} streams: p50 ${ms(nearestRank(lastOfMessage, 0.5))}, p95 ${ms(nearestRank(lastOfMessage, 0.95))}`);
    console.log(`  database statements per message sent (the sender's session, the write, its event; the counter works): ${perMessage.toFixed(1)}`);
    console.log(`  database statements in ${IDLE_S} s idle with ${STREAMS} streams open: ${idleQueries}   (target 0)`);
    console.log(
      `  machine load average while measuring: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} on ${os.cpus().length} CPUs`,
    );
    process.exitCode = p95 <= 200 && idleQueries === 0 ? 0 : 1;
  } finally {
    for (const c of children) if (c.connected) c.disconnect();
    if (server) {
      server.disconnect();
      await new Promise((r) => server!.once('exit', r));
    }
    await pg?.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
