import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Locator, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openDb, type DbHandle } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/seed/index.js';
import { copyDataDir, usable } from '../setup/portalTemplate.js';

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
    console.warn(
      '\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n!!  BROWSER TESTS SKIPPED: no Chromium found (apt-get install chromium)\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n',
    );
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

/**
 * The port of the last portal this worker started (`startPortal`): the next file's portal listens on it again, so
 * its pages have the same origin as the last file's and a context handed on from that file (`workerIdle`) finds
 * the app's scripts in its cache, compiled (the built assets are the same files, `immutable`).
 */
let lastPortalPort = 0;

/** Listens on `port` (0: a free one); when that port was taken meanwhile, on a free one. */
async function listenOn(app: FastifyInstance, port: number) {
  try {
    await app.listen({ port, host: '127.0.0.1' });
  } catch (e) {
    if (!port || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    await app.listen({ port: 0, host: '127.0.0.1' });
  }
}

/**
 * The real server, serving the built app (dist/) on a fresh temporary SQLite database, on the port of this worker's
 * last portal (closed by then: the files of a worker run one after another) or a free one.
 */
export async function startPortal(): Promise<RunningPortal> {
  const staticDir = path.resolve('dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first');
  // A copy of the run's migrated and seeded SQLite template (tests/setup/portalTemplate.ts), else a fresh one.
  const templates = inject('portalTemplates');
  const copy = usable(templates, loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv), false);
  const dataDir = copy ? copyDataDir(templates.sqlite.dataDir, 'portal-browser-') : fs.mkdtempSync(path.join(os.tmpdir(), 'portal-browser-'));
  const config = loadConfig({ NODE_ENV: 'test' } as NodeJS.ProcessEnv, { dataDir, apiPassword: API_PASSWORD, staticDir });
  const db = await openDb({ dataDir });
  if (!copy) {
    await migrateToLatest(db.db);
    await seed(db.db, config);
  }
  const app = await buildApp({ config, db });
  await listenOn(app, lastPortalPort);
  const port = (app.server.address() as AddressInfo).port;
  lastPortalPort = port;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    db,
    dataDir,
    async close() {
      // A connection still open 2 s into the stop is cut: the file's tests are over, and a context kept for the next
      // file (`workerIdle`) must not hold the stop with a request under way. (A connection that never sent a byte held
      // it too; the server now closes those when it stops, server/app.ts. A file's stop once hung for the 120 s of the
      // hook's limit, cause not found: docs/benchmarks.md, "Tenth round".)
      const cut = setTimeout(() => {
        console.warn(`the portal on port ${port}: connections still open 2 s into its stop, cut`);
        app.server.closeAllConnections();
      }, 2_000);
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium as the tests and benches start it (headless comes on top): nothing calls outside the machine. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * The tests' Chromium also sends every request for another host than this one's loopback to a proxy address
 * where nothing listens (Chromium goes direct to 127.0.0.1 and localhost, its implicit bypass): a request to
 * any other name or address fails there, without a DNS lookup. `newPage` records such requests (the test then
 * fails); it no longer routes each request through Playwright to decide, which made every request of the page
 * wait for the test process and turned off the browser's HTTP cache (740 routed requests, 23 s of the 74 s of
 * phoneFit.test.ts under load).
 */
export const TEST_CHROMIUM_FLAGS = ['--headless', ...CHROMIUM_FLAGS, '--proxy-server=http://127.0.0.1:9'];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath()!, args: TEST_CHROMIUM_FLAGS });
}

/** The same Chromium as a server the test files connect to (started by tests/setup/globalSetup.ts). */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: chromiumPath()!, args: TEST_CHROMIUM_FLAGS });
}

/**
 * This worker's connection to the run's Chromium (started by the global setup), kept from file to file: the files of
 * a worker share its modules (`isolate: false`) and run one after another, and the contexts a file hands on
 * (`workerIdle`) belong to the connection. Without the global setup's Chromium a file launches its own (`shared`
 * false: the file closes it).
 */
let workerBrowser: Promise<Browser> | null = null;
async function suiteBrowser(): Promise<{ browser: Browser; shared: boolean }> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) return { browser: await launchBrowser(), shared: false };
  const current = workerBrowser && (await workerBrowser.catch(() => null));
  if (current?.isConnected()) return { browser: current, shared: true };
  workerIdle.splice(0);
  workerBrowser = chromium.connect(endpoint);
  return { browser: await workerBrowser, shared: true };
}

/**
 * Contexts a file's tests finished with, reset (`resetForNext`), for the next file of this worker: its portal has
 * the same origin (`lastPortalPort`), so their first sign-in is warm. A new context and its cold first sign-in cost
 * 2.0 core-s (Chromium, the server and the test's client) against 0.8 for a reused one (/proc, three of each).
 * At most WORKER_IDLE_MAX are kept.
 */
