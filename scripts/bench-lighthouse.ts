/**
 * `npm run bench:lighthouse`: Lighthouse on the public pages as a phone sees them (issue 18).
 *
 * - Builds the app when dist/ is stale and starts the real server process with the demo data
 *   (scripts/benchServer.ts, as `bench:bundle`; BENCH_BUILD=1 always builds, 0 never).
 * - For /#/quote and /#/login: LH_RUNS (3) runs of Lighthouse's Node API, mobile form factor with its
 *   default simulated throttling (slow 4G, 4× CPU slowdown), categories performance, accessibility and
 *   best practices; each run in its own Chromium (`/usr/bin/chromium` or CHROMIUM_PATH) with a fresh
 *   temporary profile, headless, no background networking, component updates or sync: nothing leaves
 *   the machine (Lighthouse itself downloads nothing from its Node API).
 * - Prints the median of each figure over the runs next to its target, and the accessibility and best
 *   practices audits that failed in the median run (Lighthouse's own choice of run: closest to the
 *   median FCP and TTI). The median run's report is written to test-results/lighthouse-<page>.html.
 * Exit code 1 when a target is missed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { generateReport, type Flags, type Result } from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { CHROMIUM_FLAGS, chromiumPath } from '../tests/browser/harness.js';
import { buildIfNeeded, root, startBenchServer } from './benchServer.js';

const PAGES: Array<{ name: string; hash: string }> = [
  { name: 'login', hash: '/login' },
  { name: 'quote', hash: '/quote' },
  { name: 'tracking', hash: '/track' },
  { name: 'access-request', hash: '/access-request' },
];
const ONLY = process.env.LH_PAGES?.split(',');
const RUNS = Number(process.env.LH_RUNS ?? 3);

const CHROME_FLAGS = [
  '--headless=new',
  ...CHROMIUM_FLAGS,
  // every host name but the portal's fails to resolve: nothing the page or Chromium asks for can leave the machine
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

interface Figure {
  label: string;
  /** the figure of one run */
  of: (lhr: Result) => number;
  format: (v: number) => string;
  target: string;
  met: (v: number) => boolean;
}

const score = (id: string) => (lhr: Result) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const metric = (id: string) => (lhr: Result) => lhr.audits[id]?.numericValue ?? Number.NaN;
const ms = (v: number) => `${(v / 1000).toFixed(2)} s`;

const FIGURES: Figure[] = [
  { label: 'performance', of: score('performance'), format: String, target: '≥ 90', met: (v) => v >= 90 },
  { label: 'FCP', of: metric('first-contentful-paint'), format: ms, target: '', met: () => true },
  { label: 'LCP', of: metric('largest-contentful-paint'), format: ms, target: '≤ 2.5 s', met: (v) => v <= 2500 },
  { label: 'TBT', of: metric('total-blocking-time'), format: (v) => `${Math.round(v)} ms`, target: '≤ 200 ms', met: (v) => v <= 200 },
  { label: 'CLS', of: metric('cumulative-layout-shift'), format: (v) => v.toFixed(3), target: '', met: () => true },
  { label: 'accessibility', of: score('accessibility'), format: String, target: '100', met: (v) => v >= 100 },
  { label: 'best practices', of: score('best-practices'), format: String, target: '≥ 95', met: (v) => v >= 95 },
];

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The scored audits of a category that did not pass in this run (those weighing nothing in the score marked so). */
function failing(lhr: Result, category: string): string[] {
  return (lhr.categories[category]?.auditRefs ?? []).flatMap((ref) => {
    const a = lhr.audits[ref.id];
    if (!a || (a.scoreDisplayMode !== 'binary' && a.scoreDisplayMode !== 'numeric') || a.score === null || a.score >= 1) return [];
    return [ref.weight ? a.id : `${a.id} (weight 0)`];
  });
}

async function runOnce(url: string, chromePath: string): Promise<Result> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lighthouse-profile-'));
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, userDataDir: profile, logLevel: 'silent' });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      formFactor: 'mobile',
      throttlingMethod: 'simulate',
      disableFullPageScreenshot: true,
    };
    const result = await lighthouse(url, flags);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    await chrome.kill();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const chromePath = chromiumPath();
  if (!chromePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  buildIfNeeded();
  const server = await startBenchServer('bench-lighthouse');
  let allMet = true;
  const summary: string[] = [];
  try {
    for (const page of PAGES.filter((p) => !ONLY || ONLY.includes(p.name))) {
      const url = `${server.base}/#${page.hash}`;
      const runs: Result[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = Date.now();
        const lhr = await runOnce(url, chromePath);
        runs.push(lhr);
        console.log(
          `  /#${page.hash} run ${i + 1}/${RUNS} (${((Date.now() - started) / 1000).toFixed(0)} s): ` +
            FIGURES.map((f) => `${f.label} ${f.format(f.of(lhr))}`).join(', '),
        );
      }
      const medianRun = computeMedianRun(runs);
      console.log(`\n/#${page.hash} — Lighthouse ${runs[0]!.lighthouseVersion}, mobile, simulated throttling, median of ${RUNS} runs`);
      for (const f of FIGURES) {
        const v = median(runs.map(f.of));
        const met = f.met(v);
        if (!met) allMet = false;
        console.log(`  ${f.label.padEnd(15)} ${f.format(v).padStart(9)}   ${f.target ? `target ${f.target.padEnd(9)} ${met ? 'met' : 'MISSED'}` : ''}`);
        if (f.target) summary.push(`${page.name} ${f.label} ${f.format(v)} (${f.target}) ${met ? 'met' : 'MISSED'}`);
      }
      for (const category of ['accessibility', 'best-practices']) {
        const ids = failing(medianRun, category);
        console.log(`  failing ${category} audits (median run): ${ids.length ? ids.join(', ') : 'none'}`);
      }
      const out = path.join(root, 'test-results', `lighthouse-${page.name}.html`);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, generateReport(medianRun, 'html'));
      fs.writeFileSync(out.replace(/\.html$/, '.json'), JSON.stringify(medianRun));
      console.log(`  report: ${path.relative(root, out)}\n`);
    }
  } finally {
    await server.close();
  }
  console.log(
    `${allMet ? 'Every target met' : 'Targets MISSED'}: ${summary.join('; ')}. Load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}.`,
  );
  process.exitCode = allMet ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
