/**
 * Reading yields to the requests (issue 31): the pool (read/pool.ts, on the request thread) writes how
 * busy that thread is, ten times a second, into memory it shares with every reading thread; a reader
 * calls `pace()` as it goes (per row piece, per record) and, when the request thread has been busy
 * beyond `BUSY`, sleeps a few milliseconds for every few it worked. A lower CPU priority alone does not
 * do it: what a read allocates is collected by V8's helper threads, which the whole process shares at
 * full priority (measured: with two reading threads the helpers took a core's tenth more, and the quotes'
 * p99 on PostgreSQL rose 2.3–2.8 times).
 */

import { performance } from 'node:perf_hooks';

/** Slot 0: the request thread's event-loop utilisation in permille; slot 1 is slept on. */
let gauge: Int32Array | null = null;
/** Permille above which a reader pauses, how long it works between pauses, and how long it pauses (ms). */
export const BUSY = 700;
const WORK_MS = 4;
const PAUSE_MS = 8;
let since = 0;

/** In a reading thread: the shared gauge the pool passed (workerData). */
export function useGauge(shared: SharedArrayBuffer | undefined) {
  gauge = shared ? new Int32Array(shared) : null;
  since = performance.now();
}

/** A reader's checkpoint: cheap when the request thread is idle; a pause when it is busy (answers whether it paused). */
export function pace(): boolean {
  if (!gauge) return false;
  const now = performance.now();
  if (now - since < WORK_MS) return false;
  const busy = Atomics.load(gauge, 0) > BUSY;
  if (busy) Atomics.wait(gauge, 1, 0, PAUSE_MS);
  since = performance.now();
  return busy;
}

/** On the request thread: a gauge the pool keeps up to date while it reads, and its reading threads watch. */
export function requestThreadGauge() {
  const shared = new SharedArrayBuffer(8);
  const view = new Int32Array(shared);
  let timer: NodeJS.Timeout | undefined;
  let last = performance.eventLoopUtilization();
  return {
    shared,
    /** Keeps it up to date while `running` is true. */
    watch(running: boolean) {
      if (running && !timer) {
        last = performance.eventLoopUtilization();
        timer = setInterval(() => {
          const now = performance.eventLoopUtilization();
          Atomics.store(view, 0, Math.round(performance.eventLoopUtilization(now, last).utilization * 1000));
          last = now;
        }, 100);
        timer.unref();
      } else if (!running && timer) {
        clearInterval(timer);
        timer = undefined;
        Atomics.store(view, 0, 0);
      }
    },
  };
}