const workerIdle: OwnedPage[] = [];
const WORKER_IDLE_MAX = 4;

export interface BrowserPage {
  context: BrowserContext;
  page: Page;
  /** every request that tried to leave the machine (aborted) */
  outside: string[];
  /** the page's uncaught errors */
  errors: string[];
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /**
   * The pages ask for reduced motion (the app then shows dialogs, menus and toasts without transitions:
   * src/layout/brandTheme.ts), so no step waits for an element to stop moving; 'no-preference' for a test of
   * the transitions themselves.
   */
  reducedMotion?: 'reduce' | 'no-preference';
}

/**
 * A page of its own context, recording the requests for another host (refused by the browser:
 * TEST_CHROMIUM_FLAGS) and the page's uncaught errors into the arrays of its current hand-out (`reuse`).
 */
interface OwnedPage {
  context: BrowserContext;
  page: Page;
  /** what the context was made with (a hand-out asking for the other gets another context) */
  reducedMotion: 'reduce' | 'no-preference';
  /** where the context's listeners record, replaced at each hand-out */
  sink: { outside: string[]; errors: string[] };
  /** set when the test changed something a reset cannot undo (a route, an init script, the clock…) */
  tainted: boolean;
  /** the listeners the test added to the page or the context, removed before the next hand-out */
  added: Array<{ target: Page | BrowserContext; event: string; listener: (...args: never[]) => unknown }>;
}

const DESKTOP = { width: 1280, height: 800 };

/**
 * The methods after which a context is not handed out again: what they change outlives a reset (cookies
 * cleared, local and session storage cleared, the page back on the portal's icon), so the context is closed.
 */
const TAINTING = {
  context: [
    'route',
    'routeFromHAR',
    'routeWebSocket',
    'addInitScript',
    'grantPermissions',
    'clearPermissions',
    'setOffline',
    'setExtraHTTPHeaders',
    'setGeolocation',
    'exposeBinding',
    'exposeFunction',
    'setHTTPCredentials',
    'newCDPSession',
    'newPage',
    'setDefaultTimeout',
    'setDefaultNavigationTimeout',
  ],
  page: [
    'route',
    'routeFromHAR',
    'routeWebSocket',
    'addInitScript',
    'exposeBinding',
    'exposeFunction',
    'setExtraHTTPHeaders',
    'setDefaultTimeout',
    'setDefaultNavigationTimeout',
    'emulateMedia',
    'addLocatorHandler',
    'requestGC',
  ],
  clock: ['install', 'fastForward', 'pauseAt', 'resume', 'runFor', 'setFixedTime', 'setSystemTime'],
} as const;
const LISTENING = ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'] as const;

