/**
 * The open-loop driver: call i starts at t0 + i / rate whether or not the earlier ones have answered
 * (a closed loop would slow down with the server and hide its stalls). Latency is measured from the
 * scheduled start, so time spent waiting behind a late generator or a busy connection counts.
 * A call dispatched more than LATE_MS after its slot is "late" (the generator fell behind); one that
 * finds its client's connections to that server all busy is "queued" (it waits for a connection).
 * Servers are called in turn, call by call, so with two processes a session opened on one is used
 * on the other, and a ticket opened on one is answered on the other.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Cluster } from './servers.js';
import { rssMiB } from './servers.js';
import { call, closeAgents, wouldQueue, type Reply } from './http.js';
import { Ledger } from './ledger.js';
import { MIX, VISITOR_QUOTE_SHARE, type Ctx } from './mix.js';
import { rng } from './bodies.js';
import type { World } from './world.js';

const LATE_MS = 10;
const SAMPLE_MS = 2000;

export interface KindStats {
  lat: number[];
  statuses: Map<string, number>;
}
export interface RunResult {
  stats: Map<string, KindStats>;
  ledger: Ledger;
  /** RSS in MiB of each server, one row per sample, with the seconds since the start */
  rss: Array<{ t: number; mib: Array<number | null> }>;
  /** the first answer of each kind of failure (kind and outcome → body), to tell what went wrong */
  samples: Map<string, string>;
  scheduled: number;
  late: number;
  maxLateMs: number;
  queued: number;
  maxInFlight: number;
  unfinished: number;
  seconds: number;
  visitorAddresses: number;
  loadavg: [number, number];
}

export async function runLoad(opts: { cluster: Cluster; world: World; rate: number; seconds: number; seed: number }): Promise<RunResult> {
  const { cluster, world, rate, seconds } = opts;
  const r = rng(opts.seed);
  const ledger = new Ledger();
  const stats = new Map<string, KindStats>();
  const samples = new Map<string, string>();
  const bases = cluster.servers.map((s) => s.base);
  // Each visitor address stays at most at half the per-address quote limit in any minute window.
  const visitorAddresses = Math.max(4, Math.ceil((rate * VISITOR_QUOTE_SHARE * 60) / (cluster.config.quoteRateLimit / 2)));
  let visitorTurn = 0;
  let serverTurn = 0;
  let seq = 0;
  let late = 0;
  let maxLateMs = 0;
  let queued = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const record = (kind: string, ms: number, outcome: string) => {
    let s = stats.get(kind);
    if (!s) stats.set(kind, (s = { lat: [], statuses: new Map() }));
    s.lat.push(ms);
    s.statuses.set(outcome, (s.statuses.get(outcome) ?? 0) + 1);
  };

  const base: Omit<Ctx, 'send'> = {
    world,
    ledger,
    r,
    quotes: new Map(),
    seq: () => ++seq,
    visitor: () => {
      const i = visitorTurn++ % visitorAddresses;
      return `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    },
  };
  const sendAt =
    (at: number) =>
    async (kind: string, o: Parameters<Ctx['send']>[1]): Promise<Reply | null> => {
      const target = { ...o, base: bases[serverTurn++ % bases.length] };
      if (wouldQueue(target)) queued++;
      const res = await call(target);
      const ms = performance.now() - at;
      const outcome =
        res.status === 0 ? `conn:${res.error}` : res.status >= 200 && res.status < 300 && res.body?.status === false ? 'status:false' : String(res.status);
      record(kind, ms, outcome);
      if (outcome !== '200' && outcome !== '201' && !samples.has(`${kind} ${outcome}`))
        samples.set(`${kind} ${outcome}`, JSON.stringify(res.body ?? res.error).slice(0, 300));
      return outcome === '200' || outcome === '201' ? res : null;
    };

  const rss: RunResult['rss'] = [];
  const started = performance.now();
  const sample = () => rss.push({ t: (performance.now() - started) / 1000, mib: cluster.servers.map((s) => rssMiB(s.pid)) });
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);

  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const shares = MIX.reduce((n, m) => n + m.share, 0);
  const pending = new Set<Promise<unknown>>();
  const t0 = performance.now() + 50;
  let i = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (i < total && t0 + i * interval <= now) {
        const at = t0 + i * interval;
        i++;
        const delay = now - at;
        if (delay > LATE_MS) late++;
        maxLateMs = Math.max(maxLateMs, delay);
        let x = r() * shares;
        const op = MIX.find((m) => (x -= m.share) < 0) ?? MIX[MIX.length - 1];
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const p: Promise<unknown> = op
          .run({ ...base, send: sendAt(at) })
          .catch((err) => record('script error', performance.now() - at, String(err?.message ?? err).slice(0, 60)))
          .finally(() => {
            inFlight--;
            pending.delete(p);
          });
        pending.add(p);
      }
      if (i < total) setTimeout(tick, Math.max(0, t0 + i * interval - performance.now()));
      else done();
    };
    setTimeout(tick, 50);
  });
  // The last calls answer (or time out: what is still open after a minute is counted unfinished).
  const drained = await Promise.race([Promise.allSettled([...pending]).then(() => true), new Promise((res) => setTimeout(() => res(false), 60_000))]);
  const unfinished = drained ? 0 : pending.size;
  clearInterval(sampler);
  sample();
  closeAgents();
  const la = os.loadavg();
  return {
    stats,
    samples,
    ledger,
    rss,
    scheduled: total,
    late,
    maxLateMs,
    queued,
    maxInFlight,
    unfinished,
    seconds: (performance.now() - started) / 1000,
    visitorAddresses,
    loadavg: [la[0], la[1]],
  };
}
