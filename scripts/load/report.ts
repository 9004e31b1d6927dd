/**
 * The figures of one run and its budgets: per kind of call the count, p50/p95/p99 latency and the
 * answers that were not a success by status; totals; server errors (5xx), connection errors and
 * missing writes (budget 0 each); the memory ratio of each server process.
 *
 * Memory: RSS is sampled every 2 s; the first 30 s (or a quarter of a shorter run) are left out (code
 * being compiled, pools, prepared statements and caches filling); the mean of the last third of the
 * rest is compared with the mean of its first third, and a least-squares trend is printed beside it.
 * Threshold 1.15 (choice): measured here at 20 calls/s, a healthy server of ~260 MiB grows by some
 * 15 % over its first 90–100 s (V8 enlarges its old space step by step before its first big
 * compaction), drops back, then stays level (a 600-s run: 257–270 MiB for the last 500 s, ratio 0.99,
 * trend −0.7 MiB/min); 3-minute runs gave ratios of 0.89–1.0. 1.15 stays clear of that noise. What it
 * catches: ~40 MiB of growth between the thirds, i.e. a leak of some 20 KiB per call at 20 calls/s (a
 * retained body or result page, a cache growing with every new key). In a 3-minute run the first
 * third still holds the early rise, which makes the ratio lenient; hunt smaller leaks with
 * LOAD_SECONDS=600, where the thirds lie in the level part, and watch the trend.
 */
import type { RunResult } from './run.js';

export const MEMORY_RATIO_BUDGET = 1.15;
const WARMUP_S = 30;

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export interface Verdict {
  ok: boolean;
  lines: string[];
}

export function memory(res: RunResult) {
  const warm = Math.min(WARMUP_S, res.seconds / 4);
  const servers = res.rss[0]?.mib.length ?? 0;
  return Array.from({ length: servers }, (_, k) => {
    const series = res.rss.map((s) => ({ t: s.t, v: s.mib[k] })).filter((s): s is { t: number; v: number } => s.v !== null);
    const after = series.filter((s) => s.t >= warm).map((s) => s.v);
    const third = Math.max(1, Math.floor(after.length / 3));
    const first = mean(after.slice(0, third));
    const last = mean(after.slice(-third));
    // compact series: one value per 10 s
    const compact: number[] = [];
    for (let t = 0; t <= res.seconds; t += 10) {
      const bucket = series.filter((s) => s.t >= t && s.t < t + 10).map((s) => s.v);
      if (bucket.length) compact.push(Math.round(mean(bucket)));
    }
    // least-squares slope of the samples after the warm-up, in MiB per minute
    const pts = series.filter((s) => s.t >= warm);
    const mt = mean(pts.map((s) => s.t));
    const mv = mean(pts.map((s) => s.v));
    const slope = (pts.reduce((n, s) => n + (s.t - mt) * (s.v - mv), 0) / (pts.reduce((n, s) => n + (s.t - mt) ** 2, 0) || 1)) * 60;
    return { first, last, ratio: last / first, slope, peak: Math.max(...series.map((s) => s.v)), compact, samples: after.length };
  });
}

