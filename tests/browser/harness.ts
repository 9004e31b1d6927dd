import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openDb, type DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/seed/index.js';

/** Debian's Chromium, when installed. Browser tests are skipped loudly without it, unless REQUIRE_BROWSER=1. */
export function chromiumPath(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && fs.existsSync(p)) return p;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export const browserAvailable = (() => {
  const found = !!chromiumPath();
  if (!found) {
    if (process.env.REQUIRE_BROWSER === '1') throw new Error('REQUIRE_BROWSER=1 but no Chromium is installed (apt-get install -y chromium)');
    console.warn('\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n!!  BROWSER TESTS SKIPPED: no Chromium found (apt-get install chromium)\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n');
  }
  return found;
})();

export const API_PASSWORD = 'browser-test-password';

export interface RunningPortal {
  url: string;
  app: FastifyInstance;
  db: DbHandle;
  dataDir: string;
  close(): Promise<void>;
}

/** The real server, serving the built app (dist/) on a fresh temporary SQLite database, on a free port. */
export async function startPortal(): Promise<RunningPortal> {
  const staticDir = path.resolve('dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-browser-'));
  const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, { dataDir, apiPassword: API_PASSWORD, staticDir });
  const db = await openDb({ dataDir });
  await migrateToLatest(db.db);
  await seed(db.db, config);
  const app = await buildApp({ config, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    app, db, dataDir,
    async close() {
      await app.close();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath()!,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** A fresh context (its own profile: cookies, local storage) whose page fails the test on any request leaving the machine. */
export async function newPage(browser: Browser, opts: { viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; page: Page; outside: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
  const outside: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.protocol === 'data:' || u.protocol === 'blob:') return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, outside, errors };
}

export async function login(page: Page, base: string, email: string, password = 'demo1234') {
  await page.goto(`${base}/#/login`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('user-menu').waitFor({ state: 'visible' });
}

/** Saves a screenshot under test-results/ (kept by CI for a look when a test fails). */
export async function shot(page: Page, name: string) {
  fs.mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: path.join('test-results', `${name}.png`) });
}

/**
 * The element can be seen and clicked where it is, without scrolling anything: it lies inside the
 * window and the page's topmost element at its centre is it (not clipped by a scrolling table).
 */
export const visibleWhereItIs = (locator: Locator) => locator.evaluate((el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.width > 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight && !!hit && el.contains(hit);
});
