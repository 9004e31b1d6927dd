// How a server process is started, shared by `npm start` and the benchmark/load/fault scripts so they
// measure the process the portal really runs.
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

/** The server's entry point, run from its TypeScript sources through tsx. */
export const SERVER_ENTRY = path.join(root, 'server', 'index.ts');

/** Node's options before the entry: the V8 options above, `extra`, and tsx (node:cluster's `execArgv`). */
export function serverExecArgv(extra = []) {
  return [...SERVER_NODE_ARGS, ...extra, '--import', 'tsx'];
}

/** argv for `process.execPath` running the server from its TypeScript sources (tsx). */
export function serverArgs(extra = []) {
  return [...serverExecArgv(extra), SERVER_ENTRY];
}
