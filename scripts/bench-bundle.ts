/**
 * `npm run bench:bundle`: what JavaScript the login screen downloads (issue 11 budget: ≤ 350 kB gzipped
 * on the first load, the other screens loaded on demand), measured in Chromium against the real server.
 *
 * - Builds the app (`vite build`) when dist/index.html is missing or older than any file under src/,
 *   index.html, vite.config.ts or package.json; BENCH_BUILD=1 always builds, BENCH_BUILD=0 never does.
 * - Starts the real server process (`server/index.ts`) on a temporary SQLite database with the demo
 *   data, serving dist/; opens /#/login signed out in Chromium (flags of tests/browser/harness.ts) and
 *   records every JS response until the form shows and the network has been idle for 500 ms.
 * - Sizes: each body gzipped with zlib at its default level (6) — the server itself sends them plain.
 * - Then signs in as each demo role and opens a few screens, printing the chunks each one added.
 * Exit code 1 when the first load is over budget.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../tests/browser/harness.js';
import { FIRST_LOAD_BUDGET, type JsChunk, kB, loginFirstLoad, networkIdle, openScreen, recordJs, sum } from '../tests/browser/jsLoad.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, 'dist');
const API_PASSWORD = 'bench-password';
const PASSWORD = 'demo1234';

/** The screens each role opens after signing in (the dashboard comes with the sign-in itself). */
const TOURS: Array<{ email: string; screens: string[] }> = [
  { email: 'admin@portal.demo', screens: ['/companies', '/countries', '/portal-settings', '/calculate-cost'] },
  { email: 'carrier@portal.demo', screens: ['/express-hub-costs', '/rate-sheets', '/transport-requests-visuals', '/support'] },
  { email: 'enduser@portal.demo', screens: ['/calculate-cost', '/enduser-rate-sheets', '/transport-requests', '/settings'] },
];

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

function buildIfNeeded() {
  const index = path.join(dist, 'index.html');
  const mode = process.env.BENCH_BUILD;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((f) => path.join(root, f)).filter((f) => fs.existsSync(f));
  const stale = !fs.existsSync(index) || fs.statSync(index).mtimeMs < Math.max(...sources.map(newestMtime));
  if (mode === '1' || (mode !== '0' && stale)) {
    console.log(`Building (${mode === '1' ? 'BENCH_BUILD=1' : 'dist/ missing or older than the sources'})…`);
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  } else {
    console.log(`Using the existing build in dist/ (${stale ? 'older than the sources, BENCH_BUILD=0' : 'up to date'}).`);
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const row = (c: JsChunk) => `    ${c.name.padEnd(48)} ${kB(c.raw).padStart(10)} raw ${kB(c.gzip).padStart(10)} gzip`;

async function main() {
  buildIfNeeded();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bundle-'));
  const port = await freePort();
  const env = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    API_PASSWORD,
    LOG_LEVEL: 'warn',
    STATIC_DIR: dist,
    DEMO_DATA: '1',
  };
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'index.ts')], {
    cwd: root,
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const browser = await launchBrowser();
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/v1/visitor/ping`, { headers: { 'x-api-password': API_PASSWORD } })).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 150) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }

    // 1. The login screen, signed out, in a fresh profile (nothing cached).
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const first = await loginFirstLoad(await context.newPage(), base);
    await context.close();
    const total = sum(first);
    const ok = total <= FIRST_LOAD_BUDGET;
    console.log(`\nLogin screen first load (/#/login, signed out): ${first.length} JS files, gzip = zlib default level (6) of each body`);
    for (const c of first) console.log(row(c));
    console.log(`  total  ${kB(sum(first, 'raw'))} raw, ${kB(total)} gzip`);
    console.log(`  budget ${kB(FIRST_LOAD_BUDGET)} gzip — ratio ${(total / FIRST_LOAD_BUDGET).toFixed(3)} — ${ok ? 'ok' : 'OVER BUDGET'}`);

    // 2. Each role signs in and opens screens: what arrives on demand.
    const firstNames = new Set(first.map((c) => c.url));
    for (const tour of TOURS) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await ctx.newPage();
      const js = recordJs(page);
      await page.goto(`${base}/#/login`);
      await page.locator('input[name=email]').waitFor();
      await js.take();
      console.log(`\n${tour.email}`);
      const idle = networkIdle(page);
      await page.fill('input[name=email]', tour.email);
      await page.fill('input[name=password]', PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('user-menu').waitFor();
      await idle.wait();
      await page.getByTestId('screen-loading').first().waitFor({ state: 'detached' });
      const steps: Array<[string, JsChunk[]]> = [['sign-in → dashboard', await js.take()]];
      for (const screen of tour.screens) {
        await openScreen(page, base, screen);
        steps.push([screen, await js.take()]);
      }
      for (const [label, chunks] of steps) {
        const again = chunks.filter((c) => firstNames.has(c.url));
        console.log(
          `  ${label.padEnd(30)} +${chunks.length} files, +${kB(sum(chunks))} gzip${again.length ? ` (${again.length} of the first load again?)` : ''}`,
        );
        for (const c of chunks) console.log(`  ${row(c)}`);
      }
      await ctx.close();
    }
    console.log(
      `\nLogin first load ${kB(total)} gzip of ${kB(FIRST_LOAD_BUDGET)} (ratio ${(total / FIRST_LOAD_BUDGET).toFixed(3)}): ${ok ? 'within budget' : 'Budget MISSED'}. Load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}.`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
