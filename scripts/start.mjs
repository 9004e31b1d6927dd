// `npm start`: builds the browser app when it is missing or older than its sources (START_SKIP_BUILD=1 skips
// the check: a deployment that ships dist/, the tests) and the server (dist-server/, scripts/buildServer.mjs,
// when missing or older than server/ and model/), then runs the server — which migrates, seeds and serves app
// and API — and supervises it (issue 32):
//
// - A server process that crashes (exit code other than 0, or killed by a signal the supervisor did not
//   send) is started again after a backoff: 1 s, doubling up to 30 s, back to 1 s once a process has stayed
//   up STABLE_MS (60 s) after it said it was ready. The crash is logged with its cause: the exit code or
//   signal, how long it had been up, and the last STDERR_LINES lines the process wrote to stderr (a crash's
//   stack trace goes there).
// - A start refused by its configuration (exit 78, server/index.ts) is not retried: it would only be
//   refused again. The supervisor exits 78 too.
// - SIGTERM and SIGINT are forwarded to every server process, which stops gracefully (server/lib/shutdown.ts,
//   SHUTDOWN_TIMEOUT_MS); the supervisor exits when they have: 0 when they all exited 0, else 1. Should one
//   not exit within SHUTDOWN_TIMEOUT_MS + 5 s, it is killed (SIGKILL). A second signal is ignored.
// - A server process that exits 0 without being asked (an operator's `kill -TERM <its pid>`) stopped on
//   purpose: it is not restarted; the supervisor exits once no server process is left.
// - WORKERS=n (default 1) runs n server processes sharing the port (node:cluster, the primary hands out the
//   connections). Only with PostgreSQL (DATABASE_URL): SQLite is one process's database (its in-memory
//   event bus, one writer), so WORKERS>1 without DATABASE_URL is refused before anything starts. The first
//   process starts alone — it migrates and seeds — and the others once it is ready, so the migrations and
//   the seed run once, not n times at the same moment (they take a database lock and are idempotent: this
//   only spares the others the wait and the noise). With WORKERS=1 the server is a plain child process: no
//   cluster hop in front of it, the process every benchmark measured.
// - The startup banner (URL, database, demo logins) is printed once, by the supervisor, when the first
//   process is ready; later (re)starts log one line. Each server sends it over IPC (PORTAL_SUPERVISOR=1).
// - Should the supervisor itself die, a server started as a plain child sees its IPC channel close and stops
//   gracefully; cluster workers exit at once (node:cluster's own rule).
//
// - WORKERS>1: `GET /metrics` on any process answers the metrics of all of them combined (gatherMetrics below).
//
// The supervisor's own lines are JSON on stdout, shaped like the server's (pino): level, time, pid, msg, and
// `supervisor: true`.
import { spawnSync, spawn } from 'node:child_process';
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { ensureServerBuild, newest, serverEntry, serverExecArgv } from './serverCommand.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, 'dist', 'index.html');

/** server/index.ts's exit code for a configuration it refuses (sysexits' EX_CONFIG). */
const EXIT_CONFIG = 78;
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
/** A process up this long after it was ready has recovered: the next crash waits BACKOFF_FIRST_MS again. */
const STABLE_MS = 60_000;
const STDERR_LINES = 20;

const log = (level, msg, fields = {}) =>
  process.stdout.write(
    JSON.stringify({ level: { info: 30, warn: 40, error: 50 }[level], time: Date.now(), pid: process.pid, supervisor: true, ...fields, msg }) + '\n',
  );

function parseWorkers(value) {
  if (value === undefined || value === '') return 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`Configuration error: WORKERS must be a whole number from 1 to 64 (got "${value}")`);
    process.exit(EXIT_CONFIG);
  }
  return n;
}

const workers = parseWorkers(process.env.WORKERS);
if (workers > 1 && !process.env.DATABASE_URL) {
  console.error(
    `Configuration error: WORKERS=${workers} needs PostgreSQL (DATABASE_URL). SQLite is the database of one process ` +
      '(its live events travel in that process, its writes are one at a time): run one server process, or set DATABASE_URL.',
  );
  process.exit(EXIT_CONFIG);
}