export function report(name: string, res: RunResult, missing: string[], serverErrorLines: string[], exited: number): Verdict {
  const lines: string[] = [];
  const out = (s = '') => lines.push(s);
  const kinds = [...res.stats.entries()].sort((a, b) => b[1].lat.length - a[1].lat.length);
  let calls = 0;
  let fivexx = 0;
  let conn = 0;
  let tooMany = 0;
  let otherFailures = 0;
  out(`${'kind'.padEnd(26)} ${'count'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  not a success`);
  for (const [kind, s] of kinds) {
    const sorted = [...s.lat].sort((a, b) => a - b);
    calls += sorted.length;
    const bad: string[] = [];
    for (const [status, n] of s.statuses) {
      if (status === '200' || status === '201') continue;
      bad.push(`${status}×${n}`);
      if (status.startsWith('conn:')) conn += n;
      else if (status.startsWith('5')) fivexx += n;
      else if (status === '429') tooMany += n;
      else otherFailures += n;
    }
    out(
      `${kind.padEnd(26)} ${String(sorted.length).padStart(6)} ${pct(sorted, 50).toFixed(1).padStart(7)} ${pct(sorted, 95).toFixed(1).padStart(7)} ${pct(sorted, 99).toFixed(1).padStart(7)}  ${bad.join(' ') || '–'}`,
    );
  }
  const all = kinds.flatMap(([, s]) => s.lat).sort((a, b) => a - b);
  out(
    `${'all'.padEnd(26)} ${String(calls).padStart(6)} ${pct(all, 50).toFixed(1).padStart(7)} ${pct(all, 95).toFixed(1).padStart(7)} ${pct(all, 99).toFixed(1).padStart(7)}`,
  );
  out();
  out(
    `calls: ${res.scheduled} scheduled in ${res.seconds.toFixed(0)} s (${(calls / res.seconds).toFixed(1)}/s answered); late ${res.late} (> 10 ms after their slot, worst ${res.maxLateMs.toFixed(0)} ms); ` +
      `queued for a connection ${res.queued}; at most ${res.maxInFlight} in flight; unfinished ${res.unfinished}`,
  );
  out(`visitor addresses: ${res.visitorAddresses}; load average during the run ${res.loadavg[0].toFixed(2)} (1 min) ${res.loadavg[1].toFixed(2)} (5 min)`);
  out(`acknowledged writes: ${res.ledger.requests.length} requests, ${res.ledger.tickets.length} tickets, ${res.ledger.messages.length} chat messages`);
  out(`429 (throttled): ${tooMany}; other 4xx or status false: ${otherFailures}`);

  const mem = memory(res);
  let memOk = true;
  for (const [k, m] of mem.entries()) {
    const ok = m.samples >= 6 && m.ratio <= MEMORY_RATIO_BUDGET;
    memOk &&= ok;
    out(`server ${k + 1} RSS MiB per 10 s: ${m.compact.join(' ')}`);
    out(
      `server ${k + 1} memory: first third ${m.first.toFixed(1)} MiB, last third ${m.last.toFixed(1)} MiB, ratio ${m.ratio.toFixed(3)}, trend ${m.slope >= 0 ? '+' : ''}${m.slope.toFixed(1)} MiB/min (peak ${m.peak.toFixed(0)} MiB) — ${ok ? 'flat' : 'NOT FLAT'}`,
    );
  }

  const budgets: Array<[string, boolean]> = [
    [`server errors (5xx) ${fivexx} (budget 0)`, fivexx === 0],
    [`connection errors ${conn} (budget 0)`, conn === 0],
    // Every call of the mix is valid and the load is sized to stay under the throttles: a 4xx, a 429 or
    // a refusal (200 with status false) is a fault of the server or of this script, either way a finding.
    [`4xx, 429 and refusals ${tooMany + otherFailures} (budget 0)`, tooMany + otherFailures === 0],
    [`unfinished calls ${res.unfinished} (budget 0)`, res.unfinished === 0],
    [`missing or altered writes ${missing.length} of ${res.ledger.total} (budget 0)`, missing.length === 0],
    [`memory ratio ${mem.map((m) => m.ratio.toFixed(3)).join(', ')} (budget ≤ ${MEMORY_RATIO_BUDGET})`, memOk],
    [`server processes that exited during the run ${exited} (budget 0)`, exited === 0],
    [`server log errors ${serverErrorLines.length} (budget 0)`, serverErrorLines.length === 0],
  ];
  out();
  for (const [text, ok] of budgets) out(`${ok ? 'ok    ' : 'MISSED'} ${text}`);
  for (const [what, body] of res.samples) out(`  first ${what}: ${body}`);
  for (const m of missing.slice(0, 20)) out(`  ${m}`);
  for (const l of serverErrorLines.slice(0, 10)) out(`  log: ${l.slice(0, 400)}`);
  const ok = budgets.every(([, b]) => b);
  return { ok, lines: [`\n== ${name} ==`, ...lines, ok ? 'All budgets met.' : 'Budget MISSED.'] };
}
