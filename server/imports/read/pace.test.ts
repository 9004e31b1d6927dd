// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY, pace, requestThreadGauge, useGauge } from './pace.js';

/** A reader pauses while the request thread is busy, and runs on while it is not (issue 31, pace.ts). */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* busy */
  }
};
/** How many times a reader paused in `steps` steps of 1 ms of work with a checkpoint after each. */
function pauses(steps: number) {
  let n = 0;
  for (let i = 0; i < steps; i++) {
    spin(1);
    if (pace()) n++;
  }
  return n;
}

afterEach(() => useGauge(undefined));

describe('pacing a reader', () => {
  it('pauses about 8 ms for every 4 ms of work while the request thread is busier than the threshold', () => {
    const shared = new SharedArrayBuffer(8);
    useGauge(shared);
    expect(pauses(40)).toBe(0); // an idle request thread: the reader runs on
    Atomics.store(new Int32Array(shared), 0, BUSY + 100);
    const t0 = performance.now();
    const n = pauses(40); // busy: a pause of ~8 ms after every ~4 ms of work
    expect(n).toBeGreaterThanOrEqual(5);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(40 + 8 * n * 0.9);
  });

  it('never pauses without a gauge (a read outside the pool: tests, benchmarks)', () => {
    expect(pauses(30)).toBe(0);
  });

  it('keeps the request thread gauge up to date only while reads run', async () => {
    const gauge = requestThreadGauge();
    const view = new Int32Array(gauge.shared);
    gauge.watch(true);
    // Busy, but giving the timers their turn every 90 ms, as a loaded request thread does.
    for (let i = 0; i < 5; i++) {
      spin(90);
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(Atomics.load(view, 0)).toBeGreaterThan(500);
    gauge.watch(false);
    expect(Atomics.load(view, 0)).toBe(0);
  });
});