if (process.env.START_SKIP_BUILD !== '1') {
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => path.join(root, p)).filter((p) => fs.existsSync(p));
  const stale = !fs.existsSync(dist) || Math.max(...sources.map(newest)) > fs.statSync(dist).mtimeMs;
  if (stale) {
    console.log('Building the browser app…');
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

// The server itself, built into dist-server/ when that is missing or older than server/ and model/ (scripts/buildServer.mjs;
// SERVER_FROM_SOURCE=1 runs the TypeScript through tsx instead), once here: every (re)start below runs that build.
try {
  ensureServerBuild();
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
const serverExec = serverEntry();

const shutdownMs = Math.max(1000, Math.floor(Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000)) || 10_000);
const childEnv = { PORTAL_SUPERVISOR: '1' };
if (workers > 1) {
  cluster.setupPrimary({ exec: serverExec, execArgv: serverExecArgv(), stdio: ['inherit', 'inherit', 'pipe', 'ipc'] });
}

/** One server process's place: its current process (and cluster worker), its backoff, crashes, last stderr lines. */
const slots = Array.from({ length: workers }, (_, i) => ({
  n: i + 1,
  proc: null,
  worker: null,
  restarts: 0,
  startedAt: 0,
  readyAt: 0,
  backoff: BACKOFF_FIRST_MS,
  timer: null,
  stderr: [],
}));
let stopping = false;
let bannerShown = false;
let finalCode = 0;

function start(slot) {
  slot.timer = null;
  if (stopping) return;
  slot.stderr = [];
  slot.startedAt = Date.now();
  slot.readyAt = 0;
  let proc;
  let onMessage;
  // PORTAL_RESTARTS: the server reports it as portal_server_restarts_total (/metrics)
  const env = { ...childEnv, PORTAL_RESTARTS: String(slot.restarts) };
  if (workers > 1) {
    const w = cluster.fork(env);
    slot.worker = w;
    proc = w.process;
    onMessage = (f) => w.on('message', f);
    onMessage((m) => {
      if (m?.type === 'portal:metrics?') void gatherMetrics().then((reply) => w.isConnected() && w.send({ type: 'portal:metrics', id: m.id, ...reply }));
    });
  } else {
    proc = spawn(process.execPath, [...serverExecArgv(), serverExec], {
      cwd: root,
      stdio: ['inherit', 'inherit', 'pipe', 'ipc'],
      env: { ...process.env, ...env },
    });
    onMessage = (f) => proc.on('message', f);
  }
  slot.proc = proc;
  // stderr passes through, and its last lines are kept for the crash report
  let partial = '';
  proc.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop();
    slot.stderr.push(...lines.filter((l) => l.trim()));
    if (slot.stderr.length > STDERR_LINES) slot.stderr.splice(0, slot.stderr.length - STDERR_LINES);
  });
  proc.stderr.on('end', () => {
    if (partial.trim()) slot.stderr.push(partial);
    if (slot.stderr.length > STDERR_LINES) slot.stderr.splice(0, slot.stderr.length - STDERR_LINES);
    partial = '';
  });
  // 'close', not 'exit': its stderr has been read to the end, so the report has its last lines
  proc.on('close', (code, signal) => exited(slot, proc, code, signal));
  onMessage((m) => {
    if (!m || m.type !== 'portal:ready') return;
    slot.readyAt = Date.now();
    if (!bannerShown) {
      bannerShown = true;
      console.log(workers > 1 ? `${m.banner.replace(/\n$/, '')}\n  Server processes: ${workers} (WORKERS), one port\n` : m.banner);
      // the first process has migrated and seeded: the others start now
      for (const s of slots) if (!s.proc && !s.timer) start(s);
    } else {
      log('info', `server ${slot.n} is ready`, { server: slot.n, serverPid: m.pid, startupMs: slot.readyAt - slot.startedAt });
    }
  });
}

