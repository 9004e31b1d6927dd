/**
 * A real server process for the fault runs (scripts/bench-faults.ts, tests/api/faults.test.ts): spawned
 * as `npm start` would run it (the built server, scripts/serverCommand.mjs), on a temporary SQLite DATA_DIR or a fresh
 * PostgreSQL schema, killed with SIGKILL and started again on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDb, type DbHandle } from '../../server/db/index.js';
import { serverArgs } from '../../scripts/serverCommand.mjs';
import { pgSchema } from '../../scripts/benchKit.js';

export const API_PASSWORD = 'faults-api-password';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

/** Where one run keeps its data: a temporary folder, plus a fresh schema when on PostgreSQL. */
export interface FaultDatabase {
  kind: 'sqlite' | 'postgres';
  dataDir: string;
  /** The server's DATABASE_URL: the schema, and an application_name of its own so its backends can be found. */
  serverUrl?: string;
  /** The application_name the server's connections carry (PostgreSQL). */
  appName?: string;
  schema?: string;
  /** A connection for the checks (not named like the server's, so terminations never touch it). */
  open(): Promise<DbHandle>;
  drop(): Promise<void>;
}

export async function freshDatabase(kind: 'sqlite' | 'postgres', pgUrl = 'postgres://postgres@127.0.0.1:5432/test'): Promise<FaultDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-'));
  if (kind === 'sqlite') {
    return {
      kind,
      dataDir,
      open: () => openDb({ dataDir }),
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const fresh = await pgSchema(pgUrl, 'faults');
  const { schema } = fresh;
  const withSchema = new URL(fresh.url);
  const appName = schema.replace('_', '-');
  const serverUrl = new URL(withSchema);
  serverUrl.searchParams.set('application_name', appName);
  return {
    kind,
    dataDir,
    schema,
    appName,
    serverUrl: serverUrl.toString(),
    open: () => openDb({ databaseUrl: withSchema.toString(), dataDir, poolSize: 2 }),
    async drop() {
      await fresh.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Looks at whether the server has a write transaction open at this instant: on PostgreSQL its backends
 * whose transaction has written (it holds a transaction id), on SQLite whether the write lock is held (BEGIN IMMEDIATE from another
 * connection is refused at once; when it is not, it is rolled back at once). Used to aim kills inside
 * transactions and to count the kills that landed there.
 */
export async function transactionProbe(db: FaultDatabase) {
  if (db.kind === 'postgres') {
    const { sql } = await import('kysely');
    const handle = await db.open();
    return {
      async open() {
        const [r] = (
          await sql<{ n: number }>`select count(*) as n from pg_stat_activity
          where application_name = ${db.appName!} and backend_xid is not null`.execute(handle.db)
        ).rows;
        return Number(r.n);
      },
      close: () => handle.destroy(),
    };
  }
  const Database = (await import('better-sqlite3')).default;
  const c = new Database(path.join(db.dataDir, 'portal.sqlite'), { timeout: 0 });
  return {
    async open() {
      try {
        c.exec('begin immediate');
        c.exec('rollback');
        return 0;
      } catch {
        return 1;
      }
    },
    async close() {
      c.close();
    },
  };
}

export interface ServerProcess {
  base: string;
  proc: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process ends, for whatever reason. */
  exited: Promise<number | string | null>;
  /** What the process wrote (stdout and stderr) (the last 20 000 characters). */
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Waits until it answers; throws with its output when it exits first or does not answer in time. */
  ready(timeoutMs?: number): Promise<void>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the server on the database and waits until it answers. `extraEnv` adds variables. */
export async function startServer(db: FaultDatabase, port: number, extraEnv: Record<string, string> = {}, timeoutMs = 60_000): Promise<ServerProcess> {
  const server = spawnServer(db, port, extraEnv);
  await server.ready(timeoutMs);
  return server;
}

/** Spawns the server process without waiting for it. */
export function spawnServer(db: FaultDatabase, port: number, extraEnv: Record<string, string> = {}): ServerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.serverUrl ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    API_PASSWORD,
    LOG_LEVEL: 'error',
    STATIC_DIR: path.join(db.dataDir, 'no-static'),
    QUOTE_RATE_LIMIT: '1000000000',
    ...extraEnv,
  };
  if (!env.DATABASE_URL) delete env.DATABASE_URL;
  const proc = spawn(process.execPath, serverArgs(), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let exitedWith: number | string | null | undefined;
  const exited = new Promise<number | string | null>((resolve) =>
    proc.once('exit', (code, signal) => {
      exitedWith = code ?? signal;
      resolve(exitedWith);
    }),
  );
  const base = `http://127.0.0.1:${port}/api/v1`;
  const server: ServerProcess = {
    base,
    proc,
    exited,
    output: () => out,
    alive: () => exitedWith === undefined,
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exitedWith !== undefined) throw new Error(`the server exited (${exitedWith}) while starting:\n${out}`);
        try {
          const r = await fetch(`${base}/visitor/ping`, { headers: { 'x-api-password': API_PASSWORD } });
          if (r.ok) return;
        } catch {
          /* not listening yet */
        }
        if (Date.now() > deadline) {
          await server.kill9();
          throw new Error(`the server did not answer within ${timeoutMs} ms:\n${out}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill9() {
      if (exitedWith === undefined) proc.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (exitedWith === undefined) proc.kill('SIGTERM');
      await exited;
    },
  };
  return server;
}
