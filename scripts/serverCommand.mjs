// How a server process is started, shared by `npm start` and the benchmark/load/fault scripts and tests so they
// measure the process the portal really runs: the server built by scripts/buildServer.mjs (dist-server/),
// rebuilt first when it is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * V8 options of the server process. `--max-semi-space-size=32` (MB; Node 20's default is 16) makes the
 * young generation larger: a quote allocates a few hundred short-lived objects, and with the default
 * the scavenger ran often enough to show in the p99 at 50 connections. Measured with
 * `npm run bench:quote` on 2 CPUs: trivial route 6 067 → 9 737 req/s, p99 20 → 13 ms (issue 11).
 * NODE_OPTIONS can still add to them.
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=32'];

/**
 * SERVER_FROM_SOURCE=1 runs the server from its TypeScript sources through tsx, as before issue 37 (a
 * debugger's breakpoints in the sources, a change tried without a build); the default is the bundle.
 */
const fromSource = () => process.env.SERVER_FROM_SOURCE === '1';

/** The server's TypeScript entry point, and the bundle built from it. */
export const SERVER_SOURCE_ENTRY = path.join(root, 'server', 'index.ts');
export const SERVER_BUNDLE = path.join(root, 'dist-server', 'index.mjs');
/** What the bundle is built from: a file newer than the bundle under one of these makes it stale. */
export const SERVER_BUILD_INPUTS = ['server', 'model', 'package-lock.json', 'scripts/buildServer.mjs'];

/** The newest modification time (ms) of a file or of anything under a folder; 0 when it does not exist. */
export function newest(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, e)));
  return max;
}

/** Whether dist-server/ holds a build newer than every file it is built from. */
export function serverBuildFresh() {
  let built;
  try {
    built = fs.statSync(SERVER_BUNDLE).mtimeMs;
  } catch {
    return false;
  }
  return SERVER_BUILD_INPUTS.every((p) => newest(path.join(root, p)) < built);
}

/** Builds the server (scripts/buildServer.mjs, about a second) unless its build is fresh; throws when the build fails. */
export function ensureServerBuild() {
  if (fromSource() || serverBuildFresh()) return;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'buildServer.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`building the server failed (node scripts/buildServer.mjs exited ${r.status ?? r.signal})`);
}

/** The script a server process runs: the bundle, or the TypeScript entry with SERVER_FROM_SOURCE=1. */
export function serverEntry() {
  return fromSource() ? SERVER_SOURCE_ENTRY : SERVER_BUNDLE;
}

/** Node's options before the entry: the V8 options above, `extra`, and tsx from the sources (node:cluster's `execArgv`). */
export function serverExecArgv(extra = []) {
  return [...SERVER_NODE_ARGS, ...extra, ...(fromSource() ? ['--import', 'tsx'] : [])];
}

/** argv for `process.execPath` running the server, built first when its build is stale (`ensureServerBuild`). */
export function serverArgs(extra = []) {
  ensureServerBuild();
  return [...serverExecArgv(extra), serverEntry()];
}