/** Wraps `target`'s methods so that calling one marks `owned` tainted (instance properties over the prototype's). */
function taintOn(owned: OwnedPage, target: object, names: readonly string[]) {
  const t = target as Record<string, unknown>;
  for (const name of names) {
    const original = t[name];
    if (typeof original !== 'function') continue;
    t[name] = (...args: unknown[]) => {
      owned.tainted = true;
      return (original as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
}

/** Wraps `target`'s listener methods so that what the test adds is recorded (and removed at the next reset). */
function recordListeners(owned: OwnedPage, target: Page | BrowserContext) {
  const t = target as unknown as Record<string, unknown>;
  for (const name of LISTENING) {
    const original = t[name] as (event: string, listener: (...args: never[]) => unknown) => unknown;
    t[name] = (event: string, listener: (...args: never[]) => unknown) => {
      owned.added.push({ target, event, listener });
      return original.call(target, event, listener);
    };
  }
}

/** A fresh context (its own profile: cookies, local storage) and its page (`OwnedPage`). */
async function openOwnedPage(browser: Browser, opts: PageOptions = {}): Promise<OwnedPage> {
  const context = await browser.newContext({ viewport: opts.viewport ?? DESKTOP, reducedMotion: opts.reducedMotion ?? 'reduce' });
  const reducedMotion = opts.reducedMotion ?? 'reduce';
  const owned: OwnedPage = { context, page: undefined as unknown as Page, reducedMotion, sink: { outside: [], errors: [] }, tainted: false, added: [] };
  // Recorded, not routed: the browser's proxy address refuses them (TEST_CHROMIUM_FLAGS).
  context.on('request', (request) => {
    const u = new URL(request.url());
    if (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.protocol === 'data:' || u.protocol === 'blob:') return;
    owned.sink.outside.push(request.url());
  });
  const page = await context.newPage();
  owned.page = page;
  page.on('pageerror', (e) => owned.sink.errors.push(e.message));
  taintOn(owned, context, TAINTING.context);
  taintOn(owned, page, TAINTING.page);
  taintOn(owned, context.clock, TAINTING.clock);
  recordListeners(owned, context);
  recordListeners(owned, page);
  return owned;
}

/** A fresh context whose page records any request for another host (refused by the browser: TEST_CHROMIUM_FLAGS). */
export async function newPage(browser: Browser, opts: PageOptions = {}): Promise<BrowserPage> {
  const { context, page, sink } = await openOwnedPage(browser, opts);
  return { context, page, outside: sink.outside, errors: sink.errors };
}

/**
 * Makes a context that a test has finished with look new for the next one, or answers false when it cannot
 * (then it is closed): the test's listeners removed, cookies cleared, the page back on the portal's icon with
 * its local and session storage cleared. What stays is the browser's memory cache and the page's process
 * (its compiled scripts), so the next sign-in loads the app warm: about 1.8 s of CPU (Chromium and the
 * server) against 5.1–5.7 s for a new context and a cold load (tests/browser/harness.ts `reuse`, measured
 * with /proc on this machine, three of each).
 */
async function resetForNext(owned: OwnedPage, portalUrl: string): Promise<boolean> {
  const { context, page } = owned;
  if (owned.tainted || page.isClosed() || context.pages().length !== 1) return false;
  for (const { target, event, listener } of owned.added.splice(0)) (target as unknown as NodeJS.EventEmitter).off(event, listener as () => void);
  try {
    await context.clearCookies();
    await page.goto(`${portalUrl}/favicon.svg`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    return true;
  } catch {
    return false;
  }
}

export async function login(page: Page, base: string, email: string, password = 'demo1234') {
  await page.goto(`${base}/#/login`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('user-menu').waitFor({ state: 'visible' });
}

/**
 * Signs in through the API from the page itself (the same browser, address, user agent and cookies the
 * form's request would have), keeps the session as the app does (the `userToken` cookie, the role in local
 * storage: src/authProvider/session.ts) and opens the shell. Typing the form took a load of the sign-in
 * screen, three inputs and a second render per sign-in (about a hundred in the browser tests); the tests
 * of the form itself type into it (`login`, or by hand).
 */
export async function signIn(page: Page, base: string, email: string, password = 'demo1234', at = '/') {
  // A context handed on by `resetForNext` is already there.
  if (page.url() !== `${base}/favicon.svg`) await page.goto(`${base}/favicon.svg`);
  const failed = await page.evaluate(
    async ({ email, password, apiPassword }) => {
      const r = await fetch('/api/v1/visitor/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Api-Password': apiPassword },
        body: JSON.stringify({ email, password, remember: false }),
      });
      const body = await r.json().catch(() => null);
      if (!body?.token) return `${r.status} ${JSON.stringify(body)}`;
      document.cookie = `userToken=${encodeURIComponent(body.token)}; path=/; samesite=strict`;
      localStorage.setItem('role', body.role);
      return null;
    },
    { email: email.trim(), password, apiPassword: API_PASSWORD },
  );
  if (failed) throw new Error(`sign-in of ${email} failed: ${failed}`);
  // The shell opens on the screen the test is about (`at`), not on the dashboard it would leave at once: a
  // dashboard drawn for nothing cost about as much as a small screen (72 of the 119 sign-ins went on elsewhere).
  await page.goto(`${base}/#${at}`);
  await page.getByTestId('user-menu').waitFor({ state: 'visible' });
}

export interface BrowserSuite {
  /** the real server on its own fresh database (started before the suite's own beforeAll hooks run) */
  readonly portal: RunningPortal;
  readonly browser: Browser;
  /**
   * A page in its own context, as new to the test: a new one, or one an earlier test of the file finished
   * with, reset (`resetForNext`: no cookies, no storage, none of that test's listeners; what a reset cannot
   * undo closes the context instead). Opened inside a test, it is reset or closed after the test, and after
   * the test no request of it may have left the machine; opened in a beforeAll, closed after all.
   */
  page(opts?: PageOptions): Promise<BrowserPage>;
  /**
   * Signs `who` in through the API (`signIn`: the demo password unless `password` is given) and waits for the
   * shell, opened on `at` (a hash route such as `/companies`; the dashboard, `/`, by default).
   */
  login(page: Page, who: string, opts?: string | { password?: string; at?: string }): Promise<void>;
}

/**
 * The browser tests' describe: skipped (loudly, see `browserAvailable`) without Chromium; one portal
 * (`startPortal`) and one Chromium connection per file; pages from `ctx.page()` reset or closed after each test and checked
 * for requests that left the machine (an `outside` not empty fails the test). `ctx.portal` and
 * `ctx.browser` are there from the suite's own `beforeAll` hooks on (they run after the harness's).
 */
export interface SuiteOptions {
  /**
   * Hands a test's finished contexts to the next tests of the file (`resetForNext`), warm, instead of
   * closing them (default true). A file measuring what a first visit loads (bundle, prerender) says false.
   */
  reuseContexts?: boolean;
}

export function describeInBrowser(name: string, body: (ctx: BrowserSuite) => void, options: SuiteOptions = {}) {
  const reuseContexts = (options.reuseContexts ?? true) && process.env.BROWSER_FRESH_CONTEXTS !== '1';
  describe.skipIf(!browserAvailable)(name, () => {
    let portal: RunningPortal | undefined;
    let browser: Browser | undefined;
    /** the worker's connection (kept after the file), not one of the file's own */
    let sharedBrowser = false;
    /** pages opened by the running test; null between tests (then they belong to the suite) */
    let testPages: OwnedPage[] | null = null;
    const suitePages: OwnedPage[] = [];
    /** contexts reset for the next test (`resetForNext`): the worker's, handed on from file to file */
    const idle = reuseContexts ? workerIdle : [];

    /**
     * Fails when one of the pages sent a request off the machine; the pages are then reset for the next
     * test when they can be (`resetForNext`, after a passing test), else closed.
     */
    const settle = async (pages: OwnedPage[], keep: boolean) => {
      const outside = pages.flatMap((p) => p.sink.outside);
      await Promise.allSettled(
        pages.map(async (p) => {
          if (keep && reuseContexts && portal && (await resetForNext(p, portal.url))) idle.push(p);
          else await p.context.close();
        }),
      );
      expect(outside, 'requests that left the machine').toEqual([]);
    };

    beforeAll(async () => {
      portal = await startPortal();
      ({ browser, shared: sharedBrowser } = await suiteBrowser());
    });
    afterAll(async () => {
      try {
        await settle(suitePages.splice(0), false);
        // The next file's tests get up to WORKER_IDLE_MAX of the reset contexts; every other context this file opened
        // on the connection (ctx.browser.newContext included) is closed, as closing a connection of its own did.
        const handOn = reuseContexts && sharedBrowser ? idle.splice(-WORKER_IDLE_MAX) : [];
        idle.splice(0);
        const stays = new Set([...handOn, ...workerIdle].map((p) => p.context));
        const closing = Promise.allSettled((browser?.contexts() ?? []).filter((c) => !stays.has(c)).map((c) => c.close()));
        // Closing contexts that takes more than 20 s drops the worker's connection instead (Chromium closes every
        // context of it, the idle ones too): the next file connects again, cold.
        let late: NodeJS.Timeout | undefined;
        const closed = await Promise.race([closing.then(() => true), new Promise((done) => (late = setTimeout(done, 20_000, false)))]);
        clearTimeout(late);
        if (!closed) {
          console.warn(`${name}: closing the file's browser contexts took over 20 s: the worker's connection is dropped`);
          workerIdle.splice(0);
          workerBrowser = null;
          await browser?.close().catch(() => {});
        } else if (reuseContexts) workerIdle.push(...handOn);
      } finally {
        if (!sharedBrowser) await browser?.close();
        await portal?.close();
      }
    });
    beforeEach(() => {
      testPages = [];
    });
    afterEach(async (test) => {
      const pages = testPages ?? [];
      testPages = null;
      await settle(pages, test.task.result?.state !== 'fail');
    });

    const ctx: BrowserSuite = {
      get portal() {
        if (!portal) throw new Error("ctx.portal is there from the suite's beforeAll on");
        return portal;
      },
      get browser() {
        if (!browser) throw new Error("ctx.browser is there from the suite's beforeAll on");
        return browser;
      },
      async page(opts = {}) {
        const reducedMotion = opts.reducedMotion ?? 'reduce';
        const at = testPages ? idle.findIndex((p) => p.reducedMotion === reducedMotion) : -1;
        let p: OwnedPage;
        if (at >= 0) {
          p = idle.splice(at, 1)[0];
          p.sink = { outside: [], errors: [] };
          await p.page.setViewportSize(opts.viewport ?? DESKTOP);
        } else p = await openOwnedPage(ctx.browser, opts);
        (testPages ?? suitePages).push(p);
        return { context: p.context, page: p.page, outside: p.sink.outside, errors: p.sink.errors };
      },
      login: (page, who, opts) => {
        const { password, at } = typeof opts === 'string' ? { password: opts, at: undefined } : (opts ?? {});
        return signIn(page, ctx.portal.url, who, password, at);
      },
    };
    body(ctx);
  });
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
export const visibleWhereItIs = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.width > 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight && !!hit && el.contains(hit);
  });

/**
 * Waits until no finite CSS animation or transition runs on the page (a dialog's fade or growth, a
 * label's move), e.g. before a screenshot or an accessibility check; endless ones (spinners) are not waited for.
 */
export async function animationsDone(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
}
