import { describe, expect, it } from 'vitest';
import { inOneWindow } from './helpers.js';

/** The rate-limit tests' window helper (helpers.ts `inOneWindow`), on windows of 200 ms instead of a minute. */
describe('inOneWindow', () => {
  const W = 200;
  const untilWindowStart = () => new Promise((r) => setTimeout(r, W - (Date.now() % W) + 5));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('runs again with the next attempt when a failed run straddled a window end, and a run in one window stands', async () => {
    await untilWindowStart();
    const attempts: number[] = [];
    await inOneWindow(async (attempt) => {
      attempts.push(attempt);
      if (attempt === 0) {
        await sleep(W + 20); // crosses into the next window
        throw new Error('the first run failed across a window end');
      }
    }, W);
    expect(attempts).toEqual([0, 1]);
  });

  it('fails at once with a failure inside one window', async () => {
    await untilWindowStart();
    const attempts: number[] = [];
    await expect(
      inOneWindow(async (attempt) => {
        attempts.push(attempt);
        throw new Error('a real failure');
      }, W),
    ).rejects.toThrow('a real failure');
    expect(attempts).toEqual([0]);
  });

  it('gives up after three runs that each straddled a window end', async () => {
    const attempts: number[] = [];
    await expect(
      inOneWindow(async (attempt) => {
        attempts.push(attempt);
        await sleep(W + 20);
        throw new Error(`failed ${attempt}`);
      }, W),
    ).rejects.toThrow('failed 2');
    expect(attempts).toEqual([0, 1, 2]);
  });
});
