import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The rule sets the checks run: WCAG 2.0 and 2.1, A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** The impacts that always fail a screen. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * The landmark and heading rules that fail a public screen whatever their impact (mostly "moderate"):
 * one `main`, every piece of content inside a landmark, landmarks not repeated, one `h1`.
 */
export const LANDMARK_RULES = [
  'region',
  'landmark-one-main',
  'landmark-unique',
  'landmark-no-duplicate-main',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-main-is-top-level',
  'landmark-banner-is-top-level',
  'landmark-contentinfo-is-top-level',
  'landmark-complementary-is-top-level',
  'page-has-heading-one',
];

export interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/**
 * Waits until the screen has finished loading: no progress indicator (spinner, linear bar) and no skeleton
 * on the page, twice in a row 150 ms apart (a query that starts right after another one shows a new one).
 */
export async function waitForSettled(page: Page, timeout = 15_000) {
  const busy = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[role=progressbar], .MuiCircularProgress-root, .MuiLinearProgress-root, .MuiSkeleton-root')].some(
        (el) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed',
      ),
    );
  const start = Date.now();
  let quiet = 0;
  while (quiet < 2) {
    if (Date.now() - start > timeout) throw new Error(`the screen ${page.url()} was still loading after ${timeout} ms`);
    quiet = (await busy()) ? 0 : quiet + 1;
    if (quiet < 2) await page.waitForTimeout(150);
  }
}

/**
 * Runs axe-core on the page as it is (after `waitForSettled`) and answers its violations. axe's source is
 * evaluated through the DevTools protocol, which the portal's Content-Security-Policy does not govern.
 * Transitions and animations are switched off first, so colours are measured at their final values.
 */
export async function runAxe(page: Page, opts: { exclude?: string[] } = {}): Promise<AxeViolation[]> {
  await waitForSettled(page);
  await page.evaluate(() => {
    if (document.getElementById('axe-no-motion')) return;
    const style = document.createElement('style');
    style.id = 'axe-no-motion';
    style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; }';
    document.head.appendChild(style);
  });
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const review = process.env.AXE_REVIEW === '1';
  const { violations, incomplete } = await page.evaluate(
    async ({ tags, exclude, review }) => {
      const w = window as unknown as { axe: typeof axe };
      const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
      const results = await w.axe.run(context as axe.ElementContext, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: review ? ['violations', 'incomplete'] : ['violations'],
      });
      const plain = (list: axe.Result[]) =>
        list.map((v) => ({
          id: v.id,
          impact: v.impact ?? null,
          help: v.help,
          helpUrl: v.helpUrl,
          nodes: v.nodes.map((n) => ({ target: n.target.map(String), html: n.html, failureSummary: n.failureSummary })),
        }));
      return { violations: plain(results.violations), incomplete: review ? plain(results.incomplete) : [] };
    },
    { tags: AXE_TAGS, exclude: opts.exclude ?? [], review },
  );
  // AXE_REVIEW=1 prints what axe could not decide (e.g. a colour over a translucent background), to look at by hand,
  // and (axeProblems) the violations that do not fail a screen.
  if (incomplete.length) console.log(`axe needs review on ${page.url()}:\n${describeViolations(incomplete)}`);
  return violations;
}

/** The violations that fail a screen: serious and critical ones, and on a public screen the landmark rules. */
export function failing(violations: AxeViolation[], opts: { landmarks?: boolean } = {}) {
  return violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? '') || (opts.landmarks && LANDMARK_RULES.includes(v.id)));
}

/** One readable paragraph per violation: rule, impact, help, the first targets and what failed. */
export function describeViolations(violations: AxeViolation[], maxNodes = 3): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.slice(0, maxNodes).map((n) => {
        const summary = (n.failureSummary ?? '').replace(/\s+/g, ' ').trim();
        return `    - ${n.target.join(' ')}\n      ${n.html.slice(0, 160)}${summary ? `\n      ${summary.slice(0, 300)}` : ''}`;
      });
      const more = v.nodes.length > maxNodes ? `\n    … and ${v.nodes.length - maxNodes} more` : '';
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} element(s))\n${nodes.join('\n')}${more}`;
    })
    .join('\n');
}

/**
 * Checks the page with axe: answers the failing violations as text (empty when the screen passes), so a
 * test can collect every screen before failing. `landmarks` adds the landmark rules (public screens).
 */
export async function axeProblems(page: Page, screen: string, opts: { landmarks?: boolean; exclude?: string[] } = {}): Promise<string[]> {
  const violations = await runAxe(page, opts);
  const bad = failing(violations, opts);
  const minor = violations.filter((v) => !bad.includes(v));
  if (process.env.AXE_REVIEW === '1' && minor.length) console.log(`axe's other violations on ${screen}:\n${describeViolations(minor)}`);
  return bad.length ? [`${screen} (${page.url()}):\n${describeViolations(bad)}`] : [];
}
