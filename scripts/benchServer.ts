/**
 * What the browser benchmarks (`bench:bundle`, `bench:lighthouse`) share: a build of the app when dist/ is
 * stale, and the real server process serving it on a temporary SQLite database with the demo data.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './benchKit.js';
import { serverArgs } from './serverCommand.mjs';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const dist = path.join(root, 'dist');
export const BENCH_API_PASSWORD = 'bench-password';
export const DEMO_PASSWORD = 'demo1234';

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

/**
 * Builds the app (`vite build`, which also precompresses) when dist/index.html is missing or older than any
 * file under src/, model/, index.html, public/, vite.config.ts, the precompress step or package.json;
 * BENCH_BUILD=1 always builds, BENCH_BUILD=0 never does.
 */
export function buildIfNeeded() {
  const index = path.join(dist, 'index.html');
  const mode = process.env.BENCH_BUILD;
  const sources = ['src', 'model', 'public', 'index.html', 'vite.config.ts', 'build', 'package.json']
    .map((f) => path.join(root, f))
    .filter((f) => fs.existsSync(f));
  const stale = !fs.existsSync(index) || fs.statSync(index).mtimeMs < Math.max(...sources.map(newestMtime));
  if (mode === '1' || (mode !== '0' && stale)) {
    console.log(`Building (${mode === '1' ? 'BENCH_BUILD=1' : 'dist/ missing or older than the sources'})…`);
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  } else {
    console.log(`Using the existing build in dist/ (${stale ? 'older than the sources, BENCH_BUILD=0' : 'up to date'}).`);
  }
}

export interface BenchServer {
  /** http://127.0.0.1:PORT */
  base: string;
  close(): Promise<void>;
}

/** Starts the server process (`scripts/serverCommand.mjs`, as `npm start` runs it) on a fresh SQLite database with the demo data, serving dist/; resolves once it answers. */
export async function startBenchServer(name = 'bench'): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const port = await freePort();
  const env = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    API_PASSWORD: BENCH_API_PASSWORD,
    LOG_LEVEL: 'warn',
    STATIC_DIR: dist,
    DEMO_DATA: '1',
  };
  const server = spawn(process.execPath, serverArgs(), {
    cwd: root,
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => server.once('exit', r));
  const close = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/v1/visitor/ping`, { headers: { 'x-api-password': BENCH_API_PASSWORD } })).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 150 || server.exitCode !== null) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { base, close };
}