function exited(slot, proc, code, signal) {
  if (slot.proc !== proc) return;
  slot.proc = null;
  const upMs = Date.now() - slot.startedAt;
  if (stopping) {
    if (code !== 0) finalCode = 1;
    log('info', `server ${slot.n} stopped`, { server: slot.n, serverPid: proc.pid, code, signal });
    return finishIfDone();
  }
  if (code === 0 && !signal) {
    log('warn', `server ${slot.n} stopped on purpose (exit 0): not restarted`, { server: slot.n, serverPid: proc.pid, left: alive() });
    return finishIfDone();
  }
  if (code === EXIT_CONFIG && !slot.readyAt) {
    log('error', `server ${slot.n} refused its configuration (exit ${EXIT_CONFIG}): not restarted`, { server: slot.n, stderr: slot.stderr });
    finalCode = EXIT_CONFIG;
    return stopAll('SIGTERM');
  }
  if (slot.readyAt && Date.now() - slot.readyAt >= STABLE_MS) slot.backoff = BACKOFF_FIRST_MS;
  const delayMs = slot.backoff;
  slot.backoff = Math.min(BACKOFF_MAX_MS, slot.backoff * 2);
  slot.restarts++;
  log('error', `server ${slot.n} crashed (${signal ? `signal ${signal}` : `exit code ${code}`}); starting it again in ${delayMs} ms`, {
    server: slot.n,
    serverPid: proc.pid,
    code,
    signal,
    upMs,
    wasReady: !!slot.readyAt,
    restartInMs: delayMs,
    stderr: slot.stderr,
  });
  slot.timer = setTimeout(() => start(slot), delayMs);
}

const alive = () => slots.filter((s) => s.proc).length;

/**
 * WORKERS>1: the metrics of every ready server process as one (the server's plugins/metrics.ts asks for them
 * when scraped): each sends its registries as JSON, prom-client's cluster aggregation combines them (counters
 * and histograms summed, gauges by their `aggregator`), and two series of the supervisor's own are added: the
 * processes that answered and the processes wanted. A process that does not answer within 2 s is left out.
 */
let metricsRequest = 1;
async function gatherMetrics() {
  try {
    const { AggregatorRegistry } = (await import('prom-client')).default;
    const ready = slots.filter((s) => s.worker && s.readyAt && s.worker.isConnected());
    const id = metricsRequest++;
    const answers = await Promise.all(
      ready.map(
        (s) =>
          new Promise((resolve) => {
            const w = s.worker;
            const done = (value) => {
              clearTimeout(timer);
              w.off('message', on);
              resolve(value);
            };
            const on = (m) => m?.type === 'portal:metrics-json' && m.id === id && done(m.metrics ?? null);
            const timer = setTimeout(() => done(null), 2000);
            w.on('message', on);
            w.send({ type: 'portal:metrics-json?', id });
          }),
      ),
    );
    const got = answers.filter(Boolean);
    const text = await AggregatorRegistry.aggregate(got).metrics();
    const own = [
      '# HELP portal_server_processes Server processes of this npm start: wanted (WORKERS) and answering this scrape.',
      '# TYPE portal_server_processes gauge',
      `portal_server_processes{state="wanted"} ${workers}`,
      `portal_server_processes{state="answered"} ${got.length}`,
    ];
    return { text: `${text}\n${own.join('\n')}\n` };
  } catch (err) {
    return { error: String(err) };
  }
}

function finishIfDone() {
  if (alive() > 0) return;
  if (!stopping && slots.some((s) => s.timer)) return; // a restart is scheduled
  process.exit(finalCode);
}

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const s of slots) {
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
    s.proc?.kill(signal);
  }
  if (!alive()) process.exit(finalCode);
  setTimeout(() => {
    for (const s of slots) {
      if (!s.proc) continue;
      log('error', `server ${s.n} did not stop within ${shutdownMs + 5000} ms: killed`, { server: s.n, serverPid: s.proc.pid });
      s.proc.kill('SIGKILL');
    }
    finalCode = 1;
  }, shutdownMs + 5000).unref();
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) return log('info', 'already stopping', { signal: sig });
    log('info', 'stopping the server processes', { signal: sig, servers: alive() });
    stopAll(sig);
  });
}

start(slots[0]);
