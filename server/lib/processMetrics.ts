import { performance } from 'node:perf_hooks';
import client from 'prom-client';
import { sharedReadPool } from '../imports/read/pool.js';

/**
 * The metrics of the process (issue 32, `GET /metrics`), as opposed to those of one app (plugins/metrics.ts):
 * prom-client's default metrics (CPU, memory, heap spaces, GC, handles, file descriptors, the event loop's
 * delay as gauges), an event-loop delay histogram of our own, and the spreadsheet reading pool, which is
 * one per process (`sharedReadPool()`).
 *
 * One registry per process, made on the first scrape and kept: the default metrics start a GC observer and
 * an event-loop monitor that cannot be stopped, so making them per app would leak one of each per test
 * portal. Everything here describes the process whichever app asks, so nothing is lost by sharing it.
 */
let registry: client.Registry | undefined;

/** A counter whose total is kept elsewhere (a pool's or a worker's own, since the start): reported as it is at each scrape. */
export function keptTotal(register: client.Registry, name: string, help: string, value: () => number) {
  return new client.Counter({
    name,
    help,
    registers: [register],
    collect() {
      this.reset();
      this.inc(value());
    },
  });
}

/** How often the event loop's delay is sampled for the histogram (a timer that does nothing else). */
export const LAG_SAMPLE_MS = 100;

export function processMetrics(): client.Registry {
  if (registry) return registry;
  const register = new client.Registry();
  client.collectDefaultMetrics({ register });

  // prom-client's nodejs_eventloop_lag_p99_seconds & co. describe the time since the previous scrape and are
  // reset by each scrape (two scrapers halve each other's windows). A histogram is cumulative: any window,
  // any number of scrapers, and `histogram_quantile` / "share of samples over 100 ms" alerts. A timer due
  // every LAG_SAMPLE_MS records how late it fired: the time the loop could not run it.
  const lag = new client.Histogram({
    name: 'portal_eventloop_delay_seconds',
    help: `How late a timer due every ${LAG_SAMPLE_MS} ms fired: the time the event loop was busy (sampled every ${LAG_SAMPLE_MS} ms).`,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [register],
  });
  let due = performance.now() + LAG_SAMPLE_MS;
  const sample = () => {
    const now = performance.now();
    lag.observe(Math.max(0, now - due) / 1000);
    due = now + LAG_SAMPLE_MS;
    setTimeout(sample, LAG_SAMPLE_MS).unref();
  };
  setTimeout(sample, LAG_SAMPLE_MS).unref();

  // The reading pool (server/imports/read/pool.ts): read at each scrape, nothing counted twice.
  const pool = () => sharedReadPool().stats;
  const gauge = (name: string, help: string, value: () => number) =>
    new client.Gauge({
      name,
      help,
      registers: [register],
      collect() {
        this.set(value());
      },
    });
  const total = (name: string, help: string, value: () => number) => keptTotal(register, name, help, value);
  gauge('portal_import_threads', 'Spreadsheet reading threads alive (IMPORT_WORKERS at most; they stop after 30 s idle).', () => pool().threads);
  gauge('portal_import_reads_running', 'Uploaded spreadsheets being read now.', () => pool().running);
  gauge('portal_import_reads_queued', 'Uploaded spreadsheets waiting for a reading thread (IMPORT_QUEUE at most).', () => pool().queued);
  total('portal_import_reads_completed_total', 'Spreadsheet reads finished with rows.', () => pool().completed);
  total('portal_import_reads_killed_total', "Spreadsheet reads ended by a thread's heap or time limit (answered 413).", () => pool().killed);
  total('portal_import_reads_refused_busy_total', 'Uploads refused because the reading queue was full (answered 429).', () => pool().refusedBusy);
  // The supervisor (scripts/start.mjs) tells each process how many times its place crashed and was started
  // again (PORTAL_RESTARTS): a crash loop shows here even when the processes' start times are summed away.
  const restarts = Number(process.env.PORTAL_RESTARTS) || 0;
  total(
    'portal_server_restarts_total',
    'Times npm start started this server process again after a crash (its place, since the supervisor started).',
    () => restarts,
  );
  registry = register;
  return register;
}
