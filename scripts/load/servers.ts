/**
 * The servers of the load benchmark: a fresh database (a temporary SQLite folder or a new PostgreSQL
 * schema) migrated and seeded once, then N real server processes (the built server, dist-server/index.mjs, as
 * scripts/bench-quote.ts starts them) on loopback ports, each with its log in the data folder, and the
 * resident memory of each sampled from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../server/config.js';
import { openDb, type DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/seed/index.js';
import { serverArgs } from '../serverCommand.mjs';
import { freePort, pgSchema } from '../benchKit.js';

export const API_PASSWORD = 'load-password';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** `log`: the process's standard output (pino JSON lines and the start banner); `errors`: its standard error. */
export interface Server {
  base: string;
  pid: number;
  proc: ChildProcess;
  log: string;
  errors: string;
}

export interface Cluster {
  dialect: 'sqlite' | 'postgres';
  config: Config;
  dataDir: string;
  servers: Server[];
  /** A Kysely handle of the benchmark's own (for preparing and for checking the writes afterwards). */
  open(): Promise<DbHandle>;
  stop(): Promise<void>;
  /** Log lines at level error or fatal (pino JSON, level ≥ 50), and anything written to standard error. */
  errorLines(): string[];
}

/**
 * A fresh database, migrated and seeded here (as `prepare()` in bench-quote.ts), then `count` server
 * processes on it. The processes migrate and seed again at start, which finds everything done (under
 * the migration lock on PostgreSQL): the same path as several processes of a real deployment.
 */
export async function startCluster(opts: { postgresUrl?: string; count: number; prepare: (db: DbHandle, config: Config) => Promise<void> }): Promise<Cluster> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
  const pg = opts.postgresUrl ? await pgSchema(opts.postgresUrl, 'load') : null;
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url,
    HOST: '127.0.0.1',
    API_PASSWORD,
    LOG_LEVEL: 'warn',
    STATIC_DIR: path.join(dataDir, 'no-static'),
  };
  const config = loadConfig({ NODE_ENV: 'development', ...env } as NodeJS.ProcessEnv);
  const open = () => openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const db = await open();
  await migrateToLatest(db.db);
  await seed(db.db, config);
  await opts.prepare(db, config);
  await db.destroy();

  const servers: Server[] = [];
  for (let i = 0; i < opts.count; i++) {
    const port = await freePort();
    const log = path.join(dataDir, `server-${i + 1}.log`);
    const errors = path.join(dataDir, `server-${i + 1}.stderr`);
    const out = fs.openSync(log, 'a');
    const err = fs.openSync(errors, 'a');
    const proc = spawn(process.execPath, serverArgs(), {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', ...env, PORT: String(port) } as NodeJS.ProcessEnv,
      stdio: ['ignore', out, err],
    });
    fs.closeSync(out);
    fs.closeSync(err);
    servers.push({ base: `http://127.0.0.1:${port}/api/v1`, pid: proc.pid!, proc, log, errors });
  }
  for (const s of servers) await waitUp(s);

  return {
    dialect: pg ? 'postgres' : 'sqlite',
    config,
    dataDir,
    servers,
    open,
    errorLines() {
      const lines: string[] = [];
      for (const s of servers) {
        for (const line of fs.readFileSync(s.log, 'utf8').split('\n')) {
          if (!line.startsWith('{')) continue; // the start banner
          try {
            if (JSON.parse(line).level >= 50) lines.push(line);
          } catch {
            lines.push(line);
          }
        }
        lines.push(
          ...fs
            .readFileSync(s.errors, 'utf8')
            .split('\n')
            .filter((l) => l.trim()),
        );
      }
      return lines;
    },
    async stop() {
      for (const s of servers) {
        if (s.proc.exitCode === null) {
          s.proc.kill('SIGTERM');
          await new Promise((r) => s.proc.once('exit', r));
        }
      }
      await pg?.drop();
      if (!process.env.LOAD_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitUp(s: Server) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${s.base}/visitor/ping`, { headers: { 'x-api-password': API_PASSWORD } })).ok) return;
    } catch {
      /* not up yet */
    }
    if (s.proc.exitCode !== null) throw new Error(`server exited with ${s.proc.exitCode}: ${fs.readFileSync(s.log, 'utf8').slice(-2000)}`);
    if (i > 300) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Resident set size of a process in MiB (VmRSS of /proc/<pid>/status), or null once it is gone. */
export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
