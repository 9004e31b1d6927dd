/**
 * `npm run bench:bundle`: what the public pages and the screens cost on the wire (issue 18 budget: the
 * signed-out login screen's first load ≤ 200 kB transferred, every kind of resource; the other screens
 * loaded on demand), measured in Chromium against the real server.
 *
 * - Builds the app when dist/ is stale (scripts/benchServer.ts; BENCH_BUILD=1 always, 0 never) and starts
 *   the real server process on a temporary SQLite database with the demo data, serving dist/.
 * - Records every response as the browser received it (tests/browser/jsLoad.ts): bytes transferred (body
 *   as sent, brotli / gzip when compressed, plus headers), the Content-Encoding, and the decoded body size.
 * - Screens: the login first load (/#/login signed out, fresh profile), the quote page first load
 *   (/#/quote signed out, fresh profile), then each demo role signs in and opens a few screens, printing
 *   what each step added.
 * Exit code 1 when the login first load is over budget.
 */
import os from 'node:os';
import { launchBrowser } from '../tests/browser/harness.js';
import {
  byType,
  FIRST_LOAD_BUDGET,
  kB,
  type Loaded,
  loginFirstLoad,
  networkIdle,
  openScreen,
  quoteFirstLoad,
  recordLoad,
  sum,
} from '../tests/browser/jsLoad.js';
import { buildIfNeeded, DEMO_PASSWORD, startBenchServer } from './benchServer.js';

/** The screens each role opens after signing in (the dashboard comes with the sign-in itself). */
const TOURS: Array<{ email: string; screens: string[] }> = [
  { email: 'admin@portal.demo', screens: ['/companies', '/countries', '/portal-settings', '/calculate-cost'] },
  { email: 'carrier@portal.demo', screens: ['/express-hub-costs', '/rate-sheets', '/transport-requests-visuals', '/support'] },
  { email: 'enduser@portal.demo', screens: ['/calculate-cost', '/enduser-rate-sheets', '/transport-requests', '/settings'] },
];

const row = (c: Loaded) =>
  `${c.type.padEnd(11)} ${c.name.slice(0, 46).padEnd(46)} ${(c.encoding || '-').padEnd(5)} ${kB(c.transferred).padStart(10)} ${kB(c.decoded).padStart(10)}`;

function printLoad(title: string, items: Loaded[], indent = '  ') {
  console.log(`${title}: ${items.length} responses, ${kB(sum(items))} transferred (${kB(sum(items, 'decoded'))} decoded)`);
  console.log(`${indent}${'type'.padEnd(11)} ${'file'.padEnd(46)} ${'enc'.padEnd(5)} ${'wire'.padStart(10)} ${'decoded'.padStart(10)}`);
  for (const c of items) console.log(`${indent}${row(c)}`);
  for (const t of byType(items)) {
    console.log(
      `${indent}  = ${t.type.padEnd(11)} ${String(t.count).padStart(3)} × ${kB(t.transferred).padStart(10)} wire ${kB(t.decoded).padStart(10)} decoded`,
    );
  }
}

async function main() {
  buildIfNeeded();
  const server = await startBenchServer('bench-bundle');
  const { base } = server;
  const browser = await launchBrowser();
  try {
    const fresh = async <T>(f: (page: import('playwright-core').Page) => Promise<T>) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        return await f(await context.newPage());
      } finally {
        await context.close();
      }
    };

    // 1. The public pages, signed out, each in a fresh profile (nothing cached).
    const login = await fresh((page) => loginFirstLoad(page, base));
    const total = sum(login);
    const ok = total <= FIRST_LOAD_BUDGET;
    console.log('');
    printLoad('Login first load (/#/login, signed out)', login);
    console.log(`  budget ${kB(FIRST_LOAD_BUDGET)} transferred — ratio ${(total / FIRST_LOAD_BUDGET).toFixed(3)} — ${ok ? 'ok' : 'OVER BUDGET'}`);
    const quote = await fresh((page) => quoteFirstLoad(page, base));
    console.log('');
    printLoad('Quote page first load (/#/quote, signed out)', quote);

    // 2. Each role signs in and opens screens: what arrives on demand.
    const firstUrls = new Set(login.filter((c) => c.type !== 'fetch' && c.type !== 'xhr').map((c) => c.url));
    for (const tour of TOURS) {
      await fresh(async (page) => {
        const rec = recordLoad(page);
        await page.goto(`${base}/#/login`);
        await page.locator('input[name=email]').waitFor();
        await networkIdle(page).wait();
        await rec.take();
        console.log(`\n${tour.email}`);
        const idle = networkIdle(page);
        await page.fill('input[name=email]', tour.email);
        await page.fill('input[name=password]', DEMO_PASSWORD);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('user-menu').waitFor();
        await idle.wait();
        await page.getByTestId('screen-loading').first().waitFor({ state: 'detached' });
        const steps: Array<[string, Loaded[]]> = [['sign-in → dashboard', await rec.take()]];
        for (const screen of tour.screens) {
          await openScreen(page, base, screen);
          steps.push([screen, await rec.take()]);
        }
        for (const [label, items] of steps) {
          const again = items.filter((c) => firstUrls.has(c.url) && c.transferred > 1000);
          printLoad(`  ${label}${again.length ? ` (${again.length} files of the first load again?)` : ''}`, items, '    ');
        }
      });
    }
    console.log(
      `\nLogin first load ${kB(total)} transferred of ${kB(FIRST_LOAD_BUDGET)} (ratio ${(total / FIRST_LOAD_BUDGET).toFixed(3)}): ${ok ? 'within budget' : 'Budget MISSED'}. ` +
        `Quote page first load ${kB(sum(quote))} transferred. Load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}.`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
